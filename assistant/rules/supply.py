"""What every game's supply rules share: the pieces they trace, the world they trace in, and the
result that shows its working.

Layering: this module and ``assistant/rules/<game>/supply.py`` know nothing of the campaign file.
The supply aid (``assistant/aids/supply``) builds a ``SupplyWorld`` from a campaign state (map
graph with corrections, pieces with their kinds' roles, hex control, settings) and asks the game's
``SupplyRules`` for ``Trace`` results. A what-if is the same world with pieces added or removed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Protocol, Sequence

from .registry import MissingRules, rules_module
from .world import Piece, World

__all__ = ["DeferredTrace", "NoRules", "Piece", "Reason", "SupplyRules", "SupplyWorld", "Trace", "World", "rules_for"]


@dataclass(frozen=True)
class Reason:
    """Why a trace failed or was limited, with the rule that says so."""

    rule: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "text": self.text}

    @property
    def ref(self) -> str:
        """The rule as printed in working: in brackets once (``[29.7]``, ``[9.2.4]``)."""
        return self.rule if self.rule.startswith("[") else f"[{self.rule}]"


@dataclass
class Trace:
    """One traced unit, installation or hex, with its working: what a game's ``RULES.trace`` gives per
    piece (``SupplyRules``), what the supply page draws and ``campaign trace`` prints.

    ``status`` is in the game's own words (witp linked/isolated, apto supplied/out of supply,
    globalwar attack/defence/unsupplied); ``path`` runs from the traced hex to the source's hex,
    each label adjacent to the next; ``length``/``limit`` are in the rule's own unit
    (``extra["unit"]``). ``steps`` are the lines of working the UI and CLI print; ``extra`` holds
    game-specific figures (witp bases: y, x, tsd, category)."""

    unit: Optional[str]
    hex: str
    side: str
    supplied: bool
    status: str
    kind: Optional[str] = None
    role: Optional[str] = None
    path: list[str] = field(default_factory=list)
    source: Optional[dict[str, Optional[str]]] = None
    length: Optional[float] = None
    limit: Optional[float] = None
    reasons: list[Reason] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    hypothetical: bool = False

    def to_json(self) -> dict[str, Any]:
        out = {"unit": self.unit, "hex": self.hex, "side": self.side, "kind": self.kind, "role": self.role,
               "supplied": self.supplied, "status": self.status, "path": list(self.path),
               "source": dict(self.source) if self.source else None,
               "length": _num(self.length), "limit": _num(self.limit),
               "reasons": [r.to_json() for r in self.reasons], "steps": list(self.steps),
               "hypothetical": self.hypothetical}
        for k, v in self.extra.items():
            out.setdefault(k, v)
        return out

    def explain(self) -> str:
        """Several lines of plain text: the status, the path, the reasons and the working."""
        who = self.unit or f"a hypothetical {self.side} unit"
        head = f"{who} at {self.hex}: {self.status}"
        if self.source:
            head += f" from {self.source.get('unit') or ''} {self.source.get('hex') or ''}".rstrip()
        lines = [head]
        if self.path:
            lines.append("path: " + " -> ".join(self.path))
        if self.length is not None:
            unit = self.extra.get("unit", "")
            lim = "" if self.limit is None else f" of {_num(self.limit)}"
            lines.append(f"length: {_num(self.length)}{lim} {unit}".rstrip())
        lines += [f"  {r.ref} {r.text}" for r in self.reasons]
        lines += [f"  {s}" for s in self.steps]
        return "\n".join(lines)

    def later(self, fn: Callable[["Trace"], None]) -> None:
        """Run ``fn(self)`` once the working is complete (at once: it always is, here)."""
        fn(self)

    def errors_as(self, wrap: Callable[[str], Exception]) -> None:
        """A ``ValueError`` met while the working is worked out later (a bad counter value) is
        raised as ``wrap(message)`` -- the caller's one-line error. Nothing is left to work out
        here."""

    def worked(self) -> "Trace":
        """This trace with its working complete (here it always is): a bad value met in the working
        is raised now, where the caller catches it, not at the first reading."""
        return self


def _deferred(name: str) -> property:
    store = "_" + name

    def get(self):
        if self._finish is not None:
            self._complete()
        return self.__dict__[store]

    def put(self, value) -> None:
        self.__dict__[store] = value

    return property(get, put, doc=f"``{name}``, worked out on first reading")


class DeferredTrace(Trace):
    """A ``Trace`` whose status, source, length and limit are known at once and whose working --
    ``path``, ``reasons``, ``steps``, ``extra`` -- is worked out on first reading, by
    ``finish(trace, *args)`` (with the tracer's searches of the same call: the answer is the same,
    only later). A side-wide status (an overlay, a count per turn) then costs the linking searches
    alone; the one trace the player opens pays for its own working. Reading any of the four
    completes all of them. Few objects per trace: a side-wide call makes hundreds."""

    path = _deferred("path")
    reasons = _deferred("reasons")
    steps = _deferred("steps")
    extra = _deferred("extra")

    def __init__(self, finish: Callable[..., None], args: tuple, *, unit: Optional[str], hex: str, side: str,
                 supplied: bool = False, status: str = "", kind: Optional[str] = None, role: Optional[str] = None,
                 source: Optional[dict[str, Optional[str]]] = None, length: Optional[float] = None,
                 limit: Optional[float] = None, hypothetical: bool = False):
        d = self.__dict__
        d["unit"], d["hex"], d["side"], d["supplied"], d["status"] = unit, hex, side, supplied, status
        d["kind"], d["role"], d["source"], d["length"], d["limit"] = kind, role, source, length, limit
        d["hypothetical"] = hypothetical
        d["_finish"], d["_args"], d["_then"], d["_wrap"] = finish, args, None, None

    def _complete(self) -> None:
        d = self.__dict__
        finish, args, then = d["_finish"], d["_args"], d["_then"]
        d["_finish"] = d["_args"] = d["_then"] = None
        names = [n for n in ("_path", "_reasons", "_steps", "_extra") if n not in d]
        for name in names:
            d[name] = {} if name == "_extra" else []
        try:
            finish(self, *args)
        except ValueError as e:
            # nothing half-worked is kept: the next reading tries again, and fails the same way
            for name in names:
                del d[name]
            d["_finish"], d["_args"], d["_then"] = finish, args, then
            if d["_wrap"] is None:
                raise
            raise d["_wrap"](str(e)) from None
        for fn in then or ():
            fn(self)

    def later(self, fn: Callable[["Trace"], None]) -> None:
        if self._finish is None:
            fn(self)
        elif self._then is None:
            self._then = [fn]
        else:
            self._then.append(fn)

    def errors_as(self, wrap: Callable[[str], Exception]) -> None:
        self._wrap = wrap

    def worked(self) -> "Trace":
        if self._finish is not None:
            self._complete()
        return self

    @property
    def complete(self) -> bool:
        return self._finish is None


def _num(x: Optional[float]) -> Optional[float | int]:
    if x is None:
        return None
    x = float(x)
    return int(x) if x.is_integer() else round(x, 3)


SupplyWorld = World  # the supply rules' name for the world they trace in


class SupplyRules(Protocol):
    """A game's supply rules (``assistant/rules/<game>/supply.py`` exposes ``RULES``)."""

    game: str

    def trace(self, world: SupplyWorld, side: str, pieces: Sequence[Piece]) -> list[Trace]:
        """Trace ``pieces`` (all of ``side``) in ``world``; shared searches run once."""
        ...


def as_side_wide(world: SupplyWorld, side: str, pieces: Sequence[Piece],
                 trace_all: Callable[[list[Piece]], list[Trace]]) -> list[Trace]:
    """The traces of ``pieces`` as the side-wide trace gives them, for rules that share a capacity
    among units (a supply chit's units a month, the small-island fortification SPs, the India Box's
    US units): ``trace_all`` runs over every piece of ``side`` in the world's order (the side-wide
    trace) and the asked pieces it does not hold (hypothetical ones), and the asked ones come back
    in the order asked."""
    full = [p for p in world.pieces if p.side == side and not p.hypothetical]
    at = {p.id: i for i, p in enumerate(full)}
    where = []
    for p in pieces:
        i = at.get(p.id)
        if i is None or full[i] != p:
            full.append(p)
            i = len(full) - 1
        where.append(i)
    traces = trace_all(full)
    return [traces[i] for i in where]


class NoRules(MissingRules):
    """A game has no supply rules module."""


def rules_for(game: str) -> SupplyRules:
    """The supply rules of ``game`` (``assistant.rules.<game>.supply.RULES``)."""
    return rules_module(game, "supply", NoRules).RULES
