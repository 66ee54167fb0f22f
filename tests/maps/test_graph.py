"""The hex graph and hexsides as data."""

from __future__ import annotations

import re

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.maps.gamemap import GameMap, load_map
from assistant.maps.gamespec import list_games, load_game_spec
from assistant.maps.graph import MapCorrections
from assistant.maps.hexsides import HexsideError, check_features, feature_vocabulary, hexside_id, load_hexside_rows
from rulebooks import one_line, text

GAMES = list_games()


def fresh_map(game: str) -> GameMap:
    """A GameMap of its own, so caches and corrections of one test never leak into another."""
    return GameMap(load_game_spec(game))


@pytest.mark.parametrize("game", GAMES)
def test_graph_is_the_grid(game):
    """Every hex once, by canonical label; edges are exactly Grid.neighbors (joins, seams, wrap)."""
    gm = load_map(game)
    g = gm.graph()
    grid = gm.grid
    assert g.number_of_nodes() == len(grid.all_hexes)
    for h in grid.all_hexes:
        label = grid.label(h)
        assert set(g[label]) == {grid.label(n) for n in grid.neighbors(h)}, label
    assert nx.is_connected(g)


@pytest.mark.parametrize("game", GAMES)
def test_node_attributes_are_the_derived_map(game):
    gm = load_map(game)
    g = gm.graph()
    labels = list(gm.hexes.index[:: max(1, len(gm.hexes) // 200)])
    assert len(labels) >= 200, len(labels)
    for label in labels:
        node = g.nodes[label]
        info = gm.where(label)
        assert node["surface"] == info.surface
        assert node["source"] == info.source
        h = gm.parse(label)
        assert (node["q"], node["r"]) == tuple(h)


def test_corrections_win_and_leave_the_base_graph_alone():
    gm = fresh_map("witp")
    base = gm.graph()
    assert base.nodes["B2048"]["surface"] == "coastal"  # Manila, on Manila Bay [40.3.2]
    fixed = gm.graph(MapCorrections(hexes={"B2048": {"surface": "land", "port": 3}},
                                    hexsides={"B1949|B2048": {"corregidor_battery": False}}))
    assert fixed.nodes["B2048"]["surface"] == "land"
    assert fixed.nodes["B2048"]["port"] == 3
    assert fixed.nodes["B2048"]["source"] == "user"
    # overland: land (Bataan) crosses this hexside, from the land mask (maps/landlinks.py)
    assert fixed.edges["B1949", "B2048"] == {"overland": True, "corregidor_battery": False, "source": "user"}
    # the shared base graph is untouched
    assert base.nodes["B2048"]["surface"] == "coastal"
    assert base.edges["B1949", "B2048"]["corregidor_battery"] is True


def test_graphs_are_cached_per_correction_content():
    gm = fresh_map("apto")
    a = MapCorrections(hexes={"W 3021": {"surface": "land"}})
    same = MapCorrections(hexes={"W 3021": {"surface": "land"}})
    other = MapCorrections(hexes={"W 3021": {"surface": "sea"}})
    assert gm.graph() is gm.graph(MapCorrections())
    assert gm.graph(a) is gm.graph(same)
    assert gm.graph(a) is not gm.graph(other)
    assert gm.graph(other).nodes["W 3021"]["surface"] == "sea"


def test_graph_is_frozen_and_its_attributes_read_only():
    g = load_map("globalwar").graph()
    with pytest.raises(nx.NetworkXError):
        g.add_node("X")
    node = next(iter(g))
    with pytest.raises(TypeError):
        g.nodes[node]["surface"] = "sea"

    a, b = next(iter(g.edges))
    with pytest.raises(TypeError):
        g.edges[a, b]["overland"] = False


@pytest.mark.parametrize("game", ["witp", "apto"])
def test_a_hexs_attributes_are_its_row_of_the_columns_its_dict_held(game):
    """Each hex's attributes are read from the map's columns (``HexAttrs``, ~56 bytes a hex, not a
    dict each): the same keys in the same order and the very values of the dict they replace."""
    from assistant.maps import graph as G

    gm = fresh_map(game)
    table = G.hex_table(gm)
    dicts = G._node_attributes(gm, G._labels(gm, gm.grid.all_hexes, table), table)
    topo = G.topology(gm)
    assert all(type(a) is G.HexAttrs for a in topo.nodes.values())
    assert list(topo.nodes) == list(dicts)
    for lab, d in dicts.items():
        row = topo.nodes[lab]
        assert list(row.items()) == list(d.items()) and [type(v) for v in row.values()] == [type(v) for v in d.values()]
    row = topo.nodes[lab]
    assert row.get("no such attribute") is None and "no such attribute" not in row and row == dict(d)
    with pytest.raises(KeyError):
        row["no such attribute"]


def test_hexsides_share_their_read_only_features():
    """A map's ~83,000 hexsides mostly carry nothing or only ``overland``: a few shared read-only
    mappings, each hexside's the features ``build_graph`` merges (derived, rulebook, corrections)."""
    gm = fresh_map("witp")
    g = gm.graph()
    data = [d for _, _, d in g.edges(data=True)]
    assert len({id(d) for d in data}) < 50 < len(data)
    assert sum(1 for d in data if d == {}) > 1000 and sum(1 for d in data if d == {"overland": True}) > 1000
    assert g.edges["B1949", "B2048"] == {"overland": True, "corregidor_battery": True, "source": "rulebook"}


# ----- hexsides stated by the rulebooks --------------------------------------------------------
def test_witp_corregidor_hexside_40_3_2():
    """[40.3.2]/[45.3.3]: "no Japanese ship may traverse the hexside between B1949 (Bataan) and
    B2048 (Manila)" while Corregidor's battery survives."""
    g = load_map("witp").graph()
    # overland: land (Bataan) crosses this hexside, from the land mask (maps/landlinks.py)
    assert g.edges["B1949", "B2048"] == {"overland": True, "corregidor_battery": True, "source": "rulebook"}
    # the one hexside the text states; every other carries at most the derived overland feature
    assert sum(1 for *_, d in g.edges(data=True) if set(d) - {"overland"}) == 1


def test_apto_rail_hexsides_5_8_and_clarifications():
    g = load_map("apto").graph()
    for a, b in [("W 2609", "W 2709"), ("W 3507", "W 3508"), ("W 5332", "W 5232")]:  # [5.8] examples
        assert g.edges[a, b]["rail"] is True
    assert g.edges["W 3710", "W 3711"]["river"] is True  # [1.7]
    assert g.edges["E 4632", "E 4732"]["not_land_connected"] is True  # "Map Clarifications"
    assert g.edges["W 4733", "W 4832"]["not_land_connected"] is True
    # [3.3] Soya Strait W 5433 - E 0734: the seam link across the two maps
    assert g.edges["W 5433", "E 0734"]["strait"] == "Soya Strait"


@pytest.mark.parametrize("game", GAMES)
def test_every_stated_hexside_is_a_feature_of_the_vocabulary(game):
    gm = load_map(game)
    vocab = feature_vocabulary(gm.spec)
    rows = list(load_hexside_rows(gm.spec, gm.grid))
    assert (len(rows) > 0) == (game != "globalwar"), len(rows)  # globalwar's text names no hexside
    for row in rows:
        assert row.feature in vocab, row


@pytest.mark.parametrize("game", GAMES)
def test_every_stated_hexside_quotes_its_rulebook(game):
    """Each row of hexsides.csv is the rulebook's own words (quote found verbatim in the text), and
    each rule it cites is its feature's or the rulebook's."""
    gm = load_map(game)
    book = text(game)
    vocab = feature_vocabulary(gm.spec)
    for row in load_hexside_rows(gm.spec, gm.grid):
        assert one_line(row.quote) in book, row
        for ref in re.findall(r"\[[\d.]+\]", row.rule):
            assert ref in vocab[row.feature].rule or ref in book, (row, ref)


@pytest.mark.parametrize("game", GAMES)
def test_vocabulary_cites_rules(game):
    vocab = feature_vocabulary(load_game_spec(game))
    assert vocab, game
    for f in vocab.values():
        assert f.type in ("bool", "int", "str")
        assert re.search(r"\[\d", f.rule) or "Clarifications" in f.rule, f


# ----- bad hexside data: one line naming the bad value ------------------------------------------
def _csv(tmp_path, *rows):
    p = tmp_path / "hexsides.csv"
    p.write_text("hex_a,hex_b,feature,value,rule,quote\n" + "".join(r + "\n" for r in rows), encoding="utf-8")
    return p


@pytest.mark.parametrize("row, message", [
    ("B1949,B2050,mountain,true,[5.1.8],x", "line 2: B1949 and B2050 are not adjacent"),
    ("B1949,B2048,volcano,true,[5.1.8],x", "line 2: unknown hexside feature 'volcano'"),
    ("B1949,B2048,mountain,maybe,[5.1.8],x", "line 2: hexside feature 'mountain' takes true/false, not 'maybe'"),
    ("B1949,B2048,mountain,true,,x", "line 2: every row names the rule"),
    ("B1949,Z2048,mountain,true,[5.1.8],x", "line 2:"),
    ("B1949,B1949,mountain,true,[5.1.8],x", "line 2: B1949 and B1949 are the same hex"),
])
def test_bad_hexside_rows_name_line_and_value(tmp_path, row, message):
    gm = load_map("witp")
    with pytest.raises(HexsideError) as e:
        load_hexside_rows(gm.spec, gm.grid, _csv(tmp_path, row))
    assert message in str(e.value)
    assert "\n" not in str(e.value)


def test_bad_hexside_header(tmp_path):
    gm = load_map("witp")
    p = tmp_path / "hexsides.csv"
    p.write_text("a,b,feature\n", encoding="utf-8")
    with pytest.raises(HexsideError, match="header must be"):
        load_hexside_rows(gm.spec, gm.grid, p)


def test_check_features_coerces_and_names_bad_values():
    spec = load_game_spec("globalwar")
    assert check_features(spec, {"mountain": "yes", "border": " Spain/France "}) == {
        "mountain": True, "border": "Spain/France"}
    with pytest.raises(HexsideError, match="unknown hexside feature 'river' in globalwar"):
        check_features(spec, {"river": "true"})


def test_hexside_id_is_canonical_and_symmetric():
    grid = load_map("witp").grid
    assert hexside_id(grid, "b2048", "B1949") == hexside_id(grid, "B1949", "B2048") == "B1949|B2048"


# ----- one metric: the graph and the ruler agree -----------------------------------------------
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_graph_shortest_path_is_grid_distance(game, data):
    gm = load_map(game)
    g = gm.graph()
    hexes = gm.grid.all_hexes
    a = data.draw(st.sampled_from(hexes))
    b = data.draw(st.sampled_from(hexes))
    assert nx.shortest_path_length(g, gm.grid.label(a), gm.grid.label(b)) == gm.grid.distance(a, b)


@pytest.mark.parametrize("game", GAMES)
def test_the_graph_s_hex_attributes_are_the_derived_table_s_as_pandas_reads_it(game):
    """The graph reads the derived per-hex table with the csv module (a one-unit trace imports no
    pandas); every hex's attributes are the values, and the types, of ``GameMap.hexes``."""
    from assistant.maps.graph import hex_table

    gm = fresh_map(game)
    labels, cols = hex_table(gm)
    df = gm.hexes
    assert labels == df.index.tolist()
    assert set(cols) == set(df.columns)
    for c in df.columns:
        want = df[c].tolist()
        assert cols[c] == want, c
        assert [type(v) for v in cols[c]] == [type(v) for v in want], c
    g = gm.graph()
    for lab, *vals in zip(df.index.tolist(), *(df[c].tolist() for c in df.columns)):
        node = g.nodes[lab]
        for c, v in zip(df.columns, vals):
            if v != "":  # an empty cell is None, or a derived territory's value (graph.py)
                assert node[c] == v and type(node[c]) is type(v), (lab, c)
