"""The rules of ``assistant.ui.pagekernels``: when a page's kernel may be culled, and how many pages'
kernels may run. Plain bookkeeping with a clock passed in: no server, no kernel, no waiting."""

from __future__ import annotations

import pytest

from assistant.paths import notebooks_dir
from assistant.ui.pagekernels import PageKernels

TIMEOUT = 10.0


def test_a_kernel_is_not_culled_while_its_page_is_being_made_however_long():
    pk = PageKernels()
    render = pk.admit()
    pk.hand(render, "k")
    for now in (0.0, 5.0, 60.0, 3600.0):  # the notebook runs for an hour: the page is still loading
        assert pk.unconnected_for("k", connections=0, now=now) == 0.0
    pk.finish(render, now=3600.0)  # sent: from now on the page could have connected
    assert pk.unconnected_for("k", 0, now=3600.0 + TIMEOUT) == TIMEOUT  # not more: the clock started at 3600
    assert pk.unconnected_for("k", 0, now=3600.0 + TIMEOUT + 0.5) > TIMEOUT


def test_a_connected_page_stops_the_clock_and_one_that_leaves_starts_it_again():
    pk = PageKernels()
    render = pk.admit()
    pk.hand(render, "k")
    pk.finish(render, now=0.0)
    assert pk.unconnected_for("k", 0, now=8.0) == 8.0
    assert pk.unconnected_for("k", 1, now=9.0) == 0.0  # the page connected
    assert pk.unconnected_for("k", 1, now=500.0) == 0.0  # idle for long, but open
    assert pk.unconnected_for("k", 0, now=501.0) == 0.0  # its websocket dropped: the clock starts now
    assert pk.unconnected_for("k", 0, now=512.0) == 11.0



def test_a_page_still_loading_in_the_browser_restarts_the_clock_each_time_it_says_so():
    pk = PageKernels()
    render = pk.admit()
    pk.hand(render, "k")
    pk.finish(render, now=0.0)
    for now in (9.0, 18.0, 27.0):  # every few seconds, the page's script: "open, still loading"
        assert pk.unconnected_for("k", 0, now=now) == 9.0
        assert pk.announce("k", now=now)
    assert pk.unconnected_for("k", 0, now=37.5) == 10.5  # then silence: the clock runs from the last word
    assert not pk.announce("stray", now=40.0)  # no page's kernel by that id: nothing to hold
    pk.gone("k")
    assert not pk.announce("k", now=41.0)


def test_a_page_kernel_waits_at_least_the_first_connect_time_until_its_page_connected_once():
    pk = PageKernels(first_connect=120.0)
    render = pk.admit()
    pk.hand(render, "k")
    pk.finish(render, now=0.0)
    assert pk.cull_after("k", TIMEOUT) == 120.0  # never connected yet: still loading, or dropped while loading
    assert pk.cull_after("stray", TIMEOUT) == TIMEOUT  # no page's kernel: the cull time
    pk.unconnected_for("k", connections=1, now=30.0)  # the page connected
    pk.unconnected_for("k", connections=0, now=40.0)  # and went away without a word
    assert pk.cull_after("k", TIMEOUT) == TIMEOUT
    assert pk.cull_after("k", 300.0) == 300.0  # a longer cull time stands

def test_a_kernel_no_page_was_made_for_starts_its_clock_when_first_seen():
    pk = PageKernels()
    assert pk.unconnected_for("stray", 0, now=100.0) == 0.0
    assert pk.unconnected_for("stray", 0, now=111.0) == 11.0


def test_a_page_the_browser_dropped_while_loading_starts_the_clock_then_and_only_once():
    pk = PageKernels()
    render = pk.admit()
    pk.hand(render, "k")
    pk.finish(render, now=4.0)  # the request was dropped at 4 s ...
    pk.finish(render, now=90.0)  # ... and the notebook ran on until 90 s: the clock stays at 4 s
    assert pk.unconnected_for("k", 0, now=20.0) == 16.0


def test_at_most_the_limit_of_pages_kernels_counting_pages_whose_kernel_is_still_starting():
    pk = PageKernels(limit=2)
    a, b = pk.admit(), pk.admit()  # two pages opened at once: neither has its kernel yet
    assert a is not None and b is not None
    assert pk.admit() is None  # a third is refused before any kernel starts
    pk.hand(a, "ka")
    pk.hand(b, "kb")
    pk.finish(a, 1.0)
    pk.finish(b, 1.0)
    assert pk.in_use() == 2 and pk.admit() is None  # sent pages keep their kernels
    pk.gone("ka")  # its page was closed (close beacon) or it was culled
    c = pk.admit()
    assert c is not None and pk.admit() is None
    pk.finish(c, 2.0)  # that page failed before it had a kernel: its place is free again
    assert pk.in_use() == 1 and pk.admit() is not None


def test_a_page_has_one_kernel_and_kernels_that_stopped_are_forgotten():
    pk = PageKernels(limit=3)
    r = pk.admit()
    pk.hand(r, "k1")
    pk.hand(r, "k2")  # a later start in the page's context (a pool refill) is not the page's
    assert pk.in_use() == 1 and not pk.rendering("k2")
    pk.forget_all_but({"k9"})  # k1 died without a shutdown through the manager
    assert pk.in_use() == 0 and not pk.rendering("k1")


def test_no_limit_is_zero_and_a_limit_is_a_whole_number():
    pk = PageKernels(limit=0)
    assert all(pk.admit() is not None for _ in range(50))
    for bad in (-1, 2.5, "3", True):
        with pytest.raises(ValueError, match=repr(bad).replace("(", r"\(")):
            PageKernels(limit=bad)


def test_the_default_limit_lets_every_play_page_open_at_once():
    """The default (server.DEFAULT_MAX_KERNELS) is chosen so: the campaign dashboard and every aid
    page open together (not the analysts' notebook). A new page makes this fail until the default
    is weighed again."""
    from assistant.ui.server import DEFAULT_MAX_KERNELS

    play_pages = [p for p in notebooks_dir().glob("*.ipynb") if p.name != "analysis.ipynb"]
    assert DEFAULT_MAX_KERNELS >= len(play_pages) == 9
