"""One traced unit as a row of the supply tables (no pandas: the history's command-line output
is written from these rows alone).

``COLUMNS`` are the shared columns of the supply frames (``frames.trace_frame`` starts with them);
``HISTORY_COLUMNS`` those of the analysts' table ``supply_by_turn`` (``tables.py``), of
``history.history_frame`` and of ``campaign trace --history --csv``: the turn's date and the
length's unit besides. ``trace_row`` is the row every table shares.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from ...campaign.errors import CampaignError

COLUMNS = ("turn", "turn_label", "side", "unit", "kind", "hex", "supplied", "status", "length", "source")
HISTORY_COLUMNS = ("turn", "turn_label", "date", "side", "unit", "kind", "hex", "supplied", "status", "length",
                   "length_unit", "source")


def source_of(t) -> Optional[str]:
    """The source column: the providing unit's id, else the source hex (None when cut off)."""
    if not t.source:
        return None
    return t.source.get("unit") or t.source.get("hex")


def trace_row(t, turn: int, turn_label: str, date: Optional[str] = None) -> dict[str, Any]:
    """The columns (``HISTORY_COLUMNS``) of one trace at one turn; ``length`` is None when unknown,
    ``length_unit`` the rule's unit of it (the trace's ``extra["unit"]``), ``date`` the turn's first
    day as ISO text (``Calendar.first_day``; None when the game gives none)."""
    return {"turn": turn, "turn_label": turn_label, "date": date, "side": t.side, "unit": t.unit, "kind": t.kind,
            "hex": t.hex, "supplied": bool(t.supplied), "status": t.status,
            "length": None if t.length is None else float(t.length),
            "length_unit": t.extra.get("unit"), "source": source_of(t)}


def turn_date(calendar, turn: int) -> Optional[str]:
    """The ``date`` of a row of turn ``turn``: its first day as ISO text, None when unknown."""
    day = calendar.first_day(turn)
    return None if day is None else day.isoformat()


def checked_sides(state, sides) -> list[str]:
    """``sides`` (one side id or name, several, or None for every side) checked against the
    campaign, as side ids; CampaignError naming the sides otherwise."""
    from ...campaign.validate import side as side_of

    known = [s.id for s in state.sides]
    if sides is None:
        return known
    if isinstance(sides, str):
        wanted = [sides]
    elif isinstance(sides, (list, tuple, set, frozenset)):
        wanted = list(sides)
    else:
        raise CampaignError(f"sides must be a side (one of {', '.join(known)}) or a list of sides, "
                            f"not {type(sides).__name__}")
    out = []
    for s in wanted:
        try:
            out.append(side_of(state, s))
        except CampaignError:
            raise CampaignError(f"side {s!r} is not one of {', '.join(known)}") from None
    return list(dict.fromkeys(out))


def checked_campaign(campaign) -> None:
    """``campaign`` must be an open ``Campaign``: a path is refused with the way to open it."""
    from ...campaign.campaign import Campaign

    if isinstance(campaign, (str, Path)):
        raise CampaignError(f"campaign: {str(campaign)!r} is a path, not an open campaign: open it first, "
                            f"Campaign.open({str(campaign)!r}, readonly=True)")
    if not isinstance(campaign, Campaign):
        raise CampaignError(f"campaign must be an open Campaign (Campaign.open(path)), not {type(campaign).__name__}")
