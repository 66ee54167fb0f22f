"""witp by area: whose territory each land hex is on 7 December 1941 (the Campaign opens with
Strategic Cycle 0/13/41 [42.1.1]), from data/games/witp/territories.csv over the derived geography
(assistant/maps/territory.py). Every land hex of the map has a region; the country is the owning
nation where the text settles it ([44]-[49]), open where it does not (Thailand [48.6], Portuguese
Timor [49.3], the rest of China [47.5.6]); a new campaign sets a whole area in one command."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from assistant.campaign import Campaign
from assistant.campaign.control import control_of, known_areas
from assistant.maps import territory as T
from assistant.maps.gamemap import gazetteer_rows, hexes_path, load_map, read_derived
from clikit import run_cli
from rulebooks import Quotes

WITP = Quotes("witp")
ROOT = Path(__file__).resolve().parents[2]


def hex_of(name: str) -> str:
    """The canonical hex of a gazetteer place the text prints (its first row)."""
    gm = load_map("witp")
    row = next(r for r in gazetteer_rows("witp") if r.name == name)
    return gm.grid.label(gm.grid.parse(row.hex))


def territory(hex_: str) -> dict:
    return dict(T.territories("witp")[hex_])


def test_every_land_hex_of_the_map_has_its_territory():
    """Every hex with land in the derived map gets a region: by the geography's nearest place, or
    (an islet or a desert with no place within a hex) by its centre's position row."""
    land = [r["hex"] for r in read_derived(hexes_path("witp")) if float(r.get("land_fraction") or 0) > 0]
    terr = T.territories("witp")
    assert len(land) > 4000
    assert [h for h in land if not terr.get(h, {}).get("region")] == []
    # a hex the geography leaves without a place is placed by a printed-hex row or a position row
    geo, hex_rows = T.geography("witp"), {r.hex for r in T.table("witp") if r.hex}
    by_position = [h for h in land if h not in geo and h not in hex_rows]
    assert by_position and all(terr[h]["territory_source"].startswith("position") for h in by_position)


@WITP.says("The Solomons are composed of the following islands: New Britain, New Ireland, Bougainville, and hexes "
           "E2116, E2117, E2217, E2317, E2318, E2417, E2518, E2418, E2519, E2617, E2618, E2619, and E2720.",
           "The Solomon Islands are part of the Commonwealth.")
def test_the_solomons_of_44_7_are_its_thirteen_hexes_and_new_britain_new_ireland_bougainville():
    listed = "E2116 E2117 E2217 E2317 E2318 E2417 E2518 E2418 E2519 E2617 E2618 E2619 E2720".split()
    terr, geo = T.territories("witp"), T.geography("witp")
    solomons = {h for h, a in terr.items() if a.get("region") == "Solomons"}
    assert set(listed) <= solomons
    islands = {"Bougainville", "East New Britain", "West New Britain", "New Ireland"}
    for h in solomons - set(listed):
        g = geo.get(h)
        assert (g is not None and g["cc"] == "PG" and g["admin1"] in islands) or "[44.7]" in terr[h]["territory_source"], h
    # the Commonwealth's: the listed hexes the British Protectorate's, the three islands Australia's mandate
    assert {terr[h]["country"] for h in listed} == {"britain"}
    assert {terr[h]["country"] for h in solomons - set(listed)} == {"australia"}
    assert territory(hex_of("New Britain"))["region"] == "Solomons"


@WITP.says("The Japanese Home Islands (known as \"Japan\") are composed of the following islands: Kyushu, Honsu, "
           "Hokkaido, and Shikoku.",
           "The island of Formosa (Taiwan) is a Japanese Territory. The Pescadores (B1839) are considered part of "
           "Formosa and, as such are also Japanese-controlled.",
           "French Indo-China is a Japanese Territory.",
           "Korea is a Japanese Territory.",
           "Manchuria (composed of the Chinese provinces of Heilungkiang, Jehol, Kirin and Liaoning) is a Japanese "
           "Territory.",
           "Malaya is part of the Commonwealth. Note that the islands of Singapore (C0108) and Bintan (C0208) are "
           "part of Malaya.",
           "Hong Kong (B1240) is part of the Commonwealth.",
           "Java is part of the Dutch East Indies, and is controlled by the Allied player.",
           "Sumatra is part of the Dutch East Indies, and is controlled by the Allied player.",
           "The Philippines are a US Territory.",
           "The Hawaiian Islands are a US Territory.",
           "The Aleutian Islands are a US Territory.",
           "Australia is part of the Commonwealth.",
           "India is part of the Commonwealth.",
           "Burma is part of the Commonwealth.",
           "Ceylon is part of the Commonwealth.",
           "New Zealand is part of the Commonwealth.",
           "Outer Mongolia is part of the USSR.",
           "New Caledonia consists of the island Noumea, and the 1-hex islands at E3330 & E3430.",
           "New Caledonia is neutral but pro-Allied.")
@pytest.mark.parametrize("place, region, country, attr", [
    ("Tokyo", "Japan", "japan", "home_of"),                    # [48.1.1] Tokyo (D0326)
    ("Nagasaki", "Japan", "japan", "home_of"),                 # [48.1.1] Nagasaki (B3029)
    ("Takao", "Formosa", "japan", "colony_of"),                # [48.2.1] Takao (B1940)
    ("Pescadores", "Formosa", "japan", "colony_of"),           # [48.2] B1839
    ("Hanoi", "French Indo-China", "japan", None),             # [48.3.1] Hanoi (B0342)
    ("Pyongyang", "Korea", "japan", "colony_of"),              # [48.4.1] Pyongyang (B2522)
    ("Mukden", "Manchuria", "japan", None),                    # [53.4] Mukden B2319
    ("Harbin", "Manchuria", "japan", None),                    # [53.4] Harbin B2614
    ("Singapore", "Malaya", "britain", "colony_of"),           # [44.9] C0108
    ("Bintan", "Malaya", "britain", "colony_of"),              # [44.9] C0208
    ("Hong Kong", "Hong Kong", "britain", "colony_of"),        # [44.10] B1240
    ("Batavia", "Java", "dutch", "colony_of"),                 # [44.5.1] Batavia (C0415)
    ("Soerabaja", "Java", "dutch", "colony_of"),               # [44.5.5] Soerabaja
    ("Palembang", "Sumatra", "dutch", "colony_of"),            # [44.6.1] Palembang (C0212)
    ("Manila", "Philippines", "us", "colony_of"),              # [45.3.1] Manila (B2048)
    ("Pearl Harbor", "Hawaiian Islands", "us", "colony_of"),   # [34.2.5] F3342
    ("Dutch Harbor", "Aleutian Islands", "us", "colony_of"),   # [45.1] F2401
    ("Attu", "Aleutian Islands", "us", "colony_of"),           # [45.1] F0103
    ("Sydney", "Australia", "australia", "home_of"),           # [44.1.1] Sydney (E1544)
    ("Perth", "Australia", "australia", "home_of"),            # [44.1.1] Perth (C1441)
    ("New Delhi", "India", "india", "home_of"),                # [44.4.1] New Delhi (A1007)
    ("Calcutta", "India", "india", "home_of"),                 # [44.4.1] Calcutta (A2213)
    ("Rangoon", "Burma", "britain", "colony_of"),              # [44.2.1] Rangoon (A3019)
    ("Auckland", "New Zealand", "new_zealand", "home_of"),     # [44.8.1] Auckland (G0348)
    ("Vladivostok", "Soviet Union", "ussr", "home_of"),        # [49.1.1] Vladivostok (B3217)
    ("Chita", "Soviet Union", "ussr", "home_of"),              # [49.1.1] Chita (B1006)
])
def test_a_place_the_text_prints_lies_in_the_territory_and_nation_the_rules_give_it(place, region, country, attr):
    a = territory(hex_of(place))
    assert (a["region"], a.get("country")) == (region, country), (place, a)
    if attr:
        assert a[attr] == country
    assert a["territory_source"]


def test_new_caledonia_is_its_island_and_the_two_one_hex_islands():
    """[49.4] New Caledonia: the island Noumea and E3330, E3430; a nation of the Allied side."""
    for h in ("E3330", "E3430", hex_of("Noumea")):
        a = territory(h)
        assert (a["region"], a["country"]) == ("New Caledonia", "new_caledonia"), h
    assert "[49.4]" in territory("E3330")["territory_source"]


@WITP.says("List of Chinese Provinces (Status as of 13/41)")
@pytest.mark.parametrize("capital, province", [
    ("Canton", "Kwangtung"), ("Minchow", "Fukien"), ("Yangku", "Shansi"), ("Hangchow", "Chekiang"),
    ("Chenchiang", "Kiangsu")])
def test_the_five_provinces_47_5_6_lists_as_japanese_controlled_are_japanese(capital, province):
    a = territory(hex_of(capital))
    assert (a["region"], a["country"]) == (province, "japan") and "[47.5.6]" in a["territory_source"]


@WITP.says("Thailand is an independent country, technically allied with the Commonwealth (though in fact leaning "
           "heavily towards Japan).",
           "When Thailand allies with Japan, all hexes in Thailand become friendly to Japan.",
           "Portuguese Timor is a territory belonging to the neutral country of Portugal.")
def test_what_the_text_leaves_unaligned_or_unsettled_is_open_for_the_player():
    """Thailand is nobody's at the start ([48.6.3]: it allies with Japan only when a Japanese ground
    unit occupies a Thai city); Portuguese Timor belongs to a neutral outside the game [49.3]; the
    rest of China is on the printed province list, which the text breaks off [47.5.6]."""
    bangkok = territory(hex_of("Bangkok"))
    assert bangkok["region"] == "Thailand" and "country" not in bangkok and "[48.6.4]" in bangkok["territory_source"]
    timor = [a for a in T.territories("witp").values() if a.get("region") == "Portuguese Timor"]
    assert timor and all("country" not in a for a in timor)
    china = [a for a in T.territories("witp").values() if a.get("region") == "China"]
    assert len(china) > 100 and all("country" not in a and "open:" in a["territory_source"] for a in china)


# Every region or area name the witp rules code names, with where (checked to be there still).
CODE_NAMES = {
    "Philippines": "assistant/rules/witp/legality.py",
    "Japan": "assistant/rules/witp/legality.py",
    "Manchuria": "assistant/rules/witp/legality.py",
    "Australia": "assistant/rules/witp/legality.py",
    "India": "assistant/rules/witp/legality.py",
    "Hawaiian Islands": "assistant/rules/witp/legality.py",
    "China": "assistant/rules/witp/economy.py",
}


def test_every_area_the_witp_rules_code_names_is_a_region_of_the_shipped_map():
    regions = {a["region"] for a in T.territories("witp").values()}
    for name, where in CODE_NAMES.items():
        assert re.search(r"\b" + re.escape(name) + r"\b", (ROOT / where).read_text(encoding="utf-8")), (name, where)
        assert name in regions, name


def test_the_control_tab_lists_the_areas_of_december_1941(tmp_path):
    """The dashboard's Control part and `campaign control` list the same areas (known_areas): the
    colonies by name, and each nation's whole territory."""
    with Campaign.create(tmp_path / "w.campaign", "witp") as c:
        known = dict(known_areas(c.state, c.map))
    for name in ("Philippines", "Malaya", "Java", "Sumatra", "Borneo", "Burma", "Solomons", "Korea", "Formosa",
                 "Manchuria", "French Indo-China", "Thailand", "Marianas", "Marshalls", "Carolines", "Karafuto",
                 "Hawaiian Islands", "Aleutian Islands", "Papua", "N.E. New Guinea",
                 "Soviet Union", "China", "Australia", "New Zealand", "India", "Ceylon", "Hong Kong"):
        assert known.get(name) == name, name
    # the Dutch colonies as one area: the nation's whole territory
    assert known["Dutch: all its territory"] == "dutch"
    assert known["US: all its territory"] == "us"
    assert len({v for v in known.values()}) >= 80


def test_campaign_control_sets_the_december_1941_start_by_area(tmp_path):
    """A new witp campaign: who holds Thailand the text leaves to the players ([48.6.3]); one
    command sets it, and the Dutch colonies by nation; the territory answers the rest."""
    p = tmp_path / "w.campaign"
    assert run_cli("new", p, "--game", "witp").returncode == 0
    manila = hex_of("Manila")
    d = json.loads(run_cli("control", p, "--at", manila, "--json").stdout)
    assert (d["side"], d["by"]) == ("allies", "territory") and "Philippines" in d["why"] and "[45.3]" in d["why"]
    bangkok = hex_of("Bangkok")
    assert json.loads(run_cli("control", p, "--at", bangkok, "--json").stdout)["side"] is None
    r = run_cli("control", p, "--region", "Thailand", "--side", "japan")
    assert r.returncode == 0, r.stderr
    r = run_cli("control", p, "--region", "Dutch", "French Indo-China", "--side", "allies")
    assert r.returncode == 0, r.stderr
    with Campaign.open(p, readonly=True) as c:
        assert dict(control_of(c.state).regions) == {"Thailand": "japan", "dutch": "allies",
                                                    "French Indo-China": "allies"}
    assert json.loads(run_cli("control", p, "--at", bangkok, "--json").stdout)["by"] == "region"
    listing = run_cli("control", p).stdout
    assert "region Thailand: japan" in listing and "Netherlands" not in listing and "Malaya" in listing


test_quotes_in_rulebook_witp = WITP.check()
