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
