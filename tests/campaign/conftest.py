"""Fixtures for the campaign-state tests: fresh campaign files in tmp_path."""

from __future__ import annotations

import pytest

from assistant.campaign import Campaign


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

