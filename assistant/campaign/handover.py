"""What one aid hands to another: named kinds of record, each read through registered providers.

An aid never reads another aid's state slice: a slice's shape is its own aid's business, and a
reader that imported another aid would fail to load without it. Instead, the aid that records
something another aid uses registers a *provider* of a named *kind* of record, and the aid that
uses it asks for that kind:

    # the strike plotter (assistant/aids/strike/events.py), when it is imported:
    register_provider(LEDGER_LINES, "strike", strike_ledger_lines)
    # the production ledger, booking them:
    for line in provided(LEDGER_LINES, state): ...

The contract, for every kind:

* A provider is ``fn(state) -> iterable of records`` of the kind's record type (defined here, so
  neither side imports the other). It reads the ``CampaignState`` it is given and nothing else,
  changes nothing, and gives the same records, in the same order, for the same state.
* ``provided`` loads the installed aids first, then gives every provider's records, providers in
  the order of their names. No provider (the aid is not installed, or failed to load): no
  records, and the reader carries on without them.
* A provider is registered once, under a name unique for its kind (its aid's name).

Kinds
-----
``LEDGER_LINES`` (``"ledger_lines"``): entries another aid hands to the production ledger to book
(a strike's losses of production points), as ``LedgerLine``. The ledger books each as an entry of
``line.side`` in ``line.turn``, to ``line.account`` (none: the side's first account), with
``line.source`` as its item when it names none, ordered among the recorded entries by ``seq``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional, Union

from .slices import load_aids

Number = Union[int, float]
Provider = Callable[[Any], Iterable[Any]]

LEDGER_LINES = "ledger_lines"


@dataclass(frozen=True)
class LedgerLine:
    """One entry handed to the production ledger (kind ``LEDGER_LINES``).

    ``id`` is negative (recorded ledger entries count up from 1), unique among every provider's
    lines and the same for the same state: it is the entry's id in the book. ``seq`` is the event
    that recorded it (the book's order), ``turn`` the calendar index it belongs to, ``source``
    what it came from ("strike 3"). The rest are the entry's own fields as the rules' ``Entry``
    has them."""

    id: int
    seq: int
    turn: int
    source: str
    side: Optional[str]
    amount: Number = 0
    kind: str = "loss"
    account: Optional[str] = None
    item: Optional[str] = None
    note: Optional[str] = None
    rule: str = ""


PROVIDERS: dict[str, dict[str, Provider]] = {}


def register_provider(kind: str, name: str, provider: Provider) -> Provider:
    """Register ``provider`` of records of ``kind`` under ``name`` (call at import of the aid's
    ``events`` module, so every reader of a campaign finds it)."""
    known = PROVIDERS.setdefault(kind, {})
    if name in known and known[name] is not provider:
        raise ValueError(f"a provider of {kind!r} named {name!r} is registered twice")
    known[name] = provider
    return provider


def provided(kind: str, state) -> list[Any]:
    """Every installed provider's records of ``kind`` for ``state`` (none: an empty list)."""
    load_aids()
    return [record for _, provider in sorted(PROVIDERS.get(kind, {}).items()) for record in provider(state)]
