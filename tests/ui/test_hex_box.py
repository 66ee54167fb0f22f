"""The hex box of every page with a map, in plain Python (no kernel, no browser): a hex label as
printed or a place name, then Enter, selects that hex as a click would (the page reacts as to the
click) and centres the map on it; a text that names no hex is one line under the field, in the
game's words, and changes nothing."""

from __future__ import annotations

import importlib

import pytest

from assistant.campaign import Campaign
from assistant.campaign.places import lookup as find_hex
from assistant.maps import load_map
from assistant.ui import CampaignDashboard
from assistant.ui.kit import attach

# Every page with a map: (module, class, what the page made of the hex after Enter).
PAGES = {
    "supply": ("assistant.aids.supply.widget", "SupplyWidget", lambda v: v.subject.ref),
    "strike": ("assistant.aids.strike.widget", "StrikeWidget", lambda v: v.target),
    "mapedit": ("assistant.aids.mapedit.widget", "MapEditor", lambda v: v.run[-1]),
    "oob": ("assistant.aids.oob.widget", "OobWidget", lambda v: v.place_hex.value),
    "scan": ("assistant.aids.scan.widget", "ScanWidget", lambda v: v.hexes[v.which.value].value),
    "dashboard": ("assistant.ui.dashboard", "CampaignDashboard", lambda v: v.map.selected),
}


@pytest.fixture
def camp(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    yield c
    c.close()


def build(name, camp, tmp_path):
    module, cls, _ = PAGES[name]
    factory = CampaignDashboard if name == "dashboard" else getattr(importlib.import_module(module), cls)
    return attach(factory, camp, log_path=tmp_path / f"{name}.log", interval=60)


def centred_on(view, label: str) -> bool:
    return tuple(view.map.map.center) == pytest.approx(view.map.latlng_of(label))


@pytest.mark.parametrize("name", list(PAGES))
def test_every_page_with_a_map_finds_a_typed_hex_or_place_and_centres_it(name, camp, tmp_path):
    page = build(name, camp, tmp_path)
    try:
        v = page.view
        reacted = PAGES[name][2]
        assert v.hex_field.continuous_update is False  # the text arrives on Enter (or leaving the field)
        assert v.hexbox is not None and v.hexbox.widget in _descendants(v.widget)  # it is on the page
        v.hex_field.value = "e2519"  # as a player reads it off the paper map, in any case
        assert v.map.selected == "E2519" and v.hex_field.value == "E2519" and centred_on(v, "E2519")
        assert reacted(v) == "E2519"  # the page took it as a click on that hex
        v.hex_field.value = "Brisbane"  # a place of the witp gazetteer: E1737
        assert v.map.selected == "E1737" and v.hex_field.value == "E1737" and centred_on(v, "E1737")
        assert reacted(v) == "E1737"
        v.map.center_on("A3210")  # the player pans away; Enter on the same hex finds it again
        v.hex_field.value = ""
        v.hex_field.value = "E1737"
        assert centred_on(v, "E1737")
        v.hex_field.value = "Atlantis"  # names nothing: one line under the field, nothing changes
        assert ("“Atlantis” is neither a hex nor a place on the War in the Pacific (2nd ed.) map: type a hex "
                "as printed (like A3210) or a place name") in v.hex_hint.value
        assert v.map.selected == "E1737" and reacted(v) == "E1737" and v.errors.records == []
        v.map.select("E2418")  # a click: the field follows it and the line is gone
        assert v.hex_field.value == "E2418" and v.hex_hint.value == ""
    finally:
        page.close()


def _descendants(widget):
    out, todo = [], [widget]
    while todo:
        x = todo.pop()
        out.append(x)
        todo.extend(getattr(x, "children", ()))
    return out


def test_a_place_in_several_hexes_shows_the_first_and_names_them_all(camp, tmp_path):
    page = build("supply", camp, tmp_path)
    try:
        v = page.view
        v.hex_field.value = "guadalcanal"
        assert v.map.selected in {"E2418", "E2519", "E2619"}
        assert all(h in v.hex_hint.value for h in ("E2418", "E2519", "E2619"))
    finally:
        page.close()


@pytest.mark.parametrize(("game", "text", "label"), [
    ("witp", "e2519", "E2519"), ("witp", "  brisbane ", "E1737"),
    ("apto", "w4429", "W 4429"), ("apto", "Soerabaja", "W 1617"),
    ("globalwar", "E2519", "E2519"),
])
def test_find_hex_takes_a_label_as_printed_or_a_place(game, text, label):
    assert find_hex(load_map(game), text).label == label


@pytest.mark.parametrize(("game", "text", "words"), [
    ("witp", "Z9999", "Z9999: the War in the Pacific (2nd ed.) map has no section Z (its sections are A, B, C, D, "
                      "E, F, G)"),
    ("witp", "E9999", "E9999 is off the War in the Pacific (2nd ed.) map: section E has columns 01-40 and rows "
                      "01-52"),
    ("witp", "E251", "E251 is not a hex label: War in the Pacific (2nd ed.) labels read like A3210"),
    ("apto", "A0101", "A0101: the Advanced Pacific Theater of Operations map has no section A (its sections are "
                      "W, E, I)"),
    ("globalwar", "W 4429", "W 4429 is off the Global War map: section W has rows 01-36 and columns 01-34"),
    ("globalwar", "Atlantis", "“Atlantis” is neither a hex nor a place on the Global War map"),
    ("witp", "a", "“a” names several places ("),
    ("witp", "", "no hex given: type a hex as printed on the War in the Pacific (2nd ed.) map"),
])
def test_what_names_no_hex_is_one_line_in_the_games_words(game, text, words):
    with pytest.raises(ValueError) as e:
        find_hex(load_map(game), text)
    msg = str(e.value)
    assert words in msg and "\n" not in msg
    assert "'" not in msg and f" {game} " not in msg  # no Python quotes, no game id: the game's title


def test_on_globalwars_wrapped_map_the_hex_is_found_on_the_copy_in_view(tmp_path):
    """[3.1.3.A] the map is a flattened cylinder. A player who panned east past the edge, where the
    west of the map shows again, and types a hex there is taken to that copy of it, not across the
    whole world to the map's own."""
    from assistant.ui.board import to_latlng, wrap_dx

    with Campaign.create(tmp_path / "w.campaign", game="globalwar") as c:
        page = attach(CampaignDashboard, c, log_path=tmp_path / "d.log", interval=60)
        try:
            v = page.view
            grid, dx = c.map.grid, wrap_dx(c.map.grid)
            x, y = grid.pixel(grid.parse("W1805"))
            v.map.map.center = to_latlng(x + dx - 3, y)  # looking past the east edge
            v.hex_field.value = "w1805"
            assert v.map.selected == "W1805"
            assert tuple(v.map.map.center) == pytest.approx(to_latlng(x + dx, y))
            assert v.map.selection_ring.location == pytest.approx(to_latlng(x + dx, y))
            v.map.map.center = to_latlng(x + 2, y)  # at the map's own west edge: its own hex
            v.hex_field.value = "W1806"
            assert tuple(v.map.map.center) == pytest.approx(to_latlng(*grid.pixel(grid.parse("W1806"))))
        finally:
            page.close()


def test_a_hex_printed_on_two_overlapping_sections_is_found_by_either_label_and_the_page_says_so(camp, tmp_path):
    """witp [2.1.3]: where sections overlap the hex has the upper section's label; Yokohama's hex is
    printed both as D0226 and B4026. A player who types D0226 off the paper map gets that hex and is
    told it is the same as B4026 (the label the page shows)."""
    assert find_hex(load_map("witp"), "D0226").label == "B4026" == find_hex(load_map("witp"), "B4026").label
    page = build("strike", camp, tmp_path)
    try:
        v = page.view
        v.hex_field.value = "D0226"
        assert v.map.selected == "B4026" and v.hex_field.value == "B4026"
        assert "D0226 is printed on two map sections: the same hex as B4026" in v.hex_hint.value
        v.hex_field.value = "E2519"  # a hex with one label: nothing said
        assert "printed on two" not in v.hex_hint.value
    finally:
        page.close()
