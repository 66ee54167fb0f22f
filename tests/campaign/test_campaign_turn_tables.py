"""The campaign layer's analysts' tables on campaigns of several turns built with the Python API:
``units_by_turn`` and ``control_by_turn`` hold, turn by turn, what the state at the end of each turn
holds; ``turns=`` limits them; unit attributes are typed columns where a game declares them and JSON
otherwise; ``events`` spreads each payload's single values over columns; ``campaign control --csv``
prints what the export writes."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from assistant.campaign import CampaignError
from assistant.campaign.control import control_of
from assistant.campaign.exporttables import spec
from assistant.cli import main
from campaignkit import file_fingerprint, saved_before_values_were_checked
from turnkit import GAMES, played


@pytest.fixture(params=sorted(GAMES))
def game(request, tmp_path):
    c, ids = played(tmp_path / f"{request.param}.campaign", request.param)
    yield request.param, c, ids
    c.close()


def test_units_by_turn_is_each_turns_end_state(game):
    name, c, ids = game
    g = GAMES[name]
    df = c.table("units_by_turn")
    states = list(c.turn_states())
    assert [t for t, _ in states] == [0, 1, 2]
    assert df["turn"].tolist() == sorted(df["turn"].tolist())
    for t, s in states:
        rows = df[df["turn"] == t]
        assert dict(zip(rows["id"], rows["hex"])) == {u.id: u.hex for u in s.units.values()}
        assert set(rows["turn_label"]) == {s.calendar.turn(t).label}
        assert set(rows["date"].dt.date) == {s.calendar.first_day(t)}
    first = df[df["id"] == ids["first"]].set_index("turn")
    assert first["hex"].tolist() == [g["a"], g["b"], g["b"]]  # moved in turn 1: the old hex at turn 0's row
    second = df[df["id"] == ids["second"]]
    assert second["turn"].tolist() == [0, 1]  # removed in turn 2
    (key, before), = ((k, g["attrs"][k]) for k in g["update"])
    after = g["update"][key]
    typed = first[key].tolist()
    assert typed[1:] == [after, after] and typed[0] == pytest.approx(0.5 if before == "1/2" else before)
    assert first["attrs"].map(json.loads).tolist() == [{"mine": "x"}] * 3  # the player's own note
    section, col, row = c.map.grid.split(g["a"])
    assert (first.loc[0, "hex_section"], first.loc[0, "hex_col"], first.loc[0, "hex_row"]) == (section, col, row)


def test_turns_limit_the_per_turn_tables_in_every_form_of_a_label(game):
    name, c, _ = game
    cal = c.state.calendar
    label = cal.turn(1).label
    short = label.split(" ", 1)[1] if name == "witp" else label  # witp prints "G/T 1/13/41"; "1/13/41" names it
    for turns in ([label], label, short, 1, range(1, 2)):
        df = c.table("units_by_turn", turns=turns)
        assert set(df["turn"]) == {1}, turns
        assert len(df) == 2
    both = c.table("units_by_turn", turns=range(1, 3))
    assert set(both["turn"]) == {1, 2}
    ctl = c.table("control_by_turn", turns=[0, 2])
    assert set(ctl["turn"]) == {0, 2}
    assert set(c.tables(turns=[2])["units_by_turn"]["turn"]) == {2}
    with pytest.raises(CampaignError, match="turns"):
        c.table("units_by_turn", turns=["Turn of the tide"])


def test_control_by_turn_is_each_turns_settings(game):
    name, c, _ = game
    g = GAMES[name]
    df = c.table("control_by_turn")
    for t, s in c.turn_states():
        rows = df[df["turn"] == t]
        ctl = control_of(s)
        want = {("hex", h, v) for h, v in ctl.hexes.items()} | {("region", r, v) for r, v in ctl.regions.items()}
        assert set(zip(rows["scope"], rows["target"], rows["holder"])) == want
    assert set(zip(df["turn"], df["target"], df["holder"])) >= {
        (0, g["a"], g["side"]), (1, g["a"], g["side"]), (2, g["a"], g["other"]), (2, "Test Reach", g["side"])}
    names = {s.id: s.name for s in c.state.sides}
    assert (df["holder_name"] == df["holder"].astype(str).map(names)).all()


def test_units_have_the_same_columns_in_every_game(tmp_path):
    from assistant.campaign import Campaign

    frames = []
    for name in GAMES:
        with Campaign.create(tmp_path / f"{name}.campaign", game=name) as c:
            frames.append(c.table("units_by_turn"))
    assert all(list(f.columns) == list(frames[0].columns) for f in frames)
    assert all((f.dtypes.astype(str) == frames[0].dtypes.astype(str)).all() for f in frames)


def test_attribute_columns_follow_the_games_declarations():
    from assistant.rules.kinds import load_kinds

    cols = {c.name: c for c in spec("units").columns}
    assert cols["sea_radius"].kind == "int" and cols["sea_radius"].unit == "overwater hexes"
    assert "witp [29.1]" in cols["sea_radius"].rule
    assert cols["hq_type"].kind == "category" and cols["strength"].kind == "float"
    assert cols["carrier"].kind == "text"  # yes/no in witp, the carrier's name in apto
    assert cols["steps"].kind == "int" and "apto" in cols["steps"].rule and "witp" in cols["steps"].rule
    for game in GAMES:
        for kind in load_kinds(game).values():
            for attr in kind.specs:
                assert attr in cols, (game, kind.kind, attr)


def test_a_value_not_of_its_columns_kind_stays_in_attrs(witp, tmp_path):
    witp.place_unit("allies", "HQ", "E2519", name="Odd HQ", nation="australia",
                    attrs={"hq_type": "army", "sea_radius": 3})
    c = saved_before_values_were_checked(witp, tmp_path / "old.campaign", "odd-hq", sea_radius="wide")
    try:
        row = c.table("units").set_index("id").loc["odd-hq"]
        assert pd.isna(row["sea_radius"]) and json.loads(row["attrs"]) == {"sea_radius": "wide"}
        assert row["hq_type"] == "army"
    finally:
        c.close()


def test_events_spread_single_values_over_columns(game):
    name, c, ids = game
    g = GAMES[name]
    ev = c.table("events").set_index("seq")
    moved = ev[ev["type"] == "unit_moved"].iloc[0]
    assert (moved["unit_id"], moved["hex"], moved["from_hex"]) == (ids["first"], g["b"], g["a"])
    assert pd.isna(moved["payload"])  # nothing left over
    placed = ev[ev["type"] == "unit_placed"].iloc[0]
    assert (placed["unit_id"], placed["unit_hex"], placed["unit_side"]) == (ids["first"], g["a"], g["side"])
    assert json.loads(placed["payload"]) == {"unit": {"attrs": g["attrs"]}}  # a mapping stays JSON
    note = ev[ev["type"] == "note_added"].iloc[0]
    assert note["text"] == "=1+1 opening moves" and note["note_id"] == 1
    advanced = ev[ev["type"] == "turn_advanced"].iloc[0]
    assert (advanced["before_index"], advanced["after_index"], advanced["step"]) == (0, 1, "turn")
    ctl = ev[ev["type"] == "control_set"].iloc[0]
    assert ctl["scope"] == "hex" and json.loads(ctl["payload"]) == {"targets": [g["a"]], "holders": [g["side"]],
                                                                      "before": [None]}
    assert str(ev["after_index"].dtype) == "Int64" and str(ev["step"].dtype) == "category"


@pytest.mark.needs_aid("strike")
def test_a_field_two_event_types_type_differently_is_text():
    cols = {c.name: c for c in spec("events").columns}
    assert cols["target"].kind == "text"  # undo's event number, a strike's hex
    assert "target (int) of redone, undone" in cols["target"].doc and "target (text) of strike" in cols["target"].doc
    assert cols["unit_id"].kind == "text" and cols["note_id"].kind == "int"


def test_event_columns_hold_single_values_and_own_names_are_not_taken(witp):
    from assistant.campaign.export import EVENT_OWN

    cols = {c.name: c for c in spec("events").columns}
    own = {c.name for c in EVENT_OWN}
    payload_cols = [n for n in cols if n not in own and n != "payload"]
    assert payload_cols and not set(payload_cols) & own
    witp.place_unit("allies", "division", "E2519", name="Undone one")
    witp.undo()
    ev = witp.table("events")
    undone = ev[ev["type"] == "undone"].iloc[0]
    assert str(undone["target"]) == str(int(ev[ev["type"] == "unit_placed"]["seq"].iloc[0]))
    assert json.loads(undone["payload"])["apply"]["type"] == "unit_removed"


def test_a_payload_field_named_like_an_own_column_gets_p(monkeypatch):
    from typing import ClassVar

    from assistant.campaign import eventcolumns
    from assistant.campaign.events import EVENT_TYPES, EventBody

    class Clash(EventBody):
        type: ClassVar[str] = "clash_for_test"
        time: str
        seq: int

    monkeypatch.setitem(EVENT_TYPES, "clash_for_test", Clash)
    cols, paths = eventcolumns.layout(frozenset({"time", "seq"}))
    names = {c.name for c in cols}
    assert {"p_time", "p_seq"} <= names and not {"time", "seq"} & names
    assert eventcolumns.flatten({"time": "noon", "seq": 3}, paths["clash_for_test"],
                                {c.name: c.kind for c in cols}) == ({"p_time": "noon", "p_seq": 3}, None)


# ----- campaign control --csv ------------------------------------------------------------------
def test_cli_control_csv_prints_what_export_writes(game, tmp_path, capsys):
    name, c, _ = game
    path = str(c.path)
    (out,) = [p for p in c.export(tmp_path / "x", "csv") if p.name.endswith("-control_by_turn.csv")]
    c.close()
    capsys.readouterr()
    assert main(["control", path, "--csv"]) in (0, None)
    printed = capsys.readouterr().out
    assert printed == out.read_text(encoding="utf-8")
    assert printed.splitlines()[0] == "turn,turn_label,date,scope,target,holder,holder_name"
    assert len(printed.splitlines()) == 1 + 5


@pytest.mark.parametrize("extra", [["--hex", "E2519", "--side", "japan"], ["--at", "E2519"], ["--json"],
                                   ["--clear"]])
def test_cli_control_csv_goes_alone(witp, capsys, extra):
    path = str(witp.path)
    witp.close()
    before = file_fingerprint(witp.path)
    assert main(["control", path, "--csv", *extra]) == 2
    err = capsys.readouterr().err
    assert "--csv prints the settings of every turn; give it alone" in err and len(err.strip().splitlines()) == 1
    assert file_fingerprint(witp.path) == before
