"""A question of the supply tracer about a unit's value says where it is entered: on the supply
page, the campaign page's words with the page linked; in ``campaign trace``, the command. A table
it asks for is named with a link to the Rule tables page (never a file path), the board's data with
a link to Board set-up."""

from __future__ import annotations

import html
import re

import pytest

from assistant.aids.supply.widget import SupplyWidget
from assistant.campaign import Campaign
from assistant.cli import main
from assistant.ui.kit import attach

TAGS = re.compile(r"<[^>]+>")


def _text(page: str) -> str:
    return " ".join(html.unescape(TAGS.sub("", page)).replace("\u2192", "->").split())


@pytest.fixture
def demo(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    c.update_unit("us-poa-hq", sea_radius=None)
    yield c
    c.close()


def test_an_hqs_sea_radius_question_links_the_campaign_page_rule_29_1(demo):
    v = attach(SupplyWidget, demo, interval=60).view
    v.choose_unit("us-poa-hq")
    shown = _text(v.working.value)
    assert "Sea Command Radius is not entered (sea_radius)" in shown
    assert "-> enter it on the campaign page: choose US P.O.A. HQ in Units, type sea_radius=N and press Set" in shown
    assert "href='campaign.ipynb'" in v.working.value


def test_campaign_trace_says_the_command_that_enters_it(demo, capsys):
    path = str(demo.path)
    demo.close()
    assert main(["trace", path, "--unit", "us-poa-hq"]) == 0
    out = capsys.readouterr().out
    assert f"to enter: campaign update {path} us-poa-hq sea_radius=N" in out


def test_a_board_gap_links_board_set_up(tmp_path):
    """globalwar with no Industrial Hex entered: the question names Board set-up, a link on the page."""
    c = Campaign.create(tmp_path / "gw.campaign", game="globalwar")
    try:
        c.place_unit("axis", "infantry", "W3020", nation="germany", id="inf", attrs={"attack": 2, "defence": 2})
        v = attach(SupplyWidget, c, interval=60).view
        v.choose_unit("inf")
        assert "No Industrial Hex of Germany is entered yet: enter the Industrial Hexes in Board set-up" in \
            _text(v.working.value)
        assert "href='board.ipynb'" in v.working.value
        assert ".csv" not in v.working.value and "templates/" not in v.working.value
    finally:
        c.close()
