"""The campaign dashboard in plain Python (no kernel, no browser): every control sends one
command, the view is redrawn from the campaign, and nothing fails silently."""

from __future__ import annotations

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
    assert "Henderson Field" in dash.map.details.value
    dash.unit_list.value = u.id  # choosing a unit finds it on the map
    assert dash.map.selected == "E2519"
    dash.hex_field.value = "E2418"
    dash.move_btn.click()
    assert camp.state.units[u.id].hex == "E2418"
    dash.remove_btn.click()
    assert u.id not in camp.state.units


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
    assert "Z9999" in msgs[0] and "no hex" in msgs[1] and "no unit chosen" in msgs[2] and "empty" in msgs[3]
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
    dash.turn_btn.click()
    assert camp.state.turn.index == index + 1 and camp.state.turn.phase_index == 0


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
