""""Clear what-ifs" clears every place the supply page shows a what-if: the note and the map's
badge, the what-if markers, the working's and the side report's banners, the overlay's legend, the
Without box (it showed the unit left out) and the click mode (a click traced no hypothetical enemy
any more). Real witp rules, the demo's set-up, no browser."""

from __future__ import annotations

import pytest

from assistant.aids.supply import widget as W
from assistant.campaign import Campaign
from assistant.ui.kit import attach


@pytest.fixture
def view(tmp_path, monkeypatch):
    monkeypatch.setenv("CAMPAIGN_ASSISTANT_HOME", str(tmp_path / "home"))
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    p = attach(W.SupplyWidget, c, interval=60)
    yield p.view
    p.close()
    c.close()


def whatif_shown(v) -> list[str]:
    """Where the page still shows a what-if."""
    shown = []
    if "WHAT-IF" in v.whatif_note.value:
        shown.append("note")
    if v.map_badge.value or v.map_badge_control in v.map.map.controls:
        shown.append("map badge")
    if W.WHATIF_LAYER in v.map.overlays_in("supply"):
        shown.append("what-if markers")
    if "WHAT-IF" in v.working.value:
        shown.append("working")
    if "WHAT-IF" in v.side_report.value:
        shown.append("side report")
    if W.STATUS in v.map._legends and "WHAT-IF" in v.map._legends[W.STATUS].value:
        shown.append("legend")
    if v.without.value != W.NONE:
        shown.append(f"Without box ({v.without.value})")
    if v.click_mode.value != "trace":
        shown.append(f"click mode ({v.click_mode.value})")
    return shown


def test_clear_what_ifs_clears_them_everywhere_on_the_page(view):
    v = view
    v.side.value = "allies"
    v.unit.value = "1st-marine-division"
    v.overlay.value = True
    v.without.value = "us-sw-pacific-hq"
    v.without_btn.click()
    v.click_mode.value = "enemy"
    v.map.select("E2519")  # a hypothetical enemy unit there
    assert v.whatif.without == ("us-sw-pacific-hq",) and v.whatif.with_enemy
    assert set(whatif_shown(v)) >= {"note", "map badge", "what-if markers", "working", "side report",
                                   "Without box (us-sw-pacific-hq)", "click mode (enemy)"}
    v.clear_btn.click()
    assert v.whatif.without == () and v.whatif.with_enemy == ()
    assert whatif_shown(v) == []
    assert "No what-if" in v.whatif_note.value and v.errors.records == []
    v.map.select("E2621")  # a click traces again, it adds no what-if
    assert v.whatif.with_enemy == () and v.subject.kind == "hex"


def test_what_ifs_and_refusals_say_the_unit_by_its_name(view):
    """A unit left out is said by its name in the working's banner and its steps, and tracing it
    while it is left out is refused naming it (its id was said: "unit 'us-sw-pacific-hq' ...")."""
    v = view
    v.side.value = "allies"
    v.unit.value = "1st-marine-division"
    v.without.value = "us-sw-pacific-hq"
    v.without_btn.click()
    assert "without US SW PACIFIC HQ" in v.working.value and "us-sw-pacific-hq" not in v.working.value
    v.without.value = "1st-marine-division"
    v.without_btn.click()
    assert v.problem == "1st Marine Division is both traced and left out: trace it or leave it out"
    assert v.errors.records == []
