"""What every game's air rules share: a strike plan, findings with rule references, one assessed
item per launching unit or base (distance, range class, path, findings, odds), and a resolution.

Layering: below the campaign (plain values). The strike aid (``assistant/aids/strike``) builds a
``World`` from a campaign (``assistant.campaign.world.world_of``) and a ``StrikePlan`` from the
player's input, asks the game's ``StrikeRules`` (``assistant.rules.<game>.air.RULES``), and
records a ``Resolution`` as an event. Advise, don't enforce: an illegal strike is a finding of
level ``error``, never a refusal of the input.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping, Optional, Protocol, Sequence

from .findings import LEVELS, Finding
from .registry import MissingRules, rules_module
from .world import World

__all__ = ["LEVELS", "Assessment", "Finding", "Launch", "Need", "NoAirRules", "Resolution", "StrikeItem", "StrikePlan",
           "StrikeRules", "Unresolvable", "missing", "rules_for"]


@dataclass(frozen=True)
class Launch:
    """Air units taking off from one base (a hex; for carriers the carrier's hex): piece ids."""

    base: str
    units: tuple[str, ...] = ()


@dataclass(frozen=True)
class StrikePlan:
    """A strike as plotted: the side, the target hex, the launching bases and their units, escorts
    and the rest of what the player chose (the strike aid builds it from the page or the CLI); a
    game's ``RULES.assess`` and ``RULES.resolve`` read it. ``mission`` is in the game's vocabulary
    (``RULES.missions``); ``options`` holds the game's own switches (apto ``sneak``, ``round``;
    witp ``staging``; globalwar ``atomic`` ...), each documented by the game's rules module."""

    side: str
    target: str
    mission: Optional[str] = None
    launches: tuple[Launch, ...] = ()
    target_unit: Optional[str] = None
    altitude: Optional[str] = None
    escorts: tuple[str, ...] = ()
    return_base: Optional[str] = None
    night: bool = False
    phase: Optional[str] = None
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "target": self.target, "mission": self.mission,
                "launches": [{"base": launch.base, "units": list(launch.units)} for launch in self.launches],
                "target_unit": self.target_unit, "altitude": self.altitude, "escorts": list(self.escorts),
                "return_base": self.return_base, "night": self.night, "phase": self.phase,
                "options": dict(self.options)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "StrikePlan":
        return cls(side=d["side"], target=d["target"], mission=d.get("mission"),
                   launches=tuple(Launch(base=launch["base"], units=tuple(launch.get("units", ()))) for launch in d.get("launches", ())),
                   target_unit=d.get("target_unit"), altitude=d.get("altitude"), escorts=tuple(d.get("escorts", ())),
                   return_base=d.get("return_base"), night=bool(d.get("night", False)), phase=d.get("phase"),
                   options=MappingProxyType(dict(d.get("options") or {})))


@dataclass
class StrikeItem:
    """One launching unit (or base) against the target: the distance in the rule's unit
    (``"MP"`` or ``"hexes"``), the range class in the game's words, the path from the base to the
    target (each label adjacent to the next), the findings, and the odds where the rules fix them
    (``{outcome: {"p": float, "fraction": "n/d"}}``)."""

    unit: Optional[str]
    base: str
    distance: Optional[float]
    distance_unit: str
    range_class: Optional[str]
    path: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    odds: Optional[dict[str, Any]] = None
    steps: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def legal(self) -> bool:
        return not any(f.level == "error" for f in self.findings)

    def to_json(self) -> dict[str, Any]:
        return _with_odds_and_extra(
            {"unit": self.unit, "base": self.base, "distance": _num(self.distance),
             "distance_unit": self.distance_unit, "range_class": self.range_class, "path": list(self.path),
             "findings": [f.to_json(told=True) for f in self.findings], "legal": self.legal,
             "steps": list(self.steps)},
            self.odds, self.extra)


@dataclass
class Assessment:
    """A plan assessed: one item per launching unit or base, and the plan-wide findings
    (interception exposure, questions for the player)."""

    plan: StrikePlan
    items: list[StrikeItem] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    odds: Optional[dict[str, Any]] = None
    steps: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def legal(self) -> bool:
        """The verdict on the whole plan: no error on it nor on any of its items (escorts included)."""
        return not any(f.level == "error" for f in self.findings) and all(i.legal for i in self.items)

    def verdict(self) -> str:
        """The verdict in one line, as the page and the CLI say it."""
        errors = sum(f.level == "error" for f in self.findings) + sum(
            f.level == "error" for i in self.items for f in i.findings)
        asked = sum(f.level == "question" for f in self.findings) + sum(
            f.level == "question" for i in self.items for f in i.findings)
        head = (f"ILLEGAL: the plan breaks the rules ({errors} error{'s' if errors != 1 else ''})" if errors
                else "legal: no rule the state decides is broken")
        return head + (f"; {asked} question{'s' if asked != 1 else ''} for the table" if asked else "")

    def to_json(self) -> dict[str, Any]:
        return _with_odds_and_extra(
            {"target": self.plan.target, "side": self.plan.side, "mission": self.plan.mission,
             "legal": self.legal, "verdict": self.verdict(),
             "items": [i.to_json() for i in self.items], "findings": [f.to_json(told=True) for f in self.findings],
             "steps": list(self.steps)},
            self.odds, self.extra)


def _with_odds_and_extra(out: dict[str, Any], odds: Optional[dict[str, Any]], extra: Mapping[str, Any]) -> dict[str, Any]:
    """``out`` with the odds, where the rules fix them, and the game's own figures (``extra``),
    which never replace a key every game gives."""
    if odds is not None:
        out["odds"] = odds
    for k, v in extra.items():
        out.setdefault(k, v)
    return out


@dataclass
class Resolution:
    """A strike resolved with ``dice`` (entered or rolled), as a game's ``RULES.resolve`` gives it:
    the outcome lines, the changes to units (``{"unit", "set": {attr: value}, "before": {attr:
    value}}``: losses, aborts, damage), and entries for the production ledger (``{"side", "kind",
    "amount", "rule", "note"}``)."""

    plan: StrikePlan
    dice: tuple[int, ...]
    outcome: list[str] = field(default_factory=list)
    changes: list[dict[str, Any]] = field(default_factory=list)
    ledger: list[dict[str, Any]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"plan": self.plan.to_json(), "dice": list(self.dice), "outcome": list(self.outcome),
                "changes": [dict(c) for c in self.changes], "ledger": [dict(e) for e in self.ledger],
                "findings": [f.to_json() for f in self.findings]}


@dataclass(frozen=True)
class Need:
    """What only the player can give before the rules can resolve a strike: a printed table the
    text does not hold (``kind="table"``: ``name`` the table's name, ``title`` as printed) or a
    plan option (``kind="option"``: ``name`` the option's key, ``values`` what it may be, e.g.
    ``"major|minor"``, ``title`` what it is in the game's words); ``rule`` is the rule that reads it."""

    kind: str
    name: str
    title: str
    rule: str
    values: str = ""

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "name": self.name, "title": self.title, "rule": self.rule, "values": self.values}


class Unresolvable(ValueError):
    """The rules cannot resolve the plan until the player gives ``needs`` (all of them, or with
    ``any_of`` one of them). Nothing is to be recorded."""

    def __init__(self, head: str, needs: Sequence[Need], any_of: bool = False):
        self.head, self.needs, self.any_of = head, tuple(needs), any_of
        names = ", ".join(f"{n.title} ({n.name})" for n in self.needs)
        super().__init__(f"{head}: enter {'one of ' if any_of and len(self.needs) > 1 else ''}{names}")


def missing(rules: "StrikeRules", world: World, plan: StrikePlan) -> Optional[Unresolvable]:
    """What the player must still give before ``rules`` can resolve ``plan`` (None: nothing):
    the rules' ``missing`` where they have one."""
    fn = getattr(rules, "missing", None)
    return fn(world, plan) if callable(fn) else None


class StrikeRules(Protocol):
    """A game's air rules (``assistant/rules/<game>/air.py`` exposes ``RULES``)."""

    game: str
    missions: tuple[str, ...]
    # optional: ``mission_names`` ({mission: "the rule's name [rule]"}), what a page offers;
    # ``altitudes`` (the altitudes the rules name); ``night`` (the rule a night mission changes:
    # a game whose rules read no night has none, and its page offers no night); ``reads``, the
    # plan's parts the rules read among mission, escorts, target_unit, return_base and options
    # (absent: all of them), so a page offers only those; ``options``, the names of the plan
    # options the rules read, and ``unit_options``, those given once per unit as NAME.UNIT (any
    # other option is refused, not ignored); ``unit_results``, {NAME: (title, rule)} for the unit
    # options that are counts read off the table (a page asks them per unit of the plan);
    # ``flag_options`` (yes or no) and ``option_choices`` ({NAME: the words it may be}): the values
    # checked where they are entered

    def reach(self, world: World, side: str, target: str, *, units: Sequence[str] = (),
              mission: Optional[str] = None, altitude: Optional[str] = None) -> list[StrikeItem]:
        """Every friendly air unit (or only ``units``) that can reach ``target``: distance, range
        class and path; those out of range are listed with an ``error`` finding."""
        ...

    def assess(self, world: World, plan: StrikePlan) -> Assessment:
        """The plan's items with every legality check the state decides (others as questions),
        interception exposure and the odds where the rules (or the player's tables) fix them."""
        ...

    def resolve(self, world: World, plan: StrikePlan, dice: Sequence[int]) -> Resolution:
        """Apply ``dice`` (in the order ``dice_needed`` gives) to the plan."""
        ...

    def dice_needed(self, world: World, plan: StrikePlan) -> list[str]:
        """What must be rolled, in order, as dice notation with what it is for
        (``["1d6: air combat, Ki-84 vs B-29 [4.16]", ...]``)."""
        ...

    # optional: ``missing(world, plan) -> Optional[Unresolvable]``, what the player must still give
    # (a printed table, an option) before ``resolve`` can resolve the plan; ``resolve`` raises it.


class NoAirRules(MissingRules):
    """A game has no air rules module."""


def _num(x: Optional[float]) -> Optional[float | int]:
    if x is None:
        return None
    x = float(x)
    return int(x) if x.is_integer() else round(x, 3)


def rules_for(game: str) -> StrikeRules:
    """The air rules of ``game`` (``assistant.rules.<game>.air.RULES``)."""
    return rules_module(game, "air", NoAirRules).RULES
