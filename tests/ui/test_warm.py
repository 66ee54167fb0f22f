"""Warming a page's kernel (assistant/ui/warm.py): when a page is built in a kernel (a running
event loop: a page's own kernel, and the kernel Voila preheats by running the campaign dashboard's
notebook before any page asks for it), the kit runs the view's warm-up steps on that loop, one per
callback. They build what the first click would (the map graph, the map's search arrays, a search
of each kind, the page's own World and rules answer), write nothing, draw nothing, and stop when
the page closes."""

from __future__ import annotations

import asyncio
import hashlib
import sys
from pathlib import Path

import pytest

from assistant.aids.ledger.widget import LedgerWidget
from assistant.aids.strike.widget import StrikeWidget
from assistant.aids.supply.widget import SupplyWidget
from assistant.rules import hexnet
from assistant.ui import warm
from assistant.ui.dashboard import campaign_dashboard
from assistant.ui.kit import dashboard
from assistant.ui.warm import Warmer
from uikit import copy_demo


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def demo_file(demo_home, tmp_path):
    return copy_demo(demo_home, tmp_path)


def open_in_a_kernel(make, timeout: float = 120):
    """``make()`` builds a page while an event loop runs (as in a kernel); the loop then runs
    until the page's warm-up is done. Returns the page and what the loop ran besides it."""
    async def scenario():
        page = make()
        between = []

        def tick():  # another message the kernel answers meanwhile
            if not page.warmer.done:
                between.append(page.warmer.done)
                asyncio.get_running_loop().call_later(0.001, tick)

        asyncio.get_running_loop().call_soon(tick)
        for _ in range(int(timeout / 0.01)):
            if page.warmer.done:
                break
            await asyncio.sleep(0.01)
        return page, between

    return asyncio.run(scenario())


def test_the_preheated_campaign_dashboard_warms_on_its_loop_what_its_clicks_use(demo_file):
    """The preheat path: Voila runs campaign.ipynb (``campaign_dashboard()``) in the spare
    kernel before the page is asked for; the warm-up runs there, on the kernel's loop: the hex
    details a click shows, and not the map search, which this page never runs."""
    before = digest(demo_file)
    hexnet._NETS.clear()
    page, _ = open_in_a_kernel(lambda: campaign_dashboard(demo_file))
    try:
        assert page.warmer.done and not page.warmer.failures
        assert "surfaces" in vars(page.campaign.map) and "places" in vars(page.campaign.map)
        assert not hexnet._NETS  # no search arrays, no search kernels
    finally:
        page.close()
    assert digest(demo_file) == before  # nothing written


@pytest.mark.parametrize("view", [SupplyWidget, StrikeWidget], ids=["supply", "strike"])
def test_a_page_that_searches_warms_the_map_search(demo_file, view):
    """A supply or strike page's kernel: the campaign's own graph and its HexNet as the first
    click finds them, every column and feature built, both kinds of search run."""
    hexnet._NETS.clear()
    page, _ = open_in_a_kernel(lambda: dashboard(view, demo_file))
    try:
        net = hexnet._NETS.get(page.campaign.graph())
        assert net is not None
        for key in (("column", "surface"), ("edge", "overland"), ("edge_has", "overland"), ("no_land_across",),
                    ("unit-weight",), ("all-edges",)):  # columns, features and both kinds of search
            assert key in net._cache, key
        assert "surfaces" in vars(page.campaign.map)  # the hex details a selection shows
    finally:
        page.close()


@pytest.mark.parametrize("view, built", [
    (SupplyWidget, "world"), (StrikeWidget, "world"), (LedgerWidget, None)], ids=["supply", "strike", "ledger"])
def test_each_pages_warm_up_runs_between_the_kernels_messages_and_writes_nothing(demo_file, view, built):
    before = digest(demo_file)
    page, between = open_in_a_kernel(lambda: dashboard(view, demo_file))
    try:
        assert page.warmer.done and not page.warmer.failures
        if len(page.view.warm_steps()) > 1:
            assert between  # the loop served other callbacks between the steps
        seq = page.campaign.state.last_seq
        if built:
            assert built in page.view._per_state  # the page's own World, for its first click
        assert page.view.problem is None and not page.view.errors.records  # nothing shown
        if view is SupplyWidget:
            assert page.view.trace is None and page.view.map.selected is None  # nothing drawn
        if view is StrikeWidget:
            assert page.view.target is None and page.view.items == []
        if view is LedgerWidget:
            assert page.view.check_note.value == "" and page.view.draft_entry is None
        assert page.campaign.state.last_seq == seq
    finally:
        page.close()
    assert digest(demo_file) == before


def test_without_a_loop_nothing_runs_until_asked(demo_file):
    page = dashboard(SupplyWidget, demo_file)
    try:
        assert not page.warmer.done
        assert "world" not in page.view._per_state
        page.warmer.run()
        assert page.warmer.done and "world" in page.view._per_state
    finally:
        page.close()


def test_a_closed_page_runs_no_more_steps_and_a_failing_step_is_logged_not_shown(caplog):
    ran = []

    def fails():
        raise RuntimeError("no rules for this game yet")

    w = Warmer([fails, lambda: ran.append(1)])
    assert w.step() and w.failures == ["fails: RuntimeError: no rules for this game yet"]
    w.close()
    assert not w.step() and w.done and ran == []
    assert Warmer([]).done and warm.Warmer([lambda: ran.append(2)]).run().done and ran == [2]


def test_the_warm_ups_searches_do_not_count_toward_the_csgraph_import(demo_file, monkeypatch):
    """The numpy searches a process has run decide when it imports scipy's csgraph (~25 MB in a
    page kernel; rules/_search.py): the warm-up's own searches are not the player's and leave the
    count as it was, so a kernel holds scipy only once its player's searches pay for it."""
    from assistant.rules import _search

    monkeypatch.setattr(_search, "ENGINE", [None])
    monkeypatch.setattr(_search, "_spent", [0.0])
    monkeypatch.setattr(_search, "_STAY", [False])
    monkeypatch.delitem(sys.modules, "scipy.sparse.csgraph", raising=False)  # as in a fresh kernel
    hexnet._NETS.clear()
    page = dashboard(SupplyWidget, demo_file)
    try:
        page.warmer.run()
        assert page.warmer.done and not page.warmer.failures
        assert ("unit-weight",) in hexnet._NETS[page.campaign.graph()]._cache  # it did search
        assert _search._spent == [0.0]
        page.view.choose_unit(next(o[1] for o in page.view.unit.options if o[1]))  # the player's own trace counts
        assert _search._spent[0] > 0
    finally:
        page.close()


def test_the_ledger_in_a_kernel_is_shown_first_and_works_out_its_forecast_and_prices_after(demo_file):
    """The ledger's priced items and forecast need the map graph (~1 s): in a kernel the page is
    built without them, saying it is working them out (never an empty or wrong forecast), and they
    follow on the loop's next turn, the same as a page built without a loop computes at once."""
    async def scenario():
        page = dashboard(LedgerWidget, demo_file)
        shown = (page.view.forecast_box.value, page.view.item.options, page.view.item.placeholder)
        for _ in range(12000):
            if page.warmer.done:
                break
            await asyncio.sleep(0.01)
        return page, shown

    page, (forecast, items, placeholder) = asyncio.run(scenario())
    at_once = dashboard(LedgerWidget, demo_file)
    try:
        assert "Working out the forecast" in forecast and "Forecast:" not in forecast
        assert items == () and placeholder == "working out the priced items…"
        assert page.view.statement.value == at_once.view.statement.value != ""  # the statement at once
        assert page.view.forecast_box.value == at_once.view.forecast_box.value
        assert "Forecast:" in page.view.forecast_box.value
        assert page.view.item.options == at_once.view.item.options != ()
        assert page.view.item.placeholder == "a priced item or your own line name"
        assert not page.errors.records and not page.warmer.failures
    finally:
        page.close()
        at_once.close()


def test_an_item_typed_while_the_ledger_works_out_its_prices_is_priced_and_checked_when_they_come(demo_file):
    async def scenario():
        page = dashboard(LedgerWidget, demo_file)
        v = page.view
        v.item.value = "Strategic Reserve at start"  # typed before the priced items are worked out
        early = (v.price_note.value, v.check_note.value)
        for _ in range(12000):
            if page.warmer.done:
                break
            await asyncio.sleep(0.01)
        return page, early

    page, (price, verdict) = asyncio.run(scenario())
    try:
        assert price == "" and verdict == ""
        assert "Strategic Reserve at start" in page.view.price_note.value
        assert "The rules allow this entry" in page.view.check_note.value
    finally:
        page.close()


@pytest.mark.parametrize("page_class", ["mapedit:MapEditor", "oob:OobWidget", "scan:ScanWidget", "tables:TableEditor"])
def test_a_page_whose_clicks_search_no_map_warms_no_search(demo_file, page_class):
    """The map graph and its search arrays cost an aid kernel some 45 MB: a page whose clicks
    never search the map (hexes are looked up, corrections written, tables checked) does not build
    them while it waits."""
    import importlib

    module, name = page_class.split(":")
    cls = getattr(importlib.import_module(f"assistant.aids.{module}.widget"), name)
    hexnet._NETS.clear()
    page = dashboard(cls, demo_file)
    try:
        page.widget
        page.warmer.run()
        assert page.warmer.done and not page.warmer.failures
        assert len(hexnet._NETS) == 0  # no search arrays built
    finally:
        page.close()
