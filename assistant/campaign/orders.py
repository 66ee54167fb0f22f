"""Turn orders: many changes typed at once, one per line, recorded as one step or not at all.

    move UNIT [to] HEX
    place [NAME] KIND at HEX side SIDE [nation NATION] [id ID] [installation] [sample] [KEY=VALUE ...]
    remove UNIT
    control HEX [HEX ...] SIDE          (SIDE "clear": the default applies again)
    set UNIT KEY=VALUE [KEY=VALUE ...]  (KEY= deletes a value)

Blank lines and ``#`` comments are ignored; words are separated by spaces, and a name, kind or
place with spaces is quoted (``"1st Marine Div"``). UNIT is a unit's id or its name (or a part of
one name); HEX is a hex label or a place on the map (``campaign.places``). Each line is checked by
the command that makes the same change alone (``PlaceUnit``, ``MoveUnit``, ``RemoveUnit``,
``SetControl``, ``UpdateUnit``), on the campaign as the lines above it leave it, and the whole
text is recorded as one ``Batch`` (one undo takes it all back). Every bad line is named with its
number and one reason; then nothing is recorded.

    from assistant.campaign.orders import give_orders
    given = give_orders(campaign, "move \"1st Marine Division\" E2519\\nremove kido-butai")
"""

from __future__ import annotations

import difflib
import re
import shlex
from dataclasses import dataclass, field
from typing import Any, Optional

from ..rules.kinds import find_kind
from . import validate as v
from .batch import BatchError, RunBatch
from .commands import Context, MoveUnit, PlaceUnit, RemoveUnit, UpdateUnit, _unit_conflict
from .control import SetControl, control_of
from .errors import CampaignError, StaleViewError
from .events import EventRecord
from .places import find_hex, find_hexes
from .placing import placement_findings, unknown_kind_warning

VERBS = ("move", "place", "remove", "control", "set")
GRAMMAR = {
    "move": "move UNIT HEX",
    "place": "place [NAME] KIND at HEX side SIDE [nation NATION] [id ID] [installation] [sample] [key=value …]",
    "remove": "remove UNIT",
    "control": "control HEX … SIDE",
    "set": "set UNIT key=value …",
}
HELP = ("One order a line: move UNIT HEX · place [NAME] KIND at HEX side SIDE [nation N] [key=value …] · "
        "remove UNIT · control HEX … SIDE (or clear) · set UNIT key=value … — quote names with spaces; "
        "# starts a comment.")
CLEAR = "clear"
MAX_LINES = 5000
SHOWN = 6
_QUOTED = re.compile(r"(?<![\w'])'([^'\n]{1,100})'(?![\w'])")


def plain(reason: str) -> str:
    """A reason as a player reads it: a value quoted as code quotes it (``'E2519'``) shown bare."""
    return _QUOTED.sub(r"\1", reason)


# ----- units by id or name ----------------------------------------------------------------------
def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _named(u) -> str:
    return f"{u.name} ({u.id})" if u.name else u.id


def find_unit(state, text: Any) -> str:
    """The id of the unit ``text`` names: its id, its name (case and spaces ignored), or a part of
    one unit's name or id. Several candidates are refused, naming them."""
    if not isinstance(text, str) or not text.strip():
        raise CampaignError("no unit given: a unit's id or its name")
    want = _norm(text)
    units = state.units
    exact = {u.id for u in units.values() if u.id == text.strip() or (u.name and _norm(u.name) == want)}
    found = exact or {u.id for u in units.values() if want in u.id.casefold() or (u.name and want in _norm(u.name))}
    if len(found) == 1:
        return found.pop()
    if found:
        named = sorted(_named(units[i]) for i in found)
        raise CampaignError(f"{text.strip()} could be {len(named)} units: {', '.join(named[:SHOWN])}"
                            f"{', …' if len(named) > SHOWN else ''}; give the id or more of the name")
    if text.strip() in state.retired_ids:
        raise CampaignError(f"unit {text.strip()} was removed from the map")
    close = difflib.get_close_matches(text.strip(), [n for u in units.values() for n in (u.id, u.name) if n], n=3)
    raise CampaignError(f"no unit called {text.strip()} on the map"
                        + (f" (did you mean {', '.join(close)}?)" if close else ""))


# ----- the orders, each a command that names its unit and hexes as the player wrote them --------
@dataclass
class Move:
    unit: str
    hex: str

    def build(self, s, ctx: Context):
        return MoveUnit(unit_id=find_unit(s, self.unit), hex=find_hex(ctx.map, self.hex)).build(s, ctx)

    def conflict(self, view, fresh, ctx):
        return _conflict(self.unit, view, fresh)


@dataclass
class Remove:
    unit: str

    def build(self, s, ctx: Context):
        return RemoveUnit(unit_id=find_unit(s, self.unit)).build(s, ctx)

    def conflict(self, view, fresh, ctx):
        return _conflict(self.unit, view, fresh)


@dataclass
class SetValues:
    unit: str
    changes: dict

    def build(self, s, ctx: Context):
        return UpdateUnit(unit_id=find_unit(s, self.unit), changes=self.changes).build(s, ctx)

    def conflict(self, view, fresh, ctx):
        return _conflict(self.unit, view, fresh)


@dataclass
class Place:
    kind: str
    hex: str
    side: Optional[str]
    name: Optional[str] = None
    nation: Optional[str] = None
    id: Optional[str] = None
    installation: bool = False
    sample: bool = False
    attrs: dict = field(default_factory=dict)

    def build(self, s, ctx: Context):
        if self.side is None:
            raise CampaignError(f"no side: say whose it is, e.g. side {s.sides[0].id}")
        declared = find_kind(s.game, self.kind)
        category = "installation" if self.installation or (declared and declared.category == "installation") else "unit"
        return PlaceUnit(side=self.side, kind=self.kind, hex=find_hex(ctx.map, self.hex), name=self.name,
                         nation=self.nation, attrs=self.attrs or None, sample=self.sample, category=category,
                         id=self.id).build(s, ctx)

    def conflict(self, view, fresh, ctx):
        return None


@dataclass
class Control:
    hexes: list
    side: str

    def build(self, s, ctx: Context):
        targets = [h for text in self.hexes for h in find_hexes(ctx.map, text)]
        side = None if self.side.casefold() == CLEAR else self.side
        return SetControl(scope="hex", targets=targets, side=side).build(s, ctx)

    def conflict(self, view, fresh, ctx):
        return "hex control has been changed" if control_of(view) != control_of(fresh) else None


def _conflict(unit: str, view, fresh) -> Optional[str]:
    try:
        uid = find_unit(view, unit)
    except CampaignError:  # placed earlier in the same orders, or refused anyway when rebuilt
        return None
    return _unit_conflict(uid, view, fresh)


# ----- reading the text ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Order:
    """One line of orders: its number (from 1), its text, and the command it gives."""

    line: int
    text: str
    command: Any


class OrdersError(CampaignError):
    """Orders refused, nothing recorded: ``failures`` is ``[(line number, reason), ...]`` in order."""

    def __init__(self, failures: list[tuple[int, str]], total: int):
        self.failures, self.total = sorted(failures), total
        n = len(self.failures)
        super().__init__(f"{n} of {total} order{'s' if total != 1 else ''} refused, nothing recorded: "
                         + "; ".join(f"line {i}: {why}" for i, why in self.failures))

    def lines(self) -> list[str]:
        return [f"line {i}: {why}" for i, why in self.failures]


def read_orders(text: str) -> tuple[list[Order], list[tuple[int, str]]]:
    """The orders a text gives, and the lines that are not orders (line number, reason)."""
    if not isinstance(text, str):
        raise CampaignError("orders must be text, one order a line")
    orders, bad = [], []
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise CampaignError(f"{len(lines)} lines of orders at once (at most {MAX_LINES})")
    for n, line in enumerate(lines, 1):
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            bad.append((n, "a quotation mark is not closed"))
            continue
        if not words:
            continue
        try:
            orders.append(Order(n, line.strip(), order(words)))
        except CampaignError as e:
            bad.append((n, plain(str(e))))
    return orders, bad


def order(words: list[str]) -> Any:
    """The command one line of words gives (CampaignError saying what the line should be)."""
    verb, args = words[0].casefold(), words[1:]
    if verb not in VERBS:
        raise CampaignError(f"{words[0]} is not an order (orders: {', '.join(VERBS)})")
    usage = f"write {GRAMMAR[verb]}"
    if verb == "move":
        if len(args) == 3 and args[1].casefold() == "to":
            args = [args[0], args[2]]
        if len(args) != 2:
            raise CampaignError(f"move needs a unit and a hex: {usage}")
        return Move(*args)
    if verb == "remove":
        if len(args) != 1:
            raise CampaignError(f"remove needs one unit (quote a name with spaces): {usage}")
        return Remove(args[0])
    if verb == "control":
        if len(args) < 2:
            raise CampaignError(f"control needs hexes and a side: {usage}")
        return Control(args[:-1], args[-1])
    if verb == "set":
        if len(args) < 2:
            raise CampaignError(f"set needs a unit and values: {usage}")
        return SetValues(args[0], _values(args[1:]))
    return _place(args, usage)


def _values(items: list[str]) -> dict:
    bad = next((x for x in items if "=" not in x), None)
    if bad is not None:
        raise CampaignError(f"{bad} is not key=value")
    return v.key_values(items)


def _place(args: list[str], usage: str) -> Place:
    at = next((i for i, a in enumerate(args) if a.casefold() == "at"), None)
    if at is None or at + 1 >= len(args):
        raise CampaignError(f"place needs at HEX: {usage}")
    if at not in (1, 2):
        raise CampaignError(f"place takes a name and a kind before at (quote either if it has spaces): {usage}")
    name, kind = (None, args[0]) if at == 1 else (args[0], args[1])
    p = Place(kind=kind, hex=args[at + 1], side=None, name=name)
    rest, pairs = args[at + 2:], []
    i = 0
    while i < len(rest):
        word, low = rest[i], rest[i].casefold()
        if low in ("side", "nation", "id"):
            if i + 1 >= len(rest):
                raise CampaignError(f"{low} needs a value after it: {usage}")
            setattr(p, low, rest[i + 1])
            i += 2
            continue
        if low in ("installation", "sample"):
            setattr(p, low, True)
        elif "=" in word:
            pairs.append(word)
        else:
            raise CampaignError(f"{word} is not part of a place order: {usage}")
        i += 1
    p.attrs = v.key_values(pairs)
    return p


# ----- checking and recording ----------------------------------------------------------------------
@dataclass(frozen=True)
class Given:
    """Orders recorded: the one event, how many orders it holds, and warnings by line number
    (a ground unit placed or moved on open sea, a Global War AD off an Industrial Hex)."""

    record: EventRecord
    count: int
    warnings: list[tuple[int, str]]


def _batch(orders: list[Order]) -> RunBatch:
    return RunBatch([o.command for o in orders])


def _refused(e: BatchError, orders: list[Order]) -> list[tuple[int, str]]:
    return [(orders[i].line, plain(why)) for i, why in e.failures]


NO_ORDERS = "no orders: write one order a line (move, place, remove, control, set)"


def _read(text: str) -> tuple[list[Order], list[tuple[int, str]]]:
    orders, bad = read_orders(text)
    if not orders and not bad:
        raise CampaignError(NO_ORDERS)
    return orders, bad


def _check(campaign, orders: list[Order], bad: list[tuple[int, str]]):
    """The Batch the orders would record now; OrdersError naming the lines ``bad`` already holds
    and every one the commands refuse."""
    failures = list(bad)
    batch = None
    try:
        batch = campaign.check(_batch(orders)) if orders else None
    except BatchError as e:
        failures += _refused(e, orders)
    if failures:
        raise OrdersError(failures, len(orders) + len(bad))
    return batch


def check_orders(campaign, text: str):
    """Check orders against the campaign without recording them: the ``Batch`` they would record,
    or OrdersError naming every bad line."""
    return _check(v.campaign_arg(campaign), *_read(text))


def give_orders(campaign, text: str) -> Given:
    """Record every order of ``text`` as one step (one undo), or nothing: OrdersError naming every
    bad line. Another window's change in between rebuilds the orders on it, as any command; if it
    changed a unit the orders name, they are refused with the reason."""
    campaign = v.campaign_arg(campaign)
    orders, bad = _read(text)
    if bad:  # the other lines are checked too, so that every bad line is named at once
        _check(campaign, orders, bad)
        raise OrdersError(bad, len(orders) + len(bad))  # pragma: no cover - _check raised already
    try:
        rec = campaign.execute(_batch(orders))
    except BatchError as e:
        raise OrdersError(_refused(e, orders), len(orders)) from None
    except StaleViewError as e:  # another window's change: name the lines it breaks, if any
        _check(campaign, orders, [])
        raise StaleViewError(plain(str(e))) from None
    state, gm = campaign.state, campaign.map
    warnings = []
    for o, body in zip(orders, rec.body.inner):
        if isinstance(o.command, (Place, Move)):  # a move hears what placing there would (a Global War AD [17.1.2.B])
            placed = isinstance(o.command, Place)
            u = body.unit if placed else state.units.get(body.unit_id)
            if u is None:  # removed by a later line
                continue
            said = [unknown_kind_warning(state.game, u.kind)] if placed else []
            said += [f.text for f in placement_findings(state, gm, u.side, u.kind, u.hex if placed else body.hex)]
            warnings += [(o.line, why) for why in said if why]
    return Given(record=rec, count=len(orders), warnings=warnings)
