"""Aid state slices and aid discovery: how an aid keeps its own part of the campaign state.

An aid (``assistant/aids/<aid>/events.py``) registers its event types with ``@register_event`` and
its part of the state with ``register_slice(StateSlice(...))``. The fold keeps each slice's value
in ``CampaignState.extra[name]``; snapshots and exports store ``slice.to_json(value)`` and read it
back with ``slice.from_json`` so that a reopened state equals the replayed one exactly.

A slice that moves to a new owner under a new name (hex control, once the supply aid's ``supply``
slice, now the campaign layer's ``control``) declares its old name in ``formerly``: snapshots and
exported states that hold it under the old name are read as the new one, so older files open with
the same state. A former name stays reserved: no other slice may be registered under it.

Nothing here imports an aid. ``load_aids()`` imports the ``assistant.aids`` package by name (it
imports its subpackages' ``events`` modules by discovery) and any ``campaign_assistant.aids``
entry points of installed distributions: a plugin hook, called before a reader declares an event
type or slice unknown.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Callable, Generic, Mapping, Optional, TypeVar

from pydantic import BaseModel

from .errors import CampaignFileError

T = TypeVar("T")
AIDS_PACKAGE = "assistant.aids"
ENTRY_POINT_GROUP = "campaign_assistant.aids"


@dataclass(frozen=True)
class StateSlice(Generic[T]):
    """An aid's part of the state: its name (the key in ``extra``), its value before any of its
    events, and an exact JSON round trip (``from_json(to_json(v)) == v``).

    Values are immutable. A slice that grows with its events (a log) also gives ``thaw`` (value ->
    a mutable working copy) and ``freeze`` (working copy -> value): inside one fold its events then
    mutate the working copy, which is frozen once at the end, so replaying n events costs O(n),
    not O(n^2) (as the core keeps notes in a list while folding and a tuple in the state)."""

    name: str
    initial: Callable[[], T]
    to_json: Callable[[T], Any]
    from_json: Callable[[Any], T]
    thaw: Optional[Callable[[T], Any]] = None
    freeze: Optional[Callable[[Any], T]] = None
    formerly: tuple[str, ...] = ()  # names older files stored this slice under (read as this one)

    def __post_init__(self):
        if (self.thaw is None) != (self.freeze is None):
            raise TypeError(f"slice {self.name!r}: give both thaw and freeze, or neither")


M = TypeVar("M", bound=BaseModel)


def model_slice(name: str, model: type[M], formerly: tuple[str, ...] = ()) -> StateSlice[M]:
    """A slice whose value is a frozen pydantic model (tuples, not lists, for sequences)."""
    if not model.model_config.get("frozen"):
        raise TypeError(f"slice {name!r}: {model.__name__} must be a frozen pydantic model")
    return StateSlice(name=name, initial=model, to_json=lambda v: v.model_dump(mode="json"),
                      from_json=model.model_validate, formerly=tuple(formerly))


class Registry:
    """The slices known to this process, by name."""

    def __init__(self) -> None:
        self.slices: dict[str, StateSlice] = {}
        self.former: dict[str, str] = {}  # a slice's former name -> its name now
        self.errors: dict[str, str] = {}  # entry points that failed to load
        self._loaded = False
        self.parts_loaded: set[str] = set()  # aid parts imported on demand (load_aid_part)

    def register(self, s: StateSlice) -> StateSlice:
        old = self.slices.get(s.name)
        if old is not None and old is not s:
            raise ValueError(f"state slice {s.name!r} registered twice")
        if s.name in self.former:
            raise ValueError(f"state slice {s.name!r}: older files hold slice {self.former[s.name]!r} under that name")
        for former in s.formerly:
            if former in self.slices or self.former.get(former, s.name) != s.name:
                raise ValueError(f"state slice {s.name!r}: its former name {former!r} is taken")
        self.slices[s.name] = s
        self.former.update((former, s.name) for former in s.formerly)
        return s

    def get(self, name: str) -> StateSlice:
        """The slice called ``name`` (or formerly called so); loads the aids first if it is not known yet."""
        if name not in self.slices and name not in self.former:
            load_aids()
        try:
            return self.slices[self.former.get(name, name)]
        except KeyError:
            raise CampaignFileError(f"aid state {name!r} is unknown to this version of Campaign Assistant "
                                    "(was the file written with an aid that is not installed?)"
                                    + load_problems()) from None


SLICES = Registry()


def register_slice(s: StateSlice) -> StateSlice:
    """Register an aid's state slice (call at import of the aid's ``events`` module)."""
    return SLICES.register(s)


def load_aids() -> None:
    """Import every aid (the ``assistant.aids`` package and entry points), registering their event
    types and slices. Idempotent: Python imports each module once."""
    if SLICES._loaded:
        return
    SLICES._loaded = True
    try:
        importlib.import_module(AIDS_PACKAGE)
    except ModuleNotFoundError as e:
        if e.name != AIDS_PACKAGE:
            raise
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            ep.load()
        except Exception as e:  # noqa: BLE001 - reported by load_problems
            SLICES.errors[f"entry point {ep.name}"] = f"{type(e).__name__}: {e}".splitlines()[0]


def load_aid_part(part: str) -> None:
    """Import ``part`` of every aid (``assistant.aids.load_part``), e.g. "commands", whose
    registrations only checking an imported export needs."""
    if part in SLICES.parts_loaded:
        return
    load_aids()
    SLICES.parts_loaded.add(part)
    load = getattr(sys.modules.get(AIDS_PACKAGE), "load_part", None)
    if load is not None:
        load(part)


def load_problems() -> str:
    """" (aids that failed to load: ...)" for an unknown-type message, or "" if every aid loaded."""
    aids = sys.modules.get(AIDS_PACKAGE)
    problems = {**getattr(aids, "LOAD_ERRORS", {}), **SLICES.errors}
    if not problems:
        return ""
    return " (aids that failed to load: " + "; ".join(f"{k}: {v}" for k, v in sorted(problems.items())) + ")"


def slices_to_json(extra: Mapping[str, Any]) -> dict[str, Any]:
    return {name: SLICES.get(name).to_json(value) for name, value in extra.items()}


def slices_from_json(data: Mapping[str, Any]) -> dict[str, Any]:
    """The slices of a stored state by their names now (one stored under a former name included)."""
    out: dict[str, Any] = {}
    for name, value in data.items():
        s = SLICES.get(name)
        if s.name in out:
            raise CampaignFileError(f"aid state {s.name!r} is stored twice (also as {name!r})")
        out[s.name] = s.from_json(value)
    return out
