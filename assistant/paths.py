"""Where the package's data and notebooks live: inside the wheel, or in a source checkout."""

from __future__ import annotations

import os
from pathlib import Path

_PKG = Path(__file__).resolve().parent


def _first(*candidates: Path) -> Path:
    for c in candidates:
        if c.is_dir():
            return c
    raise FileNotFoundError(f"none of {', '.join(map(str, candidates))} exists")


def data_dir() -> Path:
    """The ``data/`` tree: ``assistant/_data`` in an installed wheel, ``../data`` in a checkout."""
    return _first(_PKG / "_data", _PKG.parent / "data")


def notebooks_dir() -> Path:
    return _first(_PKG / "_notebooks", _PKG.parent / "notebooks")


def game_dir(game: str) -> Path:
    return data_dir() / "games" / game


def write_cache_file(path: Path, data: bytes) -> None:
    """Write a cache file atomically (a temporary file of this process, then renamed over it); a
    cache that cannot be written only costs speed, so an OS error is let go."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
    except OSError:
        pass


def read_limited(path, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of the regular file at ``path``: a caller refuses more than
    ``limit`` in its own words. A device, pipe or folder (``/dev/zero``, a FIFO) is an OSError
    naming it, not read: its size says nothing of what reading it gives, and that may never end."""
    import stat

    if not stat.S_ISREG(os.stat(path).st_mode):
        raise OSError(22, "not a regular file", str(path))
    with open(path, "rb") as f:
        return f.read(limit + 1)
