"""The map editor: a painted run or an imported CSV as one event, and the
redraw after an edit touching only what changed.

Each figure (a median) is printed with a ratio against a baseline in the same run:

* one ``MapEdited`` event setting ``ground_mp`` on N hexes (``EditMap``, what Set on a painted run
  and ``campaign map import`` record) against N ``SetHex`` events (``campaign map set`` once per
  hex), each on a fresh witp campaign;
* ``MapEditor.refresh`` after another writer's one-hex edit in a campaign with 2,000 corrected
  hexes (the diff, then one small layer), against drawing all 2,000 corrected hexes as the
  editor's layer (``MapView.show_hexes``: what a full redraw would send), with the bytes each
  sends to the browser (``wiremeter.CommMeter``).

Run: python -m pytest benchmarks/bench_mapedit.py -p no:cacheprovider -s
"""

from __future__ import annotations

import itertools

import pytest

from assistant.aids.mapedit.commands import EditMap
from assistant.aids.mapedit.widget import MapEditor
from assistant.campaign import Campaign
from assistant.campaign.commands import SetHex
from assistant.ui.wiremeter import CommMeter

N = 200
CORRECTED = 2000
RESULTS: dict[str, float] = {}
counter = itertools.count()


def _median(benchmark) -> float:
    stats = getattr(benchmark, "stats", None)
    return stats.stats.median if stats is not None else float("nan")


def _report(what: str, benchmark, base: str = "", extra: str = "") -> None:
    RESULTS[what] = _median(benchmark)
    b = RESULTS.get(base)
    ratio = f" = {RESULTS[what] / b:.3f}x {base} ({b * 1e3:.1f} ms)" if b else ""
    print(f"\n{what}: {RESULTS[what] * 1e3:.2f} ms{ratio}{extra}")


@pytest.fixture(scope="module")
def land(tmp_path_factory):
    d = tmp_path_factory.mktemp("mapedit-bench")
    with Campaign.create(d / "probe.campaign", game="witp", scenario="guadalcanal-1942") as c:
        hexes = [h for h, a in c.graph().nodes(data=True) if a.get("surface") in ("land", "coastal")]
    return d, hexes


def _fresh(d):
    return Campaign.create(d / f"c{next(counter)}.campaign", game="witp", scenario="guadalcanal-1942")


def test_baseline_n_single_hex_events(benchmark, land):
    d, hexes = land

    def setup():
        return (_fresh(d),), {}

    def run(c):
        for h in hexes[:N]:
            c.execute(SetHex(label=h, attrs={"ground_mp": 3}))
        c.close()

    benchmark.pedantic(run, setup=setup, rounds=5, iterations=1)
    _report(f"baseline: {N} SetHex events", benchmark)


def test_one_map_edited_event(benchmark, land):
    d, hexes = land

    def setup():
        return (_fresh(d),), {}

    def run(c):
        c.execute(EditMap(how="painted", hexes=[(h, {"ground_mp": 3}) for h in hexes[:N]]))
        c.close()

    benchmark.pedantic(run, setup=setup, rounds=5, iterations=1)
    _report(f"one MapEdited of {N} hexes", benchmark, f"baseline: {N} SetHex events")


@pytest.fixture(scope="module")
def big(land):
    d, hexes = land
    c = _fresh(d)
    c.execute(EditMap(how="imported", hexes=[(h, {"ground_mp": 2}) for h in hexes[:CORRECTED]]))
    with CommMeter() as meter:
        e = MapEditor(c)
        yield c, e, hexes, meter
    c.close()


def test_baseline_full_redraw(benchmark, big):
    c, e, hexes, meter = big
    corrected = list(c.state.map_corrections)
    mark = meter.mark()
    benchmark.pedantic(lambda: e.map.show_hexes("mapedit/changed", corrected), rounds=10, iterations=1)
    sent = meter.bytes_since(mark) // 10
    _report(f"baseline: redraw all {len(corrected)} corrected hexes", benchmark, extra=f", {sent:,} bytes sent")


def test_refresh_after_a_one_hex_edit(benchmark, big):
    c, e, hexes, meter = big
    states = []
    for i in range(12):
        c.execute(EditMap(how="painted", hexes=[(hexes[0], {"ground_mp": 4 + i % 2})]))
        states.append(c.state)
    it = iter(states)
    mark = meter.mark()
    benchmark.pedantic(lambda: e.refresh(next(it)), rounds=10, iterations=1)
    sent = meter.bytes_since(mark) // 10
    assert e.redrawn == ((hexes[0],), ())
    _report("MapEditor.refresh after a one-hex edit", benchmark,
            f"baseline: redraw all {CORRECTED} corrected hexes", extra=f", {sent:,} bytes sent")
