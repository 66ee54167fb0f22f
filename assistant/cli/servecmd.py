"""``campaign serve [FILE | --demo] [--port N] [--no-browser]``: the dashboards in the browser.

Starts Voila on every dashboard found (``notebooks/`` and each aid's own notebooks, see
``assistant.ui.pages``) for one campaign file, offline, prints one URL -- the site's home page,
which names the campaign and links every dashboard (``assistant.ui.site``) -- and runs until
Ctrl-C, then shuts Voila and its kernels down.

The URL carries a key (``?token=…``): the server gives no page, API call or websocket without it,
and answers only at loopback names (``--allow-host NAME`` adds one). Voila and its kernels end
with this command on Ctrl-C, SIGTERM, SIGHUP (terminal closed), after its output's reader has gone,
and on its own death by SIGKILL (``assistant.ui.server``). Its log and its folder of pages are its
own, named for it; at start it deletes those that dead servers left (``assistant.ui.sitefiles``).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ..numbertext import NumberField, NumberTextError
from .common import CliError

DEFAULT_PORT = 8866
MIN_CULL_AFTER = 10
COMMANDS = {"serve": "open the dashboards for a campaign in the browser (Voila, offline)"}


def register(sub) -> None:
    p = sub.add_parser(
        "serve", help=COMMANDS["serve"],
        description="Start Voila on the dashboards for FILE (or the embedded demo campaign), print "
                    "the URL and run until Ctrl-C.")
    p.add_argument("file", nargs="?", help="campaign file (default: the demo campaign)")
    p.add_argument("--demo", action="store_true",
                   help="the embedded demo: witp, Guadalcanal, August 1942 (created on first use)")
    p.add_argument("--port", type=NumberField("port", 1, 65535).argtype(), default=None, help=f"port on 127.0.0.1 (default {DEFAULT_PORT}, "
                                                          "or a free one if that is taken)")
    p.add_argument("--no-browser", action="store_true", help="only print the URL")
    p.add_argument("--allow-host", metavar="NAME", action="append", default=[],
                   help="also answer requests made to this host name (e.g. a name for this computer in "
                        "/etc/hosts); by default only 127.0.0.1, localhost and [::1]. The key in the URL "
                        "is needed all the same; a wildcard (0.0.0.0, ::, *) is refused. May be repeated")
    p.add_argument("--no-preheat", action="store_true",
                   help="start a kernel per page load instead of keeping one ready for the campaign dashboard and a "
                        "spare for the next aid page (slower; two fewer kernels in memory)")
    p.add_argument("--cull-after", metavar="SECONDS", default=None,
                   help="shut down a page's kernel once no page has been connected to it for SECONDS "
                        "(default 300; a page that is closed or reloaded gives its kernel back at once)")
    p.add_argument("--max-kernels", metavar="N", default=None,
                   help="run at most N dashboard pages at once, each with its own Python kernel of about "
                        "90-335 MB (default 9: the campaign dashboard, Board set-up and every "
                        "aid page together); a page "
                        "opened beyond that says so and starts nothing. The kernels kept ready (see "
                        "--no-preheat) do not count")
    p.set_defaults(func=cmd_serve)


def cull_after(value) -> int:
    """``--cull-after``: whole seconds, at least MIN_CULL_AFTER; bad input -> CliError naming it."""
    from ..ui.server import DEFAULT_CULL_AFTER

    if value is None:
        return DEFAULT_CULL_AFTER
    try:  # the digits 0-9 only (numbertext)
        return int(NumberField("--cull-after", MIN_CULL_AFTER).read(str(value)))
    except NumberTextError:
        raise CliError(f"--cull-after {value} must be a whole number of seconds, at least {MIN_CULL_AFTER}") from None


def max_kernels(value) -> int:
    """``--max-kernels``: a whole number, at least 1; bad input -> CliError naming it."""
    from ..ui.server import DEFAULT_MAX_KERNELS

    if value is None:
        return DEFAULT_MAX_KERNELS
    text = str(value).strip()
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise CliError(f"--max-kernels {value} must be a whole number of pages, at least 1")
    return int(text)


def resolve_campaign(args) -> tuple[Path, bool]:
    """(campaign file, is_demo). Bad input -> CliError naming it; nothing is created then."""
    if args.file and args.demo:
        raise CliError(f"give a campaign FILE or --demo, not both (got {args.file!r} and --demo)")
    if args.file is None:  # "" is a bad FILE, not the demo
        from ..ui.demo import ensure_demo

        try:
            return ensure_demo(), True
        except ValueError as e:
            raise CliError(f"could not create the demo campaign: {str(e).splitlines()[0]}") from None
    path = Path(args.file).expanduser()
    if not path.is_file():
        raise CliError(f"no campaign file {args.file!r}")
    from ..campaign import Campaign

    try:  # fail here, in one line, rather than in every dashboard
        c = Campaign.open(path, readonly="auto")  # read-only media: served read-only
        c.close()
    except Exception as e:  # noqa: BLE001 - any reason the file cannot be opened
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise CliError(f"cannot open campaign {args.file!r}: {msg}") from None
    return path, False


def cmd_serve(args) -> int:
    import signal

    from ..ui.pages import DashboardError, find_dashboards

    # Ctrl-C (SIGINT, even where a shell started us with it ignored, as for `campaign serve &`)
    # and SIGTERM (a service manager, a test harness) both stop Voila and its kernels cleanly,
    # also while Voila is still starting.
    # SIGHUP (the terminal closed) likewise: Voila runs in a session of its own and would not get it.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    signal.signal(signal.SIGHUP, signal.default_int_handler)
    if args.port is not None and not (1 <= args.port <= 65535):
        raise CliError(f"--port must be 1-65535, not {args.port}")
    cull = cull_after(args.cull_after)
    most = max_kernels(args.max_kernels)
    hosts = allow_hosts(args.allow_host)
    try:
        dashboards = find_dashboards()
    except DashboardError as e:
        raise CliError(str(e)) from None
    if not dashboards:
        raise CliError("no dashboards found (no notebooks in the package's notebooks folder)")
    path, demo = resolve_campaign(args)
    from ..ui.server import ServeError
    from ..ui.sitefiles import serving_folder, sweep_dead_sites

    sweep_dead_sites()  # what servers killed by SIGKILL left in the temporary directory
    try:
        with serving_folder() as site:
            return _serve(args, path, demo, dashboards, site, cull, hosts, most)
    except ServeError as e:
        raise CliError(str(e)) from None


def allow_hosts(names) -> tuple[str, ...]:
    """``--allow-host`` values, checked; a bad one -> CliError naming it."""
    from ..ui.server import ServeError, check_host_name

    try:
        return tuple(check_host_name(n) for n in names)
    except ServeError as e:
        raise CliError(str(e)) from None


def server_log(port: int) -> Path:
    """This server's own log (named for its start, port and pid), after deleting the logs beyond
    the newest ``KEEP_LOGS`` that no running server writes (``assistant.ui.sitefiles``)."""
    from ..ui.sitefiles import KEEP_LOGS, server_log_path, sweep_old_logs
    from ..ui.userdirs import user_log_dir

    sweep_old_logs(user_log_dir(), keep=KEEP_LOGS - 1)  # and this one makes KEEP_LOGS
    return server_log_path(user_log_dir(), port)


def say(*args, **kwargs) -> None:
    """``print`` that survives a reader that has gone (a closed terminal or pipe): from then on
    output goes nowhere, and stopping the server goes on."""
    try:
        print(*args, **kwargs)
    except (BrokenPipeError, OSError, ValueError):
        import os

        try:  # further writes, and the interpreter's own flush at exit, go to /dev/null
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, (kwargs.get("file") or sys.stdout).fileno())
        except (OSError, ValueError):
            pass


def _serve(args, path: Path, demo: bool, dashboards, site: Path, cull: int, hosts=(),
           most: int = 0) -> int:
    from ..ui.pages import stage_dashboards
    from ..ui.server import ServeError, VoilaServer, free_port, port_free

    stage_dashboards(dashboards, site)
    port = args.port
    if port is None:
        port = DEFAULT_PORT if port_free(DEFAULT_PORT) else free_port()
    log = server_log(port)
    server = VoilaServer(notebooks=site, campaign_file=path, port=port, preheat=not args.no_preheat,
                         log_path=log, cull_after=cull, dashboards=tuple(d.name for d in dashboards),
                         allow_hosts=hosts, max_kernels=most)
    try:
        say(f"campaign: {path}{'  (demo)' if demo else ''}", flush=True)
        try:
            server.start()
        except ServeError as e:
            raise CliError(str(e)) from None
        names = ", ".join(f"{d.title} ({d.name})" for d in dashboards)
        say(f"dashboards: {names}; server log: {log}", flush=True)
        url = server.home_url  # the one URL: the home page (with the key) links every dashboard
        say(f"open: {url}", flush=True)
        say("press Ctrl-C to stop", flush=True)
        try:
            if not args.no_browser:
                import webbrowser

                webbrowser.open(url)
            while server.proc is not None and server.proc.poll() is None:
                time.sleep(0.5)
            say(f"error: voila stopped unexpectedly (status {server.proc.returncode}; see {log})",
                file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            say("stopping...", flush=True)
            server.stop()
            say("stopped", flush=True)
            return 0
    finally:
        server.stop()  # whatever ended us (an error, a second signal while stopping): no orphans
