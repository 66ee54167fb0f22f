"""Supply over a campaign's history, for analysts.

``history_frame(campaign)`` traces every unit and installation of every side as the campaign stood
at the END of each turn played so far (the last state in which that turn was the current one,
``Campaign.state_at(turn=...)``), the current turn included, and returns one row per unit per turn::

    turn, turn_label, side, unit, kind, hex, supplied, status, length, source

``turn`` is the calendar index, ``turn_label`` the game's name for it; ``status`` is in the game's
own words (witp linked/isolated ...); ``length`` is the traced line in the rule's own unit (NaN
when the rules give none); ``source`` is the providing unit's id, else the source hex (None when
cut off). ``counts_frame(df)`` gives the supplied / unsupplied counts per turn and side (the chart
of the supply dashboard). ``campaign trace FILE --history --csv`` prints ``history_frame``.

The hex graph of each past state is that state's map (its pin) with that state's corrections; it is
built once per map version (``map_pin``, ``map_revision``) and reused for every turn that shares it,
so its compiled ``HexNet`` is reused too.
"""

from __future__ import annotations

from typing import Iterator, Optional

import pandas as pd

from ...campaign.errors import CampaignError
from ...campaign.mapfix import corrections_of
from ...campaign.mappin import map_for
from .engine import WhatIf, trace_side, world_of
from .frames import COLUMNS, checked_sides, frame_of, trace_row

__all__ = ["COLUMNS", "COUNT_COLUMNS", "counts_frame", "history_frame", "turn_ends", "turn_states", "GraphCache"]

COUNT_COLUMNS = ("turn", "turn_label", "side", "supplied", "unsupplied")


def turn_ends(campaign) -> list[tuple[int, int]]:
    """``(turn index, seq)`` for every turn played, oldest turn first: ``seq`` is the last event
    after which that turn was the current one (what ``Campaign.state_at(turn=...)`` returns)."""
    records = campaign.events()
    ends: dict[int, int] = {}
    current = campaign.state.turn.index
    for i, rec in enumerate(records):
        after = records[i + 1].turn if i + 1 < len(records) else current
        ends[after] = rec.seq
    return sorted(ends.items())


def turn_states(campaign) -> Iterator[tuple[int, object]]:
    """``(turn index, state at the end of that turn)`` for every turn played, oldest first."""
    last = campaign.state.last_seq
    for turn, seq in turn_ends(campaign):
        yield turn, (campaign.state if seq == last else campaign.state_at(seq=seq))


class GraphCache:
    """One hex graph per map version of a campaign: the campaign's own graph for its current
    version, else the state's pinned map with the state's corrections (built once)."""

    def __init__(self, campaign):
        self.campaign = campaign
        self.graphs: dict[tuple, object] = {}

    @staticmethod
    def key(state) -> tuple:
        pin = state.map_pin.model_dump_json() if state.map_pin is not None else None
        return pin, state.map_revision

    def graph(self, state):
        k = self.key(state)
        if k not in self.graphs:
            if k == self.key(self.campaign.state):
                self.graphs[k] = self.campaign.graph()
            else:
                self.graphs[k] = map_for(state.game, state.map_pin).graph(corrections_of(state))
        return self.graphs[k]


def _whatif_for(whatif: WhatIf, state) -> WhatIf:
    """The what-if for one past state: units named in ``without`` that did not exist then are
    simply absent."""
    return WhatIf(with_enemy=whatif.with_enemy, without=tuple(u for u in whatif.without if u in state.units))


def history_frame(campaign, sides=None, whatif: Optional[WhatIf] = None) -> pd.DataFrame:
    """Every unit's supply status at the end of each turn played (current turn included), one row
    per unit per turn, columns ``COLUMNS``; ``sides`` (a side id or several) limits the sides
    traced; ``whatif`` applies the same hypothetical changes to every turn (a unit it removes must
    exist in at least one of them). The campaign is never written."""
    wanted = checked_sides(campaign.state, sides)
    states = list(turn_states(campaign))
    if whatif:
        seen = set().union(*(s.units for _, s in states))
        for u in whatif.without:
            if u not in seen:
                raise CampaignError(f"--without {u!r}: no such unit in any turn of this campaign")
    graphs = GraphCache(campaign)
    rows = []
    for turn, state in states:
        world = world_of(state, graphs.graph(state))
        label = state.calendar.turn(turn).label
        turn_whatif = _whatif_for(whatif, state) if whatif else None
        for side in wanted:
            for t in trace_side(world, side, turn_whatif).items:
                rows.append(trace_row(t, turn, label))
    return frame_of(rows)


def counts_frame(df: pd.DataFrame) -> pd.DataFrame:
    """Supplied and unsupplied counts per turn and side of a ``history_frame`` (columns
    ``COUNT_COLUMNS``), every side of the frame at every turn of it (0 where it had no units)."""
    missing = [c for c in ("turn", "turn_label", "side", "supplied") if c not in df.columns]
    if missing:
        raise CampaignError(f"not a supply history frame: no column {', '.join(missing)}")
    turns = df[["turn", "turn_label"]].drop_duplicates("turn").sort_values("turn")
    sides = list(dict.fromkeys(df["side"]))
    grid = pd.MultiIndex.from_product([turns["turn"], sides], names=["turn", "side"])
    supplied = df["supplied"].astype(bool)
    got = pd.DataFrame({"supplied": supplied.astype("int64"), "unsupplied": (~supplied).astype("int64"),
                        "turn": df["turn"], "side": df["side"]}).groupby(["turn", "side"]).sum()
    out = got.reindex(grid, fill_value=0).reset_index()
    out.insert(1, "turn_label", out["turn"].map(dict(zip(turns["turn"], turns["turn_label"]))))
    return out[list(COUNT_COLUMNS)].astype({"supplied": "int64", "unsupplied": "int64"})
