"""Hidden temporary files for atomic writes (new, import, export, backup) that a killed run does
not leave behind for good.

A writer holds ``flock(LOCK_EX)`` on its temporary file for as long as it writes it; the next run in
the same directory (``clean_stale``) deletes every such file whose lock is free, i.e. whose writer
has died. SQLite locks with ``fcntl`` byte ranges, which ``flock`` does not disturb (Linux, BSD).
"""

from __future__ import annotations

import fcntl
import os
import re
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

SUFFIXES = (".creating", ".tmp", ".backup")
# ".NAME." + mkstemp's 8 random characters + suffix
_TEMP = re.compile(r"^\..+\.[A-Za-z0-9_]{8}(" + "|".join(re.escape(s) for s in SUFFIXES) + r")$")
GRACE_S = 2.0  # younger files are left alone: a writer may be between creating and locking one


def is_temp_name(name: str) -> bool:
    return bool(_TEMP.match(name))


@contextmanager
def locked_temp(directory: Path, name: str, suffix: str) -> Iterator[Path]:
    """A new hidden temporary file ``.NAME.XXXXXXXX.SUFFIX`` in ``directory``, locked while the
    ``with`` block runs and deleted after it unless the block moved it away. OSError as mkstemp raises it."""
    if suffix not in SUFFIXES:
        raise ValueError(f"temporary suffix {suffix!r} is not one of {SUFFIXES}")
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=suffix, dir=directory)
    path = Path(tmp)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield path
    finally:
        for p in (path, Path(str(path) + "-journal")):
            try:
                p.unlink()
            except FileNotFoundError:
                pass
        os.close(fd)


def clean_stale(directory: Path, now: float | None = None) -> list[Path]:
    """Delete the temporary files in ``directory`` that a killed run left (lock free, older than
    ``GRACE_S``); return them. Errors (unreadable directory, a file gone meanwhile) are ignored:
    cleaning is a courtesy, never a reason to fail the command that called it."""
    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    for e in entries:
        if not is_temp_name(e.name):
            continue
        try:
            if not e.is_file(follow_symlinks=False) or now - e.stat(follow_symlinks=False).st_mtime < GRACE_S:
                continue
            fd = os.open(e.path, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue  # a live writer holds it
        try:
            os.unlink(e.path)
            removed.append(Path(e.path))
            for extra in (e.path + "-journal",):
                if os.path.exists(extra):
                    os.unlink(extra)
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed
