"""Every place the witp rulebook text names is found: by the hex box and the turn orders
(``campaign.places.lookup``, reading data/games/witp/gazetteer.csv), at the hex the text prints, or,
where the text names it without a hex, at the hex its real coordinates fall in on the calibrated map
(``GameMap.locate``; the row's note says "located:")."""

from __future__ import annotations

import pytest

from assistant.campaign import Campaign
from assistant.campaign.orders import give_orders
from assistant.campaign.places import lookup
from assistant.maps.calibration import LOCATED
from assistant.maps.gamemap import gazetteer_rows, load_map
from rulebooks import Quotes

WITP = Quotes("witp")

# (name, hex, the rule that names it): the places the text names without printing a hex, located.
NAMED = [
    ("Rabaul", "E1613", "[5.3.6]"), ("Port Moresby", "E1018", "[5.1.3]"), ("Kunming", "A3811", "[47.2.2]"),
    ("Chungking", "B0333", "[47.1.1]"), ("Madras", "A1323", "[34.2.2]"), ("Trincomalee", "A1427", "[44.4.4]"),
    ("Wellington", "G0552", "[44.8.3]"), ("Dairen", "B2022", "[48.5.2]"), ("Singora", "A3529", "[48.6.3]"),
    ("Bangalore", "A1022", "[44.4.5]"), ("Dacca", "A2412", "[5.11.2]"), ("Ledo", "A3008", "[47.21.2]"),
    ("Betio", "E3908", "[27.0]"), ("Boeroe", "C2613", "[48.1.4]"), ("Kyushu", "B3130", "[48.1]"),
    ("Honshu", "B3925", "[25.9]"), ("Honsu", "B3925", "[48.1]"), ("Shikoku", "B3428", "[48.1]"),
    ("Hokkaido", "D0617", "[48.1]"), ("New Guinea", "E0515", "[13.8.2]"), ("Manila Bay", "B2048", "[40.3.3]"),
    # and those added before: [32.1.1] Truk and Jaluit, [40.0] Wake, [34.2.8] Midway, Noumea, Espiritu Santo
    ("Truk", "E1602", "[32.1.1]"), ("Jaluit", "E3504", "[32.1.1]"), ("Wake", "D3243", "[40.0]"),
    ("Midway", "F1234", "[34.2.8]"), ("Noumea", "E3231", "[34.2.8]"), ("Espiritu Santo", "E3224", "[34.2.8]"),
]
# Places whose hex the text prints: found at the printed hex.
PRINTED = [
    ("Subic Bay", "B1949", "[40.3.3]"), ("Guadalcanal", "E2418", "[13.8.1]"), ("Kwajalein", "E3301", "[17.1.2]"),
    ("Pearl Harbor", "F3342", "[34.2.5]"), ("Manila", "B2048", "[45.3.1]"), ("Soerabaja", "C1117", "[53.4]"),
    ("Palembang", "C0212", "[44.6.1]"), ("Hong Kong", "B1240", "[44.10]"), ("Singapore", "C0108", "[44.9]"),
]


@pytest.fixture(scope="module")
def gm():
    return load_map("witp")


@WITP.says("Example: At Rabaul, the Japanese player has 12x A6M fighter AP's.",
           "The US player launches a first strike, from Port Moresby, against Rabaul.",
           "the road is unblocked between Kunming and A3312/Lashio",
           "The special provincial value of Chungking (20 Provincial Points)",
           "Trincomalee",
           "New Zealand surrenders when both Wellington & Auckland are Japanese-controlled",
           "placed in Dairen",
           "any city in Thailand—including Singora",
           "If the 19th Indian Div. is moved from Bangalore in 1942",
           "aboard 9x C-47 AP's at Dacca",
           "the Ledo (minor) road",
           "0.5 miles/hex (e.g., Betio)",
           "Celebes, Boeroe, Amboina, Ceram",
           "composed of the following islands: Kyushu, Honsu, Hokkaido, and Shikoku",
           "HN/K: Honshu or Kyushu",
           "New Guinea: Any coastal hex of Papua or N.E. New Guinea.",
           "The restriction barring passage of Japanese ships to/from Manila Bay",
           "The anchorage in hex B1949 (Bataan, representing Subic Bay) exists in hex B1949.")
@pytest.mark.parametrize("name, hex_, rule", NAMED + PRINTED, ids=[n for n, _, _ in NAMED + PRINTED])
def test_a_place_the_text_names_is_found_at_its_hex(gm, name, hex_, rule):
    label = gm.grid.label(gm.grid.parse(hex_))
    found = lookup(gm, name)
    assert found.place == name and label in found.all, (name, found)
    assert lookup(gm, name.upper()).label == found.label  # any case
    rows = [r for r in gazetteer_rows("witp") if r.name == name]
    assert rows and any(rule in r.rule for r in rows), (name, [r.rule for r in rows])
    if (name, hex_, rule) in NAMED:
        assert all(r.note.startswith(LOCATED) for r in rows), name
        # located: the hex its coordinates fall in on this map
        (row,) = gm.gazetteer[gm.gazetteer.name == name].itertuples(index=False)
        assert gm.grid.label(gm.locate(float(row.lat), float(row.lon))) == label


def test_every_located_place_is_at_the_hex_its_coordinates_fall_in(gm):
    for r in gm.gazetteer.itertuples(index=False):
        if str(r.note).startswith(LOCATED):
            assert gm.grid.label(gm.grid.parse(r.hex)) == gm.grid.label(gm.locate(float(r.lat), float(r.lon))), r.name


def test_a_name_printed_two_ways_is_found_either_way_and_a_shared_prefix_still_finds_one(gm):
    """[48.1] prints "Honsu", [25.9] "Honshu"; "Manila" is still Manila, not Manila Bay."""
    assert lookup(gm, "Honsu").label == lookup(gm, "Honshu").label
    assert lookup(gm, "Manila").place == "Manila" and lookup(gm, "manila bay").place == "Manila Bay"
    assert lookup(gm, "Moresby").place == "Port Moresby"


@pytest.mark.parametrize("name, hex_", [("Rabaul", "E1613"), ("Port Moresby", "E1018"), ("Truk", "E1602"),
                                        ("Chungking", "B0333"), ("Subic Bay", "B1949")])
def test_an_orders_line_reads_the_place(tmp_path, gm, name, hex_):
    with Campaign.create(tmp_path / "w.campaign", "witp") as c:
        given = give_orders(c, f'place "ground unit" at "{name}" side japan nation japan id gu steps=3')
        assert given.record is not None
        assert c.state.units["gu"].hex == gm.grid.label(gm.grid.parse(hex_))
        give_orders(c, f'move gu "{"Rabaul" if name != "Rabaul" else "Truk"}"')
        assert c.state.units["gu"].hex == ("E1613" if name != "Rabaul" else "E1602")


test_quotes_in_rulebook_witp = WITP.check()
