"""Global War supply on the SHIPPED map and on new campaigns: the hexes the rulebook text names with a
role (board.csv) are read by the rule that reads them, and where the board lacks what a supply path
reads (a nation's Industrial Hexes [9.1.3] or Supply Centers [9.1.2], the Communications Areas
[9.2.1], the ports [9.0.D]) the tracer asks instead of answering "unsupplied"; a unit supplied anyway
says what is missing."""

from __future__ import annotations

import json

import pytest

from assistant.maps import load_map
from assistant.maps.board import board_kinds, board_rows
from assistant.maps.gamemap import gazetteer_rows
from assistant.maps.graph import MapCorrections
from assistant.rules.board import ASKS, gap
from assistant.rules.globalwar.boardgaps import printed_map
from assistant.rules.globalwar.reach import hexes_apart
from clikit import run_cli
from gwkit import hexgrid, lab, piece, rules_of, trace, world
from rulebooks import Quotes

RULEBOOK = Quotes("globalwar")
ERRATA_QUOTE = ("In Canada, hexes W3001-W3005 and W2901-W2905 should be in the Communications Area instead of the "
                "Undeveloped Area.")
ANY_LENGTH = ("Units may trace a supply path of any length to an Industrial Hex or Supply Center (within the "
              "Communications Area) of the home country or an ally of that country.")
REACH = ("Units outside of the Communications Area must be within three hexes (i.e., two intervening hexes) from a "
         "Communications Area hex or a supply source (Industrial Hex or Supply Center) to be considered in supply.")
ATTACK_IH = ("Units of countries with Industrial Hexes are considered to be in Attack Supply if they can trace a "
             "supply path to a friendly Industrial Hex.")
W3020_QUOTE = "the Industrial Center in W3020 will produce 8 fewer PPs for that turn."
ERRATA = ("W3001", "W3002", "W3003", "W3004", "W3005", "W2901", "W2902", "W2903", "W2904", "W2905")
FAR = "W3006"  # a Canadian hex outside the errata: where a test's player has entered a Communications Area


def shipped(corrections=None):
    m = load_map("globalwar")
    return m.graph(MapCorrections(hexes=corrections)) if corrections else m.graph()


def shipped_world(pieces, corrections=None, control=None):
    return world(shipped(corrections), pieces, control=control)


def ih(hex_, nation, pid="ih"):
    return piece(pid, hex_, "Industrial Hex", nation=nation)


# ----- the board's kinds and rows are the text's ---------------------------------------------------------
@RULEBOOK.says("One German Industrial Hex requires a Merchant Ship Pipeline of at least 1 MS to Sweden.",
               "Another Industrial Hex requires German control of all the Industrial Hexes in France.",
               "The side controlling the Italian Industrial Hex is considered to have captured it (18.4).",
               "One Industrial Hex in the Japanese Home Islands requires a Merchant Ship Pipeline to the US",
               "The Commonwealth actually consists of three countries with Industrial Hexes (the United Kingdom, "
               "Canada, and India).",
               "These SPs must be placed on any Industrial Hexes (not in EZOCs) within the USSR, 1 SP per hex.",
               "The United States must keep open a Merchant Ship Pipeline to India, with at least 1 MS in each "
               "Merchant Ship Holding Area, or it loses one Industrial Hex for production purposes",
               "it reappears that turn on any Supply Center under Allied control in China")
def test_the_nations_asked_for_sources_are_those_the_text_gives_them():
    """Industrial Hexes: the seven Major Powers [11.3.1.B], each given one by the text (Romania's is
    German [19.9.C], Manchukuo's Japanese [18.7.7]); Supply Centers: China [19.5.A], the one country
    the text names with them."""
    kinds = board_kinds("globalwar")
    assert set(kinds["industrial_hex"].nations) == {"germany", "italy", "japan", "commonwealth", "france", "ussr", "us"}
    assert kinds["supply_center"].nations == ("china",)
    assert "industrial_hex" in kinds["industrial_hex"].places  # the gazetteer's label adopts as one


def test_the_map_labels_the_industrial_center_the_text_names_in_w3020():
    """[24.5] "the Industrial Center in W3020": a piece belongs to a campaign, so it is no board row;
    the gazetteer labels the hex with the kind the player adopts it as."""
    assert shipped().nodes["W3020"]["place"] == "German Industrial Center"
    rows = [p for p in gazetteer_rows("globalwar") if p.hex == "W3020"]
    assert rows and all(p.kind == "industrial_hex" for p in rows)
    assert not [r for r in board_rows("globalwar") if r.hex == "W3020"]


def test_the_rows_are_the_texts_hexes():
    assert {(r.hex, r.kind) for r in board_rows("globalwar")} == {
        *((h, "communications") for h in ERRATA), ("E1505", "port")}


@RULEBOOK.says(ERRATA_QUOTE)
@pytest.mark.parametrize("hex_", ERRATA)
def test_3_1_4_each_errata_hex_is_in_canada_on_the_shipped_map(hex_):
    """"In Canada": the Commonwealth's territory [19.4.1], though geography puts W2901 and W2902 south
    of the border; the text wins. In the Communications Area, not the Undeveloped Area."""
    a = shipped().nodes[hex_]
    assert (a["region"], a["country"]) == ("Canada", "commonwealth")
    assert a["communications"] is True and a["undeveloped"] is False


# ----- each row, read by the rule that reads it ----------------------------------------------------------
@RULEBOOK.says(ERRATA_QUOTE, ANY_LENGTH, REACH)
@pytest.mark.parametrize("hex_", ERRATA)
def test_9_2_1_a_unit_on_each_errata_hex_traces_through_the_communications_area(hex_):
    """A Commonwealth unit on the row's hex, its Industrial Hex at the errata hex farthest away: Attack
    Supply along the errata hexes, a path of any length [9.2.1], the working naming [3.1.4]. With the
    row's hex corrected out of the Communications Area (a player's correction wins), the same unit
    counts hexes to one instead [9.2.2.A]."""
    net = shipped_world([]).net
    far = max(ERRATA, key=lambda h: (hexes_apart(net, hex_, h), h))
    w = shipped_world([ih(far, "commonwealth"), piece("cw", hex_, nation="commonwealth")])
    t = trace(w, "cw")["cw"]
    assert t.status == "attack" and t.source["hex"] == far and set(t.path) <= set(ERRATA), t.explain()
    assert t.limit is None and t.length == 0
    assert f"{hex_} is in a Communications Area (named in the rulebook: [3.1.4], [9.2.1])" in t.steps[0]
    w = shipped_world(w.pieces, corrections={hex_: {"communications": False}, FAR: {"communications": True}})
    t = trace(w, "cw")["cw"]
    assert t.status == "attack" and t.limit == 3 and t.length == 1, t.explain()
    assert "1 hex to a Communications Area hex, port or source; within 3 [9.2.2.A]" in t.steps


@RULEBOOK.says("Once this pipeline is broken (by war between the US and Japan), the Japanese may regain use of this "
               "Industrial Hex by occupying Indonesia and maintaining a Merchant Ship Pipeline from Japan to hex "
               "E1505, with at least 1 MS per Holding Area.",
               "A Merchant Ship Pipeline is defined as an intact line of MS (composed of a MS counter, with ten "
               "intervening hexes, then another MS counter, and so on) from one friendly port to another.",
               "A naval unit is in supply for the entire Naval Stage when it begins the stage in a friendly port "
               "that ultimately traces its supply path back to a supply source in its home country.")
def test_18_7_4_e1505_is_a_port_a_japanese_fleet_there_is_in_port():
    """A pipeline "to hex E1505" runs "from one friendly port to another" [18.6.3.A]: E1505 is a port.
    A Japanese fleet there, Indonesia occupied, is in a friendly port [16.0.A] and traces on to a home
    source; with E1505 corrected to no port, it is not in port."""
    fleet = piece("sa", "E1505", "Surf-A", nation="japan")
    w = shipped_world([fleet], control={"E1505": "axis"})
    assert shipped().nodes["E1505"]["port"] is True
    t = trace(w, "sa")["sa"]
    assert "not a friendly port" not in rules_of(t), t.explain()
    assert t.status == ASKS and t.reasons[0].text.startswith("No Industrial Hex of Japan")  # no home source entered
    t = trace(shipped_world([fleet], corrections={"E1505": {"port": False}}, control={"E1505": "axis"}), "sa")["sa"]
    assert "E1505 is not a friendly port" in rules_of(t)


# ----- the audit's cases -----------------------------------------------------------------------------------
@RULEBOOK.says(ERRATA_QUOTE, ANY_LENGTH)
def test_3_1_4_a_canadian_unit_four_hexes_from_its_industrial_hex_is_in_attack_supply():
    """W2901 to W2905 is four hexes: beyond the three of [9.2.2.A], so only the errata's
    Communications Area supplies it; without the errata (every errata hex corrected out, a
    Communications Area entered elsewhere) it is unsupplied [9.2.2.A]."""
    pieces = [ih("W2905", "commonwealth"), piece("ca", "W2901", nation="commonwealth")]
    t = trace(shipped_world(pieces), "ca")["ca"]
    assert t.status == "attack" and t.path == ["W2901", "W2902", "W2903", "W2904", "W2905"], t.explain()
    assert any("[3.1.4]" in s and "[9.2.1]" in s for s in t.steps)
    no_errata = {h: {"communications": False} for h in ERRATA} | {FAR: {"communications": True}}
    t = trace(shipped_world(pieces, corrections=no_errata), "ca")["ca"]
    assert t.status == "unsupplied" and "9.2.2.A" in rules_of(t), t.explain()


@RULEBOOK.says(REACH, ANY_LENGTH)
def test_9_2_2_a_unit_out_of_reach_asks_for_the_communications_areas_until_entered():
    """W3401 is four hexes from the nearest errata hex. With no Communications Area entered beyond the
    errata, the tracer cannot say "unsupplied" (the printed map's areas may reach it): it asks, the
    gap first. Once the player has entered them (here one, far away), it is unsupplied [9.2.2.A]."""
    pieces = [ih("W2905", "commonwealth"), piece("cw", "W3401", nation="commonwealth")]
    w = shipped_world(pieces)
    assert gap(w, "communications") is not None
    t = trace(w, "cw")["cw"]
    assert (t.supplied, t.status) == (False, ASKS), t.explain()
    assert t.reasons[0].text == "No Communications Area hex is entered yet: enter the Communications Area hexes in Board set-up"
    assert t.reasons[0].rule == "[9.2.1];[9.2.2]" and t.extra["board_gaps"][0]["kind"] == "communications"
    assert any("no supply path" in s for s in t.steps) and "not answered as unsupplied" in t.steps[-1]
    t = trace(shipped_world(pieces, corrections={FAR: {"communications": True}}), "cw")["cw"]
    assert (t.supplied, t.status) == (False, "unsupplied"), t.explain()
    assert "Board set-up" not in rules_of(t)


@RULEBOOK.says(ATTACK_IH, W3020_QUOTE)
def test_9_1_3_beside_the_w3020_label_a_german_unit_asks_for_germanys_industrial_hexes():
    """W3019 (France) touches W3020, which the map labels "German Industrial Center" [24.5]. With no
    German Industrial Hex placed, the tracer does not say "[9.1] no friendly Industrial Hex": it asks
    for them. Once the player adopts W3020 as one, the unit is in Attack Supply, one hex from it
    [9.2.2.A], and the working says the Communications Areas are still missing."""
    de = piece("de", "W3019", nation="germany")
    t = trace(shipped_world([de]), "de")["de"]
    assert (t.supplied, t.status) == (False, ASKS), t.explain()
    assert t.reasons[0].rule == "[9.1.3]" and t.reasons[0].text.startswith("No Industrial Hex of Germany is entered yet")
    assert [g["kind"] for g in t.extra["board_gaps"]] == ["industrial_hex", "communications"]
    t = trace(shipped_world([de, ih("W3020", "germany")]), "de")["de"]
    assert t.status == "attack" and t.path == ["W3019", "W3020"], t.explain()
    assert any(s.startswith("board data missing: No Communications Area hex") for s in t.steps)
    assert not any("Industrial Hex of Germany" in s for s in t.steps)


@RULEBOOK.says("it reappears that turn on any Supply Center under Allied control in China")
def test_9_1_2_a_chinese_unit_abroad_asks_for_chinas_supply_centers():
    """China has Supply Centers [19.5.A], none named by hex: a Chinese unit outside China with none
    entered asks for them; at home too, since whether it reaches one cannot be told until they are entered."""
    g = shipped()
    home = next(h for h, a in g.nodes(data=True) if a.get("country") == "china" and a.get("surface") == "land")
    t = trace(shipped_world([piece("zh", home, nation="china")]), "zh")["zh"]
    assert (t.supplied, t.status) == (False, ASKS) and t.reasons[0].text.startswith(
        "No Supply Center of China is entered yet"), t.explain()
    assert "a country without Industrial Hexes" not in rules_of(t) and "[9.1.2.A]" in rules_of(t)
    abroad = next(h for h, a in g.nodes(data=True) if a.get("country") == "commonwealth" and a.get("surface") == "land")
    t = trace(shipped_world([piece("zh", abroad, nation="china")]), "zh")["zh"]
    assert (t.supplied, t.status) == (False, ASKS) and t.extra["board_gaps"][0] == {
        "kind": "supply_center", "nation": "china", "rule": "[9.1.2]",
        "text": "No Supply Center of China is entered yet: enter the Supply Centers in Board set-up",
        "cannot": "which units are in Defence Supply"}, t.explain()


def test_a_nation_the_text_gives_no_sources_is_not_asked_about():
    """[9.1.1] Poland: no Industrial Hex or Supply Center in the text, so nothing to ask; its unit
    abroad is unsupplied, at home in Defence Supply, as the text says."""
    g = shipped()
    home = next(h for h, a in g.nodes(data=True) if a.get("country") == "poland")
    t = trace(shipped_world([piece("pl", home, nation="poland")]), "pl")["pl"]
    assert t.status == "defence" and "9.1.1.A" in rules_of(t) and "Board set-up" not in rules_of(t)
    t = trace(shipped_world([piece("pl", "W3019", nation="poland")]), "pl")["pl"]
    assert t.status == "unsupplied" and "Board set-up" not in rules_of(t), t.explain()


@RULEBOOK.says("A naval unit is in supply for the entire Naval Stage when it begins the stage in a friendly port")
def test_16_0_a_fleet_on_a_coast_not_entered_as_a_port_asks_for_the_ports():
    """Only E1505 is a port by the text: a fleet on another coastal hex of its side asks whether it is
    a port; once the player has entered ports (here E1505's alone does not count), it is not in port."""
    fleet = piece("sa", "W3121", "Surf-A", nation="germany")
    t = trace(shipped_world([fleet]), "sa")["sa"]
    assert (t.supplied, t.status) == (False, ASKS) and t.reasons[0].text.startswith("No port is entered yet"), t.explain()
    t = trace(shipped_world([fleet], corrections={"W3221": {"port": True}}), "sa")["sa"]
    assert t.status == "unsupplied" and "W3121 is not a friendly port" in rules_of(t)


def test_a_map_built_by_hand_is_asked_nothing():
    """A test's or drill's own map holds what its maker put on it: no gap is asked of it."""
    w = world(hexgrid(6), [piece("de", lab(6))])
    assert not printed_map(w) and printed_map(shipped_world([]))
    assert trace(w, "de")["de"].status == "unsupplied"


# ----- a new campaign at every place the audit named -------------------------------------------------
# The text names none of Berlin, London, Moscow (only as an industrial area, 24.x strategy notes) or
# Rome by hex: each is the shipped map's hex nearest the city (its calibrated centre), checked to be
# in that nation's territory. An Industrial Hex is placed only where the text names one (W3020
# [24.5]) or in the audit's Canadian case (W2905, at the errata's end).
ATTACK, QUESTION, AT_HOME = "attack", "asks", "asks at home"
AUDIT = [
    ("Berlin", "W3121", "axis", "germany", "Germany", None, AT_HOME),
    ("Berlin, W3020 adopted", "W3121", "axis", "germany", "Germany", "W3020", ATTACK),
    ("Canada W2901", "W2901", "allies", "commonwealth", "Canada", None, AT_HOME),
    ("Canada W2901, IH W2905", "W2901", "allies", "commonwealth", "Canada", "W2905", ATTACK),
    ("Canada W3001, IH W3005", "W3001", "allies", "commonwealth", "Canada", "W3005", ATTACK),
    ("London", "W3119", "allies", "commonwealth", "United Kingdom", None, AT_HOME),
    ("Moscow", "W3225", "allies", "ussr", "USSR", None, AT_HOME),
    ("Rome", "W2721", "axis", "italy", "Italy", None, AT_HOME),
    ("beside W3020, in France", "W3019", "axis", "germany", "France", None, QUESTION),
]


@RULEBOOK.says(ERRATA_QUOTE, ANY_LENGTH, ATTACK_IH, W3020_QUOTE)
@pytest.mark.parametrize("place, hex_, side, nation, region, ih_hex, answer", AUDIT, ids=[a[0] for a in AUDIT])
def test_a_new_campaign_answers_as_the_text_or_asks(tmp_path, place, hex_, side, nation, region, ih_hex, answer):
    """Through the command line, as a player: the text's answer where the board holds what it reads;
    otherwise the question naming the missing board data first, never a confident "unsupplied" or
    "defence". A unit at home while its nation's Industrial Hexes are not entered asks too: Germany is
    not "a country without Industrial Hexes" [9.1.1.A], so its Defence Supply at home is not the answer."""
    assert shipped().nodes[hex_]["region"] == region
    f, home = tmp_path / "g.campaign", tmp_path / "home"
    assert run_cli("new", f, "--game", "globalwar", home=home).returncode == 0
    if ih_hex:
        assert run_cli("place", f, "--side", side, "--kind", "Industrial Hex", "--hex", ih_hex, "--nation", nation,
                       "--installation", home=home).returncode == 0
    assert run_cli("place", f, "--side", side, "--kind", "Infantry", "--hex", hex_, "--id", "u", "--nation", nation,
                   home=home).returncode == 0
    r = run_cli("trace", f, "--unit", "u", "--json", home=home)
    assert r.returncode == 0, r.stderr
    t = json.loads(r.stdout)
    first = t["reasons"][0]
    if answer == ATTACK:
        assert (t["supplied"], t["status"], t["source"]["hex"]) == (True, "attack", ih_hex), t
        assert "No Communications Area hex is entered yet" in " ".join(t["steps"])  # supplied anyway
    elif answer == QUESTION:
        assert (t["supplied"], t["status"]) == (False, ASKS), t
        assert first["text"].startswith(f"No Industrial Hex of {nation.title()} is entered yet") and "Board set-up" in first["text"]
    else:
        assert (t["supplied"], t["status"]) == (False, ASKS), t
        assert t["board_gaps"][0]["kind"] == "industrial_hex" and t["board_gaps"][0]["nation"] == nation
        assert first["rule"] == "[9.1.3]" and "Board set-up" in first["text"]
        assert "until they are entered its units' supply cannot be told" in t["reasons"][1]["text"]


test_quotes_in_rulebook = RULEBOOK.check()
