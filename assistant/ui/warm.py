"""Warming a page's kernel: what the first click would build, built while the page waits for it.

A page's first click used to pay for everything a later click finds ready: the campaign's map
graph, the map's search arrays and columns (``HexNet``), the search kernels, the rules modules it
imports on first use, the map's hex details, and the page's own view of the rules (its World).
``View.warm_steps()`` lists that work as small steps that only read -- none writes to the
campaign, draws a widget or keeps anything but the caches a click itself would keep (the map's
arrays, shared by content; the page's own per-state values) -- so nothing passes from one page
to another. The warm-up's searches do not count toward the time after which a process takes
scipy's csgraph for its searches (``rules._search.uncounted``): a page kernel holds scipy only once
its player's own searches pay for it.

``Warmer`` runs the steps. In a kernel (``kit.attach`` with a running event loop: a page's own
kernel, and the kernel Voila preheats for the campaign dashboard before anyone asks for it) each
step is its own callback on the kernel's loop, so the page's messages are answered between steps
and a click that comes early is served at once, finding whatever is built so far. Without a loop
(tests, the benchmarks) ``run()`` does them all at once. A step that fails is only logged: the
click that needs it shows the error as any click does.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable, Iterable, Optional

from ..rules._search import uncounted

log = logging.getLogger(__name__)

Step = Callable[[], Any]


class Warmer:
    """The warm-up steps of one page (see the module docstring)."""

    def __init__(self, steps: Iterable[Step]):
        self._steps: list[Step] = list(steps)
        self.done = not self._steps
        self.failures: list[str] = []
        self._closed = False

    def step(self) -> bool:
        """Run the next step; False when none is left."""
        if self._closed or not self._steps:
            self.done = True
            return False
        fn = self._steps.pop(0)
        try:
            with uncounted():  # the engine choice follows the player's searches, not the warm-up's
                fn()
        except Exception as e:  # noqa: BLE001 - warming must never break a page; the click will say it
            self.failures.append(f"{getattr(fn, '__name__', 'step')}: {type(e).__name__}: {e}")
            log.debug("warm-up step failed", exc_info=True)
        if not self._steps:
            self.done = True
        return not self.done

    def run(self) -> "Warmer":
        """Every step now (no event loop: tests, benchmarks)."""
        while self.step():
            pass
        return self

    def start(self, loop: Optional[asyncio.AbstractEventLoop] = None) -> bool:
        """Run the steps one per callback on ``loop`` (the running loop by default); False and
        nothing scheduled without one."""
        if loop is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return False

        def next_step() -> None:
            if self.step():
                loop.call_soon(next_step)

        loop.call_soon(next_step)
        return True

    def close(self) -> None:
        """The page is going: no further step runs."""
        self._closed = True
        self._steps.clear()
