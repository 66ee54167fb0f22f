"""The Board set-up page: the kinds of board data the rules read, what is missing, hexes entered
by click or typed, the map's labelled places adopted in one click; the note every other page and
the home page show while the board is incomplete."""

from __future__ import annotations

import re

import pytest

from assistant.campaign import Campaign
from assistant.ui.boardsetup import BoardSetup
from assistant.ui.kit import attach
from assistant.ui.page import board_note_html
from assistant.ui.pages import find_dashboards
from assistant.ui.site import home_page


@pytest.fixture
def globalwar(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="globalwar")
    yield c
    c.close()


@pytest.fixture
def page(globalwar, tmp_path):
    p = attach(BoardSetup, globalwar, log_path=tmp_path / "dashboard.log")
    yield p.view
    p.close()


def test_the_page_lists_each_kind_with_what_is_missing(page):
    labels = [label for label, _ in page.kind.options]
    assert labels == [f"{k.kind.plural}: {k.state}" for k in page.report().kinds]
    assert {"Industrial Hexes: missing for 7 nations", "Communications Area hexes: missing"} <= set(labels)
    page.kind.value = "communications"
    assert "Units may trace a supply path of any length" in page.detail.value
    assert "Named by the rulebook (10): W3001 Canada" in page.detail.value
    assert "No Communications Area hex is entered yet" in page.detail.value
    assert "the board is incomplete" in page.table.value


def test_clicked_hexes_are_marked_in_one_step(page, globalwar):
    page.kind.value = "communications"
    page._on_select("W3012")
    page._on_select("W3013")
    page._on_select("W3012")  # once
    assert page.hexes.value == "W3012, W3013"
    before = globalwar.state.last_seq
    page.mark_btn.click()
    assert globalwar.state.last_seq == before + 1 and page.hexes.value == ""
    assert "map W3012: communications=yes; map W3013: communications=yes" in page.message.value
    assert dict(page.kind.options)["Communications Area hexes: entered"] == "communications"
    page.hexes.value = "W3012"
    page.unmark_btn.click()
    assert "communications deleted" in page.message.value


def test_a_bad_hex_is_one_line_and_records_nothing(page, globalwar):
    page.kind.value = "communications"
    before = globalwar.state.last_seq
    page.hexes.value = "W3012, Nowhere"
    page.mark_btn.click()
    assert globalwar.state.last_seq == before
    assert "“Nowhere” is neither a hex nor a place on the Global War map" in page.message.value
    page.hexes.value = ""
    page.mark_btn.click()
    assert "no hexes given" in page.message.value


def test_the_labelled_industrial_center_is_adopted_in_one_click(page, globalwar):
    page.kind.value = "industrial_hex"
    assert page.adopt_btn.description == "Adopt 1 labelled" and not page.adopt_btn.disabled
    page.adopt_btn.click()
    (u,) = globalwar.state.units.values()
    assert (u.hex, u.kind, u.nation) == ("W3020", "Industrial Hex", "germany")
    assert page.adopt_btn.disabled
    assert dict(page.kind.options)["Industrial Hexes: missing for 6 nations"] == "industrial_hex"


def test_writing_off_disables_marking(page):
    page.set_write_refusal("the file is read-only")
    assert all(b.disabled for b in page.write_buttons())
    assert "read-only" in page.readonly_note.value
    page.set_write_refusal(None)
    assert not page.mark_btn.disabled


def test_every_page_and_the_home_page_say_the_board_is_incomplete_and_link_board_set_up(globalwar, tmp_path):
    note = board_note_html(globalwar.board.report())
    assert "The board is\xa0incomplete" not in note and "incomplete</b>: no Industrial Hexes (7 nations)" in note
    assert "href='board.ipynb'" in note
    html = home_page(globalwar.path, find_dashboards())
    board = re.search(r"<dt>Board</dt><dd class='ca-board'>(.*?)</dd>", html).group(1)
    assert "incomplete" in board and 'href="/voila/render/board.ipynb"' in board
    assert "Board set-up" in [d.title for d in find_dashboards()]


def test_a_page_that_reads_the_board_shows_the_note_once_warm(globalwar, tmp_path):
    from assistant.aids.supply.widget import SupplyWidget

    p = attach(SupplyWidget, globalwar, log_path=tmp_path / "dashboard.log")
    try:
        v = p.view
        assert v.board_note.value == ""  # the first paint builds no map graph
        v.show_board_note()
        assert "Communications Area hexes" in v.board_note.value
        globalwar.board.enter("communications", ["W3012"])
        v.refresh()
        assert "Communications Area hexes" not in v.board_note.value and "Industrial Hexes" in v.board_note.value
    finally:
        p.close()


def test_a_kind_the_rules_own_table_holds_is_shown_not_entered(tmp_path):
    """apto's [7.0] sources: the rulebook names every one; the page shows them and offers no marking."""
    c = Campaign.create(tmp_path / "a.campaign", game="apto")
    p = attach(BoardSetup, c, log_path=tmp_path / "dashboard.log")
    try:
        v = p.view
        v.kind.value = "special_source"
        assert "Named by the rulebook (9): W 5109 Chinese Supply hex" in v.detail.value
        assert v.mark_btn.disabled and v.unmark_btn.disabled and v.adopt_btn.disabled
        v.kind.value = "home_source"
        assert not v.mark_btn.disabled
    finally:
        p.close()
