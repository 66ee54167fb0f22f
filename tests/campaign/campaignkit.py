"""Helpers shared by the campaign-state tests (imported by name: ``conftest`` is not a unique
module name once several test folders have one)."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PY = sys.executable


def file_fingerprint(path: Path) -> tuple:
    """Bytes hash, size and mtime: equal before/after means the file was not touched."""
    st = path.stat()
    return hashlib.sha256(path.read_bytes()).hexdigest(), st.st_size, st.st_mtime_ns


def subprocess_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env
