"""Run Voila on the dashboards for one campaign file (used by ``campaign serve``, the browser
tests and the benchmarks).

Voila runs as ``python -m assistant.ui.siteproc`` (Voila's app with our home page at ``/``, the
dashboard pages' close beacon made to work, kernels whose page is gone culled after
``cull_after`` seconds, and at most ``max_kernels`` pages' kernels at once; see ``assistant.ui.site``) as a child process in its own session (so a terminal's Ctrl-C reaches only us and we
shut it down in order), bound to 127.0.0.1, with the notebooks directory as its root and the
campaign file handed to every kernel in ``CAMPAIGN_FILE``. Nothing is fetched from the network:
Voila serves the widget JavaScript (ipywidgets, jupyter-leaflet) from the installed lab
extensions, and the map has no tile basemap.

Who may use it: the server answers only requests whose ``Host`` is a loopback
name with its port (127.0.0.1, localhost, [::1], or a name given with ``allow_hosts``) and whose
``Origin``, if any, is that same host -- a DNS-rebinding page at a foreign name reads nothing --
and every page and websocket needs the key (``token``) that is in the one printed URL; the first
page opened with it sets a same-site cookie for the rest. A foreign page cannot load a dashboard,
so it cannot start a kernel either.

No orphans: Voila gets ``PR_SET_PDEATHSIG`` (SIGTERM when the process that
started it dies, even by SIGKILL) and watches that pid itself (``assistant.ui.site``); its kernels
exit within a second of Voila (ipykernel's parent poller, ``JPY_PARENT_PID``).
"""

from __future__ import annotations

import ctypes
import ipaddress
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

ENV_CAMPAIGN = "CAMPAIGN_FILE"
ENV_TOKEN = "JUPYTER_TOKEN"  # read by Jupyter Server's IdentityProvider; removed before kernels start
ENV_ALLOW_HOSTS = "CAMPAIGN_ALLOW_HOSTS"  # extra host names, os.pathsep-separated
ENV_SERVE_PID = "CAMPAIGN_SERVE_PID"  # Voila exits when this process is gone (assistant.ui.site)
HOST_NAME = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$")
PR_SET_PDEATHSIG = 1
DEFAULT_PORT = 8866
# A kernel no page has been connected to for this long is shut down (pages that close or reload
# shut theirs down at once; this catches crashed tabs and computers put to sleep).
DEFAULT_CULL_AFTER = 300
IOPUB_WAIT_S = 120  # seconds a page waits for a finished cell's output (VoilaExecutor.iopub_timeout)
# The most pages' kernels a server runs at once: the campaign dashboard and every aid page open
# together (nine play pages), each kernel ~90-335 MB (README, "Kernels"), so at most ~3 GB
# however many tabs are opened. A fixed number, not one read off the machine's memory: the same
# server behaves the same everywhere, and `--max-kernels` changes it. The kernels kept ready (one
# preheated, one spare) come on top of it.
DEFAULT_MAX_KERNELS = 9
CELL_ERROR = ("The server log (its name is printed where `campaign serve` was started) says why; "
              "reload the page to try again.")
TEMPLATES_ROOT = Path(__file__).resolve().parent / "jupyter"  # holds voila/templates/campaign


class ServeError(ValueError):
    """Voila could not be started as asked (one line)."""


def _pdeathsig(parent: int):
    return lambda: die_with_parent(parent)


def port_free(port: int, host: str = "127.0.0.1") -> bool:
    """Nothing listens on the port. (SO_REUSEADDR as the server itself uses: connections of a
    server that just stopped, in TIME_WAIT, do not count.)"""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def check_host_name(name: str) -> str:
    """A DNS name or IPv4 address allowed in the Host header (``--allow-host``); else ServeError.
    A wildcard (``*``, ``0.0.0.0``, ``::``, in any spelling) names every address, not this
    computer: refused. An address is kept as a browser sends it (``0300.0250.1.20`` is
    ``192.168.1.20``)."""
    if isinstance(name, str) and is_wildcard(name):
        raise ServeError(f"--allow-host {name!r} is a wildcard address (every address), not a name for "
                         "this computer; give the name or address it is reached at")
    if not isinstance(name, str) or not HOST_NAME.match(name):
        raise ServeError(f"--allow-host {name!r} is not a host name (letters, digits, '-' and '.', "
                         "no scheme, port or path)")
    last = name.rsplit(".", 1)[-1].lower()
    if last.isdigit() or re.fullmatch(r"0x[0-9a-f]*", last):  # a browser reads it as an IPv4 address
        try:
            address = ipaddress.IPv4Address(socket.inet_aton(name))
        except (OSError, ValueError):
            raise ServeError(f"--allow-host {name!r} is not a host name or an IPv4 address") from None
        if address.is_multicast or address == ipaddress.IPv4Address("255.255.255.255"):
            raise ServeError(f"--allow-host {name!r} is a broadcast or multicast address, not this computer's")
        return str(address)
    return name.lower()


def is_wildcard(name: str) -> bool:
    """``name`` stands for every address: ``*`` anywhere, or the unspecified IPv4/IPv6 address in
    any spelling (``0.0.0.0``, ``0``, ``0x0``, ``::``, ``[::]``, ``0:0::0``)."""
    text = name.strip().lower()
    if "*" in text:
        return True
    bare = text[1:-1] if text.startswith("[") and text.endswith("]") else text
    try:
        address = ipaddress.ip_address(bare)
    except ValueError:
        pass
    else:
        mapped = getattr(address, "ipv4_mapped", None)  # ::ffff:0.0.0.0
        return address.is_unspecified or bool(mapped and mapped.is_unspecified)
    try:
        return socket.inet_aton(bare) == bytes(4)  # 0, 0.0, 0x0, 00.0.0.0 ...
    except (OSError, ValueError):
        return False


def new_token() -> str:
    """The key in the printed URL: 256 random bits."""
    return secrets.token_urlsafe(32)


def die_with_parent(parent: int) -> None:
    """In the child before exec: SIGTERM when ``parent`` dies (Linux ``PR_SET_PDEATHSIG``; the
    signal follows the thread that forked, so start the server from a thread that lives as long)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the watchdog in assistant.ui.site still acts
        pass
    if os.getppid() != parent:  # the parent died before prctl took effect
        os.kill(os.getpid(), signal.SIGTERM)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def jupyter_path(current: str = "") -> list[str]:
    """JUPYTER_PATH for Voila: our page template first; last, the base interpreter's share/jupyter,
    so that a venv made with --system-site-packages still finds Voila's templates and the widget
    JavaScript (jupyter-leaflet, ipywidgets) installed there."""
    paths = [str(TEMPLATES_ROOT)] + [p for p in current.split(os.pathsep) if p]
    base = os.path.join(sys.base_prefix, "share", "jupyter")
    if sys.base_prefix != sys.prefix and os.path.isdir(base) and base not in paths:
        paths.append(base)
    return paths


def cull_interval(cull_after: int) -> int:
    """How often the culler looks: a fifth of the timeout, between 2 s and a minute."""
    return max(2, min(60, cull_after // 5))


PREHEAT_ONLY_HOME = [r".*(?<!campaign\.ipynb)$"]  # every notebook but the campaign dashboard
SPARE_KERNELS = 1  # warmed kernels kept for the other pages (with preheating on)


def voila_command(notebooks: Path, port: int, *, preheat: bool = True, pool_size: int = 1,
                  tracebacks: bool = False, cull_after: int = DEFAULT_CULL_AFTER,
                  max_kernels: int = DEFAULT_MAX_KERNELS, extra: tuple[str, ...] = ()) -> list[str]:
    cmd = [
        sys.executable, "-m", "assistant.ui.siteproc", str(notebooks),
        "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1", "--Voila.port_retries=0",
        f"--show_tracebacks={tracebacks}",
        # The key comes in JUPYTER_TOKEN (not on the command line, which other users can read).
        "--Voila.auto_token=True",
        # Voila's lab template without its CDN links (see jupyter/voila/templates/campaign).
        "--template=campaign",
        # Jupyter Server's culler, run by assistant.ui.site.SiteKernelManager's rule: a kernel no
        # page has been connected to for cull_after seconds is shut down (0: never).
        "--VoilaConfiguration.multi_kernel_manager_class=assistant.ui.site.SiteKernelManager",
        f"--MappingKernelManager.cull_idle_timeout={max(0, int(cull_after))}",
        f"--MappingKernelManager.cull_interval={cull_interval(int(cull_after))}",
        # At most this many pages' kernels at once; a page beyond says so and starts none (0: no limit).
        f"--SiteKernelManager.max_page_kernels={max(0, int(max_kernels))}",
        # How long Voila waits for a cell's output after the kernel says the cell is done. Past it
        # nbclient drops the output without a word (its default: 4 s): on a busy machine a page came
        # up with no dashboard in it. A cell's output is its widgets; wait as long as a page may.
        f"--VoilaExecutor.iopub_timeout={IOPUB_WAIT_S}",
    ]
    if os.name == "posix":
        # Kernels talk to the server over Unix sockets in the server's runtime folder, not TCP ports:
        # a port is picked free and bound later, so kernels starting at once (two servers, many
        # pages) can be handed the same one, and a page then waits a minute for a kernel that never
        # answers. (Nothing else on the machine can reach them either.)
        cmd.append("--KernelManager.transport=ipc")
    if not tracebacks:  # a failing cell shows one line (no paths, no traceback); the log has the rest
        cmd.append(f"--VoilaExecutor.cell_error_instruction={CELL_ERROR}")
    if preheat:
        # One kernel kept ready for the campaign dashboard, the page `campaign serve` opens; an aid's
        # page starts its own kernel when opened (a kernel per dashboard would hold ~180 MB each).
        cmd += ["--preheat_kernel=True", f"--pool_size={pool_size}",
                f"--VoilaKernelManager.preheat_denylist={PREHEAT_ONLY_HOME!r}",
                # and one spare kernel, started and warmed with the aid pages' imports, for the next
                # aid page opened (assistant.ui.site.SiteKernelManager).
                f"--SiteKernelManager.spare_kernels={SPARE_KERNELS}"]
    return cmd + list(extra)


@dataclass
class VoilaServer:
    """One Voila child process. ``start()`` returns once the server answers HTTP."""

    notebooks: Path
    campaign_file: Optional[Path] = None
    port: int = 0
    preheat: bool = True
    pool_size: int = 1
    log_path: Optional[Path] = None
    env: dict = field(default_factory=dict)
    extra_args: tuple[str, ...] = ()
    cull_after: int = DEFAULT_CULL_AFTER
    max_kernels: int = DEFAULT_MAX_KERNELS  # most pages' kernels at once (0: no limit)
    dashboards: tuple[str, ...] = ()  # served names in the order the home page lists them
    allow_hosts: tuple[str, ...] = ()  # host names allowed besides the loopback ones
    token: str = field(default_factory=new_token)  # the key every page and websocket needs
    proc: Optional[subprocess.Popen] = None

    def __post_init__(self) -> None:
        if not self.token or not re.fullmatch(r"[A-Za-z0-9_-]{16,}", self.token):
            raise ServeError("the server's key must be at least 16 URL-safe characters")
        self.allow_hosts = tuple(check_host_name(h) for h in self.allow_hosts)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def home_url(self) -> str:
        """The site's home page: the campaign and a link to every dashboard."""
        return f"{self.base_url}/?token={self.token}"

    def url(self, notebook: str = "campaign.ipynb") -> str:
        """A dashboard's page, with the key (a browser that has opened one page with it may drop it)."""
        return f"{self.base_url}/voila/render/{notebook}?token={self.token}"

    def start(self, timeout: float = 120.0) -> str:
        if self.port == 0:
            self.port = free_port()
        elif not port_free(self.port):
            raise ServeError(f"port {self.port} is already in use (choose another with --port N)")
        env = dict(os.environ)
        env.update({k: str(v) for k, v in self.env.items()})
        if self.campaign_file is not None:
            env[ENV_CAMPAIGN] = str(Path(self.campaign_file).resolve())
        if self.dashboards:
            from .pages import ENV_ORDER

            env[ENV_ORDER] = os.pathsep.join(self.dashboards)
        env.setdefault("PYTHONUNBUFFERED", "1")
        env[ENV_TOKEN] = self.token
        env[ENV_ALLOW_HOSTS] = os.pathsep.join(self.allow_hosts)
        env[ENV_SERVE_PID] = str(os.getpid())
        # Kernels import the very package that started them (a checkout or an installed wheel).
        pkg_root = str(Path(__file__).resolve().parents[2])
        env["JUPYTER_PATH"] = os.pathsep.join(jupyter_path(env.get("JUPYTER_PATH", "")))
        env["PYTHONPATH"] = os.pathsep.join([pkg_root] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
        cmd = voila_command(self.notebooks, self.port, preheat=self.preheat,
                            pool_size=self.pool_size, cull_after=self.cull_after,
                            max_kernels=self.max_kernels, extra=self.extra_args)
        try:
            if self.log_path:
                Path(self.log_path).parent.mkdir(parents=True, exist_ok=True)
            out = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL
            if self.log_path:
                out.write(self.log_header().encode("utf-8", "replace"))
                out.flush()
        except OSError as e:
            raise ServeError(f"cannot write the server log {self.log_path}: {e.strerror}") from None
        try:
            self.proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True,
                                         cwd=str(self.notebooks),
                                         preexec_fn=_pdeathsig(os.getpid()))
        finally:
            if out is not subprocess.DEVNULL:
                out.close()
        try:
            return self._wait_ready(timeout)
        except BaseException:  # a failure or Ctrl-C while starting: leave nothing running
            self.stop()
            raise

    def log_header(self) -> str:
        """The log's first line: when, which process, which port, what it serves (never the key)."""
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime())
        about = f", campaign {Path(self.campaign_file).resolve()}" if self.campaign_file is not None else ""
        return f"{when} campaign serve (pid {os.getpid()}) starts Voila on port {self.port}{about}\n"

    def _wait_ready(self, timeout: float) -> str:
        log = f" (see {self.log_path})" if self.log_path else ""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise ServeError(f"voila exited with status {self.proc.returncode} while starting{log}")
            try:
                ask = urllib.request.Request(self.base_url + "/", headers={"Authorization": f"token {self.token}"})
                with urllib.request.urlopen(ask, timeout=2) as r:
                    if r.status == 200:
                        return self.home_url
            except urllib.error.HTTPError as e:
                raise ServeError(f"voila answered HTTP {e.code} on {self.base_url}/{log}") from None
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.1)
        raise ServeError(f"voila did not answer on port {self.port} within {timeout:.0f} s{log}")

    def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM (Voila shuts its kernels down), then SIGKILL to the process group if needed."""
        p = self.proc
        if p is None or p.poll() is not None:
            return
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait(timeout=5)
        # Kernels run in sessions of their own and exit within a second of Voila (ipykernel's
        # parent poller); anything left in Voila's own group goes now.
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def __enter__(self) -> "VoilaServer":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
