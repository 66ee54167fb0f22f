"""Which kernels the served pages hold: how many may run at once, and when one may be culled.

The bookkeeping of ``assistant.ui.site.SiteKernelManager``, kept free of Jupyter so that its rules
are read -- and tested -- on their own:

* **The cull clock.** A Voila page connects its kernel's websocket only once the notebook has run
  and the page has reached the browser and loaded its scripts. So a kernel handed to a page is
  *rendering* from that moment until its page has been sent (or the browser dropped the request):
  never culled then, however long the notebook runs. After that, the page still loading in the
  browser *announces* itself every few seconds until its websocket opens, and each announcement
  starts the clock again (a busy machine can take tens of seconds between the last byte sent and
  the websocket). A kernel is culled once no page has been connected or announced for longer than
  the cull timeout -- and, until its page has connected once, for longer than ``first_connect``
  too: a page's scripts may not run at all while the browser loads them on a busy machine (measured:
  four pages opened at once on two busy cores took 20-40 s from their last byte to their websocket).
  A page that connects stops the clock; one that goes away starts it again.
* **The limit.** At most ``limit`` kernels serve pages at once (0: no limit). A page is *admitted*
  before its kernel is started or handed over, and counts from then on, so pages opened at the same
  moment cannot all slip under the limit while their kernels start. A kernel counts until it is shut
  down (its page closed, or culled). Kernels kept ready for pages that are not yet opened (Voila's
  preheated one, the spare) are not pages' kernels and do not count: they are few and fixed, and
  counting them would leave fewer pages than the limit says.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional


@dataclass(eq=False)
class PageRender:
    """One page being made: admitted under the limit, then given a kernel, then sent (``done``)."""

    kernel_id: Optional[str] = None
    done: bool = False


@dataclass
class PageKernels:
    limit: int = 0  # most kernels serving pages at once; 0: no limit
    first_connect: float = 0.0  # seconds a page's kernel waits for its page's first connection, at least
    _waiting: set = field(default_factory=set)  # admitted renders that have no kernel yet
    _pages: set = field(default_factory=set)  # kernels handed to a page, until shut down
    _rendering: dict = field(default_factory=dict)  # kernel -> its pages still being made
    _unconnected_since: dict = field(default_factory=dict)  # kernel -> when its clock started
    _connected_once: set = field(default_factory=set)  # pages' kernels a page has been connected to

    def __post_init__(self) -> None:
        if isinstance(self.limit, bool) or not isinstance(self.limit, int) or self.limit < 0:
            raise ValueError(f"the most kernels for pages must be a whole number >= 0, not {self.limit!r}")

    # ----- the limit ----------------------------------------------------------------------
    def in_use(self) -> int:
        """Kernels serving pages, counting the admitted pages whose kernel is still starting."""
        return len(self._pages) + len(self._waiting)

    def admit(self) -> Optional[PageRender]:
        """A new page, if the limit allows one more (None: it does not, start no kernel)."""
        if self.limit and self.in_use() >= self.limit:
            return None
        render = PageRender()
        self._waiting.add(render)
        return render

    def hand(self, render: PageRender, kernel_id: str) -> None:
        """``kernel_id`` (started, or taken from those kept ready) now serves the page ``render``."""
        if render.kernel_id is not None or render.done:
            return  # a page has one kernel; later starts in its context are not its own
        render.kernel_id = kernel_id
        self._waiting.discard(render)
        self._pages.add(kernel_id)
        self._rendering[kernel_id] = self._rendering.get(kernel_id, 0) + 1
        self._unconnected_since.pop(kernel_id, None)

    def finish(self, render: PageRender, now: float) -> None:
        """The page has been sent, or the browser gave up on it: its kernel's clock may start."""
        if render.done:
            return
        render.done = True
        self._waiting.discard(render)
        k = render.kernel_id
        if k is None:
            return
        left = self._rendering.get(k, 0) - 1
        if left > 0:
            self._rendering[k] = left
            return
        self._rendering.pop(k, None)
        if k in self._pages:
            self._unconnected_since[k] = now  # the first moment a page could have connected

    def announce(self, kernel_id: str, now: float) -> bool:
        """The page of ``kernel_id`` is open in a browser, still loading: its clock starts again.
        False if no page's kernel has that id (the kernel was shut down, or is no page's)."""
        if kernel_id not in self._pages:
            return False
        if kernel_id not in self._rendering:
            self._unconnected_since[kernel_id] = now
        return True

    def gone(self, kernel_id: str) -> None:
        """The kernel was shut down: it serves no page and has no clock."""
        self._pages.discard(kernel_id)
        self._connected_once.discard(kernel_id)
        self._rendering.pop(kernel_id, None)
        self._unconnected_since.pop(kernel_id, None)

    def forget_all_but(self, alive) -> None:
        """Drop what is known of kernels no longer running (shut down another way, or died)."""
        alive = set(alive)
        for k in [k for k in self._pages | set(self._rendering) | set(self._unconnected_since) if k not in alive]:
            self.gone(k)

    # ----- the cull clock -----------------------------------------------------------------
    def rendering(self, kernel_id: str) -> bool:
        return kernel_id in self._rendering

    def unconnected_for(self, kernel_id: str, connections: int, now: float) -> float:
        """How long the kernel has had no page connected, as the culler counts it: 0 while a page
        is connected or its page is still being made; a kernel first seen here starts its clock now
        (one that no page was ever made for: it has no page to wait for)."""
        if connections > 0 and kernel_id in self._pages:
            self._connected_once.add(kernel_id)
        if connections > 0 or kernel_id in self._rendering:
            self._unconnected_since.pop(kernel_id, None)
            return 0.0
        return now - self._unconnected_since.setdefault(kernel_id, now)

    def cull_after(self, kernel_id: str, timeout: float) -> float:
        """How long the kernel may go without a page connected: ``timeout``, but at least
        ``first_connect`` for a page's kernel whose page has never connected yet."""
        if kernel_id in self._pages and kernel_id not in self._connected_once:
            return max(timeout, self.first_connect)
        return timeout
