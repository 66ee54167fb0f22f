"""Helpers for the dashboard tests: run `campaign serve` and the `campaign` CLI as a user would."""

from __future__ import annotations

import os


# ----- a running `campaign serve` ------------------------------------------------------------
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Served:
    url: str
    base: str
    file: Path
    home: Path
    proc: subprocess.Popen
    output: list

    def stop(self, timeout: float = 30) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # what Ctrl-C sends
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.output.append(self.proc.stdout.read() or "")
        return self.proc.returncode


def campaign_cli(*args: str, home: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    env = dict(os.environ, CAMPAIGN_ASSISTANT_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], env=env, capture_output=True,
                          text=True, timeout=timeout)


def start_serve(home: Path, *args: str, timeout: float = 120) -> Served:
    """``campaign serve ARGS --no-browser --port <free>``, returned once it prints its URL."""
    from assistant.ui.server import free_port

    env = dict(os.environ, CAMPAIGN_ASSISTANT_HOME=str(home), PYTHONUNBUFFERED="1")
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "assistant.cli", "serve", *args, "--no-browser",
                             "--port", str(port)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    file = None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            if proc.poll() is not None:
                raise RuntimeError(f"campaign serve exited {proc.returncode}: {''.join(lines)}")
            continue
        lines.append(line)
        if line.startswith("campaign: "):
            file = Path(line[len("campaign: "):].split("  (demo)")[0].strip())
        if line.startswith("open: "):
            url = line[len("open: "):].strip()
            return Served(url=url, base=f"http://127.0.0.1:{port}", file=file, home=home, proc=proc,
                          output=lines)
    proc.kill()
    raise RuntimeError(f"campaign serve printed no URL in {timeout} s: {''.join(lines)}")


def kernels_of(home: Path) -> list[int]:
    """PIDs of live processes started with this CAMPAIGN_ASSISTANT_HOME (Voila and its kernels)."""
    needle = f"CAMPAIGN_ASSISTANT_HOME={home}".encode()
    out = []
    for p in Path("/proc").iterdir():
        if not p.name.isdigit():
            continue
        try:
            env = (p / "environ").read_bytes()
        except OSError:
            continue
        if needle in env.split(b"\0"):
            out.append(int(p.name))
    return out
