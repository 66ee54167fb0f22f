"""Fixtures for the scan aid's tests: a campaign in tmp_path, and a small generated "scan" of the
witp map whose true pixel <-> board mapping is known (a rotation, a scale and an offset)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "campaign"))

from assistant.campaign import Campaign  # noqa: E402
from scankit import SIZE, point, true_pixel  # noqa: E402


@pytest.fixture
def guadalcanal(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    yield c
    c.close()


@pytest.fixture
def photo(tmp_path, guadalcanal):
    """A PNG with a red dot at the true pixel of every hex centre in view (a stand-in scan)."""
    g = guadalcanal.map.grid
    img = Image.new("RGB", SIZE, (250, 248, 240))
    d = ImageDraw.Draw(img)
    for h in g.all_hexes:
        u, v = true_pixel(*g.pixel(h))
        if 0 <= u < SIZE[0] and 0 <= v < SIZE[1]:
            d.ellipse([u - 2, v - 2, u + 2, v + 2], fill=(200, 0, 0))
    p = tmp_path / "my map.png"
    img.save(p)
    return p


@pytest.fixture
def pts(guadalcanal):
    return [point(guadalcanal.map, h) for h in ("E2418", "E2818", "E2621")]
