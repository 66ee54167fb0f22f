"""A page's first click against its tenth, in a fresh kernel, with and without the warm-up.

Each round starts a fresh Python process as Voila starts a page's kernel: it runs the page's
notebook (its two imports and ``dashboard(Page)`` on a copy of the witp demo campaign), then,
in the "warmed" runs, the page's warm-up steps (``page.warmer.run()``: what the kernel's loop runs
while the page waits for its first click, ``assistant/ui/warm.py``), then ten clicks, each timed:

* supply: choosing a unit of the side in the Unit list (its trace and working shown);
* strike: a click on a target hex of the map (every friendly air unit that reaches it);
* ledger: typing an amount into the entry form (the rules check the entry at once).

The baseline is the same page's tenth click in the same process, which repeats the first (the
same unit, target or amount: nine different clicks, then the first again): the figure is
first / tenth (target <= 2). Each click is timed twice: the CPU time of the kernel's thread (``time.thread_time``:
the work the click costs, which the other programs of a shared machine do not inflate) and the wall
clock. Medians over ``BENCH_FIRSTCLICK_ROUNDS`` rounds (default 7), the pages and the two modes
interleaved so the machine's load falls on all.

Run: ``python -m pytest benchmarks/bench_firstclick.py -p no:cacheprovider -s`` or
``python benchmarks/bench_firstclick.py`` for the table.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = int(os.environ.get("BENCH_FIRSTCLICK_ROUNDS", "7"))
PAGES = ("supply", "strike", "ledger")
CLICKS = 10
# Hexes around Guadalcanal, each a target some air unit of the demo reaches.
TARGETS = ("E2519", "E2418", "E2317", "E2520", "E2421", "E2619", "E2318", "E2219", "E2720")


def sequence(items: list) -> list:
    """Ten clicks: up to nine different ones, then the first again (no two alike in a row, so
    each one changes the page)."""
    n = min(len(items), CLICKS - 1)
    clicks = [items[i % n] for i in range(CLICKS - 1)]
    if n > 1 and clicks[-1] == items[0]:
        clicks[-1] = items[1]
    return clicks + [items[0]]


def worker(page: str, warm: bool, file: str) -> dict:
    """One fresh page kernel: the notebook's lines, the warm-up if asked, ten timed clicks."""
    t0 = time.perf_counter()
    from assistant.ui.kit import dashboard

    if page == "supply":
        from assistant.aids.supply.widget import SupplyWidget as View
    elif page == "strike":
        from assistant.aids.strike.widget import StrikeWidget as View
    else:
        from assistant.aids.ledger.widget import LedgerWidget as View
    shown = dashboard(View, file)
    v = shown.view
    built = time.perf_counter() - t0
    t0 = time.perf_counter()
    if warm:
        shown.warmer.run()
        assert not shown.warmer.failures, shown.warmer.failures
        if os.environ.get("BENCH_FIRSTCLICK_CSGRAPH"):  # the alternative: csgraph imported in the warm-up
            import scipy.sparse.csgraph  # noqa: F401
    warmed = time.perf_counter() - t0
    seq = v.campaign.state.last_seq
    if page == "supply":
        side = v.side.value
        ids = [u.id for u in v.campaign.state.units.values() if u.side == side and u.hex]
        units = sequence(ids[::-1])  # not first the unit the warm-up traced

        def click(i):
            v.unit.value = units[i]
            assert v.trace is not None, v.problem
    elif page == "strike":
        targets = sequence(list(TARGETS))

        def click(i):
            v.map.select(targets[i])
            assert v.items, v.message.value
    else:
        amounts = sequence(list(range(1, CLICKS)))

        def click(i):
            v.amount.value = str(amounts[i])
            assert v.draft_entry is not None and v.draft_entry.amount == amounts[i], v.message.value
    times, cpu, engine = [], [], []
    rss = [_rss_mb()]
    for i in range(CLICKS):
        t, c = time.perf_counter(), time.thread_time()
        click(i)
        cpu.append(time.thread_time() - c)
        times.append(time.perf_counter() - t)
        engine.append(_engine())
    rss.append(_rss_mb())
    assert v.campaign.state.last_seq == seq  # nothing was written
    return {"built": built, "warm": warmed, "times": times, "cpu": cpu, "engine": engine, "rss": rss}


def _engine() -> str:
    """Which search engine the next search runs (``assistant/rules/_search.py``): the numpy loops
    until the process has spent 0.2 s in them or csgraph is imported, csgraph after; "none" where
    the search module was never loaded."""
    mod = sys.modules.get("assistant.rules._search")
    return "none" if mod is None else ("csgraph" if mod.use_scipy() else "numpy")


def _rss_mb() -> float:
    """The process's resident memory now (MB)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _run(page: str, warm: bool, file: str) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, __file__, "worker", page, "warm" if warm else "cold", file],
                         cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(rounds: int = ROUNDS) -> dict:
    from assistant.ui.demo import ensure_demo

    with tempfile.TemporaryDirectory() as tmp:
        file = str(ensure_demo(Path(tmp) / "demo.campaign"))
        runs: dict[tuple[str, bool], list[dict]] = {(p, w): [] for p in PAGES for w in (False, True)}
        for _ in range(rounds):
            for key in runs:
                runs[key].append(_run(*key, file))
    out = {}
    for (page, warm), rs in runs.items():
        fig = {"page built s": round(statistics.median(r["built"] for r in rs), 3),
               "warm-up s": round(statistics.median(r["warm"] for r in rs), 3)}
        for clock in ("times", "cpu"):
            first = statistics.median(r[clock][0] for r in rs)
            tenth = statistics.median(r[clock][-1] for r in rs)
            fig.update({f"{clock} first ms": round(first * 1e3, 1), f"{clock} tenth ms": round(tenth * 1e3, 1),
                        f"{clock} first/tenth": round(first / tenth, 2)})
        fig["engine"] = "/".join(sorted({e for r in rs for e in (r["engine"][0], r["engine"][-1])}))
        fig["switched at click"] = sorted({r["engine"].index("csgraph") + 1 for r in rs if "csgraph" in r["engine"]})
        fig["MB after clicks"] = round(statistics.median(r["rss"][-1] for r in rs))
        out[f"{page} {'warmed' if warm else 'not warmed'}"] = fig
    return {"rounds": rounds, **out}


def table(r: dict) -> str:
    lines = ["| page, kernel | page built | warm-up | first click: CPU (wall) | tenth click, the baseline: "
             "CPU (wall) | first / tenth: CPU (wall) | search engine (csgraph from click) | memory after "
             "the clicks |", "|---|---|---|---|---|---|---|---|"]
    for name, f in r.items():
        if isinstance(f, dict):
            lines.append(f"| {name} | {f['page built s']} s | {f['warm-up s']} s | {f['cpu first ms']} ms "
                         f"({f['times first ms']} ms) | {f['cpu tenth ms']} ms ({f['times tenth ms']} ms) | "
                         f"**{f['cpu first/tenth']}** ({f['times first/tenth']}) | {f['engine']} "
                         f"{f['switched at click'] or ''} | {f['MB after clicks']} MB |")
    return "\n".join(lines)


FEATURES = ("land", "blocked", "mountain", "pass")  # the hexside masks witp's supply layers read


def loop_baseline(graph) -> list:
    """The baseline: HexNet's arrays as they were built, one graph edge and one node at a time
    (the CSR adjacency, four hexside masks, the overland mask and one node column)."""
    labels = tuple(graph.nodes)
    index = {lab: i for i, lab in enumerate(labels)}
    src, dst = [], []
    for a, b in graph.edges():
        ia, ib = index[a], index[b]
        src += (ia, ib)
        dst += (ib, ia)
    import numpy as np

    order = np.lexsort((np.asarray(dst), np.asarray(src)))
    tail, head = np.asarray(src, dtype=np.int32)[order], np.asarray(dst, dtype=np.int32)[order]
    from assistant.maps.landlinks import not_overland
    from assistant.rules.hexnet import truthy

    edges = graph.edges

    def feature(f):
        return np.array([edges[labels[a], labels[b]].get(f) for a, b in zip(tail, head)], dtype=object)

    out = [np.fromiter((truthy(v) for v in feature(f)), dtype=bool, count=len(tail)) for f in FEATURES]
    out.append(np.fromiter((not_overland(v) for v in feature("overland")), dtype=bool, count=len(tail)))
    out.append(np.array([graph.nodes[lab].get("surface") for lab in labels], dtype=object))
    return out


def vectorised(topology, graph) -> list:
    """The subject: a new HexNet on new map arrays (as a fresh kernel builds them once per map)."""
    from assistant.maps.netarrays import MapArrays
    from assistant.rules.hexnet import HexNet

    topology.__dict__["arrays"] = MapArrays(topology.labels, topology.nodes, topology.edges,
                                            topology.base_sides(), columns=topology.columns)
    net = HexNet(graph)
    return [*(net.edge_has(f) for f in FEATURES), net.no_land_across(), net.column("surface")]


def measure_arrays(rounds: int = ROUNDS) -> dict:
    from assistant.maps.gamemap import load_map

    gm = load_map("witp")
    graph = gm.graph()
    times: dict[str, list[float]] = {"baseline": [], "vectorised": []}
    for _ in range(rounds):
        for name, fn in (("baseline", lambda: loop_baseline(graph)),
                         ("vectorised", lambda: vectorised(gm.topology, graph))):
            t = time.thread_time()
            fn()
            times[name].append(time.thread_time() - t)
    base, sub = statistics.median(times["baseline"]), statistics.median(times["vectorised"])
    return {"baseline ms": round(base * 1e3, 1), "vectorised ms": round(sub * 1e3, 1), "ratio": round(sub / base, 3)}


def test_map_arrays_against_the_per_edge_loop(benchmark):
    result = benchmark.pedantic(measure_arrays, rounds=1, iterations=1)
    benchmark.extra_info.update(result)
    print(f"\nwitp: per-edge loop {result['baseline ms']} ms, vectorised {result['vectorised ms']} ms "
          f"= {result['ratio']}x")


def test_first_click_against_the_tenth(benchmark):
    result = benchmark.pedantic(measure, rounds=1, iterations=1)
    benchmark.extra_info.update({k: v for k, v in result.items()})
    print("\n" + table(result))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "worker":
        print(json.dumps(worker(sys.argv[2], sys.argv[3] == "warm", sys.argv[4])))
    elif len(sys.argv) > 1 and sys.argv[1] == "arrays":
        print(measure_arrays())
    else:
        print(table(measure()))
