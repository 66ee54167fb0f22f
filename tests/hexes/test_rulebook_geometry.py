"""Every distance and adjacency the rulebooks state, on the real grids."""

import pytest

from assistant.maps import list_games, load_game_spec, load_map

# Distances and adjacencies the rulebooks state (all must hold on every grid), each with its rule.
RULEBOOK_DISTANCES = [
    ("witp", "B1949", "B2048", 1, "[40.3.2] hexside between Bataan and Manila"),
    ("witp", "E2418", "E2519", 1, "[13.8.1] Guadalcanal occupies E2418, 2519 & 2619"),
    ("witp", "G1822", "G1923", 1, "[34.2.8] Samoa: both G1822 & 1923"),
    ("witp", "A3210", "A3213", 3, "[2.1.1] Myitkyina A3210 is in the same hex column as Lashio A3213"),
    ("apto", "W 3021", "W 3825", 8, "[2.2] flying it eight hexes to Okinawa"),
    ("apto", "W 3826", "W 4428", 6, "[2.2] Kure is actually six hexes from the carrier's sea hex"),
    ("apto", "W 6134", "E 0135", 1, "[5.15] may attack an enemy land unit in hex E 0135"),
    ("globalwar", "E2624", "E2525", 1, "24.1.A US ships retreat one hex from 2624 to 2525"),
    ("globalwar", "E2413", "E2414", 1, "24.3 naval attack needs adjacency [15.1.1.A]"),
    ("globalwar", "E1724", "E1824", 1, "24.4 naval attack needs adjacency"),
]


@pytest.mark.parametrize("game,a,b,d,why", RULEBOOK_DISTANCES,
                         ids=[f"{g}-{a}-{b}" for g, a, b, *_ in RULEBOOK_DISTANCES])
def test_rulebook_distance(game, a, b, d, why):
    g = load_map(game).grid
    assert g.distance(g.parse(a), g.parse(b)) == d, why


def test_globalwar_asw_path_w3118_to_w2617_within_five_24_2_A():
    g = load_map("globalwar").grid
    assert g.distance(g.parse("W3118"), g.parse("W2617")) <= 5


@pytest.mark.parametrize("game", list_games())
def test_every_fixture_in_game_toml_holds_on_every_grid_model(game):
    from assistant.maps.calibration import fixture_holds, model_specs
    spec = load_game_spec(game)
    assert spec.fixtures and model_specs(spec), game
    for model in model_specs(spec):
        g = load_map(game, model).grid
        failed = [f"{f.a}-{f.b} {f.rule}" for f in spec.fixtures if not fixture_holds(g, f)]
        assert not failed, f"{game}/{model}: {failed}"


def test_witp_even_columns_sit_half_a_hex_south_2_1_1():
    """[2.1.1] columns run north-south; B1949 (odd) touches B2048 (even) to its north-east,
    so the even column is the lower one."""
    g = load_map("witp").grid
    bataan, manila = g.parse("B1949"), g.parse("B2048")
    assert g.pixel(manila)[0] > g.pixel(bataan)[0]  # Manila east of Bataan
    assert g.pixel(manila)[1] < g.pixel(bataan)[1]  # and half a hex north


def test_witp_same_hexrow_a2613_a3213_2_1_1():
    """[2.1.1] 'Lashio is in the same hexrow as the port city of Chittagong (hex A2613)' and
    'Myitkyina (A3210) is in the same hex column as Lashio (A3213)'. Checked in the placed geometry,
    not the label's digits: a hexrow of two even columns is one straight east-west line, and is
    crossed one hex per column (hand count: columns 26 to 32 = 6 hexes); a hex column is one
    straight north-south line (rows 10 to 13 = 3 hexes)."""
    g = load_map("witp").grid
    chittagong, lashio, myitkyina = g.parse("A2613"), g.parse("A3213"), g.parse("A3210")
    assert g.pixel(chittagong)[1] == pytest.approx(g.pixel(lashio)[1])
    assert g.pixel(lashio)[0] - g.pixel(chittagong)[0] > 0  # Lashio east of Chittagong
    assert g.distance(chittagong, lashio) == 6
    assert g.pixel(myitkyina)[0] == pytest.approx(g.pixel(lashio)[0])
    assert g.pixel(myitkyina)[1] < g.pixel(lashio)[1]  # Myitkyina north of Lashio (board y points south)
    assert g.distance(myitkyina, lashio) == 3


def test_apto_hex_row_wildcard_first_pair_is_row_8_11():
    """[8.11] 'north of hex row 4500': the first pair is the row, rows increase northward."""
    g = load_map("apto").grid
    tokyo, manila = g.parse("W 4533"), g.parse("W 3021")
    assert g.pixel(tokyo)[1] < g.pixel(manila)[1]  # board y points south


def test_globalwar_wrap_is_shorter_way_round_3_1_3():
    gm = load_map("globalwar")
    g = gm.grid
    assert g.spec.wrap is not None
    # The west edge of W and the east edge of E are neighbours across the wrap.
    west = g.parse("W2001")
    east_edge = [h for h in g.all_hexes if g.local(h, "E")[0] == 31 and g.local(h, "E")[1] == 20]
    assert east_edge
    across = g.distance(west, east_edge[0])
    assert across < 40, f"distance across the wrap should be short, got {across}"
    assert g.distance(west, east_edge[0]) == g.distance(east_edge[0], west)
