"""A newcomer finds the way: what a kind needs is shown when it is chosen in the Place form, in
full (it wraps, never cut off), with every value the rules read and what reads it; and no page
names a file where it should name a page.

The Place form at widget level here; the browser at 1366x768 in test_prerequisites_browser.py.
"""

from __future__ import annotations

import html
import re

import pytest

from assistant.aids.mapedit.vocab import hex_attributes
from assistant.campaign import Campaign
from assistant.maps.gamespec import load_game_spec
from assistant.maps.hexsides import feature_vocabulary
from assistant.rules.kinds import load_kinds
from assistant.ui import CampaignDashboard
from assistant.ui.html import aids_reading, linked, page_link
from assistant.ui.kit import attach

TAGS = re.compile(r"<[^>]+>")
FILE_PATH = re.compile(r"templates/|\.csv\b")


def _text(page: str) -> str:
    return " ".join(html.unescape(TAGS.sub("", page)).split())


@pytest.fixture(params=["witp", "apto", "globalwar"])
def game(request):
    return request.param


def _dash(tmp_path, game: str):
    c = Campaign.create(tmp_path / f"{game}.campaign", game=game)
    p = attach(CampaignDashboard, c, log_path=tmp_path / "dashboard.log")
    return c, p


def test_witp_air_points_show_air_combat_read_by_the_strike_plotter_rule_4_1_and_5_2(tmp_path):
    c, p = _dash(tmp_path, "witp")
    try:
        d = p.view
        d.kind.value = "Air Points"
        shown = _text(d.kind_attrs.value)
        assert ("air_combat — read by the strike plotter [4.1];[5.2]: air combat rating with altitude (normal range)"
                in shown)
        assert "missions_this_phase — read by the strike plotter [5.1.1]" in shown
        d.kind.value = "HQ"
        shown = _text(d.kind_attrs.value)
        assert "sea_radius — read by the supply tracer [29.1]: printed Sea Command Radius" in shown
        assert "air_combat" not in shown
        d.kind.value = ""
        assert d.kind_attrs.value == ""
    finally:
        p.close()
        c.close()


def test_apto_air_unit_says_what_it_needs_in_full_rule_4_0(tmp_path):
    """The Values field's placeholder is cut short in its box ("needs type: F, FB, N, B o"): the
    kind's box under the form says it whole."""
    c, p = _dash(tmp_path, "apto")
    try:
        d = p.view
        d.kind.value = "Air unit"
        shown = _text(d.kind_attrs.value)
        assert "Air unit [4.0];[7.7];[10.42]: needs type: F, FB, N, B or ATP [4.0]" in shown
        assert "range — read by the strike plotter [4.12]" in shown
        assert "white-space: normal" in re.sub(r"\s+", " ", d.widget.children[0].value)  # the page's style wraps it
    finally:
        p.close()
        c.close()


def test_every_value_a_kind_declares_is_listed_with_what_reads_it(tmp_path, game):
    c, p = _dash(tmp_path, game)
    try:
        d = p.view
        for k in load_kinds(game).values():
            d.kind.value = k.kind
            items = re.findall(r"<li class='ca-kind-attr'><b>([^<]+)</b> &mdash; read by ([^<]+) <span", d.kind_attrs.value)
            assert sorted(n for n, _ in items) == sorted(k.specs), (game, k.kind)
            assert all(who.strip() for _, who in items)
    finally:
        p.close()
        c.close()


def test_readers_are_the_aids_a_player_uses():
    assert aids_reading(["assistant/rules/witp/apat.py", "air", "economy_book", "command", "nosuch"]) == [
        "the strike plotter", "the production ledger", "the supply tracer", "the rules"]


def test_a_page_named_in_a_message_is_a_link():
    assert linked("enter it on the Rule tables page") == (
        "enter it on " + page_link("tables.ipynb", "the Rule tables page"))
    assert "href='campaign.ipynb'" in linked("on the campaign page: choose x") and "<" not in linked("a < b")[:3]


def test_no_map_editor_doc_names_a_file(game):
    """The map editor shows each hex attribute's and hexside feature's doc: words, never a file."""
    docs = [a.doc for a in hex_attributes(game).values()] + [f.doc for f in feature_vocabulary(load_game_spec(game)).values()]
    named = [d for d in docs if FILE_PATH.search(d or "")]
    assert named == []
