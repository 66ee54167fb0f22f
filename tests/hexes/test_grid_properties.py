"""Property tests on the real game grids: labels, metric, line, range, pixel picking."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.hexes import HexError, axial
from assistant.maps import list_games, load_map

GAMES = list_games()


def hex_of(game):
    hexes = load_map(game).grid.all_hexes
    return st.sampled_from(hexes)


@pytest.mark.parametrize("game", GAMES)
def test_every_hex_label_round_trips(game):
    g = load_map(game).grid
    assert len(g.all_hexes) > 1000
    for h in g.all_hexes:
        assert g.parse(g.label(h)) == h


@pytest.mark.parametrize("game, style", [("witp", r"^[A-G]\d{4}$"), ("apto", r"^[WEI] \d{4}$"),
                                         ("globalwar", r"^[WE]\d{4}$")])
def test_labels_print_in_the_games_style(game, style):
    g = load_map(game).grid
    label = g.label(g.all_hexes[100])
    assert __import__("re").match(style, label), label


@pytest.mark.parametrize("text", ["b2048", " B2048 ", "B 2048", "b 2048"])
def test_parse_is_tolerant_of_case_and_spacing(text):
    g = load_map("witp").grid
    assert g.label(g.parse(text)) == "B2048"


@pytest.mark.parametrize("text", ["B204", "B20488", "2048", "BB2048", "B20-48", "", "B2048x", "H1010", "B0000", "B9999"])
def test_parse_is_strict_about_everything_else(text):
    with pytest.raises(HexError) as e:
        load_map("witp").grid.parse(text)
    assert "\n" not in str(e.value) and repr(text) in str(e.value)


def test_apto_label_accepts_missing_space_and_prints_with_it():
    g = load_map("apto").grid
    assert g.label(g.parse("w4533")) == "W 4533"


@pytest.mark.parametrize("game", GAMES)
def test_metric_properties(game):
    g = load_map(game).grid

    @settings(max_examples=150, deadline=None)
    @given(hex_of(game), hex_of(game), hex_of(game))
    def check(a, b, c):
        assert g.distance(a, b) == g.distance(b, a)
        assert (g.distance(a, b) == 0) == (a == b)
        assert g.distance(a, c) <= g.distance(a, b) + g.distance(b, c)

    check()


@pytest.mark.parametrize("game", ["witp", "globalwar"])
def test_line_length_is_distance_plus_one(game):
    g = load_map(game).grid

    @settings(max_examples=150, deadline=None)
    @given(hex_of(game), hex_of(game))
    def check(a, b):
        path = g.line(a, b)
        assert len(path) == g.distance(a, b) + 1
        assert path[0] == a and path[-1] == b

    check()


@pytest.mark.parametrize("game", GAMES)
def test_range_size_away_from_map_edges(game):
    g = load_map(game).grid

    @settings(max_examples=60, deadline=None)
    @given(hex_of(game), st.integers(0, 4))
    def check(h, n):
        rng = g.range(h, n)
        disk = list(axial.disk(h, n))  # read twice below: a generator would be empty the second time
        # The lattice count holds where the disk is on the map and no stated seam link leaves it
        # (a link is one more neighbour: apto's W5231 reaches a 62nd hex within 4).
        linked = {x for pair in g.spec.links for x in map(g.parse, pair)}
        if all(g.contains(x) for x in disk) and not linked & set(disk):
            assert len(rng) == 3 * n * (n + 1) + 1
        assert h in rng and all(g.distance(h, x) <= n for x in rng)

    check()


@pytest.mark.parametrize("game", GAMES)
def test_neighbours_are_symmetric_and_at_distance_one(game):
    g = load_map(game).grid
    sample = g.all_hexes[::37]
    assert len(sample) > 50 and all(len(g.neighbors(h)) >= 2 for h in sample)
    for h in sample:
        for n in g.neighbors(h):
            assert h in g.neighbors(n)
            assert g.distance(h, n) == 1


@pytest.mark.parametrize("game", GAMES)
def test_pixel_picking_finds_the_hex(game):
    g = load_map(game).grid
    assert len(g.all_hexes[::53]) > 40
    for h in g.all_hexes[::53]:
        x, y = g.pixel(h)
        assert g.hex_at(x + 0.2, y - 0.2) == h


@pytest.mark.parametrize("game", GAMES)
def test_sections_are_joined_without_gaps(game):
    """Sections are joined without gaps: (1) every hex reaches every other across section joins;
    (2) no missing join: two map hexes next to each other on the lattice are neighbours; (3) no
    hole: no off-map hex is enclosed by map hexes on all six sides (a sliver between two sections
    one hex wide would be; test_one_metric's sliver test looks for wider strips)."""
    import networkx as nx

    from assistant.hexes import axial as ax

    g = load_map(game).grid
    hexes = set(g.all_hexes)
    graph = nx.Graph((h, n) for h in g.all_hexes for n in g.neighbors(h))
    assert graph.number_of_nodes() == len(hexes) > 1000
    assert nx.is_connected(graph)
    missing = [(h, n) for h in hexes for n in ax.neighbors(h) if n in hexes and not graph.has_edge(h, n)]
    assert missing == [], missing[:5]
    off_map = {n for h in hexes for n in ax.neighbors(h) if n not in hexes}
    assert off_map  # the map has an edge: there are hexes to check
    holes = [h for h in off_map if all(n in hexes for n in ax.neighbors(h))]
    assert holes == [], [tuple(h) for h in holes[:5]]


def test_a_seam_link_within_reach_adds_its_far_end_to_the_range():
    """apto's map states one adjacency across its seam (W5433-E0734): a range that reaches the near
    end holds the far end too, one hex more than the lattice's 61 within 4."""
    g = load_map("apto").grid
    rng = g.range(g.parse("W5231"), 4)
    assert g.parse("E0734") in rng and len(rng) == 3 * 4 * 5 + 1 + 1
