"""Fixtures for the map editor's tests: campaign files in tmp_path, and the campaign test kit
(``campaignkit``: PY, REPO, file_fingerprint, subprocess_env) on the import path."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "campaign"))

from assistant.campaign import Campaign  # noqa: E402


@pytest.fixture
def guadalcanal(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    yield c
    c.close()


@pytest.fixture(params=["apto", "globalwar"])
def other_game(request, tmp_path):
    c = Campaign.create(tmp_path / f"{request.param}.campaign", game=request.param)
    yield c
    c.close()
