"""Warming a page's kernel (assistant/ui/warm.py): when a page is built in a kernel (a running
event loop: a page's own kernel, and the kernel Voila preheats by running the campaign dashboard's
notebook before any page asks for it), the kit runs the view's warm-up steps on that loop, one per
callback. They build what the first click would (the map graph, the map's search arrays, a search
of each kind, the page's own World and rules answer), write nothing, draw nothing, and stop when
the page closes."""

from __future__ import annotations

import asyncio
import hashlib
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
