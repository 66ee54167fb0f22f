"""The map editor's view in plain Python (no kernel, no browser): pick one hex
or paint a run by clicking hex after hex, set an attribute on all of them as one event; pick a
hexside by two adjacent hexes and set a feature; import a CSV; bad input is one line in the error
panel and records nothing; after any change only the changed hexes are drawn again."""

from __future__ import annotations

import datetime

import pytest

from assistant.aids.mapedit.widget import MapEditor, changed_keys
from assistant.campaign import Campaign
from assistant.cli import main

RUN = ["E2418", "E2419", "E2319"]


@pytest.fixture
def editor(guadalcanal):
    e = MapEditor(guadalcanal)
    yield e
    e.close()


def _paint(e, hexes):
    e.mode.value = "hexes"
    e.paint.value = True
    for h in hexes:
        e.map.select(h)


def test_a_painted_run_set_in_one_click_is_one_event(editor, guadalcanal):
    e, c = editor, guadalcanal
    _paint(e, RUN)
    assert e.run == RUN and "3" in e.picked.value and e.apply_btn.description == "Set on 3 hexes"
    e.map.select("E2419")  # clicked again: out of the run
    assert e.run == ["E2418", "E2319"]
    e.map.select("E2419")
    seq = c.state.last_seq
    e.attr.value = "ground_mp"
    e.value.value = "3"
    e.apply_btn.click()
    assert not e.errors.records and c.state.last_seq == seq + 1
    assert {h: c.state.map_corrections[h]["ground_mp"] for h in RUN} == dict.fromkeys(RUN, 3)
    assert f"#{seq + 1}" in e.status.value
    e.refresh()
    assert e.redrawn == (tuple(sorted(RUN)), ())
    c.undo()  # one step undoes the run
    e.refresh()
    assert all(h not in c.state.map_corrections for h in RUN) and e.redrawn == (tuple(sorted(RUN)), ())


def test_without_paint_a_click_picks_one_hex(editor):
    e = editor
    e.paint.value = False
    e.map.select("E2418")
    e.map.select("E2419")
    assert e.run == ["E2419"]


def test_only_what_changed_is_drawn_again(editor, guadalcanal):
    e, c = editor, guadalcanal
    _paint(e, ["E2418"])
    e.attr.value = "port"
    e.value.value = "minor"
    e.apply_btn.click()
    e.mode.value = "hexside"
    e.map.select("E2418")
    e.map.select("E2419")
    e.feature.value = "mountain"
    e.side_btn.click()
    e.refresh()
    features = e.map._overlays["mapedit/features"]
    board, corrections = e.map.board_layer, e.map.corrections_layer
    # another writer paints two other hexes
    path = str(c.path)
    assert main(["map", "set", path, "E2519", "port=major"]) == 0
    with Campaign.open(path, readonly=True) as other:
        e.refresh(other.state)
    assert e.redrawn == (("E2519",), ())
    assert e.map._overlays["mapedit/features"] is features  # hexsides untouched: not redrawn
    assert e.map.board_layer is board and e.map.corrections_layer is corrections
    assert set(e.map.overlays_in("mapedit")) == {"mapedit/changed", "mapedit/features", "mapedit/hexside"}
    e.mode.value = "hexes"  # back: the run is shown again, the hexside pick is not
    assert set(e.map.overlays_in("mapedit")) == {"mapedit/changed", "mapedit/features", "mapedit/run"}


def test_clearing_an_attribute_on_several_hexes_asks_first(editor, guadalcanal):
    """Clear attribute on a run of several hexes is destructive: the page asks, naming the
    attribute and how many hexes, and clears only on Yes; on one hex it clears at once (Undo
    brings either back); picking other hexes drops the question."""
    e, c = editor, guadalcanal
    e.set_run(["E2418", "E2419", "E2420"])
    e.attr.value = "port"
    e.value.value = "minor"
    e.apply_btn.click()
    assert all(c.state.map_corrections[h]["port"] == "minor" for h in e.run)
    n = c.state.last_seq
    e.unset_btn.click()
    assert e.confirm_box.layout.display == "flex" and "<b>port</b>" in e.confirm_text.value
    assert "<b>3</b> picked hexes" in e.confirm_text.value and c.state.last_seq == n  # nothing yet
    e.confirm_no.click()
    assert e.confirm_box.layout.display == "none" and c.state.last_seq == n
    e.unset_btn.click()
    e.set_run(["E2418"])  # other hexes picked: the question is dropped
    assert e.confirm_box.layout.display == "none"
    e.set_run(["E2418", "E2419", "E2420"])
    e.unset_btn.click()
    e.confirm_yes.click()
    assert c.state.last_seq == n + 1 and not any("port" in c.state.map_corrections.get(h, {}) for h in e.run)
    assert e.confirm_box.layout.display == "none"
    e.set_run(["E2418"])
    e.value.value = "major"
    e.apply_btn.click()
    e.unset_btn.click()  # one hex: at once
    assert "port" not in c.state.map_corrections.get("E2418", {}) and e.confirm_box.layout.display == "none"


def test_hexside_mode_needs_two_adjacent_hexes(editor, guadalcanal):
    e, c = editor, guadalcanal
    e.mode.value = "hexside"
    assert e.attr_box.layout.display == "none" and e.side_box.layout.display is None
    e.map.select("E2418")
    e.map.select("E2420")  # not adjacent: starts again from E2420
    assert e.side_pick == ["E2420"] and e.hexside is None
    e.map.select("E2419")
    assert e.hexside == "E2419|E2420" and "E2419|E2420" in e.picked.value
    e.feature.value = "mountain"
    e.side_btn.click()
    assert c.state.hexside_corrections["E2419|E2420"]["mountain"] is True
    assert "mountain=True" in e.current.value
    e.side_unset_btn.click()
    assert "E2419|E2420" not in c.state.hexside_corrections


@pytest.mark.parametrize("attr, value, named", [
    ("ground_mp", "x", "'x'"), ("port", "huge", "huge"), ("movement_area", "", "''"), ("rail", "maybe", "maybe"),
])
def test_a_bad_value_is_one_line_and_records_nothing(editor, guadalcanal, attr, value, named):
    e, c = editor, guadalcanal
    _paint(e, RUN)
    seq = c.state.last_seq
    e.attr.value = attr
    e.value.value = value
    e.apply_btn.click()
    assert c.state.last_seq == seq
    (rec,) = e.errors.records
    assert rec.kind == "rejected" and named in rec.message and "\n" not in rec.message


def test_setting_with_nothing_picked_says_so(editor, guadalcanal):
    editor.apply_btn.click()
    assert "pick a hex first" in editor.errors.records[-1].message
    editor.mode.value = "hexside"
    editor.side_btn.click()
    assert "pick a hexside first" in editor.errors.records[-1].message


def _upload(e, name: str, data: bytes) -> None:
    e.upload.value = ({"name": name, "type": "text/csv", "size": len(data), "content": memoryview(data),
                       "last_modified": datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)},)


def test_import_an_uploaded_csv_all_or_nothing(editor, guadalcanal):
    e, c = editor, guadalcanal
    seq = c.state.last_seq
    e.import_btn.click()
    assert "choose a CSV file first" in e.errors.records[-1].message
    _upload(e, "mine.csv", b"hex,ground_mp\nE2418,3\nE2419,lots\n")
    e.import_btn.click()
    assert c.state.last_seq == seq and e.errors.records[-1].message.startswith("mine.csv line 3: ")
    assert "'lots'" in e.errors.records[-1].message
    _upload(e, "mine.csv", b"hex,ground_mp\nE2418,\xff\n")
    e.import_btn.click()
    assert c.state.last_seq == seq and "not UTF-8" in e.errors.records[-1].message
    _upload(e, "mine.csv", b"\xef\xbb\xbfhex,ground_mp\nE2418,3\nE2419,4\n")
    e.import_btn.click()
    assert c.state.last_seq == seq + 1 and c.state.map_corrections["E2419"]["ground_mp"] == 4
    assert e.redrawn == (("E2418", "E2419"), ())


def test_the_attribute_list_is_the_games_vocabulary(editor):
    ids = [v for _, v in editor.attr.options]
    assert {"ground_mp", "port", "airfield", "rail", "movement_area", "terrain", "country"} <= set(ids)
    editor.attr.value = "port"
    assert set(editor.value.options) == {"major", "minor", "anchorage", "no"}
    editor.attr.value = "rail"
    assert set(editor.value.options) == {"true", "false"}
    assert {"mountain", "pass"} <= {v for _, v in editor.feature.options}


def test_changed_keys():
    a = {"x": 1, "y": {"k": 1}}
    b = {"x": 1, "y": {"k": 2}, "z": 3}
    assert changed_keys(a, b) == ["y", "z"] and changed_keys(b, a) == ["y", "z"] and changed_keys(a, dict(a)) == []


def test_the_campaign_dashboard_offers_the_editor_on_its_map(guadalcanal):
    from assistant.ui.dashboard import CampaignDashboard

    d = CampaignDashboard(guadalcanal)
    titles = [d.tabs.get_title(i) for i in range(len(d.tabs.children))]
    assert titles == ["Units", "Orders", "Control", "Journal", "History", "Map editor"] and not d.tab_views  # found, built when opened
    d.tabs.selected_index = titles.index("Map editor")
    editor = d.tab_views["Map editor"]
    assert isinstance(editor, MapEditor) and editor.map is d.map and d.tabs.children[titles.index("Map editor")].children == (editor.widget,)
    _paint(editor, ["E2418", "E2419"])
    editor.attr.value = "ground_mp"
    editor.value.value = "2"
    editor.apply_btn.click()
    d.refresh()
    assert editor.redrawn == (("E2418", "E2419"), ()) and set(d.map.corrected_hexes) >= {"E2418", "E2419"}
    assert editor.apply_btn in d.write_buttons()


def test_the_editor_tab_has_its_own_hex_box_that_picks_as_a_click(guadalcanal):
    """In the dashboard's Map editor tab the Units tab's hex box is out of sight: the tab has one of
    its own, on the same map. A hex typed there is picked (and centred), as a click picks it."""
    from assistant.ui.dashboard import CampaignDashboard

    d = CampaignDashboard(guadalcanal)
    d.tabs.selected_index = len(d.CORE_TABS)
    editor = d.tab_views["Map editor"]
    assert editor.hexbox is not None and editor.hexbox.widget in editor.widget.children
    editor.hex_field.value = "e2519"
    assert editor.run == ["E2519"] and d.map.selected == "E2519" and d.hex_field.value == "E2519"
    assert tuple(d.map.map.center) == pytest.approx(d.map.latlng_of("E2519"))
    editor.hex_field.value = "Atlantis"
    assert "neither a hex nor a place" in editor.hex_hint.value and editor.run == ["E2519"]


def test_its_own_page_shows_the_campaigns_units_and_follows_a_move(editor, guadalcanal):
    """Corrections are made around the counters: the map editor's own page draws the campaign's
    units (as the other pages do) and follows a move made elsewhere."""
    assert {u.id for u in editor.map._units} == set(guadalcanal.state.units)
    guadalcanal.move_unit("kido-butai", "B3326")
    editor.refresh()
    assert next(u.hex for u in editor.map._units if u.id == "kido-butai") == "B3326"
