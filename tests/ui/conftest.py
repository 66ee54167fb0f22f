"""Shared fixtures for the dashboard tests. Every test gets its own CAMPAIGN_ASSISTANT_HOME, so
no test touches the real home (caches, logs, the demo campaign)."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def assistant_home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("CAMPAIGN_ASSISTANT_HOME", str(home))
    return home


@pytest.fixture(scope="session")
def witp():
    from assistant.maps import load_map

    return load_map("witp")


@pytest.fixture(scope="module")
def demo_home(tmp_path_factory):
    """A home holding a fresh demo campaign (made once per module through the real code)."""
    home = tmp_path_factory.mktemp("served-home")
    env_before = os.environ.get("CAMPAIGN_ASSISTANT_HOME")
    os.environ["CAMPAIGN_ASSISTANT_HOME"] = str(home)
    try:
        from assistant.ui.demo import ensure_demo

        ensure_demo()
    finally:
        if env_before is None:
            os.environ.pop("CAMPAIGN_ASSISTANT_HOME", None)
        else:
            os.environ["CAMPAIGN_ASSISTANT_HOME"] = env_before
    return home


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium through Playwright, one per test module (see uikit.require_chromium)."""
    from assistant.ui import testing as T

    with T.chromium() as b:
        yield b
