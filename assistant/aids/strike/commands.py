"""Record a strike's resolution: the dice the game's rules need (entered from physical dice or
rolled by the campaign's random source), applied by the rules, stored as ``StrikeResolved``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ...campaign.commands import Context
from ...campaign.dicenotation import parse_notation
from ...campaign.errors import CampaignError
from ...campaign.importcheck import rebuilds
from ...campaign.mapfix import corrections_of
from ...campaign.world import world_of
from ...rules.strike import StrikePlan
from .engine import StrikeNeeds, _wrap, air_rules, assess, entries, needs
from .events import SLICE, StrikeResolved

MAX_DICE = 400


@dataclass
class ResolveStrike:
    """Resolve ``plan`` (a ``StrikePlan``) with ``dice`` (faces in the order the rules ask for
    them: ``dice_needed``), or roll them when ``dice`` is None."""

    plan: Any
    dice: Any = None
    tables: Any = None

    def build(self, s, ctx: Context) -> StrikeResolved:
        if not isinstance(self.plan, StrikePlan):
            raise CampaignError("a strike resolution needs a strike plan")
        world = world_of(s, ctx.map.graph(corrections_of(s)), tables=self.tables)
        rules = air_rules(s.game)
        short = needs(world, self.plan)  # a table or an option the rules still lack: nothing recorded
        if short is not None:
            raise short
        needed = _wrap(rules.dice_needed, world, self.plan)
        specs = [parse_notation(n.split(":", 1)[0]) for n in needed]
        if self.dice is None:  # a strike the rules resolve without dice (globalwar [17.6.4]) records none
            faces = [f for spec in specs for f in ctx.roll(spec.count, spec.low, spec.high)]
        else:
            faces = _check_entered(self.dice, specs, needed)
        res = _wrap(rules.resolve, world, self.plan, faces)
        for ch in res.changes:
            u = s.units.get(ch.get("unit"))
            if u is None:
                raise CampaignError(f"the resolution changes unit {ch.get('unit')!r}, which is not on the map")
            for k, before in ch["before"].items():
                if u.attrs.get(k) != before:
                    raise CampaignError(f"unit {u.id} {k} is {u.attrs.get(k)!r}, not {before!r} as the resolution assumed")
        summary = "; ".join(res.outcome[:2]) or "resolved"
        resolution = res.to_json()
        resolution["tables"] = {k: list(v) for k, v in (self.tables or {}).items()}  # what it was resolved with
        body = StrikeResolved(strike_id=s.aid(SLICE).next_id, side_id=self.plan.side, target=self.plan.target,
                              summary_text=summary[:300], resolution=resolution)
        if not ctx.recorded:  # a new entry: what the rules say of it reaches whoever made it
            body.told(told(assess(world, self.plan)) + tuple(entries(world, res.findings)))
        return body

    def conflict(self, view, fresh, ctx) -> Optional[str]:
        if view.units != fresh.units:
            return "units have changed since the strike was assessed"
        return None


def told(a) -> tuple:
    """The assessment's findings a player must hear when the strike is recorded: its errors (the
    rules advise, they do not refuse), warnings and questions, the plan's first, each once."""
    out: dict = {}
    for f in [*a.findings, *(f for it in a.items for f in it.findings)]:
        if f.level != "info":
            out.setdefault(f, None)
    return tuple(out)


def _check_entered(dice: Any, specs, needed) -> list[int]:
    if isinstance(dice, (str, bytes)) or not isinstance(dice, (list, tuple)):
        raise CampaignError(f"dice must be a list of faces, not {dice!r}")
    if len(dice) > MAX_DICE:
        raise CampaignError(f"{len(dice)} dice entered (at most {MAX_DICE})")
    want = sum(spec.count for spec in specs)
    if len(dice) != want:
        raise CampaignError(f"this strike needs {want} dice ({'; '.join(needed) or 'none'}), not {len(dice)}")
    out, i = [], 0
    for spec, what in zip(specs, needed):
        vals = list(dice[i:i + spec.count])
        i += spec.count
        try:
            out += list(spec.check(vals))
        except CampaignError as e:
            raise CampaignError(f"{e} ({what})") from None
    return out


def resolve_strike(campaign, plan: StrikePlan, dice=None, tables=None, rng=None):
    """Resolve ``plan`` in ``campaign`` with entered ``dice`` (or rolled); returns the EventRecord."""
    return campaign.execute(ResolveStrike(plan=plan, dice=dice, tables=tables), rng=rng)


@rebuilds(StrikeResolved)
def _rebuild_strike(b: StrikeResolved, s, ctx) -> StrikeResolved:
    """An imported resolution is the one the rules make from its plan and its dice on the state
    before it (the dice as if entered from physical dice)."""
    try:
        plan = StrikePlan.from_json(b.resolution["plan"])
        dice = list(b.resolution["dice"])
        tables = dict(b.resolution.get("tables") or {})
    except (KeyError, TypeError, ValueError) as e:
        raise CampaignError(f"strike_resolved resolution is malformed ({e.__class__.__name__})") from None
    try:
        return ResolveStrike(plan=plan, dice=dice, tables=tables).build(s, ctx)
    except StrikeNeeds:
        # Recorded before the rules asked for what they now need to resolve it: a strike that changed
        # nothing (no unit, no ledger entry) stays in the log as it was recorded, so a saved campaign's
        # export still imports. One that changed something must rebuild exactly.
        if b.resolution.get("changes") or b.resolution.get("ledger") or dice:
            raise
        return b
