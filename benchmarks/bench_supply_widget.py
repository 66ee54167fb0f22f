"""The supply dashboard's side-wide overlay on the whole witp map: a page that
colours a whole side must stay fast.

The campaign of ``bench_supply.py`` (14,002 hexes, 300 pieces a side, every witp rule in use).
Each figure (a median) is printed with a ratio against a baseline in the same run:

* ``SupplyWidget.show_side()`` -- trace the side, colour its units' and bases' hexes by status
  (one server-drawn ``show_choropleth`` picture), the status halos and the side report -- against
  the engine's ``trace_side`` alone on the same world: the ratio is what drawing adds;
* the same redraw when nothing changed (the picture is not sent again);
* the bytes each sends to the browser (``wiremeter.CommMeter``: the kernel's JSON packer), against
  the GeoJSON a per-hex drawing would send for the same hexes (``MapView.show_hexes`` once per
  status: the way the overlay must not be drawn).

Run: python -m pytest benchmarks/bench_supply_widget.py -p no:cacheprovider -s
"""

from __future__ import annotations

import pytest

from assistant.aids.supply import widget as W
from assistant.aids.supply.engine import trace_side
from assistant.ui.wiremeter import CommMeter
from bench_supply import build_campaign

SIDE = "allies"
RESULTS: dict[str, float] = {}


def _median(benchmark) -> float:
    stats = getattr(benchmark, "stats", None)
    return stats.stats.median if stats is not None else float("nan")


def _report(what: str, benchmark, base: str = "") -> None:
    RESULTS[what] = _median(benchmark)
    b = RESULTS.get(base)
    ratio = f" = {RESULTS[what] / b:.2f}x {base} ({b * 1e3:.1f} ms)" if b else ""
    print(f"\n{what}: {RESULTS[what] * 1e3:.1f} ms{ratio}")


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    c, _info = build_campaign(tmp_path_factory.mktemp("supply-widget") / "bench.campaign")
    with CommMeter() as meter:
        view = W.SupplyWidget(c)
        view.side.value = SIDE
        view.map.hex_raster()  # built once per map and cached on disk, as the board picture is
        yield c, view, meter
    c.close()


def test_baseline_trace_side(benchmark, setup):
    _, view, _ = setup
    world = view.world()
    report = benchmark.pedantic(lambda: trace_side(world, SIDE), rounds=7, iterations=1, warmup_rounds=1)
    _report("baseline: engine trace_side", benchmark)
    assert len(report.items) == 300


def test_show_side_after_a_change(benchmark, setup):
    """A redraw whose picture must be sent again (the overlay was cleared before each round)."""
    _, view, meter = setup
    sent: list[int] = []

    def clear():
        view.map.clear_overlays("supply")
        return (), {}

    def once():
        mark = meter.mark()
        report = view.show_side()
        sent.append(meter.bytes_since(mark))
        return report

    report = benchmark.pedantic(once, setup=clear, rounds=7, iterations=1, warmup_rounds=1)
    _report("show_side, picture sent", benchmark, "baseline: engine trace_side")
    RESULTS["bytes"] = max(sent)
    print(f"bytes sent per redraw: {max(sent) / 1e3:.1f} kB")
    assert len(report.items) == 300 and isinstance(view.map._overlays[W.STATUS], W.L.ImageOverlay)


def test_show_side_unchanged(benchmark, setup):
    _, view, meter = setup
    view.show_side()
    sent: list[int] = []

    def once():
        mark = meter.mark()
        view.show_side()
        sent.append(meter.bytes_since(mark))

    benchmark.pedantic(once, rounds=7, iterations=1, warmup_rounds=1)
    _report("show_side, nothing changed", benchmark, "baseline: engine trace_side")
    print(f"bytes sent when nothing changed: {max(sent) / 1e3:.1f} kB")


def test_per_hex_geojson_for_comparison(benchmark, setup):
    """What a GeoJSON of the same hexes, one layer per status, would send (not how it is drawn)."""
    _, view, meter = setup
    by_status: dict[str, set] = {}
    for t in view.show_side().items:
        by_status.setdefault(t.status, set()).add(t.hex)
    sent: list[int] = []

    def once():
        mark = meter.mark()
        for i, (status, hexes) in enumerate(sorted(by_status.items())):
            view.map.show_hexes(f"bench/{i}", hexes, color=W.CUT_COLOURS[i % 4])
        sent.append(meter.bytes_since(mark))

    benchmark.pedantic(once, rounds=7, iterations=1, warmup_rounds=1)
    view.map.clear_overlays("bench")
    _report("GeoJSON per hex (comparison)", benchmark, "baseline: engine trace_side")
    print(f"GeoJSON bytes: {max(sent) / 1e3:.1f} kB against the overlay's {RESULTS.get('bytes', 0) / 1e3:.1f} kB")
