"""Supply history for analysts: ``history_frame`` traces every unit at the end of
each turn played, from the event log, and ``counts_frame`` counts them per turn and side.

The game's rules are replaced by a tiny stand-in whose answer can be counted by hand (a unit is
linked when an HQ of its side is within 3 hexes, entering neither an enemy-held hex nor a hex the
players marked ``rail_cut``, a witp hex attribute the stand-in reads as a block), so these tests check the history plumbing — which state, which
graph, which what-if — independently of the witp rules (tested under tests/rules/witp)."""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx
import pandas as pd
import pytest

import assistant.aids.supply.engine as supply_engine
import assistant.rules.supply as supply_rules
from assistant.aids.supply.engine import WhatIf, trace_side, world_of
from assistant.aids.supply.history import COUNT_COLUMNS, counts_frame, history_frame, turn_ends
from assistant.aids.supply.rows import HISTORY_COLUMNS
from assistant.campaign import Campaign, CampaignError
from assistant.campaign.mapfix import corrections_of
from assistant.rules.supply import Trace

LIMIT = 3
HQ, NEAR, FAR, BESIDE = "E2519", "E2417", "E2016", "E2518"  # HQ; 2, 5 and 1 hexes from it
J_HQ, J_UNIT = "B3327", "B3226"  # Kure and a neighbour


@dataclass
class CountingRules:
    """Linked = an HQ of the side within LIMIT hexes; remembers the graph of every call."""

    game: str = "witp"
    graphs: list = field(default_factory=list)

    def trace(self, world, side, pieces):
        self.graphs.append(world.graph)
        net = world.net
        hqs = [p for p in world.of_side(side) if p.kind == "HQ"]
        enter = ~net.truthy("rail_cut")
        enter[net.nodes(p.hex for p in world.of_enemy(side))] = False
        res = net.search([net.index[p.hex] for p in hqs], enter=enter, limit=LIMIT)
        by_hex = {p.hex: p for p in hqs}
        out = []
        for p in pieces:
            i = net.index[p.hex]
            ok = res.reached(i)
            src = by_hex[net.labels[res.origin[i]]] if ok else None
            out.append(Trace(unit=p.id, hex=p.hex, side=side, supplied=ok, status="linked" if ok else "isolated",
                             kind=p.kind, role=p.role, path=res.path_labels(p.hex),
                             source={"unit": src.id, "hex": src.hex} if src else None,
                             length=float(res.dist[i]) if ok else None, limit=LIMIT, extra={"unit": "hexes"}))
        return out


@pytest.fixture
def rules(monkeypatch):
    r = CountingRules()
    monkeypatch.setattr(supply_rules, "rules_for", lambda game: r)
    monkeypatch.setattr(supply_engine, "rules_for", lambda game: r)
    return r


@pytest.fixture
def played(tmp_path, rules):
    """Three turns: u1 2 hexes from the allied HQ (linked), then 5 (isolated), then back at 2 but
    on a hex the players marked blocked (isolated); u2 beside the HQ throughout; Japan's unit beside
    its HQ. u3 arrives in the second turn."""
    c = Campaign.create(tmp_path / "h.campaign", game="witp")
    g = c.graph()
    assert nx.shortest_path_length(g, HQ, NEAR) == 2 and nx.shortest_path_length(g, HQ, FAR) == 5
    assert nx.shortest_path_length(g, HQ, BESIDE) == 1 and nx.shortest_path_length(g, J_HQ, J_UNIT) == 1
    c.place_unit("allies", "HQ", HQ, id="a-hq")
    c.place_unit("allies", "infantry division", NEAR, id="u1")
    c.place_unit("allies", "infantry division", BESIDE, id="u2")
    c.place_unit("japan", "HQ", J_HQ, id="j-hq")
    c.place_unit("japan", "infantry division", J_UNIT, id="j1")
    c.advance()
    c.move_unit("u1", FAR)
    c.place_unit("allies", "infantry division", HQ, id="u3")
    c.advance()
    c.move_unit("u1", NEAR)
    c.set_hex(NEAR, rail_cut="yes")
    yield c
    c.close()


def test_turn_ends_are_the_states_state_at_gives_for_each_turn(played):
    ends = turn_ends(played)
    t0 = ends[0][0]
    assert [t for t, _ in ends] == [t0, t0 + 1, t0 + 2]
    for turn, seq in ends:
        assert played.state_at(turn=turn).last_seq == seq
    assert ends[-1][1] == played.state.last_seq


def test_turn_ends_follow_an_undone_advance(played):
    played.advance()
    played.undo()  # back in the third turn: its end is now the undo
    ends = dict(turn_ends(played))
    t0 = min(ends)
    assert ends[t0 + 2] == played.state.last_seq == played.state_at(turn=t0 + 2).last_seq
    assert set(ends) == {t0, t0 + 1, t0 + 2, t0 + 3}  # the fourth turn was current once
    assert ends[t0 + 3] == played.state_at(turn=t0 + 3).last_seq


def test_history_frame_rows_per_unit_per_turn(played, rules):
    before = played.state.last_seq
    df = history_frame(played)
    assert tuple(df.columns) == HISTORY_COLUMNS
    assert played.state.last_seq == before  # nothing written
    t0 = int(df.turn.min())
    u1 = df[df.unit == "u1"].set_index("turn")
    assert list(u1.index) == [t0, t0 + 1, t0 + 2]
    assert list(u1.supplied) == [True, False, False]
    assert list(u1.status) == ["linked", "isolated", "isolated"]
    assert list(u1.hex) == [NEAR, FAR, NEAR]
    assert u1.loc[t0, "length"] == 2 and pd.isna(u1.loc[t0 + 1, "length"])
    assert u1.loc[t0, "source"] == "a-hq" and pd.isna(u1.loc[t0 + 1, "source"])
    assert u1.loc[t0, "turn_label"] == played.state.calendar.turn(t0).label
    assert list(df[df.unit == "u3"].turn) == [t0 + 1, t0 + 2]  # placed in the second turn
    assert list(df[df.unit == "j1"].supplied) == [True] * 3
    assert df[df.unit == "j1"].source.tolist() == ["j-hq"] * 3
    assert len(df) == 5 + 6 + 6
    # typed as the table supply_by_turn declares it (docs/data.md)
    assert df.dtypes["supplied"] == "boolean" and df.dtypes["length"] == "Float64" and df.dtypes["turn"] == "Int64"
    assert all(isinstance(df.dtypes[c], pd.CategoricalDtype) for c in ("side", "kind", "status", "turn_label"))
    assert df.dtypes["date"] == "datetime64[ns]"
    cal = played.state.calendar
    assert list(u1.date) == [pd.Timestamp(cal.first_day(t)) for t in (t0, t0 + 1, t0 + 2)]
    assert set(df.length_unit) == {"hexes"}  # the rules' unit of length (Trace.extra["unit"])


def test_each_turn_is_traced_on_its_own_maps_corrections_and_graphs_are_reused(played, rules, monkeypatch):
    from assistant.maps.gamemap import GameMap

    built = []
    real = GameMap.graph
    monkeypatch.setattr(GameMap, "graph", lambda self, *a, **k: built.append(1) or real(self, *a, **k))
    played._graph = None  # the campaign's own cache too
    rules.graphs.clear()
    history_frame(played)
    # two sides per turn, three turns; the first two turns share a map version, the third has the
    # correction: two graphs, each built once.
    assert len(rules.graphs) == 6
    assert rules.graphs[0] is rules.graphs[1] is rules.graphs[2] is rules.graphs[3]
    assert rules.graphs[4] is rules.graphs[5] and rules.graphs[4] is not rules.graphs[0]
    assert len(built) == 2
    assert "rail_cut" not in rules.graphs[0].nodes[NEAR] and rules.graphs[4].nodes[NEAR]["rail_cut"] is True
    assert rules.graphs[4] is played.graph()  # the current version is the campaign's own graph


def test_sides_limit_the_rows_and_an_unknown_side_is_one_error(played):
    df = history_frame(played, sides="japan")
    assert set(df.side) == {"japan"} and len(df) == 6
    assert set(history_frame(played, sides=["allies"]).side) == {"allies"}
    with pytest.raises(CampaignError, match="'germany' is not one of japan, allies"):
        history_frame(played, sides=["allies", "germany"])


def test_a_whatif_applies_to_every_turn_without_touching_the_campaign(played):
    before = played.state.last_seq
    cut = history_frame(played, whatif=WhatIf(with_enemy=((BESIDE, "japan"),)))
    assert list(cut[cut.unit == "u2"].supplied) == [False] * 3  # its own hex held by the enemy
    assert list(cut[cut.unit == "j1"].supplied) == [True] * 3
    no_hq = history_frame(played, whatif=WhatIf(without=("a-hq",)))
    assert "a-hq" not in set(no_hq.unit)
    assert not no_hq[no_hq.side == "allies"].supplied.any()
    late = history_frame(played, whatif=WhatIf(without=("u3",)))  # u3 exists in later turns only
    assert "u3" not in set(late.unit) and len(late) == 5 + 5 + 5
    with pytest.raises(CampaignError, match="'nobody'"):
        history_frame(played, whatif=WhatIf(without=("nobody",)))
    with pytest.raises(CampaignError, match="Z9999"):
        history_frame(played, whatif=WhatIf(with_enemy=(("Z9999", "japan"),)))
    assert played.state.last_seq == before


def test_history_agrees_with_tracing_each_state_at_turn(played):
    df = history_frame(played)
    for turn, _ in turn_ends(played):
        state = played.state_at(turn=turn)
        world = world_of(state, played.map.graph(corrections_of(state)))
        want = [(t.unit, t.supplied, t.status) for s in ("japan", "allies") for t in trace_side(world, s).items]
        got = df[df.turn == turn][["unit", "supplied", "status"]].itertuples(index=False)
        assert [tuple(r) for r in got] == want


def test_counts_frame_counts_per_turn_and_side(played):
    counts = counts_frame(history_frame(played))
    assert tuple(counts.columns) == COUNT_COLUMNS
    t0 = int(counts.turn.min())
    got = {(r.turn - t0, r.side): (r.supplied, r.unsupplied) for r in counts.itertuples()}
    assert got == {(0, "japan"): (2, 0), (0, "allies"): (3, 0),
                   (1, "japan"): (2, 0), (1, "allies"): (3, 1),
                   (2, "japan"): (2, 0), (2, "allies"): (3, 1)}


def test_counts_frame_fills_zeros_and_refuses_other_frames():
    df = pd.DataFrame({"turn": [1, 1, 2], "turn_label": ["a", "a", "b"], "side": ["x", "y", "x"],
                       "supplied": [True, False, False]})
    counts = counts_frame(df)
    assert counts.values.tolist() == [[1, "a", "x", 1, 0], [1, "a", "y", 0, 1],
                                      [2, "b", "x", 0, 1], [2, "b", "y", 0, 0]]
    assert counts_frame(df.iloc[:0]).empty
    with pytest.raises(CampaignError, match="no column supplied"):
        counts_frame(df.drop(columns="supplied"))


# ----- computed once and kept -------------------------------------------------------------------
# The reference below is the algorithm the history had before it was kept: every turn's end found
# from the parsed events, each state reloaded with ``state_at(seq=...)`` (a snapshot and a replay
# per turn), one graph per map version, every side traced. The kept history must give the very
# same frame, whatever was played, undone or corrected in between.
def reference_frame(campaign, sides=None, whatif=None) -> pd.DataFrame:
    from assistant.aids.supply.rows import trace_row, turn_date
    from assistant.aids.supply.tables import supply_frame
    from assistant.campaign.mappin import map_for

    records = campaign.events()
    ends: dict[int, int] = {}
    for i, rec in enumerate(records):
        ends[records[i + 1].turn if i + 1 < len(records) else campaign.state.turn.index] = rec.seq
    last = campaign.state.last_seq
    states = [(t, campaign.state if seq == last else campaign.state_at(seq=seq)) for t, seq in sorted(ends.items())]
    wanted = [s.id for s in campaign.state.sides] if sides is None else [sides] if isinstance(sides, str) else list(sides)
    if whatif:
        seen = set().union(*(s.units for _, s in states))
        for u in whatif.without:
            if u not in seen:
                raise CampaignError(f"--without {u!r}: no such unit in any turn of this campaign")
    current = (campaign.state.map_pin, campaign.state.map_revision)
    rows = []
    for turn, state in states:
        graph = (campaign.graph() if (state.map_pin, state.map_revision) == current
                 else map_for(state.game, state.map_pin).graph(corrections_of(state)))
        world = world_of(state, graph)
        label, date = state.calendar.turn(turn).label, turn_date(state.calendar, turn)
        w = (WhatIf(with_enemy=whatif.with_enemy, without=tuple(u for u in whatif.without if u in state.units))
             if whatif else None)
        for side in wanted:
            rows += [trace_row(t, turn, label, date) for t in trace_side(world, side, w).items]
    return supply_frame(rows)


@pytest.fixture
def traced(monkeypatch):
    """Counts the side-wide traces the history asks the engine for: (turn's last seq, side)."""
    calls = []
    real = supply_engine.trace_side

    def counting(world, side, whatif=None):
        calls.append(side)
        return real(world, side, whatif)

    monkeypatch.setattr(supply_engine, "trace_side", counting)
    return calls


def same(campaign, **kw) -> pd.DataFrame:
    got = history_frame(campaign, **kw)
    pd.testing.assert_frame_equal(got, reference_frame(campaign, **kw))
    return got


def test_the_kept_history_is_the_reference_through_moves_undo_redo_and_late_corrections(guadalcanal):
    """Real witp rules on the Guadalcanal scenario: after every step the kept history (the same
    campaign object, so its kept turns are reused) equals the per-turn reference."""
    c = guadalcanal
    same(c)
    c.move_unit("1st-marine-division", "E3301")  # into Japan's Kwajalein: cut
    same(c)
    c.advance()
    c.move_unit("37th-infantry-division", "E2418")  # a move across turns
    c.undo()
    c.redo()
    same(c)
    c.advance()
    c.set_hex("E2418", ground_mp=3)  # a late correction: made in the third turn, for a hex played since the first
    c.move_unit("1st-marine-division", "E2418")
    df = same(c)
    assert list(df[df.unit == "1st-marine-division"].status) == ["isolated", "isolated", "linked"]
    c.advance()
    c.undo()  # the advance undone: back in the third turn, whose end is now the undo
    same(c)
    c.move_unit("7th-defense-battalion", "E2418")
    same(c)
    whatif = WhatIf(with_enemy=(("E1737", "japan"),), without=("kure-ucs",))
    cut = same(c, whatif=whatif)
    assert "kure-ucs" not in set(cut.unit)
    same(c, sides="japan")
    same(c)  # the plain history again, after a what-if and one side


def test_a_second_call_traces_nothing_and_a_write_retraces_only_the_turns_whose_end_moved(played, traced):
    history_frame(played)
    assert len(traced) == 6  # three turns, two sides
    traced.clear()
    pd.testing.assert_frame_equal(history_frame(played), reference_frame(played))
    assert traced == []  # kept
    played.move_unit("u2", FAR)  # in the current (third) turn
    traced.clear()
    df = history_frame(played)
    assert len(traced) == 2  # the current turn only
    pd.testing.assert_frame_equal(df, reference_frame(played))
    played.advance()  # a fourth turn: the third keeps its end
    traced.clear()
    history_frame(played)
    assert len(traced) == 2


def test_an_undo_is_seen(played, traced):
    """Fails if the kept rows were not dropped when the undo moved the turn's end."""
    t0 = turn_ends(played)[0][0]
    before = history_frame(played)
    u1 = before[(before.unit == "u1") & (before.turn == t0 + 2)]
    assert list(u1.status) == ["isolated"]  # its hex marked rail_cut
    played.undo()  # the correction undone: u1 linked again at the end of the third turn
    after = same(played)
    assert list(after[(after.unit == "u1") & (after.turn == t0 + 2)].status) == ["linked"]
    pd.testing.assert_frame_equal(after[after.turn < t0 + 2], before[before.turn < t0 + 2])


def test_a_map_correction_is_seen_from_its_turn_on_and_earlier_turns_keep_their_own_map(played, traced):
    """Fails if the kept rows were not dropped: the correction cuts u2's hex in the current turn;
    the turns before it were played on the map without it, as the reference traces them."""
    t0 = turn_ends(played)[0][0]
    history_frame(played)
    played.set_hex(BESIDE, rail_cut="yes")
    traced.clear()
    df = history_frame(played)
    assert len(traced) == 2  # the current turn only (two sides)
    pd.testing.assert_frame_equal(df, reference_frame(played))
    u2 = df[df.unit == "u2"].set_index("turn")
    assert list(u2.supplied) == [True, True, False]
    assert u2.loc[t0 + 2, "status"] == "isolated"


def test_an_undone_advance_retraces_the_turn_it_went_back_to(played, traced):
    history_frame(played)
    played.advance()
    played.move_unit("u2", FAR)
    history_frame(played)
    played.undo()  # the move in the fourth turn
    played.undo()  # the advance: back in the third turn, whose end is now this undo
    traced.clear()
    df = history_frame(played)
    # the fourth turn now ends on the first undo (u2 back), the third on the second: those two
    assert len(traced) == 4
    pd.testing.assert_frame_equal(df, reference_frame(played))
    t0 = turn_ends(played)[0][0]
    assert sorted(set(df.turn)) == [t0, t0 + 1, t0 + 2, t0 + 3]  # the fourth turn was played once


def test_one_forward_pass_no_state_at(played, monkeypatch):
    """The states at the turns' ends come from one fold: no ``state_at`` and no snapshot reload
    per turn, and each event is read once."""
    import assistant.campaign.campaign as campaign_module
    from assistant.campaign.events import EventRecord

    monkeypatch.setattr(Campaign, "state_at", lambda *a, **k: pytest.fail("state_at called"))
    monkeypatch.setattr(campaign_module, "_load", lambda *a, **k: pytest.fail("a state reloaded"))
    parsed = []
    real = EventRecord.from_row.__func__
    monkeypatch.setattr(EventRecord, "from_row", classmethod(lambda cls, row: parsed.append(row[0]) or real(cls, row)))
    history_frame(played)
    assert len(parsed) == len(set(parsed)) <= played.state.last_seq


def test_turn_states_are_the_states_state_at_gives(played):
    played.advance()
    played.move_unit("u2", FAR)
    played.undo()
    played.undo()  # the advance: the third turn now ends after the fourth
    got = list(played.turn_states())
    assert [t for t, _ in got] == [t for t, _ in turn_ends(played)]
    for turn, state in got:
        want = played.state_at(turn=turn)
        assert state.last_seq == want.last_seq and state.units == want.units
        assert state.map_corrections == want.map_corrections
    # the fold may start from a state of the campaign (the history's newest kept): the same states
    first, *later = got
    again = list(played.turn_states(turns=[t for t, _ in later], start=first[1]))
    assert [(t, s.last_seq, s.units) for t, s in again] == [(t, s.last_seq, s.units) for t, s in later]


def test_kept_in_a_cache_folder_another_process_reads_the_turns_instead_of_tracing_them(played, traced, tmp_path):
    from assistant.aids.supply.history import forget

    keep = tmp_path / "cache"
    first = history_frame(played, keep=keep)
    assert len(traced) == 6
    forget(played)  # as a new process: nothing held in memory
    traced.clear()
    pd.testing.assert_frame_equal(history_frame(played, keep=keep), first)
    assert traced == []  # every turn read from the folder
    played.move_unit("u2", FAR)
    forget(played)
    traced.clear()
    pd.testing.assert_frame_equal(history_frame(played, keep=keep), reference_frame(played))
    assert len(traced) == 2  # the current turn, whose end moved
    forget(played)
    traced.clear()
    history_frame(played, keep=keep)
    assert traced == []  # and it was added to the folder
    with Campaign.open(played.path, readonly=True) as other:  # another process's campaign object
        pd.testing.assert_frame_equal(history_frame(other, keep=keep), reference_frame(played))
    assert traced == []


def test_turns_a_page_kept_serve_the_command_line_without_tracing(played, traced, tmp_path):
    """A page keeps each turn's rows alone (json); the first command-line call renders its CSV and
    text from them, tracing nothing, and prints what the reference frame holds."""
    from assistant.aids.supply.history import history_output

    keep = tmp_path / "cache"
    history_frame(played, keep=keep)  # as the page does
    traced.clear()
    with Campaign.open(played.path, readonly=True) as other:
        csv_out = history_output(other, "csv", keep=keep)
        text_out = history_output(other, "text", keep=keep)
    assert traced == []
    assert csv_out == reference_frame(played).to_csv(index=False)
    name = next(s.name for s in played.state.sides if s.id == "allies")
    assert f"  {name}: 4 traced (1 × isolated, 3 × linked)" in text_out.splitlines()  # the third turn, by hand


# ----- the chart's counts, kept per turn ---------------------------------------------------------
def test_the_charts_counts_come_from_each_turns_kept_counts_without_the_frame_of_every_row(played, traced,
                                                                                           monkeypatch):
    """``history(...).counts()`` is ``counts_frame`` of the whole frame, column for column, through
    writes, an undone advance, one side and a what-if -- and builds no frame of rows at all."""
    import assistant.aids.supply.frames as frames
    from assistant.aids.supply.history import history

    real, built = frames.frame_of, []
    monkeypatch.setattr(frames, "frame_of", lambda rows, *a: built.append(len(rows)) or real(rows, *a))

    def check(**kw):
        built.clear()
        got = history(played, **kw).counts()
        assert built == []  # no frame of the rows was made for the chart
        pd.testing.assert_frame_equal(got, counts_frame(reference_frame(played, **kw)))
        return got

    check()
    played.move_unit("u2", FAR)  # the current turn's end moves: its counts are counted again
    traced.clear()
    got = check()
    assert len(traced) == 2
    t0 = int(got.turn.min())
    assert got[(got.turn == t0 + 2) & (got.side == "allies")][["supplied", "unsupplied"]].values.tolist() == [[2, 2]]
    played.advance()
    played.undo()
    check()
    check(sides="japan")
    check(whatif=WhatIf(without=("u1",)))
    played.remove_unit("j1")
    played.remove_unit("j-hq")  # Japan has no units in the current turn now: a zero row for it there
    got = check()
    assert got[got.turn == played.state.turn.index].set_index("side")[["supplied", "unsupplied"]].loc["japan"].tolist() == [0, 0]
    assert counts_frame(history(played)).equals(got)  # counts_frame of a History: its counts


def test_the_charts_counts_of_a_campaign_with_nothing_to_trace(tmp_path, rules):
    from assistant.aids.supply.frames import frame_of
    from assistant.aids.supply.history import history

    with Campaign.create(tmp_path / "e.campaign", game="witp") as c:
        pd.testing.assert_frame_equal(history(c).counts(), counts_frame(frame_of([])))
        assert history(c).frame().empty


def test_the_turns_traced_are_written_to_the_cache_folder_after_the_call(played, traced, tmp_path):
    """The page's call returns before its turns are written (``save_later``); a read in this
    process waits for them, and once written another process finds every turn there."""
    import sqlite3

    from assistant.aids.supply import historystore
    from assistant.aids.supply.history import forget, history

    keep = tmp_path / "cache"
    history(played, keep=keep).counts()
    historystore.flush()  # what the end of the process or a later read does
    (db,) = keep.glob("witp-*.sqlite")
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM turn_rows").fetchone()[0] == 3 * 2  # every turn and side
    played.move_unit("u2", FAR)
    history(played, keep=keep)  # the current turn queued ...
    forget(played)
    traced.clear()
    pd.testing.assert_frame_equal(history_frame(played, keep=keep), reference_frame(played))  # ... and read back
    assert traced == []


def test_a_cache_write_that_fails_is_logged_never_raised(tmp_path, caplog):
    from assistant.aids.supply import historystore

    store = historystore.HistoryStore(tmp_path / "cache", "witp", "0" * 64)

    def broken():
        raise ValueError("no rows")

    store.save_later(broken)
    historystore.flush()
    assert "not written" in caplog.text
    store.close()
