"""Fixtures for the campaign-state tests: fresh campaign files in tmp_path."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import pytest

from assistant.campaign import Campaign

REPO = Path(__file__).resolve().parents[2]


def file_fingerprint(path: Path) -> tuple:
    """Bytes hash, size and mtime: equal before/after means the file was not touched."""
    st = path.stat()
    return hashlib.sha256(path.read_bytes()).hexdigest(), st.st_size, st.st_mtime_ns


def subprocess_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@pytest.fixture
def witp(tmp_path):
    c = Campaign.create(tmp_path / "w.campaign", game="witp")
    yield c
    c.close()


@pytest.fixture
def guadalcanal(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    yield c
    c.close()


PY = sys.executable
