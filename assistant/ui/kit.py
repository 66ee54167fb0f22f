"""The dashboard kit: what every aid's page needs, in one place.

An aid's notebook is three lines (``MyAidView`` is the aid's ``View``)::

    from assistant.ui.kit import dashboard
    from assistant.aids.myaid.widget import MyAidView
    dashboard(MyAidView)

``dashboard(factory)`` opens the campaign (the given FILE, else ``$CAMPAIGN_FILE`` as
``campaign serve`` hands it to every kernel, else the embedded demo); on any failure it returns
an error page saying why instead of a traceback Voila would hide. Otherwise it builds the view
with ``factory(campaign, errors)`` and returns a ``DashboardPage`` that

- polls the campaign file for other processes' events on the kernel's own event loop
  (``CampaignPoller``: widget updates then happen on the kernel's main thread like any callback),
- calls the view's ``refresh(state)`` after every change, own or another process's, guarded,
- tells the view when the campaign stops (or starts again) taking writes,
- shows the ``ErrorPanel`` above the view (unless the view places it itself),
- warms the kernel for the first click (``ui/warm.py``: the view's ``warm_steps()``, run on the
  kernel's loop while the page waits).

The view contract is ``assistant.ui.view.View`` (``factory(campaign, errors)`` returns one, or a
bare ipywidgets widget); an aid's page builds on ``assistant.ui.page.Page``, which gives it the
frame every page shares. Every callback the view wires goes through
``errors.guard(fn, "what it does")``.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Union

import ipywidgets as w

from .errors import ErrorPanel
from .server import ENV_CAMPAIGN
from .userdirs import user_log_dir
from .view import View, as_view
from .warm import Warmer

POLL_SECONDS = 0.25
POLL_BACKOFF = 2.0  # while the campaign file cannot be read
DEFAULT_LOG = "dashboard.log"

ViewFactory = Callable[[Any, ErrorPanel], Any]  # (Campaign, ErrorPanel) -> View | widget


class CampaignPoller:
    """Polls one campaign for other writers' events on the running event loop (the kernel's).

    Without a running loop (plain Python, tests) ``start()`` does nothing: call ``poll()``."""

    def __init__(self, campaign, errors: ErrorPanel, *, interval: float = POLL_SECONDS,
                 backoff: float = POLL_BACKOFF):
        if not interval > 0 or not backoff > 0:
            raise ValueError(f"poll interval {interval!r} and backoff {backoff!r} must be > 0 seconds")
        self.campaign = campaign
        self.errors = errors
        self.base_interval = float(interval)
        self.backoff = float(backoff)
        self.interval = self.base_interval  # the current one: slower while the file fails to read
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._timer: Optional[asyncio.TimerHandle] = None
        self._closed = False
        self._poll_error: Optional[str] = None
        self.refusal: Optional[str] = None  # why the campaign refuses writes (read-only, file gone)
        self.on_refusal: Optional[Callable[[Optional[str]], None]] = None

    @property
    def running(self) -> bool:
        return self._loop is not None and not self._closed

    def start(self) -> bool:
        """Schedule polling on the running loop; False (and nothing scheduled) without one."""
        try:
            self._loop = asyncio.get_running_loop()
        except RuntimeError:
            self._loop = None
            return False
        self._schedule()
        return True

    def _schedule(self) -> None:
        if self._loop is not None and not self._closed:
            self._timer = self._loop.call_later(self.interval, self._tick)

    def _tick(self) -> None:
        try:
            self.poll()
        finally:
            self._schedule()

    def poll(self) -> None:
        """Pick up other writers' events. A failure is reported once (not four times a second)
        and polling slows down until the file reads again."""
        try:
            self.campaign.poll()
        except Exception as e:  # noqa: BLE001 - shown in the panel and logged
            key = f"{type(e).__name__}: {e}"
            if key != self._poll_error:
                self._poll_error = key
                self.errors.report(e, "watching the campaign file")
            self.interval = self.backoff
            return
        finally:
            self._check_refusal()
        if self._poll_error is not None:
            self._poll_error = None
            self.interval = self.base_interval

    def _check_refusal(self) -> None:
        """Tell ``on_refusal`` when the campaign starts (or stops) refusing writes."""
        reason = getattr(self.campaign, "write_refusal", None)
        if reason != self.refusal:
            self.refusal = reason
            if self.on_refusal is not None:
                try:
                    self.on_refusal(reason)
                except Exception as e:  # noqa: BLE001 - shown in the panel and logged
                    self.errors.report(e, "showing that writing is off")

    def close(self) -> None:
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def _contains(root: w.Widget, target: w.Widget) -> bool:
    stack = [root]
    while stack:
        node = stack.pop()
        if node is target:
            return True
        stack.extend(c for c in getattr(node, "children", ()) if isinstance(c, w.Widget))
    return False


@dataclass(eq=False)
class DashboardPage:
    """One page: a campaign, its error panel, the view over it and the poller. Display it."""

    campaign: Any
    errors: ErrorPanel
    view: View
    poller: CampaignPoller
    owns_campaign: bool = False
    warmer: Optional[Warmer] = None
    _unsubscribe: Optional[Callable[[], None]] = field(default=None, repr=False)
    _widget: Optional[w.Widget] = field(default=None, repr=False)

    @property
    def widget(self) -> w.Widget:
        """The view's widget, with the error panel above it unless the view already shows it."""
        if self._widget is None:
            inner = self.view.widget
            if _contains(inner, self.errors.widget):
                self._widget = inner
            else:
                self._widget = w.VBox([self.errors.widget, inner], layout=w.Layout(width="100%"))
                self._widget.add_class("ca-page")
        return self._widget

    def guard(self, fn: Callable, context: str = "") -> Callable:
        return self.errors.guard(fn, context)

    def poll(self) -> None:
        self.poller.poll()

    def close(self) -> None:
        """Stop polling and updates, close the view, and the campaign if this page opened it."""
        self.poller.close()
        if self.warmer is not None:
            self.warmer.close()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self.view.close()
        if self.owns_campaign:
            self.campaign.close()

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def attach(factory: ViewFactory, campaign, *, errors: Optional[ErrorPanel] = None,
           log_path: Optional[Path] = None, interval: float = POLL_SECONDS,
           owns_campaign: bool = False) -> DashboardPage:
    """Build ``factory(campaign, errors)`` into a page over an already open campaign and start
    polling (if an event loop is running). A failing factory raises; ``dashboard()`` shows it."""
    errors = errors if errors is not None else ErrorPanel(log_path=log_path)
    view = as_view(factory(campaign, errors), campaign, errors)  # a broken contract fails now, not when shown
    page = DashboardPage(campaign=campaign, errors=errors, view=view,
                         poller=CampaignPoller(campaign, errors, interval=interval),
                         owns_campaign=owns_campaign)
    page._unsubscribe = campaign.subscribe(errors.guard(lambda state, _events: view.refresh(state), "campaign update"))
    page.poller.on_refusal = view.set_write_refusal
    page.poller._check_refusal()  # a read-only place is known from the start
    page.poller.start()
    # What the first click would build, built while the page waits for it, step by step on the
    # kernel's loop (the preheated kernel does it before the page is asked for). No loop: the
    # caller runs ``page.warmer.run()`` if it wants it.
    page.warmer = Warmer(view.warm_steps())
    page.warmer.start()
    return page


def campaign_path(path: Union[str, Path, None] = None) -> Path:
    """The campaign a page opens: ``path``, else ``$CAMPAIGN_FILE``, else the demo (created on
    first use)."""
    if path is None:
        path = os.environ.get(ENV_CAMPAIGN, "").strip() or None
    if path is None:
        from .demo import ensure_demo

        return ensure_demo()
    return Path(path).expanduser()


def error_page(exc: BaseException, context: str, *, log_path: Optional[Path] = None) -> w.Widget:
    """A page that is only the error panel, saying why (and logged), instead of a traceback."""
    panel = ErrorPanel(log_path=log_path)
    panel.report(exc, context)
    panel.widget.add_class("ca-error-page")  # the whole page: in the flow, not floating
    return panel.widget


def dashboard(factory: ViewFactory, path: Union[str, Path, None] = None, *,
              log_name: str = DEFAULT_LOG) -> Union[DashboardPage, w.Widget]:
    """Open the campaign (see ``campaign_path``) and show ``factory(campaign, errors)`` on it,
    polling for other processes' changes; or, if anything fails, the error page."""
    from ..campaign import Campaign

    log = user_log_dir() / log_name
    where = path
    try:
        where = campaign_path(path)
        campaign = Campaign.open(where, readonly="auto")  # read-only media: view, no writes
    except Exception as e:  # noqa: BLE001 - shown on the page, logged
        return error_page(e, f"opening campaign {where if where is not None else '(demo)'}", log_path=log)
    try:
        return attach(factory, campaign, log_path=log, owns_campaign=True)
    except Exception as e:  # noqa: BLE001 - shown on the page, logged
        campaign.close()
        name = getattr(factory, "__name__", type(factory).__name__)
        return error_page(e, f"building {name} for {Path(campaign.path).name}", log_path=log)
