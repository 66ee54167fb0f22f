"""The player's map scan: putting an aligned scan under the grid costs a few
image decodes, not per-hex work. Baseline in the same run: reading the scan file (decode to
RGBA). Measured: ``render.warp`` (decode, one affine warp in Pillow, PNG encode) and
``render.grid_lines`` (the hex outlines over the footprint, drawn once per alignment).

The data: a 4000x3000 px "photo" (a phone's photo of a map section) aligned over witp hexes
E2418, E2818, E2621 at 60 image pixels per hex (so the footprint holds ~3,300 hexes).

Run: python -m pytest benchmarks/bench_scan.py -p no:cacheprovider -s
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from PIL import Image

from assistant.aids.scan.align import solve
from assistant.aids.scan.events import ControlPoint, Scan
from assistant.aids.scan.render import grid_lines, warp
from assistant.maps import load_map

SIZE = (4000, 3000)
HEXES = ("E2418", "E2818", "E2621")
RESULTS: dict[str, float] = {}


def _mean(benchmark) -> float:
    stats = getattr(benchmark, "stats", None)
    return stats.stats.mean if stats is not None else float("nan")


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    gm = load_map("witp")
    rng = np.random.default_rng(7)
    arr = rng.integers(0, 255, size=(SIZE[1] // 8, SIZE[0] // 8, 3), dtype=np.uint8)
    img = Image.fromarray(arr).resize(SIZE, Image.Resampling.BILINEAR)  # photo-like, not all noise
    path = tmp_path_factory.mktemp("scan") / "photo.png"
    img.save(path)
    a, scale = math.radians(4.0), 60.0
    board = [gm.grid.pixel(gm.grid.parse(h)) for h in HEXES]
    pixels = [(scale * (math.cos(a) * (x - 40) - math.sin(a) * (y - 55)) + 200,
               scale * (math.sin(a) * (x - 40) + math.cos(a) * (y - 55)) + 150) for x, y in board]
    aff = solve(HEXES, pixels, board)
    scan = Scan(path=str(path), width=SIZE[0], height=SIZE[1],
                points=tuple(ControlPoint(hex=h, x=u, y=v) for h, (u, v) in zip(HEXES, pixels)),
                transform=aff.coefficients())
    return gm, scan


def _decode(path):
    with Image.open(path) as im:
        return im.convert("RGBA")


def test_baseline_decode(benchmark, setup):
    _, scan = setup
    benchmark.pedantic(_decode, args=(scan.path,), rounds=5, iterations=1)
    RESULTS["decode"] = _mean(benchmark)


def test_warp(benchmark, setup):
    _, scan = setup
    out = benchmark.pedantic(warp, args=(scan,), rounds=5, iterations=1)
    assert max(out.size) <= 2048
    RESULTS["warp"] = _mean(benchmark)


def test_grid_lines(benchmark, setup):
    gm, scan = setup
    benchmark.pedantic(grid_lines, args=(gm.grid, scan), rounds=5, iterations=1)
    RESULTS["grid"] = _mean(benchmark)


def test_report():
    base = RESULTS.get("decode")
    if not base:
        pytest.skip("run with the benchmarks above")
    for k, v in RESULTS.items():
        print(f"{k}: {v * 1000:.1f} ms ({v / base:.2f}x decode)")
