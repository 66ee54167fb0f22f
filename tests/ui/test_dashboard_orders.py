"""The campaign dashboard's Orders tab in plain Python (no kernel, no browser): many lines typed at
once, recorded as one step that the page's Undo takes back, or nothing, with every bad line named
in the game's words."""

from __future__ import annotations

import re

import pytest

from assistant.campaign import Campaign
from assistant.ui import CampaignDashboard
from assistant.ui.kit import attach

CODE = re.compile(r"--\w|None|\{'|'\w[^']*'")  # a CLI flag, None, a dict or a quoted repr


@pytest.fixture
def camp(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    yield c
    c.close()


@pytest.fixture
def dash(camp, tmp_path):
    p = attach(CampaignDashboard, camp, log_path=tmp_path / "dashboard.log")
    yield p.view
    p.close()


def text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def test_the_orders_tab_has_the_box_the_button_and_the_grammar(dash):
    titles = [dash.tabs.get_title(i) for i in range(len(dash.tabs.children))]
    assert titles[:5] == ["Units", "Orders", "Control", "Journal", "History"]
    box = dash.tabs.children[dash.CORE_TABS.index("Orders")]
    assert dash.orders_text in box.children and dash.orders_btn in box.children
    help_text = " ".join(c.value for c in box.children if hasattr(c, "value") and isinstance(c.value, str))
    for verb in ("move UNIT HEX", "place [NAME] KIND at HEX side SIDE", "remove UNIT", "control HEX … SIDE",
                 "set UNIT key=value"):
        assert verb in help_text
    assert dash.orders_btn in dash.write_buttons()


def test_applying_orders_records_one_step_clears_the_box_and_undo_takes_it_back(dash, camp):
    before = {u.id: u.hex for u in camp.state.units.values()}
    seq = camp.state.last_seq
    dash.orders_text.value = ('move "1st Marine Division" E2519\n'
                              "place 'Americal Division' 'infantry division' at E2619 side allies nation us\n"
                              "move americal E2519\n# a comment\nremove kido-butai\n")
    dash.orders_btn.click()
    assert dash.errors.records == []
    assert camp.state.last_seq == seq + 1
    assert camp.state.units["americal-division"].hex == "E2519" and "kido-butai" not in camp.state.units
    assert dash.orders_text.value == ""  # what was recorded is cleared
    assert "Recorded 4 orders as one step" in dash.orders_result.value and "Undo takes them all back" in dash.orders_result.value
    assert "4 orders at once" in dash.history.value
    assert any("Americal Division" in label for label, _ in dash.unit_list.options)
    dash.undo_btn.click()
    assert {u.id: u.hex for u in camp.state.units.values()} == before
    dash.redo_btn.click()
    assert camp.state.units["americal-division"].hex == "E2519"


def test_bad_lines_are_each_named_nothing_is_recorded_and_the_text_stays(dash, camp):
    seq = camp.state.last_seq
    typed = ("move 1st-marine-division E2519\nmove nobody E2519\nplace HQ at E2519 side martians\n"
             "move kido-butai Guadalcanal\nremove \"Kido\n")
    dash.orders_text.value = typed
    dash.orders_btn.click()
    assert camp.state.last_seq == seq and camp.state.units["1st-marine-division"].hex == "E2418"
    assert dash.orders_text.value == typed  # kept, to be corrected
    shown = text(dash.orders_result.value)
    assert "Nothing recorded" in shown and "4 of 5 orders refused" in shown
    items = re.findall(r"<li class='ca-orders-bad'>(.*?)</li>", dash.orders_result.value)
    assert items == ["line 2: no unit called nobody on the map",
                     "line 3: side martians is not a side of witp (sides: japan, allies)",
                     "line 4: Guadalcanal covers 3 hexes (E2418, E2519, E2619): give the hex",
                     "line 5: a quotation mark is not closed"]
    assert not CODE.search(shown), shown
    assert dash.errors.records == []  # a refusal of the orders is not an error of the page


def test_no_orders_is_said_in_one_line(dash, camp):
    dash.orders_text.value = "\n# nothing yet\n"
    dash.orders_btn.click()
    assert "no orders: write one order a line" in dash.orders_result.value and dash.errors.records == []


def test_writing_off_disables_apply(dash):
    dash.set_write_refusal("the file was deleted")
    assert dash.orders_btn.disabled


def test_the_orders_example_is_in_the_games_own_words(tmp_path):
    """The box's example names a hex of the campaign's own map and one of its sides (an apto
    campaign is not shown witp's Guadalcanal)."""
    from assistant.campaign import Campaign
    from assistant.ui import CampaignDashboard

    with Campaign.create(tmp_path / "a.campaign", game="apto") as c:
        d = CampaignDashboard(c)
        first = d.orders_text.placeholder.splitlines()
        assert first[0].startswith('move "UNIT NAME" ') and c.map.grid.parse(first[0].split()[-1])
        assert first[1].split()[-1] in {s.id for s in c.state.sides} and "E2519" not in d.orders_text.placeholder
