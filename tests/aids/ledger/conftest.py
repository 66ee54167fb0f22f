"""Fixtures for the ledger aid's tests: campaign files in tmp_path, the campaign test kit
(``campaignkit``) on the import path, and a stand-in economy.

The view, the CLI and the views have no rules of their own: these tests give the engine a small
stand-in ``Economy`` (accounts PP and CP; a destroyer priced 4 PP "[T 1]"; no deficit spending
"[T 3]"; a fixed income of 30 "[T 5]"; at the close a quarter of the PP carried over, the rest
expires "[T 6]") so that every figure the page or the CLI must show can be counted here by hand.
The real economies are exercised by their own tests and by the browser test on the demo."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "campaign"))

from assistant.aids.ledger import engine  # noqa: E402
from assistant.campaign import Campaign  # noqa: E402
from standin import DESTROYER, FIXED_INCOME, StandInEconomy  # noqa: E402,F401


@pytest.fixture
def eco(monkeypatch):
    e = StandInEconomy()
    monkeypatch.setattr(engine, "economy_for", lambda game: e)
    return e


@pytest.fixture
def guadalcanal(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    yield c
    c.close()
