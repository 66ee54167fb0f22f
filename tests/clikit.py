"""The ``campaign`` command run inside the test process: ``assistant.cli.main(argv)`` with its
output captured, for tests that check what a command prints and does to a file. A subprocess costs
seconds of interpreter start and imports and proves nothing more there; the tests that are about
the process itself (the installed entry point, signals, pipes, environment, concurrent writers) keep
running it as a subprocess.

    r = run_cli("info", path, "--json", home=tmp_path / "home")
    assert r.returncode == 0, r.stderr

The result is a ``subprocess.CompletedProcess``, so a call site reads the same either way.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
from pathlib import Path
from typing import Iterator, Optional

HOME_VARIABLE = "CAMPAIGN_ASSISTANT_HOME"


@contextlib.contextmanager
def _environment(changes: dict[str, Optional[str]]) -> Iterator[None]:
    """``os.environ`` with ``changes`` (None removes a name) for the block, as it was after it."""
    before = {k: os.environ.get(k) for k in changes}
    try:
        for k, v in changes.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        yield
    finally:
        for k, v in before.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextlib.contextmanager
def _same_directory() -> Iterator[None]:
    """The working directory as it was, whatever the command did."""
    cwd = os.getcwd()
    try:
        yield
    finally:
        os.chdir(cwd)


@contextlib.contextmanager
def _same_signal_handlers() -> Iterator[None]:
    """The signal handlers as they were: ``campaign serve`` sets its own for SIGINT, SIGTERM and
    SIGHUP before it checks its arguments, and those belong to its process, not to the test run."""
    names = [getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n)]
    before = {s: signal.getsignal(s) for s in names}
    try:
        yield
    finally:
        for s, handler in before.items():
            if handler is not None:
                signal.signal(s, handler)


def run_cli(*args, home: Optional[Path] = None, env: Optional[dict[str, Optional[str]]] = None,
            stdin: str = "") -> subprocess.CompletedProcess:
    """``campaign ARGS`` in this process: exit status, stdout and stderr as a subprocess gives them.
    ``home`` sets CAMPAIGN_ASSISTANT_HOME for the call; ``env`` sets (or, with None, removes) other
    variables for it. The environment, working directory, standard input and signal handlers are
    as they were afterwards."""
    from assistant.cli import main

    argv = [str(a) for a in args]
    changes = dict(env or {})
    if home is not None:
        changes[HOME_VARIABLE] = str(home)
    out, err = io.StringIO(), io.StringIO()
    with _environment(changes), _same_directory(), _same_signal_handlers(), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err), _stdin(stdin):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse's --help and --version end this way
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            if e.code is not None and not isinstance(e.code, int):
                print(e.code, file=err)
    return subprocess.CompletedProcess(["campaign", *argv], code, out.getvalue(), err.getvalue())


@contextlib.contextmanager
def _stdin(text: str) -> Iterator[None]:
    import sys

    before = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        yield
    finally:
        sys.stdin = before


def run(capsys, *argv) -> tuple[int, str, str]:
    """``campaign ARGV`` in this process with pytest's ``capsys``: (exit status, stdout, stderr)."""
    from assistant.cli import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return (0 if code is None else code), out, err


def event_rows(path) -> list:
    """Every event of the campaign at ``path`` as (seq, type, body JSON): what a refusal must leave."""
    from assistant.campaign import Campaign

    with Campaign.open(path, readonly=True) as c:
        return [(r.seq, r.type, r.body.model_dump_json()) for r in c.events()]
