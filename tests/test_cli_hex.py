"""``campaign games|hex|map``: JSON shapes, labels in the game's style, errors."""

import json
import subprocess
import sys

import pytest

from assistant.cli import main
from assistant.maps import list_games, load_game_spec


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv):
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def test_games(capsys):
    d = run_json(capsys, "games")
    assert [(g["id"], g["title"]) for g in d["games"]] == [(g, load_game_spec(g).title) for g in list_games()]


def test_distance_text_and_json(capsys):
    assert run(capsys, "hex", "distance", "apto", "W 3021", "W 3825")[1].strip() == "8"  # [2.2]
    d = run_json(capsys, "hex", "distance", "witp", "b1949", "B2048")
    assert d["distance"] == 1 and d["path"] == ["B1949", "B2048"]


def test_distance_path_crosses_section_joins(capsys):
    d = run_json(capsys, "hex", "distance", "witp", "A3210", "E2418")
    assert len(d["path"]) == d["distance"] + 1
    assert {p[0] for p in d["path"]} >= {"A", "E"}


def test_distance_walks_round_a_concave_map_corner(capsys):
    """One metric: the CLI counts hexes across the map, like the ruler and the hex graph;
    the straight lattice line A0752-C0744 (38 hexes) leaves the map west of section C."""
    import networkx as nx

    from assistant.maps import load_map
    g = load_map("witp").grid
    d = run_json(capsys, "hex", "distance", "witp", "A0752", "C0744")
    G = nx.Graph((h, n) for h in g.all_hexes for n in g.neighbors(h))
    assert d["distance"] == nx.shortest_path_length(G, g.parse("A0752"), g.parse("C0744")) > 38
    assert len(d["path"]) == d["distance"] + 1
    hexes = [g.parse(x) for x in d["path"]]  # every step a printed hex, each next to the last
    assert all(y in g.neighbors(x) for x, y in zip(hexes, hexes[1:]))


def test_neighbors_in_game_style(capsys):
    d = run_json(capsys, "hex", "neighbors", "apto", "w6134")
    assert "E 0135" in d["neighbors"] and "W 6033" in d["neighbors"]  # [5.15]


def test_where_and_locate(capsys):
    d = run_json(capsys, "hex", "where", "witp", "E2418")
    assert set(d) >= {"hex", "lat", "lon", "surface", "place"}
    assert d["place"] == "Guadalcanal" and d["surface"] in ("coastal", "land")
    d2 = run_json(capsys, "hex", "locate", "witp", str(d["lat"]), str(d["lon"]))
    assert d2["hex"] == "E2418"


def test_map_info_shape(capsys):
    d = run_json(capsys, "map", "info", "witp")
    assert d["game"] == "witp" and len(d["sections"]) == 7
    for s in d["sections"]:
        assert set(s) >= {"section", "hexes", "anchors", "rms", "max"}
    gw = run_json(capsys, "map", "info", "globalwar")
    assert gw["chosen_model"] in ("straight_rows", "straight_columns") and gw["wrap"]


@pytest.mark.parametrize("argv,needle", [
    (["hex", "distance", "nope", "A", "B"], "'nope'"),
    (["hex", "where", "witp", "B9999"], "'B9999'"),
    (["hex", "where", "witp", "Q1010"], "'Q1010'"),
    (["hex", "neighbors", "apto", "W 45"], "'W 45'"),
    (["hex", "locate", "witp", "north", "3"], "'north'"),
    (["hex", "locate", "witp", "95", "3"], "95"),
    (["map", "info", "witp", "--model", "spiral"], "'spiral'"),
])
def test_bad_input_is_one_error_line_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and needle in err
    assert "Traceback" not in err


def test_module_entry_point_has_no_traceback_on_error():
    p = subprocess.run([sys.executable, "-m", "assistant.cli", "hex", "where", "witp", "ZZ"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.startswith("error: ") and "Traceback" not in p.stderr
