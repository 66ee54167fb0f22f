"""The strike plotter's export table (``campaign export --format csv|parquet|xlsx``,
``campaign.table("strikes")``, ``campaign strikes FILE --csv``): the strike log, one row per
logged strike, its plan's scalar parts, dice, result and losses as columns.

The columns are the union of what the three games' resolutions hold (``rules.strike.Resolution``:
the plan, the dice, the outcome lines, the unit changes, the lines handed to the production
ledger, the printed tables it was resolved with), so the schema is the same for every game.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from ...campaign.exporttables import TURN_COLUMNS, Column, register_table
from .events import LoggedStrike, strike_log

COLUMNS = (
    *TURN_COLUMNS,
    Column("id", "int", "the strike's number in the log"),
    Column("seq", "int", "the event that recorded it"),
    Column("side", "category", "the striking side's id"),
    Column("target", "text", "the target hex (the game's hex label)"),
    Column("mission", "category", "the mission in the game's words (empty where the game names none: globalwar)"),
    Column("target_unit", "text", "the unit attacked (a ship, an air unit ...), where the plan names one"),
    Column("bases", "text", "the launching bases' hexes, separated by spaces"),
    Column("units", "text", "the launching units' ids, separated by spaces"),
    Column("launched", "int", "how many units the plan launched"),
    Column("escorts", "text", "the escorts' ids, separated by spaces"),
    Column("altitude", "category", "the altitude, where the game's rules name one (witp)"),
    Column("night", "bool", "a night mission"),
    Column("phase", "text", "the phase the plan names, if any"),
    Column("return_base", "text", "the hex the strike returns to, if the plan names one"),
    Column("options", "text", "the game's own switches and the printed results the player entered "
           "(e.g. damage_result=S, supply_category=A), as KEY=VALUE separated by '; '"),
    Column("tables", "text", "the printed tables the player entered for it, by name, separated by spaces"),
    Column("odds", "text", "the rules' odds for the plan as assessed on the campaign just before the strike, "
           "with the printed tables it was resolved with: each outcome as LABEL: FRACTION (p=PROBABILITY), "
           "separated by '; ' (empty where the rules give none, or the assessment cannot be repeated)"),
    Column("dice", "text", "each die's face, in the order the rules asked for them, separated by spaces"),
    Column("dice_count", "int", "how many dice (0: the rules resolved it without dice)"),
    Column("dice_total", "int", "the faces added up"),
    Column("result", "text", "the outcome lines, each with its rule, separated by ' | '"),
    Column("losses", "int", "how many units it changed (losses, aborts, damage as unit attributes)"),
    Column("changes", "text", "each unit change as UNIT: KEY=VALUE, separated by '; '"),
    Column("ledger_lines", "int", "how many lines it hands to the production ledger"),
    Column("ledger_points", "float", "the points those lines take (losses of PP, EP, MSP ...)",
           unit="the game's points (witp PP/MSP, apto EP, globalwar PP)"),
    Column("findings", "int", "how many findings the rules gave with the resolution"),
    Column("summary", "text", "the log's one-line summary"),
)


def _value(x: Any) -> str:
    return x if isinstance(x, str) else json.dumps(x, ensure_ascii=False)


def strike_row(s: LoggedStrike, date: Any) -> dict[str, Any]:
    """One logged strike as a row of ``COLUMNS``."""
    r = s.resolution
    plan = r.get("plan") or {}
    launches = plan.get("launches") or []
    units = [u for launch in launches for u in launch.get("units", ())]
    dice = [int(d) for d in r.get("dice") or ()]
    changes = r.get("changes") or []
    ledger = r.get("ledger") or []
    return {
        "turn": s.turn, "turn_label": s.turn_label, "date": date, "id": s.id, "seq": s.seq, "side": s.side,
        "target": s.target, "mission": plan.get("mission"), "target_unit": plan.get("target_unit"),
        "bases": " ".join(launch["base"] for launch in launches) or None, "units": " ".join(units) or None,
        "launched": len(units), "escorts": " ".join(plan.get("escorts") or ()) or None,
        "altitude": plan.get("altitude"), "night": bool(plan.get("night", False)), "phase": plan.get("phase"),
        "return_base": plan.get("return_base"),
        "options": "; ".join(f"{k}={_value(v)}" for k, v in sorted((plan.get("options") or {}).items())) or None,
        "tables": " ".join(sorted(r.get("tables") or {})) or None,
        "dice": " ".join(map(str, dice)) or None, "dice_count": len(dice), "dice_total": sum(dice),
        "result": " | ".join(r.get("outcome") or ()) or None, "losses": len(changes),
        "changes": "; ".join(f"{ch.get('unit')}: " + ", ".join(f"{k}={_value(v)}" for k, v in (ch.get("set") or {}).items())
                             for ch in changes) or None,
        "ledger_lines": len(ledger), "ledger_points": float(sum(float(e.get("amount") or 0) for e in ledger)),
        "findings": len(r.get("findings") or ()), "summary": s.summary,
    }


def strike_rows(state, keep=lambda turn: True, campaign=None) -> list[dict[str, Any]]:
    """The rows of ``state``'s strike log (turns ``keep`` accepts); with the ``campaign``, each
    strike's odds as assessed on the state just before it (one forward fold for them all)."""
    cal = state.calendar
    logged = [s for s in strike_log(state) if keep(s.turn)]
    odds = odds_before(campaign, logged) if campaign is not None else {}
    return [{**strike_row(s, cal.first_day(s.turn)), "odds": odds.get(s.id)} for s in logged]


def odds_before(campaign, logged) -> dict[int, Optional[str]]:
    """Each logged strike's odds (``engine.assess``) on the state just before its event, with the
    tables it was resolved with. A resolution does not store them: they are the assessment's."""
    from ...campaign.errors import CampaignError
    from ...campaign.mapfix import corrections_of
    from ...campaign.world import world_of
    from ...rules.strike import StrikePlan
    from .engine import assess, odds_rows

    by_seq = {s.seq - 1: s for s in logged if s.seq > 1}
    out: dict[int, Optional[str]] = {}
    for seq, state in campaign.states_after(sorted(by_seq)):
        s = by_seq[seq]
        try:
            world = world_of(state, campaign.map.graph(corrections_of(state)),
                             tables=s.resolution.get("tables") or None)
            rows = odds_rows(assess(world, StrikePlan.from_json(s.resolution["plan"])).odds)
        except (CampaignError, KeyError, ValueError, TypeError):
            continue
        out[s.id] = "; ".join(f"{label}: {frac}" + (f" (p={p:.4g})" if p is not None else "")
                              for label, frac, p in rows if frac or p is not None) or None
    return out


@register_table("strikes", COLUMNS,
                "The strike log: one row per strike resolved and not undone, oldest first, with its plan, the "
                "odds, the dice, the result and the changes it made.")
def strikes_table(source):
    return strike_rows(source.state, source.wants, source.campaign)
