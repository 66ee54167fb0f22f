"""Where the user's own files live: campaigns (the demo among them), caches and logs.

``CAMPAIGN_ASSISTANT_HOME`` overrides everything (tests point it at a temporary directory so they
never touch the real home); otherwise the XDG base directories are used.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_HOME = "CAMPAIGN_ASSISTANT_HOME"
APP = "campaign-assistant"


def _home() -> Path | None:
    v = os.environ.get(ENV_HOME, "").strip()
    return Path(v).expanduser() if v else None


def user_data_dir() -> Path:
    """Campaign files created for the user (e.g. the demo)."""
    h = _home()
    if h:
        return h / "data"
    base = os.environ.get("XDG_DATA_HOME", "").strip() or str(Path.home() / ".local" / "share")
    return Path(base) / APP


def user_cache_dir() -> Path:
    """Rebuildable files: rendered boards. Safe to delete at any time."""
    h = _home()
    if h:
        return h / "cache"
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(base) / APP


def user_log_dir() -> Path:
    """Dashboard error logs."""
    h = _home()
    if h:
        return h / "logs"
    base = os.environ.get("XDG_STATE_HOME", "").strip() or str(Path.home() / ".local" / "state")
    return Path(base) / APP / "logs"
