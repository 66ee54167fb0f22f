"""Peak memory of the supply history over a whole war: ``history_frame`` streaming the turns' states
(``Campaign.turn_states``: one state at a time, traced into rows and let go) against the old way
that held every turn's state at once (``bench_history.old_history_frame``: ``state_at`` per turn,
every state in a list, then traced).

The war is ``bench_history.py``'s (245 witp turns on the whole map, 300 pieces a side; with
``BENCH_HISTORY_WAR=FILE`` built once and copied from FILE next time). Each way runs in its own
process, twice: once for its maximum resident set (``/usr/bin/time``, as ``bench_history`` reads it:
the interpreter, pandas, the map and its graph included), once under ``tracemalloc`` started after
the campaign is open and its graph built (the Python allocations of the history alone: its peak,
and what is left when it returns). Both give the same frame (compared here, row for row).

Run: python -m pytest benchmarks/bench_history_memory.py -p no:cacheprovider -s --timeout 1800   (5-10 minutes)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from bench_history import old_history_frame, run_measured, war  # noqa: F401  (war: the fixture)

HERE = Path(__file__).resolve()


def _measure_main(way: str, path: str, traced: bool) -> None:
    """One way in this process: the frame's digest and size, and (``traced``) tracemalloc's peak."""
    import hashlib
    import tracemalloc

    import pandas as pd

    from assistant.aids.supply.history import history_frame
    from assistant.campaign import Campaign

    with Campaign.open(path, readonly=True) as c:
        c.graph()  # both ways use the campaign's graph: built before the measure starts
        if traced:
            tracemalloc.start()
        df = history_frame(c) if way == "new" else old_history_frame(c)
        out = {"rows": len(df), "frame_mb": df.memory_usage(deep=True).sum() / 2**20,
               "digest": hashlib.sha256(pd.util.hash_pandas_object(df, index=False).values.tobytes()).hexdigest()}
        if traced:
            now, peak = tracemalloc.get_traced_memory()
            out.update(peak_mb=peak / 2**20, left_mb=now / 2**20)
        print(json.dumps(out))


def test_history_frame_peak_memory(war):  # noqa: F811  (the fixture imported above)
    c, rng, land, ground, cache = war
    path = str(c.path)
    got = {}
    for way in ("old", "new"):
        argv = [sys.executable, str(HERE), way, path]
        wall, rss, out = run_measured(argv, cache)
        _, _, traced = run_measured(argv + ["traced"], cache)
        got[way] = dict(json.loads(out), rss_mb=rss, wall_s=wall, **{k: v for k, v in json.loads(traced).items()
                                                                   if k in ("peak_mb", "left_mb")})
    old, new = got["old"], got["new"]
    assert new["digest"] == old["digest"] and new["rows"] == old["rows"]  # the same frame
    print(f"\n{len(c.turn_ends())} turns, {new['rows']} rows, the frame {new['frame_mb']:.1f} MB "
          f"(old {old['frame_mb']:.1f} MB)")
    for k, what in (("rss_mb", "max RSS of the process"), ("peak_mb", "tracemalloc peak of the history"),
                    ("left_mb", "tracemalloc, left when it returns")):
        print(f"{what}: old (every state at once) {old[k]:.0f} MB, new (streaming) {new[k]:.0f} MB = "
              f"{new[k] / old[k]:.2f}x")
    print(f"wall (the RSS run): old {old['wall_s']:.1f} s, new {new['wall_s']:.1f} s")


if __name__ == "__main__" and len(sys.argv) >= 3:
    sys.path.insert(0, str(HERE.parent.parent))
    _measure_main(sys.argv[1], sys.argv[2], sys.argv[3:] == ["traced"])
