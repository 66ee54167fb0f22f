"""The ``campaign`` command's start-up, as a player feels it: whole processes, timed against the
baseline of the same run, ``python -c "import pandas"`` (the cost of one library the aids need).

Run: ``python -m pytest benchmarks/bench_cli.py -p no:cacheprovider -s`` (pytest-benchmark records
the figures in ``extra_info``), or ``python benchmarks/bench_cli.py`` for the table. Medians of
``BENCH_CLI_ROUNDS`` (default 15) rounds, the commands interleaved so the machine's load falls on all.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = int(os.environ.get("BENCH_CLI_ROUNDS", "15"))
PY = sys.executable
COMMANDS = {
    "baseline: python -c 'import pandas'": [PY, "-c", "import pandas"],
    "campaign --help": [PY, "-m", "assistant.cli", "--help"],
    "campaign games": [PY, "-m", "assistant.cli", "games"],
}


def _once(argv: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0


def measure(rounds: int = ROUNDS) -> dict:
    times: dict[str, list[float]] = {k: [] for k in COMMANDS}
    for _ in range(rounds):
        for name, argv in COMMANDS.items():
            times[name].append(_once(argv))
    med = {k: statistics.median(v) for k, v in times.items()}
    base = med[next(iter(COMMANDS))]
    return {"rounds": rounds, **{f"{k} s": round(v, 3) for k, v in med.items()},
            **{f"{k} ratio": round(v / base, 3) for k, v in med.items()}}


def table(r: dict) -> str:
    lines = ["| command (whole process) | median | ratio to `import pandas` |", "|---|---|---|"]
    for name in COMMANDS:
        lines.append(f"| {name} | {r[name + ' s']} s | {r[name + ' ratio']} |")
    return "\n".join(lines)


def test_cli_start_up(benchmark):
    result = benchmark.pedantic(measure, rounds=1, iterations=1)
    benchmark.extra_info.update(result)
    print("\n" + table(result))


if __name__ == "__main__":
    print(table(measure()))
