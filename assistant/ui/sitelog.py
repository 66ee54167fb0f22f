"""What the served site writes to its log: a time on every line, and one line per request answered
with an error or refused -- what was asked, the answer, and why it was refused -- never a key.

* ``LOG_FORMAT``/``LOG_DATEFMT``: Voila's own lines (and tornado's, ``route_tornado_logs``) start
  with the local time. The server's pid and port are in the log's name (one log per server,
  ``assistant.ui.sitefiles``) and in its first line.
* ``request_logger``: tornado's ``log_function``. A request answered 4xx/5xx, or refused, is one
  line: ``403 GET /api/kernels/<id>/channels (127.0.0.1) 2 ms: refused, no key ...``; others only
  at debug level. The path is logged without its query (where a key would be).
* ``OneLineRefusals``: mixed into the websocket handlers. A kernel websocket without the key is
  refused before Jupyter's own check (which would refuse it too, with a warning and, as websocket
  handlers have no error page, a 30-line traceback); its answer is one line of text.
"""

from __future__ import annotations

import logging
import re
from typing import Callable, Optional

from jupyter_core.utils import ensure_async
from tornado import web

LOG_FORMAT = "%(asctime)s [%(name)s]%(highlevel)s %(message)s"
LOG_DATEFMT = "%Y-%m-%d %H:%M:%S"
REFUSAL = "campaign_refusal"  # a handler's attribute: why its request was refused (one line)
PATH_SHOWN = 200  # characters of a path a log line shows


def refuse(handler: web.RequestHandler, why: str) -> None:
    """Note why ``handler``'s request is refused; its log line says so."""
    setattr(handler, REFUSAL, why)


def shown_path(path: str) -> str:
    """A request's path as a log line shows it: printable, at most ``PATH_SHOWN`` characters."""
    text = "".join(c if c.isprintable() and c != "\\" else f"\\x{ord(c):02x}" for c in path[:PATH_SHOWN])
    return text + ("…" if len(path) > PATH_SHOWN else "")


def request_line(handler: web.RequestHandler) -> tuple[int, str]:
    """(logging level, the line) for a finished request."""
    status = handler.get_status()
    req = handler.request
    why: Optional[str] = getattr(handler, REFUSAL, None)
    level = logging.DEBUG if status < 400 and not why else logging.ERROR if status >= 500 else logging.WARNING
    line = f"{status} {req.method} {shown_path(req.path)} ({req.remote_ip}) {1000.0 * req.request_time():.0f} ms"
    return level, line + (f": refused, {why}" if why else "")


def request_logger(log: logging.Logger) -> Callable[[web.RequestHandler], None]:
    """Tornado's ``log_function`` writing ``request_line`` to ``log``."""

    def log_request(handler: web.RequestHandler) -> None:
        if handler.get_status() < 400 and not getattr(handler, REFUSAL, None) and not log.isEnabledFor(logging.DEBUG):
            return
        level, line = request_line(handler)
        log.log(level, line)

    return log_request


KEY_IN_TEXT = re.compile(r"(token[=:]\s*|Authorization['\"]?:\s*['\"]?token\s+)[^\s&'\",;)]+", re.IGNORECASE)


def without_keys(text: str) -> str:
    """``text`` with every key value (``token=…``, ``Authorization: token …``) replaced by ``…``."""
    return KEY_IN_TEXT.sub(r"\1…", text)


class NoKeys(logging.Filter):
    """Writes a record's message without key values: tornado's "Uncaught exception" lines repeat
    the request, query string included."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = without_keys(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


def route_tornado_logs(log: logging.Logger) -> None:
    """Tornado's own loggers (uncaught exceptions, bad requests) write through ``log``'s handlers,
    so their lines carry the time too (unconfigured, Python prints them bare), never a key."""
    for name in ("tornado.application", "tornado.general"):
        logger = logging.getLogger(name)
        logger.handlers = list(log.handlers)
        logger.propagate = False
        if not any(isinstance(f, NoKeys) for f in logger.filters):
            logger.addFilter(NoKeys())


class SaidByTheRequestLine(logging.Filter):
    """Drops Jupyter's "Clearing invalid/expired login cookie" warning: the request's own line
    says it (``key_refusal``: "whose key cookie is not this server's"), so a refusal stays one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Clearing invalid/expired login cookie")


def route_app_log(log: logging.Logger) -> None:
    """``log`` (the app's) without the lines a request line repeats, and never a key."""
    for kind in (SaidByTheRequestLine, NoKeys):
        if not any(isinstance(f, kind) for f in log.filters):
            log.addFilter(kind())


def key_refusal(handler) -> str:
    """Why a websocket without a known user is refused, in words (never the key itself)."""
    kind = "a kernel websocket" if "/channels" in handler.request.path else "a websocket"
    if handler.get_query_argument("token", None) is not None or handler.request.headers.get("Authorization"):
        return f"{kind} with a key that is not this server's"
    try:
        name = handler.identity_provider.get_cookie_name(handler)
        has_cookie = bool(name and handler.get_cookie(name))
    except Exception:  # noqa: BLE001 - only the wording depends on it
        has_cookie = False
    if has_cookie:
        return f"{kind} whose key cookie is not this server's (an old or another server's)"
    return f"{kind} without the key (neither ?token= nor the key cookie)"


class OneLineRefusals:
    """Mixed into websocket handlers (first in the MRO): a request without the key is refused
    here, in one log line saying why; an error answer is one line of text (Jupyter's error page
    needs a template setting Voila lacks, and failing to render it logged a traceback)."""

    async def prepare(self, *args, **kwargs):
        provider = getattr(self, "identity_provider", None)
        method = getattr(self, (self.request.method or "get").lower(), None)
        if provider is not None and not getattr(method, "__allow_unauthenticated", False):
            user = await ensure_async(provider.get_user(self))
            if user is None:
                refuse(self, key_refusal(self))
                raise web.HTTPError(403)
        return await ensure_async(super().prepare(*args, **kwargs))

    def write_error(self, status_code: int, **kwargs) -> None:
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish("Refused: this needs the key from the printed URL.\n" if status_code == 403
                    else f"HTTP {status_code}: this request cannot be answered.\n")


def one_line_refusals(cls: type) -> type:
    """``cls`` (a websocket handler) with ``OneLineRefusals``."""
    if issubclass(cls, OneLineRefusals):
        return cls
    return type(cls.__name__, (OneLineRefusals, cls), {"__module__": cls.__module__})
