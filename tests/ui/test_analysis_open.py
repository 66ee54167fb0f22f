"""``open_campaign`` of the analysis notebook (``assistant.ui.analysis``): the served campaign, else
the demo, read-only. (The notebook itself is
tested in tests/ui/test_analysis_notebook.py: its question spans the supply tracer and the ledger.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.campaign import Campaign
from assistant.ui.demo import ensure_demo


@pytest.fixture
def home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("CAMPAIGN_ASSISTANT_HOME", str(home))
    return home


@pytest.fixture
def demo_copy(tmp_path, home):
    """The demo campaign (built by the real code) with a turn played."""
    path = ensure_demo(tmp_path / "demo-copy.campaign")
    with Campaign.open(path) as c:
        c.advance()
    return path


def test_open_campaign_is_the_served_file_else_the_demo_and_read_only(tmp_path, monkeypatch, home, demo_copy):
    from assistant.campaign import CampaignError
    from assistant.ui.analysis import open_campaign

    path = demo_copy
    monkeypatch.setenv("CAMPAIGN_FILE", str(path))
    c = open_campaign()
    assert Path(c.path) == path and c.readonly
    with pytest.raises(CampaignError):
        c.add_note("must not be written")
    c.close()
    monkeypatch.delenv("CAMPAIGN_FILE")
    d = open_campaign()
    assert Path(d.path).parent == home / "data" and Path(d.path).name.startswith("demo-witp") and d.readonly
    d.close()
