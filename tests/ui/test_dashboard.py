"""The campaign dashboard in plain Python (no kernel, no browser): every control sends one
command, the view is redrawn from the campaign, and nothing fails silently."""

from __future__ import annotations

import re

import pytest

from assistant.campaign import Campaign
from assistant.ui import CampaignDashboard, campaign_dashboard
from assistant.ui.kit import attach


@pytest.fixture
def camp(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    yield c
    c.close()


@pytest.fixture
def page(camp, tmp_path):
    p = attach(CampaignDashboard, camp, log_path=tmp_path / "dashboard.log")
    yield p
    p.close()


@pytest.fixture
def dash(page):
    return page.view


def options(dash) -> list[str]:
    return [label for label, _ in dash.unit_list.options]


def test_shows_game_turn_units_and_samples(dash, camp):
    assert "War in the Pacific" in dash.title.value and "g.campaign" in dash.title.value
    assert camp.state.turn.label in dash.turn.value
    assert len(options(dash)) == len(camp.state.units)
    assert all("[sample]" in o for o in options(dash))  # every demo unit is a labelled sample
    assert "marked [sample]" in dash.samples_note.value
    hexes = {f["properties"]["hex"] for f in dash.map.units_layer.data["features"]}
    assert hexes == {u.hex for u in camp.state.units.values()}
    assert [v for _, v in dash.side.options] == [s.id for s in camp.state.sides]


def test_place_move_remove_on_the_selected_hex(dash, camp):
    dash.map.select("E2519")
    assert dash.hex_field.value == "E2519"
    dash.side.value = "allies"
    assert "us" in [v for _, v in dash.nation.options]  # the side's nations are offered
    dash.nation.value = "us"
    dash.category.value = "installation"
    dash.kind.value = "airfield"
    dash.name.value = "Henderson Field"
    dash.place_btn.click()
    assert dash.errors.records == []
    (u,) = [u for u in camp.state.units.values() if u.name == "Henderson Field"]
    assert (u.hex, u.side, u.nation, u.category, u.kind) == ("E2519", "allies", "us", "installation", "airfield")
    assert "Henderson Field" in dash.details.value
    dash.unit_list.value = u.id  # choosing a unit finds it on the map
    assert dash.map.selected == "E2519"
    dash.hex_field.value = "E2418"
    dash.move_btn.click()
    assert camp.state.units[u.id].hex == "E2418"
    dash.remove_btn.click()
    dash.confirm_btn.click()
    assert u.id not in camp.state.units


def test_a_ground_unit_placed_on_open_sea_warns_beside_the_hex(dash, camp):
    sea = next(h for h, (surface, _) in sorted(camp.map.surfaces.items()) if surface == "sea" and h.startswith("E"))
    dash.hex_field.value = sea
    dash.side.value = "allies"
    dash.category.value = "unit"
    dash.kind.value = "infantry division"
    dash.place_btn.click()
    assert dash.errors.records == [] and any(u.hex == sea for u in camp.state.units.values())
    assert f"{sea} is open sea on the map" in dash.hex_hint.value and "embarked" in dash.hex_hint.value
    dash.hex_field.value = "E2519"
    dash.place_btn.click()
    assert dash.hex_hint.value == ""


def test_bad_input_is_shown_logged_and_changes_nothing(dash, camp, tmp_path):
    before = camp.state.last_seq
    dash.hex_field.value = "Z9999"
    dash.place_btn.click()
    dash.hex_field.value = ""
    dash.place_btn.click()
    dash.unit_list.value = None
    dash.move_btn.click()
    dash.note_text.value = "   "
    dash.note_btn.click()
    msgs = [r.message for r in dash.errors.records]
    # The Hex field says at once, under itself, that Z9999 names no hex; Place refuses it too.
    assert "Z9999" in msgs[0] and "no hex" in msgs[1]
    assert "no unit chosen" in msgs[2] and "empty" in msgs[3]
    assert all(r.kind == "rejected" for r in dash.errors.records)
    assert dash.errors.widget.layout.display == "flex"
    assert camp.state.last_seq == before
    assert "Z9999" in (tmp_path / "dashboard.log").read_text()


def test_journal_history_undo_redo_and_turns(dash, camp):
    dash.note_text.value = "Marines ashore at Lunga"
    dash.note_btn.click()
    assert "Marines ashore at Lunga" in dash.notes.value and dash.note_text.value == ""
    assert "Marines ashore" in dash.history.value
    dash.phase_btn.click()
    assert camp.state.turn.phase_index == 1 and camp.state.turn.phase.name in dash.turn.value
    dash.undo_btn.click()
    assert camp.state.turn.phase_index == 0
    assert not dash.redo_btn.disabled
    dash.redo_btn.click()
    assert camp.state.turn.phase_index == 1
    index = camp.state.turn.index
    dash.turn_btn.click()  # ending the turn asks first, naming it; Cancel ends nothing
    assert camp.state.turn.index == index and dash.turn_confirm.layout.display == "flex"
    assert camp.state.turn.label in dash.turn_confirm_text.value
    dash.turn_no.click()
    assert camp.state.turn.index == index and dash.turn_confirm.layout.display == "none"
    dash.turn_btn.click()
    dash.turn_yes.click()
    assert camp.state.turn.index == index + 1 and camp.state.turn.phase_index == 0
    assert dash.turn_confirm.layout.display == "none"


def test_changes_from_another_process_appear_on_poll(page, dash, camp):
    other = Campaign.open(camp.path)
    try:
        other.add_note("written by the CLI")
        other.move_unit("kido-butai", "B3326")
    finally:
        other.close()
    assert "written by the CLI" not in dash.notes.value
    page.poll()
    assert "written by the CLI" in dash.notes.value
    assert any("B3326" in o for o in options(dash))


def test_dashboard_for_a_bad_file_shows_why(tmp_path, monkeypatch):
    bad = tmp_path / "bad.campaign"
    bad.write_bytes(b"garbage" * 50)
    monkeypatch.setenv("CAMPAIGN_FILE", str(bad))
    w = campaign_dashboard()
    assert "ca-error-panel" in w._dom_classes
    html = w.children[1].value
    assert "bad.campaign" in html
    assert bad.read_bytes() == b"garbage" * 50


def test_no_file_opens_the_demo(monkeypatch, assistant_home):
    monkeypatch.delenv("CAMPAIGN_FILE", raising=False)
    d = campaign_dashboard()
    try:
        assert isinstance(d.view, CampaignDashboard)
        assert d.view.errors is d.errors and d.widget is d.view.widget  # the view shows the panel itself
        assert (assistant_home / "data" / "demo-witp-guadalcanal-1942.campaign").is_file()
    finally:
        d.close()
    assert d.campaign._closed  # the page opened it, the page closed it


def test_a_failing_poll_is_reported_once_and_slows_down(page, dash, camp, monkeypatch):
    def broken():
        raise OSError("disk I/O error")

    monkeypatch.setattr(camp, "poll", broken)
    for _ in range(5):
        page.poll()
    assert [r.message for r in dash.errors.records] == ["OSError: disk I/O error"]
    assert page.poller.interval > 1
    monkeypatch.undo()
    page.poll()
    assert page.poller.interval == 0.25


# ----- what the player clicks and reads -------------------------------------------------------
def test_remove_acts_on_the_unit_shown_and_asks_first(dash, camp):
    """Choose Kido Butai, click another hex (its units fill the details), press
    Remove: the page says which unit it will remove, asks, and afterwards stays on the hex."""
    dash.unit_list.value = "kido-butai"
    dash.map.select("E2418")
    dash.remove_btn.click()
    assert "kido-butai" in camp.state.units  # nothing removed yet: a confirmation is asked
    assert dash.map.selected == "E2418"
    assert "Kido Butai" in dash.chosen.value and "B3327" in dash.chosen.value  # what Remove acts on
    assert "1st Marine Division" in dash.details.value  # the hex shown is another one
    assert dash.confirm_box.layout.display != "none"
    assert "Kido Butai" in dash.confirm_text.value and "B3327" in dash.confirm_text.value
    dash.cancel_btn.click()
    assert dash.confirm_box.layout.display == "none" and "kido-butai" in camp.state.units
    dash.remove_btn.click()
    dash.confirm_btn.click()
    assert "kido-butai" not in camp.state.units
    assert {u.id for u in camp.state.units.values()} >= {"1st-marine-division", "ijn-construction-units"}
    assert dash.map.selected == "E2418"  # no jump to another unit's hex
    assert dash.unit_list.value is None and "No unit chosen" in dash.chosen.value
    assert dash.errors.records == []


def test_the_page_stays_on_its_hex_when_the_list_changes(page, dash, camp):
    """Another process removes the chosen unit: the list is redrawn, and no other unit gets chosen
    on the way (ipywidgets selects the first entry when the options are replaced)."""
    dash.unit_list.value = "kido-butai"
    dash.map.select("E2418")
    with Campaign.open(camp.path) as other:
        other.remove_unit("kido-butai")
    page.poll()
    assert dash.map.selected == "E2418" and dash.unit_list.value is None
    assert tuple(dash.map.map.center) != pytest.approx(dash.map.latlng_of("E1737"))


def test_a_unit_of_the_shown_hex_is_chosen_from_the_details(dash, camp):
    dash.map.select("E2418")
    ids = [v for _, v in dash.hex_units.options]
    assert sorted(ids) == sorted(u.id for u in camp.state.units_at("E2418"))  # the scenario's, every one
    assert {"1st-marine-division", "ijn-construction-units"} <= set(ids)
    dash.hex_units.value = "ijn-construction-units"
    assert dash.unit_list.value == "ijn-construction-units"
    assert "11th and 13th Construction Units" in dash.chosen.value


def test_confirmation_is_dropped_when_the_chosen_unit_changes(dash, camp):
    dash.unit_list.value = "kido-butai"
    dash.remove_btn.click()
    dash.unit_list.value = "6th-base-force"
    assert dash.confirm_box.layout.display == "none"
    dash.remove_btn.click()
    assert "6th Base Force" in dash.confirm_text.value
    dash.confirm_btn.click()
    assert "kido-butai" in camp.state.units and "6th-base-force" not in camp.state.units


def test_choosing_a_unit_centres_the_map_on_it(dash, camp):
    """"Units (choose one to find it)" pans the map to the unit."""
    want = dash.map.latlng_of("B3327")
    assert tuple(dash.map.map.center) != pytest.approx(want)
    dash.unit_list.value = "kido-butai"
    assert tuple(dash.map.map.center) == pytest.approx(want)
    assert dash.map.selected == "B3327"


def test_hex_field_enter_selects_a_hex_or_a_place(dash, camp):
    assert dash.hex_field.continuous_update is False  # the value arrives on Enter (or leaving the field)
    dash.hex_field.value = "e2519"
    assert dash.map.selected == "E2519" and dash.hex_field.value == "E2519"
    assert tuple(dash.map.map.center) == pytest.approx(dash.map.latlng_of("E2519"))
    dash.hex_field.value = "Brisbane"  # a gazetteer place: witp puts Brisbane in E1737
    assert dash.map.selected == "E1737" and dash.hex_field.value == "E1737"
    dash.hex_field.value = "guadalcanal"  # three hexes: the first is shown, all are named
    assert dash.map.selected in {"E2418", "E2519", "E2619"}
    assert all(h in dash.hex_hint.value for h in ("E2418", "E2519", "E2619"))
    before = dash.map.selected
    dash.hex_field.value = "Atlantis"  # said under the field, in the game's words; nothing changes
    assert "“Atlantis” is neither a hex nor a place on the War in the Pacific (2nd ed.) map" in dash.hex_hint.value
    assert dash.errors.records == [] and dash.map.selected == before


def test_turn_header_says_turn_once(tmp_path):
    """globalwar's labels already read "Turn 1 (Fall 1939)"; apto's "Winter Seasonal Turn ..."."""
    for game in ("globalwar", "witp"):
        c = Campaign.create(tmp_path / f"{game}.campaign", game=game)
        page = attach(CampaignDashboard, c, log_path=tmp_path / "d.log")
        try:
            text = re.sub(r"<[^>]+>", "", page.view.turn.value)  # what the page shows
            assert c.state.turn.label in text
            assert "Turn Turn" not in text
            assert text.count("Turn") == 1  # "Turn G/T 4/8/42" and "Turn 1 (Fall 1939)"
        finally:
            page.close()
            c.close()


def test_sides_show_name_and_id_and_the_choice_is_kept(camp, tmp_path):
    """The CLI and exports say "japan"/"allies", the page "Japanese"/"Allied": the page names both."""
    p1 = attach(CampaignDashboard, camp, log_path=tmp_path / "d.log")
    try:
        labels = dict((v, k) for k, v in p1.view.side.options)
        assert labels == {"japan": "Japanese (japan)", "allies": "Allied (allies)"}
        p1.view.side.value = "allies"
    finally:
        p1.close()
    p2 = attach(CampaignDashboard, camp, log_path=tmp_path / "d.log")  # a reload of the page
    try:
        assert p2.view.side.value == "allies"
        p2.view.map.select("E2418")
        assert "Allied (allies)" in p2.view.details.value and "Japanese (japan)" in p2.view.details.value
    finally:
        p2.close()


def test_unit_attributes_are_shown_and_edited(dash, camp):
    """The 1st Marine Division's TQ 8 ([21.1]) is an attribute: shown, and editable as key=value."""
    dash.unit_list.value = "1st-marine-division"
    assert "tq" in dash.chosen.value and ">8<" in dash.chosen.value.replace(" ", "")
    dash.map.select("E2418")
    assert "tq" in dash.details.value
    dash.attrs_field.value = 'tq=7 morale="green troops" source='
    dash.attrs_btn.click()
    assert dash.errors.records == []
    u = camp.state.units["1st-marine-division"]
    assert u.attrs.get("tq") == 7 and u.attrs.get("morale") == "green troops" and "source" not in u.attrs
    assert "green troops" in dash.chosen.value and dash.attrs_field.value == ""
    before = camp.state.last_seq
    dash.attrs_field.value = "tq"
    dash.attrs_btn.click()
    assert "'tq'" in dash.errors.records[-1].message and camp.state.last_seq == before


def test_map_corrections_show_in_the_hex_details(page, dash, camp):
    """`campaign map set` corrections appear in the details, marked source=user, also when another
    process writes them while the hex is shown."""
    dash.map.select("E2519")
    assert "source=user" not in dash.details.value
    other = Campaign.open(camp.path)
    try:
        other.set_hex("E2519", airfield=2, surface="land")
    finally:
        other.close()
    page.poll()
    text = dash.details.value
    assert "source=user" in text and "airfield" in text and "land" in text


def test_list_entries_are_cut_to_fit_with_a_mark():
    """Entries of any length fit the list (the browser test measures them on screen); a long
    name is shortened visibly ("…"), never clipped at the edge; the hex stays apart from the name."""
    from assistant.ui.dashboard import LIST_CHARS, list_entry

    long = list_entry("E2418", "11th and 13th Construction Units (IJN)", "Japanese", True)
    assert len(long) == LIST_CHARS and "…" in long and long.endswith(" · Japanese [sample]")
    assert list_entry("W 4533", "Kure", "Japan", False) == "W 4533 Kure · Japan"
    assert len(list_entry("E2418", "x" * 100, "Allied", False)) == LIST_CHARS


def test_a_place_in_the_hex_field_must_name_one_place(dash):
    dash.hex_field.value = "a"  # in many place names
    assert "“a” names several places" in dash.hex_hint.value and "type more of the name" in dash.hex_hint.value
    assert dash.map.selected is None and dash.errors.records == []


def test_the_kept_side_survives_an_unreadable_preferences_file(camp, tmp_path, assistant_home):
    prefs = assistant_home / "data" / "dashboard-prefs.json"
    prefs.parent.mkdir(parents=True, exist_ok=True)
    prefs.write_text("{not json")
    p = attach(CampaignDashboard, camp, log_path=tmp_path / "d.log")
    try:
        assert p.view.side.value == "japan" and p.errors.records == []  # the first side, no error
        p.view.side.value = "allies"  # and the file is written anew
    finally:
        p.close()
    import json

    assert json.loads(prefs.read_text())[str(camp.path.resolve())] == {"side": "allies"}


def test_place_refuses_a_piece_the_rules_cannot_use_and_takes_its_values(tmp_path):
    """The page's Place shares placement's check: an apto Air unit without its type letter [4.0] is
    refused with the attribute named and nothing recorded; typed in Values, it is placed with it."""
    with Campaign.create(tmp_path / "a.campaign", game="apto") as c:
        p = attach(CampaignDashboard, c, log_path=tmp_path / "dashboard.log")
        try:
            d = p.view
            d.hex_field.value = "W 4429"
            d.side.value = "japan"
            d.nation.value = "japan"
            d.category.value = "unit"
            d.kind.value = "Air unit"
            d.name.value = "Kure air group"
            before = c.state.last_seq
            d.place_btn.click()
            assert [r.message for r in d.errors.records] == [
                "an Air unit needs its type: F, FB, N, B or ATP, the type letter upper left [4.0]"]
            assert c.state.last_seq == before
            d.place_attrs.value = "type=B strength=3"
            d.place_btn.click()
            (u,) = [u for u in c.state.units.values() if u.name == "Kure air group"]
            assert (u.kind, dict(u.attrs)) == ("Air unit", {"type": "B", "strength": 3})
            assert d.place_attrs.value == ""
        finally:
            p.close()


def test_place_asks_in_words_for_a_required_value_and_refuses_a_bad_one(dash, camp):
    """[38.0] a witp Port is major or minor: the Place form asks for the size in the game's words
    (no command-line flag) and refuses a size the rules do not know; nothing is recorded."""
    dash.hex_field.value = "E2418"
    dash.side.value = "allies"
    dash.category.value = "installation"
    dash.kind.value = "Port"
    before = camp.state.last_seq
    dash.place_btn.click()
    dash.place_attrs.value = "size=huge"
    dash.place_btn.click()
    assert [r.message for r in dash.errors.records] == [
        "a Port needs its size: major or minor port (an anchorage is its own kind); the port rules read it [38.0]",
        "Port size 'huge' must be major or minor [38.0]"]
    assert all("--" not in r.message for r in dash.errors.records)
    assert camp.state.last_seq == before and dash.place_attrs.value == "size=huge"  # kept to correct
    dash.place_attrs.value = "size=major"
    dash.place_btn.click()
    assert camp.state.last_seq == before + 1 and dash.place_attrs.value == ""


def test_set_refuses_a_value_its_kind_does_not_take(dash, camp):
    """[4.3.1] "The maximum size for any airfield is Level 13": the Set form refuses Level 14 in the
    game's words and changes nothing."""
    rec = camp.place_unit("allies", "Airfield", "E2418", id="af", category="installation", attrs={"level": 2})
    dash.unit_list.value = rec.body.unit.id
    before = camp.state.last_seq
    dash.attrs_field.value = "level=14"
    dash.attrs_btn.click()
    assert [r.message for r in dash.errors.records] == [
        "Airfield level '14' must be a whole number of levels from 1 to 13 [4.3.1]"]
    assert camp.state.last_seq == before and camp.state.units["af"].attrs["level"] == 2
    dash.attrs_field.value = "level=13"
    dash.attrs_btn.click()
    assert camp.state.units["af"].attrs["level"] == 13


def test_the_values_field_says_what_the_chosen_kind_needs(dash):
    """Choosing a kind the rules cannot use without a value shows that value in the Values field
    before Place is pressed: a witp Port's size [38.0]; a kind that needs none shows the example."""
    dash.kind.value = "Port"
    assert dash.place_attrs.placeholder == "needs size: major or minor [38.0]"
    dash.kind.value = "infantry division"
    assert dash.place_attrs.placeholder.startswith("key=value")


def test_the_kind_box_offers_the_games_kinds_and_an_unknown_kind_is_placed_with_a_warning(dash, camp):
    """The Kind box offers the kinds the game's rules declare (witp's "infantry division", "Port"),
    not words of no game; a kind the game does not declare is placed, and the page says the aids do
    not know what it does (as the CLI does)."""
    from assistant.rules.kinds import load_kinds

    d = dash
    declared = list(load_kinds("witp"))
    assert list(d.kind.options)[:len(declared)] == declared and "infantry division" in d.kind.options
    assert "infantry" not in declared and d.kind.value == ""
    d.hex_field.value = "E2519"
    d.side.value = "allies"
    d.kind.value = "division"
    d.place_btn.click()
    assert "“division” is not one of this game&#x27;s kinds" in d.hex_hint.value
    assert any(u.kind == "division" for u in camp.state.units.values())
