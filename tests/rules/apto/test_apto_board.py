"""apto supply [7.0] on the SHIPPED map and on new campaigns: the regions the rules read are the map's
own, the hexes the text names (board.csv) are read by the rules that read them, Japan's Saigon row
waits for the Summer Seasonal Turn of 1941, and where the board lacks what a rule reads (no home city
or resource hex of the nation entered; a minor nation's colony hex with no island or city symbol
entered) the tracer asks instead of answering."""

from __future__ import annotations

from dataclasses import replace

import pytest

from aptokit import SIDES, defaults, piece
from assistant.campaign import Campaign
from assistant.campaign.world import world_of
from assistant.hexes.grid import HexError
from assistant.maps import load_map, territory
from assistant.maps.board import board_rows
from assistant.maps.graph import MapCorrections
from assistant.rules.apto import sources as S
from assistant.rules.apto.dates import NamedTurn, label_of, number_of
from assistant.rules.apto.economy_colonies import OIL, adjustments
from assistant.rules.board import ASKS
from assistant.rules.control import Control
from assistant.rules.supply import SupplyWorld, rules_for
from clikit import run_cli
from rulebooks import Quotes

RULEBOOK = Quotes("apto")
MINOR_QUOTE = ("any island hex or colony city (e.g., Palembang) owned by a minor nation is never considered a "
               "supply source, but is always in supply for any minor nation unit(s) there.")
SAIGON_QUOTE = ("Japanese units in Indochina may draw supply from Saigon (W 2713) as of the Summer Seasonal Turn of "
                "1941 (see [8.0]).")
HOME_QUOTE = "Supply for every land and air unit automatically originates in any friendly home city/resource hex."
KURE_QUOTE = "Strategic Bombing Attack upon the Japanese city/resource hex of Kure (W 4428)"
DARWIN = "W 1327"  # Darwin (gazetteer.csv, [4.10]): Australia's, with no home city the text names


def shipped(corrections=None):
    m = load_map("apto")
    return m.graph(MapCorrections(hexes=corrections)) if corrections else m.graph()


def shipped_world(pieces, control=None, corrections=None, settings=None, turn=None) -> SupplyWorld:
    g = shipped(corrections)
    s = defaults()
    s.update(settings or {})
    nation_side = {n: side for side, ns in SIDES.items() for n in ns}
    return SupplyWorld(game="apto", graph=g, pieces=tuple(pieces),
                       control=Control.build(g, nation_side, hexes=control or {}, pieces=pieces),
                       settings=s, sides=SIDES, turn=turn)


def trace(w, side, unit):
    return rules_for("apto").trace(w, side, [w.piece(unit)])[0]


# ----- the regions the rules read are the map's [7.0] ------------------------------------------------
# The text's region -> the shipped map's name for it (Map Clarifications, Colonies; territories.csv).
TEXT_REGIONS = {"Hawaii": "Hawaiian Is.", "New Britain": "Bismarck Is.", "Indochina": "Indochina",
                "the Philippines": "Philippines", "Malaya": "Malaya", "Kamchatka": "Kamchatka",
                "Sakhalin": "Sakhalin", "the Maldives": "Maldives", "Australia": "australia"}


@RULEBOOK.says("US units in Hawaii may draw supply from Pearl Harbor (E 2501)",
               "Additionally, UK and Australian units in New Britain may draw supply from Rabaul (E 4229).",
               "Kamchatka and Sakhalin are never considered supply sources, but are always in supply.",
               "The Maldives is never considered a supply source, but is always in supply.")
def test_7_0_every_region_the_apto_rules_read_is_on_the_shipped_map():
    """Every region or country name the apto rules compare a hex with is one the shipped map gives
    its hexes (the territories' names), and there are no others."""
    assert set(S.REGIONS_READ) == set(TEXT_REGIONS.values())
    g = shipped()
    on_map = {S.norm(a.get(k)) for _, a in g.nodes(data=True) for k in ("region", "country") if a.get(k)}
    names = {S.norm(n) for n in territory.names("apto")}
    for name in S.REGIONS_READ:
        assert S.norm(name) in on_map and S.norm(name) in names, name
    # each [7.0] source hex lies in the region its units must be in, and so does every hex it is read for
    for s in S.SPECIAL:
        assert s.hex in g, s
        if s.region:
            assert S.in_region(shipped_world([]), s.hex, s.region), (s.name, s.region)
    for h in S.ALWAYS_HEXES:
        assert h in g, h


def test_7_0_panama_is_off_the_grid():
    """"Panama itself is never considered a supply source, but is always in supply": the Panama hex
    (E 3299 [3.3]) is a box at the map's edge, so no hex of the map is Panama and the rule is not read."""
    assert set(S.OFF_MAP_ALWAYS) == {"Panama"}
    with pytest.raises(HexError, match="off the apto map"):
        load_map("apto").grid.parse("E 3299")
    assert "panama" not in {S.norm(n) for n in territory.names("apto")}


@RULEBOOK.says("US units in Hawaii may draw supply from Pearl Harbor (E 2501).",
               "UK and Australian units in New Britain may draw supply from Rabaul (E 4229).",
               "UK and Australian units in Malaya may draw supply from Singapore (W 2112).",
               "Additionally, US units in the Philippines may draw supply from Manila (W 3021).",
               "French (or Vichy) units in Indochina may also draw supply from Saigon (W 2713).",
               "the Chinese Supply hex (W 5109) functions as a supply source for Chinese units.",
               "the Soviet Supply hexes (W 5811 and W 6028) function as supply sources for Soviet and Mongolian units.",
               "Mukden (W 5022) functions as a supply source for Japanese units.")
@pytest.mark.parametrize("hex_, side, nation", [
    ("E 2501", "allies", "us"), ("E 4229", "allies", "uk"), ("E 4229", "allies", "australia"),
    ("W 2112", "allies", "uk"), ("W 2112", "allies", "australia"), ("W 3021", "allies", "us"),
    ("W 2713", "allies", "france"), ("W 5109", "allies", "china"), ("W 5811", "allies", "ussr"),
    ("W 6028", "allies", "mongolia"), ("W 5022", "japan", "japan")])
def test_7_0_each_special_source_supplies_its_units_on_the_shipped_map(hex_, side, nation):
    w = shipped_world([piece("u", side, "Land unit", hex_, nation)])
    t = trace(w, side, "u")
    assert (t.supplied, t.status) == (True, "supplied"), t.explain()
    assert t.source["hex"] == hex_ and t.path == [hex_]


@RULEBOOK.says("US units in Hawaii may draw supply from Pearl Harbor (E 2501).")
def test_7_0_only_the_named_nations_draw_on_them_on_the_shipped_map():
    """Pearl Harbor serves US units, not UK ones; Rabaul not US ones; Singapore not US ones."""
    for hex_, nation in (("E 2501", "uk"), ("E 4229", "us"), ("W 2112", "us")):
        w = shipped_world([piece("u", "allies", "Land unit", hex_, nation)])
        assert not trace(w, "allies", "u").supplied, (hex_, nation)


# ----- Saigon for Japan from the Summer Seasonal Turn of 1941 [7.0] ------------------------------------
@pytest.mark.parametrize("start", ["july_1937", "summer_seasonal_1937"])
def test_7_0_the_named_turn_is_the_campaign_calendars(tmp_path, start):
    """dates.number_of reads the calendar from the game data: the same Game-Turn number the
    campaign's calendar gives the Summer Seasonal Turn of 1941 under either campaign_start reading."""
    with Campaign.create(tmp_path / "c.campaign", game="apto", settings={"campaign_start": start}) as c:
        cal = c.state.calendar
        i = cal.find("Summer Seasonal Turn 1941")
        assert number_of(S.SUMMER_1941, {"campaign_start": start}) == cal.turn(i).number
        assert number_of(NamedTurn("Summer", 1937, "July"), {"campaign_start": start}) == cal.turn(cal.find("July 1937")).number
        for n in (1, 2, 5, i + 1):
            assert label_of(n, {"campaign_start": start}) == cal.turn(n - 1).label


def saigon_campaign(tmp_path, start="july_1937"):
    c = Campaign.create(tmp_path / "s.campaign", game="apto", settings={"campaign_start": start})
    c.place_unit("japan", "Land unit", "W 2713", nation="japan", id="ija")
    c.control.set("Indochina", "japan")  # [8.0]: as of the Summer Seasonal Turn of 1941 a Japanese colony
    return c


@RULEBOOK.says(SAIGON_QUOTE)
@pytest.mark.parametrize("start", ["july_1937", "summer_seasonal_1937"])
def test_7_0_japan_draws_on_saigon_only_as_of_summer_1941(tmp_path, start):
    with saigon_campaign(tmp_path, start) as c:
        assert c.state.turn.label in ("July 1937", "Summer Seasonal Turn 1937")
        t = trace(world_of(c.state, c.graph()), "japan", "ija")
        assert not t.supplied and t.status == ASKS  # no Japanese home city entered: it asks
        why = " ".join(r.text for r in t.reasons)
        assert "Saigon (W 2713) supplies japan units only as of the Summer Seasonal Turn of 1941" in why
        assert f"({c.state.turn.label} is before it)" in why
        while c.state.turn.label != "Summer Seasonal Turn 1941":
            before = c.state.turn.label
            c.advance()
        assert before in ("June 1941",)
        t = trace(world_of(c.state, c.graph()), "japan", "ija")
        assert (t.supplied, t.status) == (True, "supplied"), t.explain()
        assert t.source == {"unit": None, "hex": "W 2713", "name": "Saigon"}


@RULEBOOK.says(SAIGON_QUOTE)
def test_7_0_saigon_june_1941_not_yet_and_a_french_unit_always():
    """The turn before: not yet. French units draw on Saigon from the start [7.0]."""
    s = {"campaign_start": "july_1937"}
    june = number_of(S.SUMMER_1941, s) - 1
    assert label_of(june, s) == "June 1941"
    ctl = {"W 2713": "japan"}
    w = shipped_world([piece("ija", "japan", "Land unit", "W 2713")], control=ctl, settings=s, turn=june)
    assert not trace(w, "japan", "ija").supplied
    assert trace(replace(w, turn=june + 1), "japan", "ija").supplied
    # a world with no turn (no campaign) is not known to have reached it: not supplied, and it says why
    t = trace(replace(w, turn=None), "japan", "ija")
    assert not t.supplied and any("no turn is given" in r.text for r in t.reasons)
    fr = shipped_world([piece("fr", "allies", "Land unit", "W 2713", "france")], turn=1)
    assert trace(fr, "allies", "fr").supplied


# ----- the board's gaps: home sources [7.0] -----------------------------------------------------------
@RULEBOOK.says(HOME_QUOTE)
def test_7_0_a_unit_with_no_home_source_entered_asks_then_is_supplied(tmp_path):
    """No Australian home city or resource hex is on the shipped map (the text names none): an
    Australian unit at Darwin is not "out of supply" but asks, the gap first among its reasons, what
    was tried after it; once the player enters Darwin's city symbol, it is supplied from Darwin."""
    with Campaign.create(tmp_path / "t.campaign", game="apto") as c:
        c.place_unit("allies", "Land unit", DARWIN, nation="australia", id="dar")
        t = trace(world_of(c.state, c.graph()), "allies", "dar")
        assert (t.supplied, t.status) == (False, ASKS), t.explain()
        assert t.reasons[0].rule == "[7.0]" and t.reasons[0].text.startswith("No home city or resource hex of Australia")
        assert "Board set-up" in t.reasons[0].text
        assert len(t.reasons) > 1
        assert t.extra["board_gaps"][0]["kind"] == "home_source"
        c.set_hex(DARWIN, city="yes")
        t = trace(world_of(c.state, c.graph()), "allies", "dar")
        assert (t.supplied, t.status) == (True, "supplied") and t.source["hex"] == DARWIN
        assert not any("home city or resource hex of Australia" in s for s in t.steps)
        assert any("No India Box is entered yet" in s for s in t.steps)  # supplied anyway: said


@RULEBOOK.says(KURE_QUOTE)
def test_7_0_tokyo_draws_on_kure_the_home_city_resource_hex_the_text_names(tmp_path):
    """[2.2] names Kure (W 4428) a Japanese city/resource hex: a unit in Tokyo traces to it, and the
    answer says the rest of Japan's home sources are not entered (it did not need them)."""
    with Campaign.create(tmp_path / "t.campaign", game="apto") as c:
        c.place_unit("japan", "Land unit", "W 4533", nation="japan", id="tokyo")
        t = trace(world_of(c.state, c.graph()), "japan", "tokyo")
    assert (t.supplied, t.status, t.source["hex"]) == (True, "supplied", "W 4428"), t.explain()
    assert any("No home city or resource hex of Japan" in s for s in t.steps)


@RULEBOOK.says("Mukden (W 5022) functions as a supply source for Japanese units.")
def test_7_0_supplied_anyway_says_the_board_lacks_the_home_sources():
    t = trace(shipped_world([piece("m", "japan", "Land unit", "W 5022")]), "japan", "m")
    assert (t.supplied, t.source["hex"]) == (True, "W 5022")
    assert any("No home city or resource hex of Japan" in s and "did not need them" in s for s in t.steps)


def test_7_0_a_home_source_gap_does_not_turn_a_player_stated_out_of_supply():
    """Embarked out of supply [7.7] stays "out of supply": no source would change it."""
    w = shipped_world([piece("e", "japan", "Land unit", "W 4533", embarked="yes", out_of_supply="yes")])
    assert trace(w, "japan", "e").status == "out of supply"


# ----- a new campaign at every place the audit named -------------------------------------------------
# (hex, side, nation) -> the text's answer (status and source hex) or the question naming what to enter.
SUPPLIED, ASKS_HOME, ASKS_MINOR = "supplied", "asks home_source", "asks minor_always"
AUDIT = [
    ("W 4533", "japan", "japan", SUPPLIED, "W 4428"),          # Tokyo: from Kure, the home city/resource hex [2.2] names
    (DARWIN, "allies", "australia", ASKS_HOME, None),          # Darwin: no Australian home city entered
    ("W 5022", "japan", "japan", SUPPLIED, "W 5022"),          # Mukden [7.0]
    ("W 2713", "japan", "japan", ASKS_HOME, None),             # Saigon, July 1937: not Japan's yet
    ("E 2501", "allies", "us", SUPPLIED, "E 2501"),            # Pearl Harbor
    ("E 4229", "allies", "uk", SUPPLIED, "E 4229"),            # Rabaul
    ("E 4229", "allies", "australia", SUPPLIED, "E 4229"),
    ("W 1912", "allies", "dutch", SUPPLIED, None),             # Palembang: always in supply
    ("W 2019", "allies", "dutch", ASKS_MINOR, None),           # Balikpapan: no island/city symbol entered
    ("W 2713", "allies", "france", SUPPLIED, "W 2713"),        # Saigon for the French
    ("W 2112", "allies", "uk", SUPPLIED, "W 2112"),            # Singapore
    ("W 2112", "allies", "australia", SUPPLIED, "W 2112"),
    ("W 3021", "allies", "us", SUPPLIED, "W 3021"),            # Manila
]


@RULEBOOK.says(HOME_QUOTE, MINOR_QUOTE)
@pytest.mark.parametrize("hex_, side, nation, answer, source", AUDIT)
def test_a_new_campaign_answers_as_the_text_or_asks(tmp_path, hex_, side, nation, answer, source):
    with Campaign.create(tmp_path / "a.campaign", game="apto") as c:
        assert c.state.turn.label == "July 1937"
        c.place_unit(side, "Land unit", hex_, nation=nation, id="u")
        t = trace(world_of(c.state, c.graph()), side, "u")
    if answer == SUPPLIED:
        assert (t.supplied, t.status) == (True, "supplied"), t.explain()
        if source:
            assert t.source["hex"] == source
        else:
            assert "always in supply" in t.steps[0]
    else:
        kind = answer.split()[-1]
        assert (t.supplied, t.status) == (False, ASKS), t.explain()
        assert t.extra["board_gaps"][0]["kind"] == kind and t.extra["board_gaps"][0]["nation"] == nation
        assert "Board set-up" in t.reasons[0].text
        if kind == "minor_always":
            assert t.reasons[0].text.startswith(f"Is {hex_} ") and t.extra["board_gaps"][0]["hex"] == hex_


@pytest.mark.needs_aid("supply")
def test_campaign_trace_prints_the_question(tmp_path):
    """campaign trace prints the status and the gap as it prints any trace's."""
    f = tmp_path / "p.campaign"
    home = tmp_path / "home"
    assert run_cli("new", f, "--game", "apto", home=home).returncode == 0
    assert run_cli("place", f, "--side", "allies", "--kind", "Land unit", "--hex", DARWIN, "--nation", "australia",
                   "--id", "dar", home=home).returncode == 0
    r = run_cli("trace", f, "--unit", "dar", home=home)
    assert r.returncode == 0, r.stderr
    assert f"dar at {DARWIN}: {ASKS}" in r.stdout
    assert "[7.0] No home city or resource hex of Australia is entered yet" in r.stdout
    r = run_cli("trace", f, "--all", "--side", "allies", home=home)
    assert r.returncode == 0 and "1 × undecided" in r.stdout


# ----- every board.csv row, read by the rule that reads it ---------------------------------------------
ROWS = board_rows("apto")


def test_the_rows_are_the_texts_hexes():
    """The colony city, the two Non-Islands of a minor nation's colony and the four oil hexes: W 1617
    for Soerabaja as [9.0] and [11.42] print it (W 1614, the [2.3]/[2.9] label, is not a row)."""
    assert {(r.hex, r.kind) for r in ROWS if r.kind in ("minor_always", "resource")} == {
        ("W 1912", "minor_always"), ("W 1822", "minor_always"), ("W 2022", "minor_always"),
        ("W 1912", "resource"), ("W 2019", "resource"), ("W 2418", "resource"), ("W 1617", "resource"),
        ("W 3503", "resource")}  # Calcutta's resource hex [2.4]
    assert {r.hex for r in ROWS if r.kind == "home_source"} == {"W 4428"}  # Kure, a city/resource hex [2.2]
    # the [7.0] table's hexes, held by the rules (sources.py), are in the inventory exactly
    assert {r.hex for r in ROWS if r.kind == "special_source"} == {x.hex for x in S.SPECIAL}
    assert {r.hex for r in ROWS if r.kind == "always_supplied"} == set(S.ALWAYS_HEXES)
    assert set(OIL) <= {r.hex for r in ROWS if r.kind == "resource"} and "W 1614" not in {r.hex for r in ROWS}


def _row_id(r):
    return f"{r.hex}-{r.kind}-{'-'.join(f'{k}={v}' for k, v in r.attrs.items())}"


@pytest.mark.parametrize("row", [r for r in ROWS if r.kind == "minor_always"], ids=_row_id)
def test_7_0_each_minor_always_row_on_the_shipped_map(row):
    owner = shipped().nodes[row.hex]["colony_of"]
    assert owner in S.MINOR_NATIONS
    assert_says_quote(row.quote)
    w = shipped_world([piece("m", "allies", "Land unit", row.hex, owner), piece("uk", "allies", "Land unit", row.hex, "uk")])
    t = trace(w, "allies", "m")
    if row.attrs.get("city") or row.attrs.get("island"):  # always in supply for the minor nation's units there
        assert (t.supplied, t.status) == (True, "supplied") and "always in supply" in t.steps[0]
        assert not trace(w, "allies", "uk").supplied  # not for a major power's unit
    else:  # a Non-Island: not always in supply by being an island; the city symbol is still asked for
        assert not t.supplied and t.status == ASKS and t.reasons[0].text.startswith(f"Is {row.hex} ")
        w = shipped_world(w.pieces, corrections={row.hex: {"city": "no"}})
        t = trace(w, "allies", "m")
        assert (t.supplied, t.status) == (False, "out of supply")  # both symbols entered as absent: no question


@pytest.mark.parametrize("row", [r for r in ROWS if r.kind == "resource" and r.hex in OIL], ids=_row_id)
def test_8_2_each_oil_row_pays_japan_on_the_shipped_map(row):
    """Japan captures the oil hex and a Japanese supply chit there keeps it in supply: the [8.2] oil
    figure is paid for it (ledger_oil_bonus included: the figure instead of the +2)."""
    assert_says_quote(row.quote)
    w = shipped_world([piece("c", "japan", "Sea Supply chit", row.hex)], control={row.hex: "japan"})
    got = {a.item: a for a in adjustments(w, "japan", ("japan",))}
    oil = got["Oil hexes"]
    assert oil.hexes == (row.hex,) and oil.amount == OIL[row.hex][1]
    assert shipped().nodes[row.hex]["colony_of"] == "dutch"  # a Dutch oil hex: an enemy hex to Japan


def test_9_0_brunei_is_a_dutch_oil_hex_on_the_shipped_map(tmp_path):
    """Brunei (W 2418) lies in North Borneo, which the territories leave open; the text calls it one
    of "the Dutch "oil" hexes": the Allies hold it on a new campaign, and a Dutch unit there is asked
    about its city symbol like any Dutch colony hex."""
    with Campaign.create(tmp_path / "b.campaign", game="apto") as c:
        c.place_unit("allies", "Land unit", "W 2418", nation="dutch", id="nl")
        w = world_of(c.state, c.graph())
    assert w.control.owner("W 2418") == "allies"
    t = trace(w, "allies", "nl")
    assert t.status == ASKS and t.reasons[0].text.startswith("Is W 2418 (Brunei) an island hex or colony city?")


def assert_says_quote(quote):
    from rulebooks import assert_says

    assert_says("apto", quote)


test_quotes_in_rulebook = RULEBOOK.check()


# ----- the [7.0] always-supplied rows, Kure's home city/resource row, Calcutta's resource row --------
ALWAYS_QUOTE = ("Formosa (W 3621), Iwo Jima (W 3733), Okinawa (W 3825), Paramushiro (W 0327) and Truk (W 3628) "
                "themselves are never considered supply sources, but are always in supply.")


@RULEBOOK.says(ALWAYS_QUOTE)
@pytest.mark.parametrize("row", [r for r in ROWS if r.kind == "always_supplied"], ids=_row_id)
def test_7_0_each_always_supplied_row_on_the_shipped_map(row):
    """A Japanese unit on the row's hex is always in supply, with no source; an Allied one is not."""
    assert_says_quote(row.quote)
    w = shipped_world([piece("j", "japan", "Land unit", row.hex, "japan")])
    t = trace(w, "japan", "j")
    assert (t.supplied, t.source) == (True, None), t.explain()
    assert "always in supply" in " ".join(t.steps)


@RULEBOOK.says(KURE_QUOTE, HOME_QUOTE)
def test_7_0_kures_row_is_a_home_source_of_japan_on_the_shipped_map():
    (row,) = [r for r in ROWS if r.kind == "home_source"]
    w = shipped_world([piece("k", "japan", "Land unit", row.hex, "japan")])
    t = trace(w, "japan", "k")
    assert (t.supplied, t.source["hex"], t.path) == (True, row.hex, [row.hex]), t.explain()


@RULEBOOK.says("since Calcutta's resource hex only contributed 2 EPs to the Japanese economy.")
def test_8_2_calcuttas_row_pays_the_uk_two_eps_on_the_shipped_map():
    """Calcutta (W 3503), a resource hex of India (a UK colony): +2 EPs to the UK while it is held
    and in supply [8.2]."""
    w = shipped_world([piece("c", "allies", "Sea Supply chit", "W 3503", "uk")])
    got = {a.item: a for a in adjustments(w, "allies", ("uk",))}
    assert "W 3503" in got["Colony resource hexes"].hexes and got["Colony resource hexes"].amount >= 2


@RULEBOOK.says("UK: UK and Australian units may draw supply from the India Box")
def test_7_0_a_uk_unit_in_india_asks_for_the_india_box_until_it_is_placed(tmp_path):
    """Where the India Box joins the map is printed, not in the text: a UK unit at Calcutta with no
    India Box piece on the map asks for it (never "out of supply"); with the piece placed beside it,
    it draws on the Box."""
    with Campaign.create(tmp_path / "i.campaign", game="apto") as c:
        c.place_unit("allies", "Land unit", "W 3503", nation="uk", id="cal")
        t = trace(world_of(c.state, c.graph()), "allies", "cal")
        assert (t.supplied, t.status) == (False, ASKS), t.explain()
        assert "No India Box is entered yet" in " ".join(r.text for r in t.reasons)
        c.board.enter("india_box", ["W 3503"])
        t = trace(world_of(c.state, c.graph()), "allies", "cal")
        assert (t.supplied, t.source["hex"]) == (True, "W 3503"), t.explain()
