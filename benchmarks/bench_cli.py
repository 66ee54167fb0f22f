"""The ``campaign`` command's start-up, as a player feels it: whole processes, timed against the
baseline of the same run, ``python -c "import pandas"`` (the cost of one library the aids need).

Run: ``python -m pytest benchmarks/bench_cli.py -p no:cacheprovider -s`` (pytest-benchmark records
the figures in ``extra_info``), or ``python benchmarks/bench_cli.py`` for the table. Medians of
``BENCH_CLI_ROUNDS`` (default 15) rounds, the commands interleaved so the machine's load falls on all.

The package's bytecode is written first (``compileall``), as installing it does. The demo
campaign (``campaign demo``) is made once in a home of the run's own
(``CAMPAIGN_ASSISTANT_HOME``): ``campaign info DEMO`` (open the file, read its state) as a
reference, a one-unit ``campaign trace`` on it, and the same trace with the map's topology cache
emptied before each run (what the first trace after installing or updating the game data costs).
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = int(os.environ.get("BENCH_CLI_ROUNDS", "15"))
PY = sys.executable
UNIT = "37th-infantry-division"
TRACE = "campaign trace DEMO --unit " + UNIT
COLD = TRACE + " (topology cache emptied first)"
COMMANDS = {
    "baseline: python -c 'import pandas'": [PY, "-c", "import pandas"],
    "campaign --help": [PY, "-m", "assistant.cli", "--help"],
    "campaign games": [PY, "-m", "assistant.cli", "games"],
    "campaign info DEMO": [PY, "-m", "assistant.cli", "info", "DEMO"],
    TRACE: [PY, "-m", "assistant.cli", "trace", "DEMO", "--unit", UNIT],
    COLD: [PY, "-m", "assistant.cli", "trace", "DEMO", "--unit", UNIT],
}


def _once(argv: list[str], env: dict) -> tuple[float, float]:
    """Wall clock and the process's CPU time (user + system): on a shared machine the load
    stretches the wall clock of a short process far more than its CPU time."""
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t0
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)


def measure(rounds: int = ROUNDS) -> dict:
    home = Path(tempfile.mkdtemp(prefix="bench-cli-"))
    env = {**os.environ, "CAMPAIGN_ASSISTANT_HOME": str(home)}
    # The package's bytecode, as installing it writes it (pip compiles a wheel's modules on install, an
    # editable install on first import): without it (PYTHONDONTWRITEBYTECODE set, a fresh checkout)
    # every run compiles every module of the package it imports, which no player's command does.
    subprocess.run([PY, "-m", "compileall", "-q", str(ROOT / "assistant")], cwd=ROOT, env=env,
                   stdout=subprocess.DEVNULL, check=True)
    try:
        demo = subprocess.run([PY, "-m", "assistant.cli", "demo"], cwd=ROOT, env=env, capture_output=True,
                              text=True, check=True).stdout.strip()
        argvs = {k: [demo if a == "DEMO" else a for a in v] for k, v in COMMANDS.items()}
        _once(argvs[TRACE], env)  # the topology cache written once, as by a player's first trace
        times: dict[str, list[float]] = {k: [] for k in COMMANDS}
        cpu: dict[str, list[float]] = {k: [] for k in COMMANDS}
        for _ in range(rounds):
            for name, argv in argvs.items():
                if name == COLD:
                    shutil.rmtree(home / "cache" / "topology", ignore_errors=True)
                wall, used = _once(argv, env)
                times[name].append(wall)
                cpu[name].append(used)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    med = {k: statistics.median(v) for k, v in times.items()}
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    base, base_cpu = med[next(iter(COMMANDS))], med_cpu[next(iter(COMMANDS))]
    return {"rounds": rounds, **{f"{k} s": round(v, 3) for k, v in med.items()},
            **{f"{k} ratio": round(v / base, 3) for k, v in med.items()},
            **{f"{k} cpu s": round(v, 3) for k, v in med_cpu.items()},
            **{f"{k} cpu ratio": round(v / base_cpu, 3) for k, v in med_cpu.items()}}


def table(r: dict) -> str:
    lines = ["| command (whole process) | median | ratio to `import pandas` | CPU median | CPU ratio |",
             "|---|---|---|---|---|"]
    for name in COMMANDS:
        lines.append(f"| {name} | {r[name + ' s']} s | {r[name + ' ratio']} | {r[name + ' cpu s']} s "
                     f"| {r[name + ' cpu ratio']} |")
    return "\n".join(lines)


def test_cli_start_up(benchmark):
    result = benchmark.pedantic(measure, rounds=1, iterations=1)
    benchmark.extra_info.update(result)
    print("\n" + table(result))


if __name__ == "__main__":
    print(table(measure()))
