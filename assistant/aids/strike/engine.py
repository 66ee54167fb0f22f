"""The strike plotter's engine: the player's input in, an assessment that shows its working out.

``plan_of`` checks the input against the campaign (the side, the target hex, the air units and
bases) and builds a ``StrikePlan``; ``reach`` lists every friendly air unit that can reach a hex;
``assess`` runs every check the game's air rules (``assistant.rules.<game>.air``) decide, with the
odds where the rules or the player's tables fix them. Nothing here writes to the campaign: a
resolution is recorded by ``commands.ResolveStrike``.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Iterable, Mapping, Optional, Sequence

from ...campaign import validate as v
from ...campaign.errors import CampaignError
from ...campaign.tableschema import check_file
from ...rules.findings import Entry, When, with_entries
from ...rules.kinds import find_kind, load_kinds
from ...rules.strike import (
    Assessment,
    Launch,
    NoAirRules,
    StrikeItem,
    StrikePlan,
    StrikeRules,
    Unresolvable,
    missing,
    rules_for,
)
from ...rules.world import World


def air_rules(game: str) -> StrikeRules:
    try:
        return rules_for(game)
    except NoAirRules as e:
        raise CampaignError(str(e)) from None


def plan_of(state, gm, *, side: Any, target: Any, units: Iterable[Any] = (), bases: Iterable[Any] = (),
            mission: Any = None, altitude: Any = None, escorts: Iterable[Any] = (), return_base: Any = None,
            night: Any = False, phase: Any = None, target_unit: Any = None,
            options: Optional[Mapping[str, Any]] = None) -> StrikePlan:
    """A plan from the player's input, each value checked (a bad one is a one-line CampaignError
    naming it). ``units`` are air units (piece ids) grouped by their hex into launches; ``bases``
    add every friendly air unit at those hexes."""
    side = v.side(state, side)
    target = v.hex_label(gm, target)
    rules = air_rules(state.game)
    if mission is not None:
        mission = v.text(mission, "mission", max_len=40)
        if rules.missions and mission not in rules.missions:
            raise CampaignError(f"mission {mission!r} is not one of {state.game}'s: {', '.join(rules.missions)}")
    by_base: dict[str, list[str]] = {}
    for uid in units:
        u = v.unit(state, uid)
        if u.side != side:
            raise CampaignError(f"unit {u.id} is {u.side}'s, not {side}'s")
        by_base.setdefault(u.hex, []).append(u.id)
    for b in bases:
        hex_ = v.hex_label(gm, b)
        here = air_units_at(state, hex_, side)
        if not here:
            raise CampaignError(f"no {side} air unit at {hex_} to launch")
        by_base.setdefault(hex_, [])
        for uid in here:
            if uid not in by_base[hex_]:
                by_base[hex_].append(uid)
    esc = []
    for uid in escorts:
        u = v.unit(state, uid)
        if u.side != side:
            raise CampaignError(f"escort {u.id} is {u.side}'s, not {side}'s")
        esc.append(u.id)
    if target_unit is not None:
        target_unit = v.unit(state, target_unit).id
    night = v.boolean(night, "night")
    _read_by_the_rules(rules, state.game, altitude=altitude, night=night, escorts=esc, target_unit=target_unit,
                       return_base=return_base)
    opts = {}
    for k, val in (options or {}).items():
        name = _option_name(rules, state, v.key(k, "option name"))
        opts[name] = _option_value(rules, name, v.scalar(val, f"option {k}"))
    return StrikePlan(side=side, target=target, mission=mission,
                      launches=tuple(Launch(base=b, units=tuple(us)) for b, us in by_base.items()),
                      target_unit=target_unit, altitude=None if altitude is None else v.text(altitude, "altitude", 20),
                      escorts=tuple(esc), return_base=None if return_base is None else v.hex_label(gm, return_base),
                      night=night, phase=_phase(rules, state, phase),
                      options=MappingProxyType(opts))


def air_units_at(state, hex_: str, side: Optional[str] = None) -> list[str]:
    """The air units (their kind's role ``air``) based at ``hex_`` (of ``side``, if given): what a
    base launches; the airfield and the ground units there do not fly."""
    return [u.id for u in state.units.values()
            if u.hex == hex_ and (side is None or u.side == side) and _role(state.game, u.kind) == "air"]


def _role(game: str, kind: str) -> Optional[str]:
    k = find_kind(game, kind)
    return k.role if k else None


def _phase(rules, state, phase: Any) -> Optional[str]:
    """The plan's phase: text the player types; where the game's air rules read it (``reads_phase``)
    one of the game's phases (game.toml's calendar phases, by id or by name, any case; the id is
    kept), any other refused in one line naming it and the game's phases."""
    if phase is None:
        return None
    text = v.text(phase, "phase", 40)
    if not getattr(rules, "reads_phase", False):
        return text

    def words(s: str) -> str:
        return " ".join(s.lower().replace("_", " ").replace("-", " ").split())

    known = {p.id: p for ps in state.calendar.phases.values() for p in ps}
    for p in known.values():
        if words(text) in (words(p.id), words(p.name), words(p.name).removesuffix(" phase")):
            return p.id
    raise CampaignError(f"phase {v.show(text)} is not one of {state.game}'s phases: "
                        + ", ".join(p.name for p in known.values()))


def _option_name(rules, state, name: str) -> str:
    """``name`` if the game's air rules read that plan option (``options``; ``unit_options`` as
    NAME.UNIT for a unit of the campaign); any other is refused naming it and the rules' options."""
    known = getattr(rules, "options", None)
    per_unit = getattr(rules, "unit_options", ())
    if known is None or name in known:
        return name
    head, dot, unit = name.partition(".")
    if dot and head in per_unit:
        if unit in state.units:
            return name
        raise CampaignError(f"option {name!r}: {unit!r} is not a unit of this campaign")
    listed = ", ".join([*known, *(f"{p}.UNIT" for p in per_unit)]) or "none"
    kinds = [k.kind for k in load_kinds(state.game).values() if head in k.specs]
    if kinds:  # a value of the unit itself, which the rules read off the unit (globalwar maintained)
        raise UnitValue(head, kinds, f"{state.game}'s strike options are {listed}")
    raise CampaignError(f"option {name!r} is not one of {state.game}'s strike options: {listed}")


class UnitValue(CampaignError):
    """A unit's own value (``attr``, declared by ``kinds``) typed as a strike option: it is set on
    the unit, where the rules read it. ``text(surface)`` says where (``"cli"``: the command;
    ``"page"``: the campaign page's Units tab)."""

    def __init__(self, attr: str, kinds, options: str):
        self.attr, self.kinds, self.options = attr, tuple(kinds), options
        self.entry = Entry(attrs=(attr,), unit="UNIT")
        super().__init__(self.text("cli"))

    def text(self, surface: str) -> str:
        head = (f"{self.attr} is a value of each {' or '.join(self.kinds)} unit, not a strike option: "
                f"it is set on the unit, where the rules read it")
        if surface == "page":
            return (f"{head}: on the campaign page choose the unit in Units, type {self.attr}=VALUE and press Set "
                    f"({self.options})")
        return f"{head}: campaign update FILE UNIT {self.attr}=VALUE ({self.options})"


FLAG_WORDS = {"yes": True, "y": True, "true": True, "1": True, "no": False, "n": False, "false": False, "0": False}


def _option_value(rules, name: str, value: Any) -> Any:
    """An option's value checked against the game's words where its rules name them: a switch
    (``flag_options``) is yes or no (true/false, 1/0; kept as True/False), a choice
    (``option_choices``: {name: words}) one of its words in any case (kept as the rules spell it);
    any other value is refused naming it and what it may be (``atomic=flase`` was an atomic raid)."""
    head = name.partition(".")[0]
    text = str(value).strip().lower()
    if head in getattr(rules, "flag_options", ()):
        if isinstance(value, bool):
            return value
        if text not in FLAG_WORDS:
            raise CampaignError(f"option {name} {v.show(value)} is not yes or no")
        return FLAG_WORDS[text]
    words = (getattr(rules, "option_choices", None) or {}).get(head)
    if words:
        for word in words:
            if text == str(word).lower():
                return word
        raise CampaignError(f"option {name} {v.show(value)} is not one of {', '.join(map(str, words))}")
    return value


def _read_by_the_rules(rules, game: str, **given: Any) -> None:
    """A part of the plan the game's air rules do not read is refused, not silently ignored: an
    altitude where they name none (``altitudes``), a night mission where they name none (``night``),
    escorts, a target unit or a return base where ``reads`` leaves them out (globalwar [17.3])."""
    if given["altitude"] is not None and not getattr(rules, "altitudes", ()):
        raise CampaignError(f"{game}'s air rules name no altitude: leave the altitude out")
    if given["night"] and not getattr(rules, "night", None):
        raise CampaignError(f"{game}'s air rules name no night mission: leave night out")
    reads = getattr(rules, "reads", None)
    for part in ("escorts", "target_unit", "return_base"):
        if reads is not None and part not in reads and given[part] not in (None, [], ()):
            raise CampaignError(f"{game}'s air rules read no {part.replace('_', ' ')}: leave it out")


class StrikeNeeds(CampaignError):
    """The rules cannot resolve the strike until the player enters what ``needs`` names (printed
    tables, plan options); nothing was recorded. ``text(surface)`` says it the way that surface
    asks for it (``"cli"``: its flags; ``"page"``: the page's fields and the Rule tables page)."""

    def __init__(self, head: str, needs, any_of: bool = False):
        self.head, self.needs, self.any_of = head, tuple(needs), any_of
        super().__init__(self.text("cli"))

    def text(self, surface: str, unit_options: Sequence[str] = ()) -> str:
        """``unit_options``: the per-unit results a page asks in its results form, not in Options."""
        parts = [_need_text(n, surface, tuple(unit_options)) for n in self.needs]
        joined = (" or " if self.any_of else "; and ").join(parts)
        return f"cannot resolve yet, {self.head}: {joined}; nothing recorded"


def _need_text(n, surface: str, unit_options: tuple[str, ...] = ()) -> str:
    if n.kind == "table":
        if surface == "page":
            return f"enter {n.title} ({n.name}) on the Rule tables page {n.rule}"
        return (f"enter {n.title} {n.rule} (--table {n.name}=CSV, or once for the campaign: "
                f"campaign table import FILE {n.name} CSV)")
    value = n.values or "VALUE"
    if surface == "page" and n.name.partition(".")[0] in unit_options:
        return f"enter {n.title} under Results in the Resolve tab {n.rule}"
    if surface == "page":
        return f"enter {n.title} in Options as {n.name}={value} {n.rule}"
    return f"give {n.title} with --option {n.name}={value} {n.rule}"


def dice_line(dice: Sequence[int]) -> str:
    """The dice a resolution used, as the page and the CLI say it: none where the rules name none."""
    return f"dice: {' '.join(map(str, dice))}" if dice else "dice: none (the rules name no dice for this strike)"


def odds_rows(odds: Any, label: str = "") -> list[tuple[str, Optional[str], Optional[float]]]:
    """The rules' odds, however nested (``{outcome: {"p", "fraction"}}``, or groups of those:
    globalwar's ``ad_vs_lrb`` and ``pp_lost``, apto's engagement per unit), as rows
    ``(label, exact fraction, p)``; a nested group's label is its keys joined by " / ". A value
    that is not odds is a row with its text and no p."""
    if isinstance(odds, dict) and "p" in odds:
        return [(label, str(odds.get("fraction", "")), float(odds["p"]))]
    if isinstance(odds, dict):
        out = []
        for k, v in odds.items():
            out += odds_rows(v, f"{label} / {k}" if label else str(k))
        return out
    if isinstance(odds, (list, tuple)):
        return [(label, ", ".join(str(x) for x in odds), None)]
    return [(label, None if odds is None else str(odds), None)]


def _wrap(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except Unresolvable as e:
        raise StrikeNeeds(e.head, e.needs, e.any_of) from None
    except (ValueError, KeyError) as e:  # a bad counter value or table cell, named by the rules
        msg = e.args[0] if e.args else repr(e)
        raise CampaignError(str(msg).splitlines()[0]) from None


def reach(world: World, side: str, target: str, *, units: Sequence[str] = (), mission: Optional[str] = None,
          altitude: Optional[str] = None) -> list[StrikeItem]:
    """Every friendly air unit (or only ``units``) against ``target``: distance, range class, path."""
    items = _wrap(air_rules(world.game).reach, world, side, target, units=units, mission=mission, altitude=altitude)
    for it in items:
        it.findings = entries(world, it.findings)
    return items


def needs(world: World, plan: StrikePlan) -> Optional[StrikeNeeds]:
    """What the player must still enter before the plan can be resolved (None: nothing)."""
    u = _wrap(missing, air_rules(world.game), world, plan)
    return None if u is None else StrikeNeeds(u.head, u.needs, u.any_of)


def assess(world: World, plan: StrikePlan) -> Assessment:
    """The plan assessed: items, findings with rules, exposure, odds; each question about a unit's
    value told where it is entered (``entries``)."""
    a = _wrap(air_rules(world.game).assess, world, plan)
    a.findings = entries(world, a.findings)
    for it in a.items:
        it.findings = entries(world, it.findings)
    return a


def entries(world: World, findings: Sequence) -> list:
    """``findings`` with each question that names a unit's attribute told where it is entered
    (``rules.findings.entry_in``: the campaign page's Units tab, ``campaign update``)."""
    return with_entries(findings, {p.id: p.kind for p in world.pieces}, world.game)


# ----- where and when, as each surface says it ---------------------------------------------------
def next_allowed(state, when: When):
    """The next turn or phase after the campaign's where ``when`` holds (a calendar ``TurnInfo``),
    or None: none within two years of the calendar, or the game ends first. The current position
    when it holds already (the plan named another phase)."""
    from ...campaign.calendar import next_turn_where

    now = state.turn
    if when.holds(now):
        return now
    return next_turn_where(state.calendar, now.index, now.phase_index, when.holds)


def when_text(state, when: When, file: Optional[str] = None) -> str:
    """A calendar refusal's where and when, in words: the next turn or phase it is allowed in,
    and (``file``: the CLI) the advance commands that go there."""
    from ...campaign.calendar import steps_to

    t = next_allowed(state, when)
    if t is None:
        return f"allowed in {when.says or 'no turn this campaign reaches'}: no such turn before the game ends"
    if t.index == state.turn.index and t.phase_index == state.turn.phase_index:
        return f"allowed now ({t.title}): choose it as the strike's phase"
    text = f"next allowed: {t.title}"
    if file is not None:
        steps = steps_to(state.calendar, state.turn.index, state.turn.phase_index, t.index, t.phase_index)
        turns, phases = steps.count("turn"), steps.count("phase")
        how = ([f"campaign advance {file}" + (f" ({turns} times)" if turns > 1 else "")] if turns else []) + \
              ([f"campaign advance {file} --phase" + (f" ({phases} times)" if phases > 1 else "")] if phases else [])
        text += " (" + ", then ".join(how) + ")"
    return text


def tables_from(game: str, specs: Iterable[str]) -> dict[str, list[dict[str, str]]]:
    """``NAME=CSV`` items (the CLI's --table) read into tables: each a table of ``game`` (its
    schemas.toml), the file checked whole as ``campaign table import`` checks it."""
    out = {}
    for item in specs:
        name, eq, path = item.partition("=")
        if not eq or not name.strip() or not path.strip():
            raise CampaignError(f"--table {v.show(item)} must be NAME=CSV")
        checked = check_file(game, name.strip(), path.strip())
        out[name.strip()] = [dict(zip(checked.header, row)) for row in checked.rows]
    return out
