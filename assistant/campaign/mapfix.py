"""The derived map with a campaign's corrections applied (``source=user`` wins): the per-hex table,
and the corrections in the form the hex graph takes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..maps.graph import MapCorrections
from .model import CampaignState

if TYPE_CHECKING:  # pandas only for the table: the hex graph's corrections need none
    import pandas as pd


def corrected_hexes(hexes: pd.DataFrame, state: CampaignState) -> pd.DataFrame:
    """A copy of ``hexes`` (a GameMap's per-hex table, indexed by canonical label) in which every
    corrected hex carries the player's values and ``source = "user"``. New keys become columns;
    a corrected hex missing from ``hexes`` is added."""
    out = hexes.copy()
    if not state.map_corrections:
        return out
    for label, fix in state.map_corrections.items():
        for key, value in fix.items():
            if key not in out.columns:
                out[key] = pd.Series(pd.NA, index=out.index, dtype=object)
            elif out[key].dtype != object:
                out[key] = out[key].astype(object)  # a user's value may not fit the derived dtype
            if label not in out.index:
                out.loc[label] = pd.NA
            out.loc[label, key] = value
    return out


def corrections_of(state: CampaignState) -> MapCorrections:
    """A campaign's per-hex and per-hexside corrections, for ``GameMap.graph``."""
    return MapCorrections(hexes=state.map_corrections, hexsides=state.hexside_corrections)
