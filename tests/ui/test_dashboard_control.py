"""The campaign dashboard's Control part: the player picks a region or country on the map and a
side, and one click records one control setting (the same event as ``campaign control --region``);
the selected hex says who holds it and why, in the rules' words."""

from __future__ import annotations

import pytest

from assistant.campaign import Campaign
from assistant.campaign.control import control_of
from assistant.ui import CampaignDashboard
from assistant.ui.controlpart import DEFAULT
from assistant.ui.kit import attach


@pytest.fixture
def apto(tmp_path):
    c = Campaign.create(tmp_path / "a.campaign", game="apto")
    yield c
    c.close()


@pytest.fixture
def dash(apto, tmp_path):
    p = attach(CampaignDashboard, apto, log_path=tmp_path / "dashboard.log")
    yield p.view
    p.close()


def test_the_control_tab_offers_the_maps_areas_and_the_sides(dash):
    titles = [dash.tabs.get_title(i) for i in range(len(dash.tabs.children))]
    i = dash.CORE_TABS.index("Control")
    assert titles[i] == "Control" and dash.tabs.children[i] is dash.control.widget
    labels = [label for label, _ in dash.control.area.options]
    assert {"Korea", "Manchukuo", "Indochina", "Philippines", "Java"} <= set(labels)
    assert "UK: all its territory" in labels and "None" not in " ".join(labels)
    assert [v for _, v in dash.control.holder.options] == ["japan", "allies", DEFAULT]


def test_one_click_records_one_region_setting(dash, apto):
    before = apto.state.last_seq
    dash.control.area.value = "Indochina"
    dash.control.holder.value = "japan"
    dash.control.apply_btn.click()
    assert apto.state.last_seq == before + 1
    (rec,) = [r for r in apto.events(before) if r.seq > before]
    assert (rec.body.type, rec.body.scope, rec.body.targets, rec.body.holders) == (
        "control_set", "region", ("Indochina",), ("japan",))
    assert dict(control_of(apto.state).regions) == {"Indochina": "japan"}
    assert "Indochina: Japan" in dash.control.message.value and "Indochina" in dash.control.settings.value
    # the map's owner again: the setting cleared, one more event
    dash.control.holder.value = DEFAULT
    dash.control.apply_btn.click()
    assert apto.state.last_seq == before + 2 and dict(control_of(apto.state).regions) == {}


def test_the_selected_hex_says_who_holds_it_and_why(dash):
    dash._on_select("W 5022")  # Mukden
    assert dash.control.at.value == ""  # worked out when the Control tab is opened, not before
    dash.tabs.selected_index = dash.CORE_TABS.index("Control")
    text = dash.control.at.value
    assert "W 5022" in text and "a colony of Japan (Manchukuo)" in text and "[8.0] MANCHUKUO" in text


def test_apply_is_off_while_writing_is_off(dash):
    assert dash.control.apply_btn in dash.write_buttons()
    dash.set_write_refusal("the disk is read-only")
    assert dash.control.apply_btn.disabled
    dash.set_write_refusal(None)
    assert not dash.control.apply_btn.disabled


def test_the_area_list_starts_on_an_area_never_blank(tmp_path):
    """witp's map names its areas of December 1941 (the Solomons of [44.7] among them): the list
    starts on the first, so Apply has an area to set (a blank choice looked like no area at all)."""
    from assistant.campaign import Campaign
    from assistant.campaign.control import control_of
    from assistant.ui.dashboard import CampaignDashboard

    with Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942") as c:
        d = CampaignDashboard(c)
        assert d.control.area.value == "Admiralty Is."  # the first, alphabetically
        d.control.area.value = "Solomons"
        d.control.holder.value = "japan"
        d.control.apply_btn.click()
        assert dict(control_of(c.state).regions) == {"Solomons": "japan"}
