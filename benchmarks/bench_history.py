"""Supply history over a whole war: ``campaign trace FILE --history`` computed once and kept.

The campaign: ``bench_supply.py``'s whole witp map (14,002 hexes, 300 pieces a side, ~5,000 setup
events: every land hex's ground MP, rail lines, mountain hexsides) played for 245 turns (the
whole war, December 1941 to the summer of 1945: 49 cycles of a Strategic and four operational
G/Ts): each turn an advance and 8 moves a side; every 5th turn a note, every 7th an undo and a redo,
every 9th a hex control change, every 25th a hex correction (a new map version).

Measured, each as whole processes in one run (wall time from the parent; peak memory the child's
maximum resident set, read by ``/usr/bin/time``):

* **cold**: the first ``--history --csv`` call (empty cache folder) against the baseline: the
  history as it was before it was kept (``old_history_frame`` below: every turn's end from the
  parsed events, ``Campaign.state_at`` per turn -- a snapshot reload and a replay each -- every
  graph kept, then ``DataFrame.to_csv``), run as ``python benchmarks/bench_history.py baseline
  FILE``. Both outputs are compared byte for byte.
* **warm**: the second call on the unchanged campaign, against ``campaign info FILE`` (interleaved
  rounds, medians), in CSV and in text.
* **one more turn**: a turn played (advance, 16 moves), then the call again, against that one
  turn's trace as a process (``python benchmarks/bench_history.py turn FILE``: open the campaign,
  ``world_of`` on its graph, ``trace_side`` of both sides). And in one process, as the supply
  page does it with its tab open: ``history(...).counts()`` on the open campaign after the turn
  (what the chart reads: the turn traced, its counts; the turn is written to the page's cache
  folder in the background), then the same with that write waited for, and the frame of every
  row after it (what an analyst reads), each against that turn's trace in the same process
  (warmed).

Run: python -m pytest benchmarks/bench_history.py -p no:cacheprovider -s   (about 5 minutes)
The one-more-turn part alone: add ``-k one_more_turn`` (with ``BENCH_HISTORY_WAR=FILE`` the war is
built once and copied from FILE next time: about a minute).
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TURNS = 245
SEED = 23
MOVES = 8  # a side, each turn
WARM_ROUNDS = 5


# ----- the baseline: the history as it was computed before it was kept ------------------------------
def old_history_frame(campaign):
    """The old ``history_frame``: ``turn_ends`` from the parsed events, ``state_at`` per turn, one
    graph per map version (all kept), every side traced, one frame of every row."""
    from assistant.aids.supply.engine import trace_side, world_of
    from assistant.aids.supply.rows import checked_sides, trace_row, turn_date
    from assistant.aids.supply.tables import supply_frame
    from assistant.campaign.mapfix import corrections_of
    from assistant.campaign.mappin import map_for

    wanted = checked_sides(campaign.state, None)
    records = campaign.events()
    ends: dict[int, int] = {}
    current = campaign.state.turn.index
    for i, rec in enumerate(records):
        ends[records[i + 1].turn if i + 1 < len(records) else current] = rec.seq
    last = campaign.state.last_seq
    states = [(t, campaign.state if seq == last else campaign.state_at(seq=seq)) for t, seq in sorted(ends.items())]
    graphs: dict = {}

    def key(state):
        return (state.map_pin.model_dump_json() if state.map_pin is not None else None), state.map_revision

    rows = []
    for turn, state in states:
        k = key(state)
        if k not in graphs:
            graphs[k] = (campaign.graph() if k == key(campaign.state)
                         else map_for(state.game, state.map_pin).graph(corrections_of(state)))
        world = world_of(state, graphs[k])
        label, date = state.calendar.turn(turn).label, turn_date(state.calendar, turn)
        for side in wanted:
            rows += [trace_row(t, turn, label, date) for t in trace_side(world, side).items]
    return supply_frame(rows)  # the table supply_by_turn, typed as history_frame gives it


def _baseline_main(path: str) -> None:
    from assistant.campaign import Campaign
    from assistant.campaign.csvout import frame_csv

    with Campaign.open(path, readonly=True) as c:
        frame_csv(old_history_frame(c), sys.stdout)


def _one_turn_main(path: str) -> None:
    """One turn's trace as a process: open the campaign, trace both sides of its current state."""
    from assistant.aids.supply.engine import trace_side, world_of
    from assistant.campaign import Campaign

    with Campaign.open(path, readonly=True) as c:
        world = world_of(c.state, c.graph())
        print(sum(len(trace_side(world, side).items) for side in ("japan", "allies")))


# ----- the campaign -----------------------------------------------------------------------------------
def play_turn(c, rng, land, ground, t: int) -> None:
    from assistant.campaign.control import set_control

    c.advance()
    for side in ("japan", "allies"):
        for u in rng.sample(ground[side], MOVES):
            to = rng.choice(land)
            while to == c.state.units[u].hex:  # a move goes somewhere (the seeded placements change with the map)
                to = rng.choice(land)
            c.move_unit(u, to)
    if t % 5 == 0:
        c.add_note(f"turn {t}")
    if t % 7 == 3:
        c.undo()
        c.redo()
    if t % 9 == 4:
        set_control(c, "hex", [rng.choice(land)], rng.choice(("japan", "allies")))
    if t % 25 == 12:
        c.set_hex(rng.choice(land), ground_mp=rng.choice((1, 2, 3)))


@pytest.fixture(scope="module")
def war(tmp_path_factory):
    """The war played (about 2-5 minutes). ``BENCH_HISTORY_WAR=FILE``: a copy of FILE when it
    exists (a war this fixture built), else the war is built and a copy kept there for next time."""
    import shutil

    sys.path.insert(0, str(REPO))
    from assistant.campaign import Campaign
    from benchmarks.bench_supply import build_campaign

    path = tmp_path_factory.mktemp("war") / "war.campaign"
    saved = os.environ.get("BENCH_HISTORY_WAR")
    t0 = time.perf_counter()
    if saved and Path(saved).exists():
        shutil.copy(saved, path)
        c = Campaign.open(path)
        ground = {side: sorted(u.id for u in c.state.units.values() if u.side == side and u.kind == "infantry division")
                  for side in ("japan", "allies")}
    else:
        c, info = build_campaign(path)
        ground = info["ground"]
    g = c.graph()
    land = sorted(n for n, a in g.nodes(data=True) if a["surface"] in ("land", "coastal"))
    rng = random.Random(SEED)
    if not (saved and Path(saved).exists()):
        for t in range(TURNS - 1):  # the first turn is the one the campaign starts in
            play_turn(c, rng, land, ground, t)
        if saved:
            shutil.copy(path, saved)
    else:
        rng = random.Random(SEED + 1)  # the turns played from here on: other draws, the same kind of turn
    print(f"\nthe war: {len(c.turn_ends())} turns, {c.state.last_seq} events, {len(c.state.units)} pieces, "
          f"{c.state.map_revision} map revisions; ready in {time.perf_counter() - t0:.0f} s")
    yield c, rng, land, ground, tmp_path_factory.mktemp("cache")
    c.close()


# ----- measuring whole processes ----------------------------------------------------------------------
def _env(cache: Path) -> dict:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache), PYTHONPATH=str(REPO))
    env.pop("CAMPAIGN_ASSISTANT_HOME", None)
    return env


def run_measured(argv: list[str], cache: Path) -> tuple[float, float, bytes]:
    """Wall seconds, peak memory (MB: the child's maximum resident set as ``/usr/bin/time`` reads
    it -- ``os.wait4`` in this process would report at least this process's own size, which a
    forked child inherits as its high-water mark) and stdout of one process."""
    mem = cache.parent / "maxrss.txt"
    t = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", str(mem), *argv], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=_env(cache), cwd=REPO)
    wall = time.perf_counter() - t
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return wall, int(mem.read_text().split()[-1]) / 1024, done.stdout


CAMPAIGN = [sys.executable, "-c", "import sys; from assistant.cli import main; sys.exit(main())"]


def _history_cli(path: str) -> tuple[list[str], list[str]]:
    return CAMPAIGN + ["trace", path, "--history", "--csv"], CAMPAIGN + ["trace", path, "--history"]


def test_cold_and_warm(war):
    c, rng, land, ground, cache = war
    path = str(c.path)
    hist_csv, hist_text = _history_cli(path)
    info = CAMPAIGN + ["info", path]
    baseline = [sys.executable, str(Path(__file__).resolve()), "baseline", path]

    # cold: the baseline, then the first call (empty cache folder)
    b_wall, b_mem, b_out = run_measured(baseline, cache)
    n_wall, n_mem, n_out = run_measured(hist_csv, cache)
    assert n_out == b_out  # the same rows, byte for byte
    rows = n_out.count(b"\n") - 1
    print(f"\ncold: baseline (state_at per turn) {b_wall:.1f} s, {b_mem:.0f} MB; "
          f"first --history --csv {n_wall:.1f} s, {n_mem:.0f} MB ({n_wall / b_wall:.2f}x time, "
          f"{n_mem / b_mem:.2f}x memory); {rows} rows")

    # warm: interleaved with campaign info
    w_info, w_csv, w_text, mem, info_mem = [], [], [], [], []
    for _ in range(WARM_ROUNDS):
        wall, m, _ = run_measured(info, cache)
        w_info.append(wall)
        info_mem.append(m)
        wall, m, out = run_measured(hist_csv, cache)
        assert out == n_out
        w_csv.append(wall)
        mem.append(m)
        w_text.append(run_measured(hist_text, cache)[0])
    mi, mc, mt = (statistics.median(x) for x in (w_info, w_csv, w_text))
    print(f"warm: campaign info {mi * 1e3:.0f} ms ({statistics.median(info_mem):.0f} MB); second --history --csv "
          f"{mc * 1e3:.0f} ms = {mc / mi:.2f}x info ({statistics.median(mem):.0f} MB); text {mt * 1e3:.0f} ms = "
          f"{mt / mi:.2f}x info")


PROCESS_TURNS = 3  # turns measured as whole processes too
PAGE_TURNS = 7  # turns measured in one process (the first PROCESS_TURNS among them)


def test_one_more_turn(war):
    """One more turn: the command line (whole processes) and the supply page's way (one process,
    the campaign open, the chart tab open). Run alone with ``-k one_more_turn``."""
    from assistant.aids.supply import historystore
    from assistant.aids.supply.engine import trace_side, world_of
    from assistant.aids.supply.history import forget, history, history_frame

    c, rng, land, ground, cache = war
    path = str(c.path)
    hist_csv, _ = _history_cli(path)
    folder = cache / "campaign-assistant" / "history"  # the user's cache folder, as the page uses it
    if not folder.exists():  # run alone: the command line's first call keeps every turn (untimed)
        run_measured(hist_csv, cache)

    def one_turn_trace() -> float:
        t = time.perf_counter()
        world = world_of(c.state, c.graph())
        for side in ("japan", "allies"):
            trace_side(world, side)
        return time.perf_counter() - t

    t0 = time.perf_counter()
    history_frame(c)  # the page opening its tab with nothing kept: every turn traced, in this process
    cold_tab = time.perf_counter() - t0
    forget(c)
    t0 = time.perf_counter()
    history(c, keep=folder).counts()  # a fresh kernel opening the tab: the turns the CLI kept are read
    print(f"\nin one process, the tab opened: nothing kept, every turn traced {cold_tab:.1f} s; "
          f"a fresh kernel reading the kept turns {time.perf_counter() - t0:.2f} s")
    one_turn = [sys.executable, str(Path(__file__).resolve()), "turn", path]
    page_folder = cache.parent / "page-cache"  # the page's own: it must not find the turn the CLI kept
    inc, warm, turn_proc, page, written, turn, whole = [], [], [], [], [], [], []
    for i in range(PAGE_TURNS):
        play_turn(c, rng, land, ground, TURNS + 100 + i)
        if i < PROCESS_TURNS:
            turn_proc.append(run_measured(one_turn, cache)[0])
            inc.append(run_measured(hist_csv, cache)[0])
            warm.append(run_measured(hist_csv, cache)[0])
        for _ in range(3):
            one_turn_trace()  # warmed
        turn.append(statistics.median(one_turn_trace() for _ in range(5)))
        t = time.perf_counter()
        counts = history(c, keep=page_folder).counts()  # what the page's chart reads after a write
        page.append(time.perf_counter() - t)
        historystore.flush()  # the turn written to the page's cache folder (in the background)
        written.append(time.perf_counter() - t)
        assert int(counts[counts.turn == c.state.turn.index][["supplied", "unsupplied"]].to_numpy().sum()) > 0
        t = time.perf_counter()
        history_frame(c)  # the frame of every row, for an analyst (the page builds it only when read)
        whole.append(time.perf_counter() - t)
        print(f"  turn {i + 1}: trace {turn[-1] * 1e3:.1f} ms, page {page[-1] * 1e3:.1f} ms "
              f"({page[-1] / turn[-1]:.2f}x), written {written[-1] * 1e3:.1f} ms, whole frame {whole[-1] * 1e3:.1f} ms")
    mturn, mpage, mwritten, mwhole = (statistics.median(x) for x in (turn, page, written, whole))
    mproc, minc, mwarm = (statistics.median(x) for x in (turn_proc, inc, warm))
    print(f"one more turn, in one process (the page's tab open), medians of {PAGE_TURNS} turns: its trace alone "
          f"{mturn * 1e3:.1f} ms; the chart's history {mpage * 1e3:.1f} ms = {mpage / mturn:.2f}x; with the turn "
          f"written to the cache folder {mwritten * 1e3:.1f} ms = {mwritten / mturn:.2f}x; the whole frame "
          f"after it {mwhole * 1e3:.1f} ms = {mwhole / mturn:.2f}x")
    print(f"one more turn, whole processes: tracing that turn alone (open, graph, both sides) {mproc:.2f} s; "
          f"--history --csv after the turn {minc:.2f} s = {minc / mproc:.2f}x; then warm again {mwarm:.2f} s")


if __name__ == "__main__" and len(sys.argv) == 3:
    {"baseline": _baseline_main, "turn": _one_turn_main}[sys.argv[1]](sys.argv[2])
