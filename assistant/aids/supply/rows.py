"""One traced unit as a row of the supply tables (no pandas: the history's command-line output
is written from these rows alone).

``COLUMNS`` are the columns of ``campaign trace --history --csv`` and of ``history.history_frame``;
``trace_row`` is the row every table shares.
"""

from __future__ import annotations

from typing import Any, Optional

from ...campaign.errors import CampaignError

COLUMNS = ("turn", "turn_label", "side", "unit", "kind", "hex", "supplied", "status", "length", "source")


def source_of(t) -> Optional[str]:
    """The source column: the providing unit's id, else the source hex (None when cut off)."""
    if not t.source:
        return None
    return t.source.get("unit") or t.source.get("hex")


def trace_row(t, turn: int, turn_label: str) -> dict[str, Any]:
    """The shared columns (``COLUMNS``) of one trace at one turn; ``length`` is None when unknown."""
    return {"turn": turn, "turn_label": turn_label, "side": t.side, "unit": t.unit, "kind": t.kind,
            "hex": t.hex, "supplied": bool(t.supplied), "status": t.status,
            "length": None if t.length is None else float(t.length), "source": source_of(t)}


def checked_sides(state, sides) -> list[str]:
    """``sides`` (one side id, several, or None for every side) checked against the campaign."""
    known = [s.id for s in state.sides]
    if sides is None:
        return known
    wanted = [sides] if isinstance(sides, str) else list(sides)
    for s in wanted:
        if s not in known:
            raise CampaignError(f"side {s!r} is not one of {', '.join(known)}")
    return list(dict.fromkeys(wanted))
