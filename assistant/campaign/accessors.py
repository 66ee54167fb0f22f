"""Aid accessors on a campaign: ``campaign.ledger.frame()`` without the campaign layer importing
the aid. An aid registers a factory under a name (``register_accessor("ledger")(LedgerView)``);
``Campaign.__getattr__`` finds it (importing the aids first, as the slice registry does)."""

from __future__ import annotations

from typing import Any, Callable

ACCESSORS: dict[str, Callable[[Any], Any]] = {}


def register_accessor(name: str) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
    def wrap(factory: Callable[[Any], Any]) -> Callable[[Any], Any]:
        if name in ACCESSORS and ACCESSORS[name] is not factory:
            raise ValueError(f"campaign accessor {name!r} is registered twice")
        ACCESSORS[name] = factory
        return factory
    return wrap


def accessor(name: str) -> Callable[[Any], Any] | None:
    if name not in ACCESSORS:
        from .slices import load_aids

        load_aids()
    return ACCESSORS.get(name)


def accessor_names() -> list[str]:
    """Every registered accessor (the aids loaded first)."""
    from .slices import load_aids

    load_aids()
    return sorted(ACCESSORS)
