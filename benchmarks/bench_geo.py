"""The map for GIS on the largest map (witp, 14,002 hexes): every hex's outline on the globe built
with numpy per map section (``maps.geo.hex_outlines``) against the same outlines hex by hex, as
``GameMap.geo`` places a centre (the fitting section, its local plane, ``SectionTransform.to_geo``
on the hex's six corners): the baseline. Then the whole GeoJSON (``campaign.geomap.map_geojson``:
outlines, antimeridian split, properties, Features) and its text (``json.dumps``, as
``campaign map geojson`` writes it) against the same baseline. Rounds interleaved, medians.

Run: python -m pytest benchmarks/bench_geo.py -p no:cacheprovider -s
"""

from __future__ import annotations

import json
import statistics
import time

import numpy as np

from assistant.campaign.geomap import map_geojson
from assistant.hexes.layout import corner_offsets
from assistant.maps.gamemap import load_map
from assistant.maps.geo import hex_outlines

ROUNDS = 3


def per_hex(gm) -> list:
    """The baseline: each hex's corners through its section's fit, one hex at a time."""
    offsets = corner_offsets(gm.grid.orientation)
    out = []
    for h in gm.grid.all_hexes:
        section = gm.fit_section_for(h)
        cx, cy = gm.grid.local_pixel(h, section)
        lat, lon = gm.transforms[section].to_geo([cx + dx for dx, _ in offsets], [cy + dy for _, dy in offsets])
        out.append((lon, lat))
    return out


def _time(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def test_witp_outlines_vectorised_against_hex_by_hex(benchmark):
    gm = load_map("witp")
    gm.hexes, gm.transforms  # read once, as a process that draws the map twice would
    base, vec, whole = [], [], []
    for _ in range(ROUNDS):
        base.append(_time(lambda: per_hex(gm)))
        gm._owners.clear()  # the baseline's per-hex section choice is not kept between rounds
        vec.append(_time(lambda: hex_outlines(gm)))
        whole.append(_time(lambda: json.dumps(map_geojson("witp"), separators=(",", ":"))))
    # the same outlines both ways (corners unwrapped round the centre, order aside)
    o = hex_outlines(gm)
    lon, lat = per_hex(gm)[5]
    assert np.allclose(sorted(np.round(lat, 6)), sorted(np.round(o.rings[5, :6, 1], 6)))
    b, v, w = (statistics.median(x) for x in (base, vec, whole))
    print(f"\nwitp {len(o.labels)} hexes: hex by hex {b:.3f} s (1.0); hex_outlines {v:.3f} s ({v / b:.2f}); "
          f"map_geojson + json.dumps {w:.3f} s ({w / b:.2f})")
    benchmark.extra_info.update(baseline_s=b, outlines_s=v, geojson_text_s=w, outlines_ratio=v / b,
                                geojson_text_ratio=w / b)
    benchmark.pedantic(lambda: hex_outlines(gm), rounds=1, iterations=1)
