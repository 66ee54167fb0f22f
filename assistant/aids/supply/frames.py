"""Traces as pandas tables for analysts: one row per traced unit or installation.

``trace_row`` is the row every table shares (the columns of ``campaign trace --history --csv``);
``trace_frame`` is the current state's side-wide reports with the working's figures (limit, the
path's hexes, the reasons, and the game's extra figures, e.g. witp y/x/tsd/category);
``bases_frame`` is the bases at risk: isolated first, then by supply category, worst first.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional

import pandas as pd

from ...rules.supply import Trace
from .engine import WhatIf, trace_side, world_of
from .rows import COLUMNS, checked_campaign, checked_sides, source_of, trace_row

__all__ = ["COLUMNS", "DETAIL", "bases_frame", "checked_sides", "current_traces", "frame_of", "source_of",
           "trace_frame", "trace_row"]

DETAIL = ("limit", "length_unit", "role", "path", "reasons")


def frame_of(rows: list[dict[str, Any]], columns: Iterable[str] = COLUMNS) -> pd.DataFrame:
    """Rows as a DataFrame with fixed column order and dtypes (also when there are no rows)."""
    cols = list(columns)
    # column by column: a third of the time of a frame from the row dicts, the same frame
    df = (pd.DataFrame({c: [r.get(c) for r in rows] for c in cols}, columns=cols) if rows
          else pd.DataFrame(rows, columns=cols))
    df["turn"] = df["turn"].astype("int64")
    df["supplied"] = df["supplied"].astype(bool)
    df["length"] = pd.to_numeric(df["length"], errors="raise").astype("float64")
    return df


def current_traces(campaign, sides=None, whatif: Optional[WhatIf] = None) -> list[Trace]:
    """The current state's side-wide reports, side by side (``sides``: one, several or all)."""
    checked_campaign(campaign)
    state = campaign.state
    world = world_of(state, campaign.graph())
    return [t for side in checked_sides(state, sides) for t in trace_side(world, side, whatif).items]


def _detail_frame(campaign, traces: list[Trace]) -> pd.DataFrame:
    turn = campaign.state.turn
    rows, extras = [], []
    for t in traces:
        row = trace_row(t, turn.index, turn.label)
        row.update(limit=None if t.limit is None else float(t.limit), length_unit=t.extra.get("unit"), role=t.role,
                   path=" ".join(t.path), reasons="; ".join(f"{r.ref} {r.text}" for r in t.reasons))
        more = {k: v for k, v in t.extra.items()
                if k not in row and k != "unit" and not isinstance(v, (dict, list))}
        row.update(more)
        extras += [k for k in more if k not in extras]
        rows.append(row)
    df = frame_of(rows, COLUMNS + DETAIL + tuple(extras))
    df["limit"] = pd.to_numeric(df["limit"]).astype("float64")
    return df


def trace_frame(campaign, sides=None, whatif: Optional[WhatIf] = None) -> pd.DataFrame:
    """The current state's side-wide reports: ``COLUMNS``, then ``limit``, ``length_unit`` (the
    rule's unit of ``length`` and ``limit``, e.g. witp sea hexes / ground MP), ``role``, ``path`` (hex
    labels joined by spaces), ``reasons`` ("[rule] text" joined by "; ") and the game's extra
    figures (e.g. witp bases' ``y``, ``x``, ``tsd``, ``category``) where any trace has them."""
    return _detail_frame(campaign, current_traces(campaign, sides, whatif))


# witp [32.2.1]: F is the farthest category; then no figures (y or x unknown: a player question),
# then no penalty (TSD below 1,500 [32.1.1]).
_RISK = {**{c: i for i, c in enumerate("FEDCBA")}, "unknown": 6, "none": 7}
BASE_COLUMNS = ("side", "hex", "place", "supplied", "status", "category", "tsd", "y", "x", "units", "kinds",
                "reasons")


def _risk(category: Any, tsd: Any) -> int:
    if category is not None and not pd.isna(category):
        return _RISK.get(str(category), _RISK["unknown"])
    return _RISK["unknown"] if tsd is None or pd.isna(tsd) else _RISK["none"]


def bases_frame(campaign, sides=None, whatif: Optional[WhatIf] = None) -> pd.DataFrame:
    """The bases at risk now, one row per side and base hex: the hexes whose pieces' traces carry
    supply-distance figures (witp bases [32.1]: ``y``, ``x``, ``tsd``, ``category`` [32.1.1],
    [32.2.1]), with the place name, the pieces there (``units``, ``kinds``), ``supplied`` (every
    piece there linked), their statuses and reasons. Order: bases with a cut piece first, then by
    category from F (farthest) to A, then those whose figures are unknown, then those without
    penalty (TSD below 1,500); within each, the largest TSD first. Empty, with the same columns,
    for a game whose traces carry no such figures."""
    checked_campaign(campaign)
    graph = campaign.graph()
    groups: dict[tuple[str, str], list[Trace]] = {}
    for t in current_traces(campaign, sides, whatif):
        if "category" in t.extra:
            groups.setdefault((t.side, t.hex), []).append(t)
    rows = []
    for (side, hex_), ts in groups.items():
        first = ts[0].extra
        reasons = dict.fromkeys(f"{r.ref} {r.text}" for t in ts for r in t.reasons)
        rows.append({"side": side, "hex": hex_, "place": graph.nodes[hex_].get("place") if hex_ in graph else None,
                     "supplied": all(t.supplied for t in ts),
                     "status": "/".join(dict.fromkeys(t.status for t in ts)),
                     "category": first.get("category"), "tsd": first.get("tsd"), "y": first.get("y"),
                     "x": first.get("x"), "units": ", ".join(str(t.unit) for t in ts),
                     "kinds": ", ".join(dict.fromkeys(str(t.kind) for t in ts)), "reasons": "; ".join(reasons),
                     "_risk": _risk(first.get("category"), first.get("tsd")),
                     "_tsd": -1.0 if first.get("tsd") is None else float(first["tsd"])})
    df = pd.DataFrame(rows, columns=list(BASE_COLUMNS) + ["_risk", "_tsd"])
    df = df.sort_values(["supplied", "_risk", "_tsd"], ascending=[True, True, False], kind="stable")
    return df[list(BASE_COLUMNS)].reset_index(drop=True)
