"""A turn's moves at the speed of the table: 50 moves entered as one text of orders against the
same 50 moves entered one at a time, in the same run on the same campaign (witp, 50 units
placed, each moved once per round to a hex it is not in).

* in-process: ``give_orders`` (read, check every line by its command on the state the lines above
  leave, one transaction, one fold) against 50 ``Campaign.move_unit`` calls;
* the command in-process: ``campaign orders FILE ORDERS.txt`` (``assistant.cli.main``: open, record,
  close) against 50 ``campaign move FILE UNIT HEX``;
* end to end: one ``campaign orders`` process against 50 ``campaign move`` processes (each starts
  Python and imports the package: what a player typing them pays).

Run: python -m pytest benchmarks/bench_orders.py -p no:cacheprovider -s
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.campaign import Campaign
from assistant.campaign.orders import give_orders
from assistant.cli import main

N = 50
HEXES = ["E2418", "E2519", "E2619", "E1737", "E1028", "F3342", "G0626", "G1923", "B3327", "E3301", "D0326"]
REPO = Path(__file__).resolve().parents[1]
RESULTS: dict[str, float] = {}


def _stat(benchmark, name: str) -> float:
    stats = getattr(benchmark, "stats", None)
    return getattr(stats.stats, name) if stats is not None else float("nan")


def _campaign(path: Path) -> Path:
    with Campaign.create(path, game="witp") as c:
        give_orders(c, "\n".join(f"place 'Division {i}' division at {HEXES[i % len(HEXES)]} side allies"
                                 for i in range(N)))
    return path


class Rounds:
    """Each round's 50 moves: unit i goes to the hex after the one it is in."""

    def __init__(self):
        self.r = 0

    def next(self) -> list[tuple[str, str, str]]:
        self.r += 1
        return [(f"division-{i}", f"Division {i}", HEXES[(i + self.r) % len(HEXES)]) for i in range(N)]


def _text(moves) -> str:
    return "# the Allied moves\n" + "\n".join(f'move "{name}" {hex_}' for _, name, hex_ in moves) + "\n"


def _report(key: str, base: str, what: str, benchmark) -> None:
    mean = RESULTS[key] = _stat(benchmark, "mean")
    ratio = f" ({mean / RESULTS[base]:.3f}x the time of {N} single moves)" if base in RESULTS and base != key else ""
    print(f"\n{what}: {mean * 1000:,.1f} ms mean{ratio}")


# ----- in-process -------------------------------------------------------------------------------
def test_in_process_50_single_moves_baseline(benchmark, tmp_path):
    rounds = Rounds()
    with Campaign.open(_campaign(tmp_path / "m.campaign")) as c:
        def fifty(moves):
            for uid, _, hex_ in moves:
                c.move_unit(uid, hex_)

        benchmark.pedantic(fifty, setup=lambda: ((rounds.next(),), {}), rounds=10, warmup_rounds=1)
    _report("single", "single", f"{N} Campaign.move_unit calls", benchmark)


def test_in_process_50_moves_as_orders(benchmark, tmp_path):
    rounds = Rounds()
    with Campaign.open(_campaign(tmp_path / "o.campaign")) as c:
        given = benchmark.pedantic(lambda text: give_orders(c, text), setup=lambda: ((_text(rounds.next()),), {}),
                                   rounds=10, warmup_rounds=1)
        assert given.count == N and len(given.record.body.inner) == N
    _report("orders", "single", f"give_orders with {N} moves (one event)", benchmark)


# ----- the command, in-process -------------------------------------------------------------------
def _quiet_main(argv) -> int:
    out = sys.stdout
    sys.stdout = open(os.devnull, "w")
    try:
        return main(argv)
    finally:
        sys.stdout.close()
        sys.stdout = out


def test_cli_50_single_moves_baseline(benchmark, tmp_path):
    rounds, f = Rounds(), str(_campaign(tmp_path / "m.campaign"))

    def fifty(moves):
        for uid, _, hex_ in moves:
            assert _quiet_main(["move", f, uid, hex_]) == 0

    benchmark.pedantic(fifty, setup=lambda: ((rounds.next(),), {}), rounds=5, warmup_rounds=1)
    _report("cli-single", "cli-single", f"{N} 'campaign move' commands in-process", benchmark)


def test_cli_50_moves_from_an_orders_file(benchmark, tmp_path):
    rounds, f, orders = Rounds(), str(_campaign(tmp_path / "o.campaign")), tmp_path / "orders.txt"

    def setup():
        orders.write_text(_text(rounds.next()), encoding="utf-8")
        return (), {}

    benchmark.pedantic(lambda: _quiet_main(["orders", f, str(orders)]), setup=setup, rounds=5, warmup_rounds=1)
    _report("cli-orders", "cli-single", f"'campaign orders' of {N} moves in-process", benchmark)


# ----- end to end: processes ---------------------------------------------------------------------
def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _run(*argv) -> None:
    p = subprocess.run([sys.executable, "-m", "assistant.cli", *argv], cwd=REPO, env=_env(), capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr


def test_processes_50_single_moves_baseline(benchmark, tmp_path):
    rounds, f = Rounds(), str(_campaign(tmp_path / "m.campaign"))

    def fifty(moves):
        for uid, _, hex_ in moves:
            _run("move", f, uid, hex_)

    benchmark.pedantic(fifty, setup=lambda: ((rounds.next(),), {}), rounds=1, warmup_rounds=0)
    _report("proc-single", "proc-single", f"{N} 'campaign move' processes", benchmark)


@pytest.mark.parametrize("source", ["file", "stdin"])
def test_processes_50_moves_as_one_orders_command(benchmark, tmp_path, source):
    rounds, f, orders = Rounds(), str(_campaign(tmp_path / "o.campaign")), tmp_path / "orders.txt"

    def setup():
        orders.write_text(_text(rounds.next()), encoding="utf-8")
        return (), {}

    def run():
        if source == "file":
            _run("orders", f, str(orders))
        else:
            p = subprocess.run([sys.executable, "-m", "assistant.cli", "orders", f], input=orders.read_text(),
                               cwd=REPO, env=_env(), capture_output=True, text=True, timeout=300)
            assert p.returncode == 0, p.stderr

    benchmark.pedantic(run, setup=setup, rounds=5, warmup_rounds=1)
    _report(f"proc-orders-{source}", "proc-single", f"one 'campaign orders' process of {N} moves ({source})",
            benchmark)
