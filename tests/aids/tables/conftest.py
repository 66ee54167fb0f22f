"""Fixtures for the tables aid: a Global War campaign with a Commonwealth LRB 3 hexes from the
German Industrial Center at W3020 (the hexes of the rulebook's example 24.5.B), in tmp_path."""

from __future__ import annotations

import pytest

from assistant.campaign import Campaign
from assistant.campaign.commands import PlaceUnit


@pytest.fixture
def gw_file(tmp_path):
    path = tmp_path / "gw.campaign"
    with Campaign.create(path, game="globalwar") as c:
        c.execute(PlaceUnit(side="allies", kind="LRB", hex="W2720", nation="commonwealth", id="b1",
                            attrs={"attack": 2, "defence": 4}))
    return path


@pytest.fixture
def apto_file(tmp_path):
    path = tmp_path / "apto.campaign"
    Campaign.create(path, game="apto").close()
    return path


@pytest.fixture
def witp_file(tmp_path):
    path = tmp_path / "witp.campaign"
    Campaign.create(path, game="witp", scenario="guadalcanal-1942").close()
    return path
