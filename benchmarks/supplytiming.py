"""Interleaved timing for the supply benchmarks: a baseline and the subject run alternately,
round after round, so the machine's load (2 shared cores) falls on both; medians of wall time
and of CPU time (``time.process_time``: what the process itself spent, less hurt by other
processes) and the ratio of each."""

from __future__ import annotations

import time
from dataclasses import dataclass
from statistics import median
from typing import Callable


@dataclass
class Timing:
    base_wall: float
    wall: float
    base_cpu: float
    cpu: float

    @property
    def ratio(self) -> float:
        return self.wall / self.base_wall

    @property
    def cpu_ratio(self) -> float:
        return self.cpu / self.base_cpu

    def line(self, what: str, base: str) -> str:
        return (f"{what}: {self.wall * 1e3:.2f} ms = {self.ratio:.1f}x {base} ({self.base_wall * 1e3:.2f} ms); "
                f"CPU {self.cpu * 1e3:.2f} / {self.base_cpu * 1e3:.2f} ms = {self.cpu_ratio:.1f}x")


def interleaved(base: Callable[[], object], subject: Callable[[], object], rounds: int = 15,
                warmup: int = 2) -> Timing:
    for _ in range(warmup):
        base()
        subject()
    wb, ws, cb, cs = [], [], [], []
    for _ in range(rounds):
        for f, w, c in ((base, wb, cb), (subject, ws, cs)):
            t0, c0 = time.perf_counter(), time.process_time()
            f()
            w.append(time.perf_counter() - t0)
            c.append(time.process_time() - c0)
    return Timing(median(wb), median(ws), median(cb), median(cs))
