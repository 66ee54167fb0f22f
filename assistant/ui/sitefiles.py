"""What a ``campaign serve`` leaves on disk -- the folder it serves the dashboards from and its own
log -- named for the server that owns them, and swept once that server is gone.

A server is known by its process id *and* that process's start time (``ServerProcess``), so a
process that later gets the same id is not taken for it. The serving folder
(``campaign-dashboards-XXXX`` in the system's temporary folder) holds an owner record (``OWNER_FILE``); a ``campaign serve``
killed by SIGKILL cannot delete its folder, so the next one deletes every such folder whose owner is
gone (``sweep_dead_sites``). A folder without a record (being made right now, or left by a version
that wrote none) or another user's is never touched.

Each server writes its own log, ``serve-<start, UTC>-port<PORT>-pid<PID>.log`` in the user's log
folder (``server_log_path``), so two servers never share one and a line's server is the file's.
At every start the logs beyond the newest ``KEEP_LOGS`` are deleted, except a live server's
(``sweep_old_logs``).

Sweeping is a courtesy: any error (a folder gone meanwhile, no permission) is ignored, never a
reason for ``campaign serve`` not to start.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

SITE_PREFIX = "campaign-dashboards-"
OWNER_FILE = "owner"  # "PID START" in the serving folder; the pages are in PAGES_DIR beside it
PAGES_DIR = "pages"
LOG_PREFIX = "serve-"
KEEP_LOGS = 10  # server logs kept besides those of servers still running
_LOG_NAME = re.compile(r"^serve-(\d{8}-\d{6})-port(\d{1,5})-pid(\d+)\.log$")
_STAMP = "%Y%m%d-%H%M%S"


@dataclass(frozen=True)
class ServerProcess:
    """A process as a server's owner: its id and its start time (seconds since the epoch, as
    the system reports it; the same process always gives the same value)."""

    pid: int
    started: float

    @classmethod
    def current(cls) -> "ServerProcess":
        found = cls.of(os.getpid())
        if found is None:  # cannot happen for ourselves; psutil failing would be a broken install
            raise RuntimeError("cannot read this process's start time")
        return found

    @classmethod
    def of(cls, pid: int) -> Optional["ServerProcess"]:
        """The process running as ``pid`` now, or None if there is none (or it cannot be read)."""
        import psutil

        try:
            return cls(pid, psutil.Process(pid).create_time())
        except (psutil.Error, ValueError, OverflowError):
            return None

    def alive(self) -> bool:
        """This very process still runs (not just another one with the same id)."""
        now = ServerProcess.of(self.pid)
        return now is not None and abs(now.started - self.started) < 0.01

    @property
    def stamp(self) -> str:
        """The start time as a log's name gives it (UTC, to the second)."""
        return time.strftime(_STAMP, time.gmtime(self.started))

    def record(self) -> str:
        return f"{self.pid} {self.started!r}\n"

    @classmethod
    def parse(cls, text: str) -> Optional["ServerProcess"]:
        parts = text.split()
        try:
            pid, started = int(parts[0]), float(parts[1])
        except (IndexError, ValueError):
            return None
        return cls(pid, started) if len(parts) == 2 and pid > 0 else None


# ----- the serving folder ---------------------------------------------------------------------
@contextmanager
def serving_folder(owner: Optional[ServerProcess] = None, parent: Optional[Path] = None) -> Iterator[Path]:
    """A new ``campaign-dashboards-XXXX`` folder in the temporary directory, recorded as
    ``owner``'s (this process by default); yields the empty folder for the pages in it, and deletes
    the whole folder afterwards. ServeError (one line) if it cannot be made."""
    from .server import ServeError

    owner = owner or ServerProcess.current()
    where = Path(parent or tempfile.gettempdir())
    try:
        folder = Path(tempfile.mkdtemp(prefix=SITE_PREFIX, dir=where))
    except OSError as e:
        raise ServeError(f"cannot make a folder to serve the dashboards from in {where}: {e.strerror}") from None
    try:
        try:
            record = folder / f".{OWNER_FILE}.new"
            record.write_text(owner.record(), encoding="ascii")
            os.replace(record, folder / OWNER_FILE)  # whole or absent: a sweeper never reads half of it
            pages = folder / PAGES_DIR
            pages.mkdir()
        except OSError as e:
            raise ServeError(f"cannot write the folder to serve the dashboards from, {folder}: {e.strerror}") from None
        yield pages
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def folder_owner(folder: Path) -> Optional[ServerProcess]:
    """The server recorded in a serving folder, or None (no record, unreadable, not one)."""
    try:
        return ServerProcess.parse((Path(folder) / OWNER_FILE).read_text(encoding="ascii")[:100])
    except (OSError, UnicodeDecodeError):
        return None


def sweep_dead_sites(parent: Optional[Path] = None) -> list[Path]:
    """Delete the serving folders in ``parent`` (the temporary directory) that this user's
    servers left when they died; return them. Only folders whose recorded owner no longer runs."""
    parent = Path(parent or tempfile.gettempdir())
    swept: list[Path] = []
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return swept
    uid = os.getuid() if hasattr(os, "getuid") else None
    for e in entries:
        if not e.name.startswith(SITE_PREFIX):
            continue
        try:
            if not e.is_dir(follow_symlinks=False):
                continue
            if uid is not None and e.stat(follow_symlinks=False).st_uid != uid:
                continue  # another user's server: not ours to judge
        except OSError:
            continue
        owner = folder_owner(Path(e.path))
        if owner is None or owner.alive():
            continue
        shutil.rmtree(e.path, ignore_errors=True)
        if not os.path.lexists(e.path):
            swept.append(Path(e.path))
    return swept


# ----- the server's log -----------------------------------------------------------------------
def server_log_path(directory: Path, port: int, owner: Optional[ServerProcess] = None) -> Path:
    """This server's own log in ``directory``: ``serve-<start>-port<PORT>-pid<PID>.log``."""
    owner = owner or ServerProcess.current()
    return Path(directory) / f"{LOG_PREFIX}{owner.stamp}-port{int(port)}-pid{owner.pid}.log"


def log_owner_alive(name: str) -> bool:
    """The server a log is named for still runs (its pid does, and started in the named second)."""
    m = _LOG_NAME.match(name)
    if not m:
        return False
    now = ServerProcess.of(int(m.group(3)))
    return now is not None and now.stamp == m.group(1)


def sweep_old_logs(directory: Path, keep: int = KEEP_LOGS) -> list[Path]:
    """Delete the server logs in ``directory`` beyond the newest ``keep`` (by the start time in
    their names), except those of servers still running; return them."""
    try:
        logs = sorted((e.name for e in os.scandir(directory) if _LOG_NAME.match(e.name)),
                      key=lambda n: (_LOG_NAME.match(n).group(1), n), reverse=True)
    except OSError:
        return []
    swept: list[Path] = []
    for name in logs[max(0, keep):]:
        if log_owner_alive(name):
            continue
        path = Path(directory) / name
        try:
            path.unlink()
            swept.append(path)
        except OSError:
            pass
    return swept
