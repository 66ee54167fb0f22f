"""The served site: Voila with a home page of our own and kernels that are given back.

``python -m assistant.ui.siteproc NOTEBOOKS [voila options]`` (``main``) runs Voila's own app (``voila.app.Voila``)
with these changes, made in ``init_handlers`` and the kernel manager class:

* ``/`` is the campaign's home page (``HomeHandler``): the campaign file, game, scenario and
  turn, and a link to every dashboard served. It replaces Voila's file list, which links Font
  Awesome from a CDN, polls an ``/api/kernels`` listing Voila does not serve (404) and logs four
  plugin errors; ``/voila/tree`` now redirects home.
* A dashboard page sets the ``_xsrf`` cookie. Voila's page asks the server to shut its kernel down
  on ``beforeunload`` (a beacon to ``/voila/api/shutdown/<id>`` carrying that cookie's value);
  without the cookie Jupyter Server refuses it ("'_xsrf' argument missing from POST", 403;
  voila-dashboards/voila#1458), so every reload or close left a ~180 MB kernel running.
* ``SiteKernelManager`` culls a kernel once no page has been connected to it for
  ``MappingKernelManager.cull_idle_timeout`` seconds (checked every ``cull_interval``): the
  backstop for pages that vanish without a beacon (a crashed tab, a laptop put to sleep). The clock
  starts only once the kernel's page has been sent -- a page connects its kernel after the notebook
  has run, however long that takes -- and starts again each time the page, still loading in the
  browser, announces itself (``PageLoadingHandler``; ``assistant.ui.pagekernels``). Until its page
  has connected once, a page's kernel waits ``FIRST_CONNECT_GRACE`` seconds at least.
  Jupyter Server's own rule counts kernel messages as activity, and a dashboard whose page is
  gone still redraws its widgets on every campaign write, so it would never be culled.
  Preheated kernels waiting in Voila's pool are never culled (Voila's manager skips them).
* It runs at most ``max_page_kernels`` pages' kernels at once: a page opened beyond that gets a
  page saying so, with a link home, and no kernel (``DashboardHandler``).
* It keeps a spare kernel for the pages Voila does not preheat (``spare_kernels``; every kit page
  but the campaign dashboard): started and warmed with those pages' imports, handed to the next such
  page opened, then replaced. One spare serves every aid page, where a preheated kernel per page
  would hold one fully built page each.
* Only its own pages, to its own user: ``HostGate`` refuses, before any handler
  runs, a request whose ``Host`` is not a loopback name with the server's port (or a name the user
  allowed) -- a DNS-rebinding page -- or whose ``Origin`` is another site; every page, API call and
  websocket needs the key from the printed URL (Jupyter Server's token, kept in a same-site cookie
  once a page was opened with it), else ``KeyNeededHandler`` says so; no kernel starts for such a
  request. Error pages say one line, without paths or tracebacks (``PlainErrors``). A path that
  climbs out of its folder (``..``, also percent-encoded) is 404 before routing
  (``assistant.ui.sitepaths``).
* Its log: a time on every line, and one line per refused or failed request saying what and why,
  never the key (``assistant.ui.sitelog``); a websocket without the key is refused in one line.
* It dies with ``campaign serve``: a watchdog thread stops Voila once the process
  named in ``CAMPAIGN_SERVE_PID`` is no longer its parent (besides the parent-death signal
  ``assistant.ui.server`` sets); its kernels exit within a second of it (ipykernel's parent poller).
"""

from __future__ import annotations

import ast
import asyncio
import contextvars
import html
import ipaddress
import json
import logging
import os
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional
from urllib.parse import urlsplit

from jupyter_core.utils import ensure_async
from jupyter_server.auth.decorator import allow_unauthenticated
from jupyter_server.base.handlers import APIHandler, JupyterHandler
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from tornado.websocket import WebSocketHandler
from traitlets import Float, Integer, default
from voila.app import Voila
from voila.static_file_handler import TemplateStaticFileHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.treehandler import TornadoVoilaTreeHandler

from .pagekernels import PageKernels, PageRender
from .pages import ANALYSIS, BOARD_PAGE, ENV_ORDER, HOME, PLAY, SECTIONS, SETUP, DashboardNotebook, served_dashboards
from .sitelog import (
    LOG_DATEFMT,
    LOG_FORMAT,
    one_line_refusals,
    refuse,
    request_logger,
    route_app_log,
    route_tornado_logs,
)
from .sitepaths import climbs_out, template_static

log = logging.getLogger(__name__)
ENV_CAMPAIGN = "CAMPAIGN_FILE"
ENV_TOKEN = "JUPYTER_TOKEN"
ENV_ALLOW_HOSTS = "CAMPAIGN_ALLOW_HOSTS"
ENV_SERVE_PID = "CAMPAIGN_SERVE_PID"
LOCAL_NAMES = ("localhost",)  # and every loopback address (127.0.0.0/8, ::1)


# ----- what the home page says ----------------------------------------------------------------
@dataclass(frozen=True)
class CampaignSummary:
    file: Path
    game: str
    game_title: str
    scenario: Optional[str]
    scenario_title: Optional[str]
    turn: str
    phase: Optional[str]
    units: int
    events: int
    board: str = ""  # the board data the rules read that is missing ("" when none is)


def campaign_summary(path: Path) -> CampaignSummary:
    """Game, scenario, turn and counts of the campaign file, read without writing anything."""
    from ..campaign import Campaign
    from ..maps import load_game_spec

    c = Campaign.open(path, readonly=True)
    try:
        s = c.state
        return CampaignSummary(file=Path(path), game=s.game, game_title=load_game_spec(s.game).title,
                               scenario=s.scenario, scenario_title=scenario_title(s.game, s.scenario),
                               turn=s.turn.label,
                               phase=s.turn.phase.name if s.turn.phase else None,
                               units=len(s.units), events=s.last_seq, board=board_missing(c))
    finally:
        c.close()


def board_missing(c) -> str:
    """What board data the rules read the campaign's board lacks ("" when none, or when it cannot be
    worked out: the home page is never refused for it, and every page says it again)."""
    try:
        report = c.board.report()
    except Exception:  # noqa: BLE001 - the pages themselves report the board
        log.exception("working out the campaign's board for the home page")
        return ""
    return "" if report.complete else report.missing()


def scenario_title(game: str, name: Optional[str]) -> Optional[str]:
    """The scenario's title from its file, if the game still ships it (else None)."""
    from ..campaign.errors import CampaignError
    from ..campaign.scenario import load_scenario

    if not name:
        return None
    try:
        return load_scenario(game, name).title
    except CampaignError:
        return None


HOME_CSS = """
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       background: #f5f3ec; color: #222; }
main { max-width: 760px; margin: 32px auto; padding: 0 20px; }
h1 { font-size: 1.6em; margin: 0 0 4px; }
.ca-sub { color: #666; margin: 0 0 22px; }
section { background: #fff; border: 1px solid #ddd8c8; border-radius: 6px; padding: 14px 18px;
          margin-bottom: 18px; }
h2 { font-size: 1.05em; margin: 0 0 8px; color: #5a4b1e; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
dt { color: #666; } dd { margin: 0; }
code { font-size: 0.92em; word-break: break-all; }
ul.ca-dashboards { list-style: none; margin: 0; padding: 0; }
ul.ca-dashboards li { margin: 8px 0; }
a.ca-dashboard-link { font-size: 1.1em; font-weight: 600; color: #1d4f91; text-decoration: none; }
a.ca-dashboard-link:hover { text-decoration: underline; }
.ca-page-line { display: block; color: #444; margin: 1px 0 0; }
.ca-section-note { color: #666; font-size: 0.92em; margin: -4px 0 8px; }
.ca-section-note + .ca-section-note { margin-top: 0; }
.ca-section-note a { color: #1d4f91; }
.ca-error { color: #8a0014; font-weight: bold; }
.ca-note { color: #666; font-size: 0.9em; }
"""


# The home page's sections (``pages.SECTIONS``): heading and the line under it.
SECTION_HEADINGS = {
    PLAY: ("Playing a turn", "In the order a turn uses them: the turn and its moves, then supply, air strikes, "
                             "and the points to spend."),
    SETUP: ("Setting up", "From your game box: before the first turn, or when a page says something is missing."),
    ANALYSIS: ("For analysts", "Questions answered from the campaign's tables, in Python; they change nothing."),
}
# Set-up that lives inside the campaign dashboard (HOME), as tabs of its own (a test holds these
# names to the dashboard's tabs): (tab, what it does there).
SETUP_IN_CAMPAIGN = (("Orders", "place or move many pieces at once"),
                     ("Control", "who holds a whole region or country"),
                     ("Map editor", "correct hexes and hexsides"))


def page_sections(dashboards: list[DashboardNotebook]) -> str:
    """The pages as the home page lists them: a section per kind (``SECTION_HEADINGS``, in
    ``pages.SECTIONS`` order, an empty one left out), each page its link and its one line."""
    e = html.escape
    home = next((d for d in dashboards if d.name == HOME), None)
    out = []
    for section in SECTIONS:
        pages = [d for d in dashboards if d.section == section]
        if not pages:
            continue
        heading, note = SECTION_HEADINGS[section]
        note = f"<p class='ca-section-note'>{e(note)}</p>"
        if section == SETUP and home is not None:
            tabs = " · ".join(f"<b>{e(tab)}</b> ({e(what)})" for tab, what in SETUP_IN_CAMPAIGN)
            note += (f"<p class='ca-section-note ca-in-campaign'>Also in the <a class=\"ca-setup-home\" "
                     f'href="/voila/render/{e(home.name)}">{e(home.title)}</a> page, as its tabs: {tabs}.</p>')
        items = "".join(
            f"<li class='ca-page' data-page='{e(d.name)}'>"
            f'<a class="ca-dashboard-link" href="/voila/render/{e(d.name)}" title="{e(d.name)}">{e(d.title)}</a>'
            + (f"<span class='ca-page-line'>{e(d.description)}</span>" if d.description else "")
            + "</li>" for d in pages)
        out.append(f"<section class='ca-pages ca-pages-{section}'><h2>{e(heading)}</h2>"
                   f"{note}<ul class='ca-dashboards'>{items}</ul></section>")
    return "".join(out)


def home_page(campaign_file: Optional[Path], dashboards: list[DashboardNotebook], cull_after: int = 0) -> str:
    """The home page: one self-contained HTML document (no script, nothing fetched)."""
    e = html.escape
    if campaign_file is None:
        about = "<p class='ca-error'>No campaign file was given to this server.</p>"
        title = "Campaign Assistant"
    else:
        try:
            s = campaign_summary(Path(campaign_file))
        except Exception as err:  # noqa: BLE001 - the page says why, in one line
            msg = str(err).splitlines()[0] if str(err) else type(err).__name__
            about = f"<p class='ca-error'>Cannot read the campaign {e(str(campaign_file))}: {e(msg)}</p>"
            title = "Campaign Assistant"
        else:
            board_link = next((f'<a class="ca-board-link" href="/voila/render/{e(d.name)}">{e(d.title)}</a>'
                               for d in dashboards if d.name == BOARD_PAGE), "Board set-up (campaign board FILE)")
            turn = e(s.turn) + (f" · {e(s.phase)}" if s.phase else "")
            about = ("<dl>"
                     f"<dt>Game</dt><dd class='ca-game'>{e(s.game_title)} (<code>{e(s.game)}</code>)</dd>"
                     + (f"<dt>Scenario</dt><dd class='ca-scenario'>{e(s.scenario_title or s.scenario)} "
                        f"(<code>{e(s.scenario)}</code>)</dd>" if s.scenario else "")
                     + f"<dt>Turn</dt><dd class='ca-turn'>{turn}</dd>"
                     f"<dt>File</dt><dd class='ca-file'><b>{e(s.file.name)}</b><br><code>{e(str(s.file))}</code></dd>"
                     f"<dt>Record</dt><dd>{s.units} units on the map · {s.events} events</dd>"
                     + (f"<dt>Board</dt><dd class='ca-board'><b>incomplete</b>: no {e(s.board)} entered yet; "
                        f"answers that need them say so. Enter them in {board_link}.</dd>" if s.board else "")
                     + "</dl>")
            title = f"{s.file.name} · Campaign Assistant"
    listing = page_sections(dashboards) or ("<section class='ca-pages'><h2>Pages</h2><ul class='ca-dashboards'>"
                                            "<li class='ca-error'>No dashboards are served.</li></ul></section>")
    culling = (f" A kernel whose page has been gone for {cull_after} s without saying so (a crashed tab, "
               "a computer put to sleep) is shut down too; reload such a page to get a new one."
               if cull_after > 0 else "")
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        "<link rel='icon' href='data:,'>"
        f"<title>{e(title)}</title><style>{HOME_CSS}</style></head><body><main>"
        "<h1>Campaign Assistant</h1>"
        "<p class='ca-sub'>Player aid for the campaign below. Every page shares this one campaign file.</p>"
        f"<section class='ca-campaign'><h2>This campaign</h2>{about}</section>"
        f"{listing}"
        "<p class='ca-note'>Each dashboard page runs its own Python kernel on this computer; closing or "
        f"reloading the page shuts it down.{culling} Reload this page to see the campaign's current turn.</p>"
        "</main></body></html>")



# ----- who may ask ----------------------------------------------------------------------------
@dataclass(frozen=True)
class HostGate:
    """Host and Origin rule: the Host header must name this server -- a loopback address or
    ``localhost`` (or an allowed name) with its port -- and an Origin header, if sent, must be that
    very host (the page asking was served here). Anything else is a foreign page: refused."""

    port: int
    allowed: frozenset[str] = frozenset()

    def host_ok(self, host: str) -> bool:
        name, sep, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
        if not sep or port != str(self.port):
            return False
        name = name.lower()
        if name.startswith("[") and name.endswith("]"):
            name = name[1:-1]
        if name in LOCAL_NAMES or name in self.allowed:
            return True
        try:
            return ipaddress.ip_address(name).is_loopback
        except ValueError:
            return False

    def refusal(self, headers) -> Optional[str]:
        """Why a request with these headers is refused (one line), or None."""
        host = headers.get("Host", "")
        if not self.host_ok(host):
            return f"this server answers only at 127.0.0.1:{self.port}, not at the name {host[:80]!r}"
        origin = headers.get("Origin")
        if origin is not None:
            parts = urlsplit(origin.lower()) if origin != "null" else None
            if parts is None or parts.scheme not in ("http", "ws") or parts.netloc != host.lower():
                return f"this server answers only its own pages, not a page from {origin[:80]!r}"
        # Fetch metadata (sent by current browsers): another site's page -- even one on this
        # computer at another port, whose requests carry our same-site cookie -- may only navigate
        # the whole window here (a link the player clicks), never embed, fetch or frame a page.
        site = headers.get("Sec-Fetch-Site", "")
        if site in ("same-site", "cross-site") and not (
                headers.get("Sec-Fetch-Mode") == "navigate" and headers.get("Sec-Fetch-Dest") == "document"):
            return "this server answers only its own pages, not one embedded in or fetched by another site"
        return None


def refusal_page(title: str, line: str) -> str:
    """A one-line page: what happened and what to do, nothing else (no paths, no traceback)."""
    e = html.escape
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><link rel='icon' href='data:,'>"
            f"<title>{e(title)}</title><style>body{{font:15px/1.45 system-ui,sans-serif;margin:40px;"
            f"color:#222;background:#f5f3ec}}</style></head><body><h1>{e(title)}</h1>"
            f"<p class='ca-refusal'>{e(line)}</p></body></html>")


class RefusedHandler(web.RequestHandler):
    """Answers a request ``HostGate`` refused: 403 and one line, whatever the method."""

    def initialize(self, reason: str) -> None:
        self.reason = reason

    def prepare(self) -> None:
        refuse(self, self.reason)
        self.set_status(403)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(refusal_page("Not served to this page", f"Refused: {self.reason}."))

    def check_xsrf_cookie(self) -> None:  # refused before any of that matters
        return None


class OutsideHandler(web.RequestHandler):
    """Answers a path that climbs out of its folder (``climbs_out``): 404 and one line."""

    def prepare(self) -> None:
        refuse(self, "a path that climbs out of its folder ('..')")
        self.set_status(404)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(refusal_page("404", error_line(404)))

    def check_xsrf_cookie(self) -> None:  # answered before any of that matters
        return None


class GatedApplication(web.Application):
    """Tornado's application with ``HostGate`` before routing: a refused request reaches no
    handler; nor does a path that climbs out of its folder (404)."""

    def find_handler(self, request, **kwargs):
        gate: Optional[HostGate] = self.settings.get("campaign_gate")
        reason = gate.refusal(request.headers) if gate else "the server has no host rule"
        if reason:
            return self.get_handler_delegate(request, RefusedHandler, {"reason": reason})
        if climbs_out(request.path):
            return self.get_handler_delegate(request, OutsideHandler)
        return super().find_handler(request, **kwargs)


KEY_NEEDED = ("This page needs the key that `campaign serve` printed in its URL (…/?token=…). "
              "Open that URL again; a page of another site never gets it.")


class KeyNeededHandler(JupyterHandler):
    """Where a request without the key is sent (Jupyter's login URL): 403 and one line."""

    @allow_unauthenticated
    def get(self, *args) -> None:
        refuse(self, "a page or request without the key")
        self.set_status(403)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(refusal_page("The key is missing", KEY_NEEDED))

    @allow_unauthenticated
    def post(self, *args) -> None:
        self.get()


ERROR_LINES = {
    400: "The request was not understood.",
    403: "This page is not served to this request.",
    404: "There is no such page here. The home page links every dashboard.",
    405: "This page does not take that kind of request.",
}


def error_line(status: int) -> str:
    """One line for an error status: never a server path or a traceback."""
    if status >= 500:
        return ("The server could not make this page. The server log (named where `campaign serve` "
                "was started) says why.")
    return ERROR_LINES.get(status, "This request cannot be answered.")


class PlainErrors:
    """Mixed into every handler: error pages (and API errors) of one line, without the server's
    paths or a traceback, which Jupyter's and Voila's pages show."""

    def write_error(self, status_code: int, **kwargs) -> None:
        line = error_line(status_code)
        self.set_header("Cache-Control", "no-store")
        if isinstance(self, APIHandler):
            self.set_header("Content-Type", "application/json")
            self.finish(json.dumps({"message": line}))
            return
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(refusal_page(f"{status_code}", line))


def plain_errors(cls: type) -> type:
    """``cls`` with ``PlainErrors`` (websockets are left alone: they answer no page)."""
    if not isinstance(cls, type) or not issubclass(cls, web.RequestHandler) or issubclass(cls, WebSocketHandler):
        return cls
    if issubclass(cls, PlainErrors):
        return cls
    return type(cls.__name__, (PlainErrors, cls), {"__module__": cls.__module__})


def watch_parent(parent: int, interval: float = 0.5, grace: float = 15.0) -> threading.Thread:
    """A daemon thread: once ``parent`` is no longer this process's parent (it died; we were
    re-parented), stop as on SIGTERM (Voila shuts its kernels down), and exit after ``grace`` s
    if that hangs."""

    def run() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(grace)
        os._exit(1)

    t = threading.Thread(target=run, name="campaign-serve-watchdog", daemon=True)
    t.start()
    return t


def without_key(handler: web.RequestHandler) -> bool:
    """If the URL carries the key (``?token=``), redirect to it without: the key is in the cookie
    by now, and so it leaves the address bar, the history and what Voila hands the kernels (the
    request's query string). True if it redirected."""
    if handler.get_query_argument("token", None) is None:
        return False
    from urllib.parse import urlencode

    rest = [(k, v) for k, vs in handler.request.query_arguments.items() if k != "token"
            for v in (x.decode("utf-8", "replace") for x in vs)]
    handler.redirect(handler.request.path + (f"?{urlencode(rest)}" if rest else ""))
    return True


# ----- handlers -----------------------------------------------------------------------------
class HomeHandler(JupyterHandler):
    """``/``: the campaign's home page."""

    def initialize(self, site: str, campaign_file: str, order: tuple[str, ...], cull_after: int) -> None:
        self.site = Path(site)
        self.campaign_file = Path(campaign_file) if campaign_file else None
        self.order = order
        self.cull_after = cull_after

    @web.authenticated
    async def get(self, *args) -> None:
        self.xsrf_token  # noqa: B018 - sets the _xsrf cookie (see DashboardHandler)
        if without_key(self):
            return

        def render() -> str:
            return home_page(self.campaign_file, served_dashboards(self.site, self.order), self.cull_after)

        page = await asyncio.get_running_loop().run_in_executor(None, render)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
        self.finish(page)


def too_many_page(limit: int, home: str) -> str:
    """The page for one page too many: what happened, what to do, the way home (no kernel started)."""
    e = html.escape
    pages = "one dashboard page" if limit == 1 else f"{limit} dashboard pages"
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'><link rel='icon' href='data:,'>"
        f"<title>Too many dashboards open · Campaign Assistant</title><style>{HOME_CSS}</style></head>"
        "<body><main><h1>Too many dashboards open — close one</h1><section class='ca-too-many'>"
        f"<p>This server already runs {pages}, the most it runs at once; each holds a Python kernel "
        "on this computer. Close a dashboard tab you no longer need, then reload this page.</p>"
        f"<p><a class='ca-dashboard-link' href='{e(home)}'>Back to the home page</a></p>"
        "</section></main></body></html>")


class DashboardHandler(TornadoVoilaHandler):
    """Voila's page handler, setting the ``_xsrf`` cookie first: Voila's page sends it back in the
    ``beforeunload`` beacon that shuts its kernel down (voila-dashboards/voila#1458).

    A page is admitted under the kernel manager's limit before Voila starts (or hands over) its
    kernel, and is the current page (``CURRENT_PAGE``) while Voila makes it, so that the manager
    knows which kernel is still rendering; the kernel's cull clock starts once the page has been
    sent or the browser dropped the request. Over the limit: ``too_many_page``, no kernel."""

    _render: Optional[PageRender] = None

    @web.authenticated
    async def get(self, path=None):
        self.xsrf_token  # noqa: B018 - tornado sets the cookie when the token is first read
        if without_key(self):
            return
        km = self.kernel_manager
        if not isinstance(km, SiteKernelManager):  # not our site's manager: Voila's own ways
            await super().get(path)
            return
        render = km.admit_page()
        if render is None:
            self.log.warning("Page %r refused: %d pages' kernels running, the most allowed", path, km.max_page_kernels)
            self.set_status(503)
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.set_header("Cache-Control", "no-store")
            self.finish(too_many_page(km.max_page_kernels, self.base_url))
            return
        self._render = render
        current = CURRENT_PAGE.set(render)
        try:
            await super().get(path)
        finally:
            CURRENT_PAGE.reset(current)
            km.page_sent(render)

    def on_connection_close(self) -> None:
        """The browser dropped the page while it was being made: nobody waits for that kernel."""
        if self._render is not None and isinstance(self.kernel_manager, SiteKernelManager):
            self.kernel_manager.page_sent(self._render)
        super().on_connection_close()


class PageLoadingHandler(APIHandler):
    """``POST /voila/api/page-loading/<kernel id>``: the page of that kernel is open in a browser and
    still loading (the page template's script says so every few seconds until the kernel's
    websocket opens), so its kernel's cull clock starts again. 404 if no page has that kernel."""

    @web.authenticated
    def post(self, kernel_id: str) -> None:
        km = self.kernel_manager
        if not isinstance(km, SiteKernelManager) or not km.page_loading(kernel_id):
            raise web.HTTPError(404)
        self.set_status(204)
        self.finish()


SPARE_REFILL_DELAY = 2.0  # seconds after a page took the spare kernel before the next one starts
# A page's kernel is culled only once its page has had this long to connect first, at least: a
# loading page's scripts can be starved for tens of seconds on a busy machine (pagekernels). A page
# closed before it ever came up costs its kernel this long; a page that connected, the cull time.
FIRST_CONNECT_GRACE = 120.0
# The page the handler is making in this task (DashboardHandler): the kernel the manager starts or
# hands over in it is that page's. Tasks started from it copy it, so the manager takes only a page
# kernel's start (Voila's VOILA_PREHEAT=False) or a preheated kernel handed over as the page's.
CURRENT_PAGE: contextvars.ContextVar[Optional[PageRender]] = contextvars.ContextVar("campaign_page", default=None)


def warm_imports(site: Path) -> tuple[str, frozenset[str]]:
    """The import statements of the served pages built on the dashboard kit (their notebooks import
    from ``assistant.ui``), as code a spare kernel runs ahead of time, and those pages' names.
    Only the notebooks' own top-level imports: no page is built and no campaign opened."""
    lines: list[str] = []
    pages: set[str] = set()
    for nb in sorted(Path(site).glob("*.ipynb")):
        try:
            cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
            tree = ast.parse("\n".join("".join(c.get("source", "")) for c in cells if c.get("cell_type") == "code"))
        except (OSError, ValueError, KeyError, TypeError, SyntaxError):
            continue  # Voila says what is wrong with it when its page is opened
        imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
        if any(isinstance(n, ast.ImportFrom) and (n.module or "").startswith("assistant.ui") for n in imports):
            pages.add(nb.name)
            lines += [ast.unparse(n) for n in imports]
    return "\n".join(dict.fromkeys(lines)), frozenset(pages)


class SiteKernelManager(AsyncMappingKernelManager):
    """Culls a kernel that no page has been connected to for ``cull_idle_timeout`` seconds, as
    seen by the culler's checks (so between that and that plus two ``cull_interval``), counted from
    when its page had been sent or last announced itself loading (``PageKernels``: a page still
    being made is never culled), and at least ``first_connect_grace`` s until its page first connected.

    Runs at most ``max_page_kernels`` pages' kernels (0: no limit); the kernels kept ready (Voila's
    preheated one, the spare) do not count, and a page that takes one makes it a page's kernel.

    Keeps ``spare_kernels`` kernels started and warmed for the pages whose kernel is started when
    they are opened (every page but the one Voila preheats): each has run the kit pages' imports
    (``warm_imports``) and nothing else, so the page it is handed to runs only its own cells --
    no kernel start, no import. A page takes one, and another starts ``SPARE_REFILL_DELAY`` s later.
    A spare is never culled."""

    spare_kernels = Integer(0, config=True, help="Warmed kernels kept for pages that are not preheated.")
    max_page_kernels = Integer(0, config=True, help="Most pages' kernels running at once (0: no limit).")
    first_connect_grace = Float(FIRST_CONNECT_GRACE, config=True,
                                help="Seconds a page's kernel waits, at least, for its page to connect first.")

    def __init_subclass__(cls, **kwargs):
        """Voila makes its preheating manager a subclass of this one (``voila_kernel_manager_factory``),
        whose ``get_rendered_notebook`` hands a preheated kernel to a page: that kernel becomes the
        current page's."""
        super().__init_subclass__(**kwargs)
        handed = cls.__dict__.get("get_rendered_notebook")
        if handed is None:
            return

        async def get_rendered_notebook(self, *args, **kw):
            task, cache, kernel_id = await handed(self, *args, **kw)
            self._hand_to_page(kernel_id)
            return task, cache, kernel_id

        get_rendered_notebook.__doc__ = handed.__doc__
        cls.get_rendered_notebook = get_rendered_notebook

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._page_kernels = PageKernels(limit=max(0, int(self.max_page_kernels)),
                                         first_connect=max(0.0, float(self.first_connect_grace)))
        self._spares: list[str] = []  # started and warmed, oldest first
        self._warming: set[str] = set()
        self._closing = False
        self._warm_code, self._warm_pages = warm_imports(Path(getattr(self.parent, "root_dir", None) or self.root_dir)) if self.spare_kernels > 0 else ("", frozenset())
        if self._warm_pages:
            self._refill(0)

    # ----- spare kernels ------------------------------------------------------------------
    def _refill(self, delay: float) -> None:
        loop = asyncio.get_event_loop()
        loop.call_later(delay, lambda: loop.create_task(self._start_spare()))

    async def _start_spare(self) -> None:
        if self._closing or len(self._spares) + len(self._warming) >= self.spare_kernels:
            return
        env = {**os.environ, "VOILA_PREHEAT": "False"}
        parent = self.parent
        for key, attr in (("VOILA_BASE_URL", "base_url"), ("VOILA_SERVER_URL", "server_url"), ("VOILA_APP_PORT", "port")):
            if getattr(parent, attr, None) is not None:
                env[key] = str(getattr(parent, attr))
        kernel_id = await super().start_kernel(kernel_name=self.default_kernel_name, path="", env=env)
        self._warming.add(kernel_id)
        client = self.get_kernel(kernel_id).client()
        client.start_channels()
        try:
            await client.wait_for_ready(timeout=120)
            reply = await client.execute_interactive(self._warm_code, silent=True, store_history=False, timeout=300)
            ok = reply["content"]["status"] == "ok"
        except Exception as e:  # noqa: BLE001 - logged; the pages start kernels of their own
            ok = False
            self.log.warning("Spare kernel %s: warming failed: %s", kernel_id, e)
        finally:
            client.stop_channels()
            self._warming.discard(kernel_id)
        if not ok or self._closing:
            self.log.warning("Spare kernel %s not kept (its imports failed or the server stops)", kernel_id)
            await ensure_async(self.shutdown_kernel(kernel_id))
            return
        self._spares.append(kernel_id)
        self.log.info("Spare kernel %s ready for %s", kernel_id, ", ".join(sorted(self._warm_pages)))

    async def start_kernel(self, *args, **kwargs):
        """A page's own kernel: a warmed spare if the page is a kit page and one is ready, else a new one."""
        env = kwargs.get("env") or {}
        page = os.path.basename(env.get("SCRIPT_NAME", ""))
        for_page = env.get("VOILA_PREHEAT") == "False" and kwargs.get("kernel_id") is None
        if for_page and page in self._warm_pages and self._spares:
            kernel_id = self._spares.pop(0)
            self._refill(SPARE_REFILL_DELAY)
            self.log.info("Page %s takes the spare kernel %s", page, kernel_id)
        else:
            kernel_id = await super().start_kernel(*args, **kwargs)
        if for_page:
            self._hand_to_page(kernel_id)
        return kernel_id

    async def shutdown_kernel(self, kernel_id: str, *args, **kwargs):
        self._spares = [k for k in self._spares if k != kernel_id]
        self._page_kernels.gone(kernel_id)
        return await ensure_async(super().shutdown_kernel(kernel_id, *args, **kwargs))

    # ----- pages' kernels -----------------------------------------------------------------
    def admit_page(self) -> Optional[PageRender]:
        """A page about to be made, if fewer than ``max_page_kernels`` pages' kernels run (else None)."""
        self._page_kernels.forget_all_but(self._kernels)
        return self._page_kernels.admit()

    def _hand_to_page(self, kernel_id: str) -> None:
        render = CURRENT_PAGE.get()
        if render is not None:
            self._page_kernels.hand(render, kernel_id)

    def page_sent(self, render: PageRender) -> None:
        """The page has been sent (or dropped): its kernel's cull clock may start."""
        self._page_kernels.finish(render, time.monotonic())

    def page_loading(self, kernel_id: str) -> bool:
        """The page of ``kernel_id`` says it is open and still loading (False: no page's kernel)."""
        return self._page_kernels.announce(kernel_id, time.monotonic())

    async def shutdown_all(self, *args, **kwargs):
        self._closing = True
        return await ensure_async(super().shutdown_all(*args, **kwargs))

    # ----- culling ------------------------------------------------------------------------
    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        self._page_kernels.forget_all_but(self._kernels)
        kernel = self._kernels.get(kernel_id)
        if kernel is None:
            return
        if getattr(kernel, "execution_state", None) == "dead":
            self.log.warning("Culling dead kernel %s", kernel_id)
            await ensure_async(self.shutdown_kernel(kernel_id))
            if self._warm_pages:
                self._refill(SPARE_REFILL_DELAY)
            return
        if kernel_id in self._spares or kernel_id in self._warming:
            return
        idle = self._page_kernels.unconnected_for(kernel_id, self._kernel_connections.get(kernel_id, 0),
                                                  time.monotonic())
        if idle > self._page_kernels.cull_after(kernel_id, self.cull_idle_timeout):
            self.log.warning("Culling kernel %s: no page connected to it for %d s", kernel_id, idle)
            await ensure_async(self.shutdown_kernel(kernel_id))


class CampaignVoila(Voila):
    """Voila serving the dashboards folder, with our home page at ``/`` (see the module doc)."""

    @default("log_format")
    def _log_format(self) -> str:
        return LOG_FORMAT

    @default("log_datefmt")
    def _log_datefmt(self) -> str:
        return LOG_DATEFMT

    def init_settings(self) -> dict:
        # The key: out of the environment before the kernel manager (whose pool starts kernels
        # with a copy of it) is made; given to Jupyter's identity provider directly instead.
        token = os.environ.pop(ENV_TOKEN, "") or self.token
        if not token:
            raise RuntimeError(f"campaign site: no key given (set {ENV_TOKEN}); refusing to serve without one")
        self.token = token
        settings = super().init_settings()
        idp = self.identity_provider
        idp.login_handler_class = KeyNeededHandler
        idp.cookie_options = {**idp.cookie_options, "samesite": "Strict"}
        allowed = frozenset(h.lower() for h in os.environ.get(ENV_ALLOW_HOSTS, "").split(os.pathsep) if h)
        settings.update(
            allow_remote_access=False,  # Jupyter's own Host check too (HostGate acts first)
            local_hostnames=[*LOCAL_NAMES, *sorted(allowed)],
            campaign_gate=HostGate(port=int(self.port), allowed=allowed),
            xsrf_cookie_kwargs={"samesite": "Strict"},
            log_function=request_logger(self.log),  # one line per refusal or error, never a key
        )
        route_tornado_logs(self.log)
        route_app_log(self.log)
        return settings

    def start(self) -> None:
        """Voila's ``start`` with ``GatedApplication`` in place of tornado's."""
        import tempfile

        self.connection_dir = tempfile.mkdtemp(prefix="voila_", dir=self.connection_dir_root)
        self.log.info("Storing connection files in %s." % self.connection_dir)
        settings = self.init_settings()
        self.app = GatedApplication(**settings)
        self.app.settings.update(self.tornado_settings)
        self.app.add_handlers(".*$", self.init_handlers())
        self.listen()

    def init_handlers(self) -> list:
        from jupyter_server.utils import url_path_join

        handlers = super().init_handlers()
        home = url_path_join(self.server_url, "/")
        campaign = os.environ.get(ENV_CAMPAIGN, "")
        order = tuple(n for n in os.environ.get(ENV_ORDER, "").split(os.pathsep) if n)
        cull_after = int(getattr(self.kernel_manager, "cull_idle_timeout", 0) or 0)
        out, replaced = [], set()
        for spec in handlers:
            pattern, cls = spec[0], spec[1]
            if cls is TornadoVoilaTreeHandler and pattern == self.server_url:
                spec = (pattern, HomeHandler, {"site": self.root_dir, "campaign_file": campaign,
                                               "order": order, "cull_after": cull_after})
                replaced.add("home")
            elif cls is TornadoVoilaTreeHandler:
                spec = (pattern, web.RedirectHandler, {"url": home})
                replaced.add("tree")
            elif cls is TornadoVoilaHandler:
                spec = (pattern, DashboardHandler, *spec[2:])
                replaced.add("page")
            elif cls is TemplateStaticFileHandler:
                spec = (pattern, template_static(cls), *spec[2:])
            elif isinstance(cls, type) and issubclass(cls, WebSocketHandler):
                spec = (pattern, one_line_refusals(cls), *spec[2:])
            out.append((spec[0], plain_errors(spec[1]), *spec[2:]))
        out.insert(0, (url_path_join(self.server_url, r"/voila/api/page-loading/(?P<kernel_id>[\w-]+)"),
                       plain_errors(PageLoadingHandler)))
        if replaced != {"home", "tree", "page"}:  # a Voila whose handlers we do not recognise
            raise RuntimeError(f"campaign site: Voila's handlers changed (found {sorted(replaced)}); "
                               "cannot install the home page")
        return out


def main() -> None:
    parent = os.environ.get(ENV_SERVE_PID, "")
    if parent.isdigit():
        watch_parent(int(parent))
    CampaignVoila.launch_instance()

