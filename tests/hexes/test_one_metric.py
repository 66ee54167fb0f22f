"""One metric, so that the ruler, the hex graph and the CLI never disagree. ``Grid.distance`` is
the number of hexes counted across the map (an on-map shortest path, section joins, seam links and
the wrap included), the same number networkx finds over the grid's neighbour graph; sections the
rules join leave no sliver."""

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.hexes import HexError
from assistant.hexes import axial as ax
from assistant.maps import list_games, load_game_spec, load_map
from assistant.maps.calibration import fixture_holds

GAMES = list_games()
_GRAPHS: dict = {}


def graph(game) -> nx.Graph:
    """networkx's own view of the map: one node per hex, an edge per stated adjacency."""
    if game not in _GRAPHS:
        g = load_map(game).grid
        G = nx.Graph()
        G.add_nodes_from(g.all_hexes)
        G.add_edges_from((h, n) for h in g.all_hexes for n in g.neighbors(h))
        _GRAPHS[game] = G
    return _GRAPHS[game]


@pytest.mark.parametrize("game", GAMES)
def test_networkx_shortest_path_equals_grid_distance(game):
    g = load_map(game).grid
    G = graph(game)
    hexes = st.sampled_from(g.all_hexes)

    @settings(max_examples=300, deadline=None, derandomize=True)
    @given(hexes, hexes)
    def check(a, b):
        assert g.distance(a, b) == nx.shortest_path_length(G, a, b), (g.label(a), g.label(b))

    check()


@pytest.mark.parametrize("game", GAMES)
def test_line_is_an_on_map_path_of_that_length(game):
    g = load_map(game).grid
    hexes = st.sampled_from(g.all_hexes)

    @settings(max_examples=150, deadline=None, derandomize=True)
    @given(hexes, hexes)
    def check(a, b):
        path = g.line(a, b)
        assert len(path) == g.distance(a, b) + 1 and path[0] == a and path[-1] == b
        assert all(g.contains(h) for h in path)
        assert all(y in g.neighbors(x) for x, y in zip(path, path[1:]))

    check()


# Pairs whose straight lattice line leaves the map at a concave corner (found by sampling; the
# numbers are networkx's, checked below): the lattice ruler would say 38 and 28.
CONCAVE = [("witp", "A0752", "C0744", 38), ("apto", "I 3388", "W 6002", 28)]


@pytest.mark.parametrize("game,a,b,lattice", CONCAVE)
def test_a_concave_corner_is_walked_round_not_cut(game, a, b, lattice):
    g = load_map(game).grid
    ha, hb = g.parse(a), g.parse(b)
    assert g.lattice_distance(ha, hb) == lattice
    d = g.distance(ha, hb)
    assert d == nx.shortest_path_length(graph(game), ha, hb) > lattice
    assert len(g.line(ha, hb)) == d + 1


@pytest.mark.parametrize("game", GAMES)
def test_range_and_ring_use_the_same_metric(game):
    g = load_map(game).grid
    G = graph(game)
    sample = g.all_hexes[::401]
    assert len(sample) >= 6, len(sample)
    for h in sample:
        want = nx.single_source_shortest_path_length(G, h, cutoff=4)
        assert set(g.range(h, 4)) == set(want)
        assert set(g.ring(h, 4)) == {x for x, d in want.items() if d == 4}


@pytest.mark.parametrize("game", GAMES)
def test_no_off_map_sliver_between_sections(game):
    """[2.1.3] (witp: the sections overlap), apto W/E seam, globalwar W/E + wrap: no off-map hex
    lies in a strip between map hexes. A strip hex has map hexes within two steps on both sides
    along at least two of the three lattice axes (the D-E and F-G slivers of the first witp
    calibration, one and two rows high, had them along all three); a hex in the notch of a
    concave map corner has them along one axis at most."""
    g = load_map(game).grid
    axes = [(ax.DIRECTIONS[i], ax.DIRECTIONS[i + 3]) for i in range(3)]
    candidates = {n for h in g.all_hexes for n in ax.disk(h, 2) if not g.contains(n)}
    assert len(candidates) > 100  # every map has an edge: the check below has hexes to look at
    slivers = []
    for h in candidates:
        blocked = sum(
            any(g.contains(h + d.scale(k)) for k in (1, 2)) and any(g.contains(h + e.scale(k)) for k in (1, 2))
            for d, e in axes)
        if blocked >= 2:
            slivers.append(tuple(h))
    assert not slivers, f"{len(slivers)} off-map hexes in strips between map hexes, e.g. {sorted(slivers)[:5]}"


@pytest.mark.parametrize("game", GAMES)
def test_every_rulebook_fixture_still_holds(game):
    spec = load_game_spec(game)
    g = load_map(game).grid
    assert [f"{f.a}-{f.b} {f.rule}" for f in spec.fixtures if not fixture_holds(g, f)] == []


def test_off_map_hex_is_a_one_line_error():
    g = load_map("witp").grid
    with pytest.raises(HexError, match=r"off the witp map") as e:
        g.distance(g.parse("B2048"), (900, 900))
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("game", GAMES)
def test_the_o1_block_test_answers_only_where_the_straight_line_stays_on_the_map(game):
    """The fast path's claim, checked hex by hex on a fresh grid (its block table built)."""
    import random

    from assistant.hexes import Grid
    g = Grid(load_map(game).grid.spec)
    g._calls = Grid.BLOCKS_AFTER
    rnd = random.Random(7)
    claimed = 0
    for _ in range(4000):
        a, b = rnd.choice(g.all_hexes), rnd.choice(g.all_hexes)
        image = g._nearest_image(a, b)
        if g._in_blocks(a, image):
            claimed += 1
            assert g._straight_on_map(a, b) is not None, (g.label(a), g.label(b))
    assert claimed > 2000  # the fast path carries most pairs (the benchmark gives the shares)
