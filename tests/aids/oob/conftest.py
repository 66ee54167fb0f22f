"""Fixtures for the orders-of-battle aid's tests: campaign files in tmp_path, the CLI run in-process
and the campaign test kit (``campaignkit``) on the import path."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "campaign"))

from assistant.campaign import Campaign  # noqa: E402
from clikit import run  # noqa: E402,F401


@pytest.fixture
def witp_file(tmp_path) -> Path:
    """A closed witp campaign (the Guadalcanal scenario) at tmp_path/g.campaign."""
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    path = c.path
    c.close()
    return Path(path)


@pytest.fixture
def apto_file(tmp_path) -> Path:
    c = Campaign.create(tmp_path / "a.campaign", game="apto", settings={"campaign_start": "summer_seasonal_1937"})
    path = c.path
    c.close()
    return Path(path)


@pytest.fixture
def write(tmp_path):
    """write(name, text) -> the path of a CSV file holding ``text``."""

    def _write(name: str, text: str) -> Path:
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        return p

    return _write
