"""The served site: Voila with a home page of our own and kernels that are given back.

``python -m assistant.ui.site NOTEBOOKS [voila options]`` runs Voila's own app (``voila.app.Voila``)
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
  backstop for pages that vanish without a beacon (a crashed tab, a laptop put to sleep).
  Jupyter Server's own rule counts kernel messages as activity, and a dashboard whose page is
  gone still redraws its widgets on every campaign write, so it would never be culled.
  Preheated kernels waiting in Voila's pool are never culled (Voila's manager skips them).
"""

from __future__ import annotations

import asyncio
import html
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from jupyter_core.utils import ensure_async
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.treehandler import TornadoVoilaTreeHandler

from .pages import ENV_ORDER, DashboardNotebook, served_dashboards

ENV_CAMPAIGN = "CAMPAIGN_FILE"


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
                               units=len(s.units), events=s.last_seq)
    finally:
        c.close()


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
ul.ca-dashboards li { margin: 6px 0; }
a.ca-dashboard-link { font-size: 1.1em; font-weight: 600; color: #1d4f91; text-decoration: none; }
a.ca-dashboard-link:hover { text-decoration: underline; }
.ca-file-name { color: #888; font-size: 0.9em; margin-left: 8px; }
.ca-error { color: #8a0014; font-weight: bold; }
.ca-note { color: #666; font-size: 0.9em; }
"""


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
            turn = e(s.turn) + (f" · {e(s.phase)}" if s.phase else "")
            about = ("<dl>"
                     f"<dt>Game</dt><dd class='ca-game'>{e(s.game_title)} (<code>{e(s.game)}</code>)</dd>"
                     + (f"<dt>Scenario</dt><dd class='ca-scenario'>{e(s.scenario_title or s.scenario)} "
                        f"(<code>{e(s.scenario)}</code>)</dd>" if s.scenario else "")
                     + f"<dt>Turn</dt><dd class='ca-turn'>{turn}</dd>"
                     f"<dt>File</dt><dd class='ca-file'><b>{e(s.file.name)}</b><br><code>{e(str(s.file))}</code></dd>"
                     f"<dt>Record</dt><dd>{s.units} units on the map · {s.events} events</dd>"
                     "</dl>")
            title = f"{s.file.name} · Campaign Assistant"
    links = "".join(
        f'<li><a class="ca-dashboard-link" href="/voila/render/{e(d.name)}">{e(d.title)}</a>'
        f"<span class='ca-file-name'>{e(d.name)}</span></li>" for d in dashboards)
    if not links:
        links = "<li class='ca-error'>No dashboards are served.</li>"
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
        f"<section class='ca-campaign'><h2>Campaign</h2>{about}</section>"
        f"<section><h2>Dashboards</h2><ul class='ca-dashboards'>{links}</ul></section>"
        "<p class='ca-note'>Each dashboard page runs its own Python kernel on this computer; closing or "
        f"reloading the page shuts it down.{culling} Reload this page to see the campaign's current turn.</p>"
        "</main></body></html>")


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

        def render() -> str:
            return home_page(self.campaign_file, served_dashboards(self.site, self.order), self.cull_after)

        page = await asyncio.get_running_loop().run_in_executor(None, render)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
        self.finish(page)


class DashboardHandler(TornadoVoilaHandler):
    """Voila's page handler, setting the ``_xsrf`` cookie first: Voila's page sends it back in the
    ``beforeunload`` beacon that shuts its kernel down (voila-dashboards/voila#1458)."""

    @web.authenticated
    async def get(self, path=None):
        self.xsrf_token  # noqa: B018 - tornado sets the cookie when the token is first read
        await super().get(path)


class SiteKernelManager(AsyncMappingKernelManager):
    """Culls a kernel that no page has been connected to for ``cull_idle_timeout`` seconds, as
    seen by the culler's checks (so between that and that plus two ``cull_interval``)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._unconnected_since: dict[str, float] = {}

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        for gone in [k for k in self._unconnected_since if k not in self._kernels]:
            del self._unconnected_since[gone]
        kernel = self._kernels.get(kernel_id)
        if kernel is None:
            return
        if getattr(kernel, "execution_state", None) == "dead":
            self.log.warning("Culling dead kernel %s", kernel_id)
            await ensure_async(self.shutdown_kernel(kernel_id))
            return
        if self._kernel_connections.get(kernel_id, 0) > 0:
            self._unconnected_since.pop(kernel_id, None)
            return
        now = time.monotonic()
        since = self._unconnected_since.setdefault(kernel_id, now)
        if now - since > self.cull_idle_timeout:
            self.log.warning("Culling kernel %s: no page connected to it for %d s", kernel_id, now - since)
            self._unconnected_since.pop(kernel_id, None)
            await ensure_async(self.shutdown_kernel(kernel_id))


class CampaignVoila(Voila):
    """Voila serving the dashboards folder, with our home page at ``/`` (see the module doc)."""

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
            out.append(spec)
        if replaced != {"home", "tree", "page"}:  # a Voila whose handlers we do not recognise
            raise RuntimeError(f"campaign site: Voila's handlers changed (found {sorted(replaced)}); "
                               "cannot install the home page")
        return out


def main() -> None:
    CampaignVoila.launch_instance()


if __name__ == "__main__":
    main()
