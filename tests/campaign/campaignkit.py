"""Helpers shared by the campaign-state tests (imported by name: ``conftest`` is not a unique
module name once several test folders have one)."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PY = sys.executable


def file_fingerprint(path: Path) -> tuple:
    """Bytes hash, size and mtime: equal before/after means the file was not touched."""
    st = path.stat()
    return hashlib.sha256(path.read_bytes()).hexdigest(), st.st_size, st.st_mtime_ns


def subprocess_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env


# Linux capability numbers (linux/capability.h) and prctl(PR_CAPBSET_DROP).
CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER = 0, 1, 2, 3
PR_CAPBSET_DROP = 24


def _drop_file_privileges() -> None:  # pragma: no cover - runs in the child before exec
    """In a child of root: drop the capabilities that let root ignore file modes and ownership (SQLite, as root,
    even chowns the sidecars it opens), so
    the exec'd program meets permissions as an ordinary owner would (root owns the test files)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), f"prctl(PR_CAPBSET_DROP, {cap}) failed")


def run_as_player(args: list, **kw):
    """``subprocess.run(args)`` as a player who meets file permissions: unchanged for a normal user;
    as root (the CI), with the permission-overriding capabilities dropped (it fails, never skips,
    if they cannot be dropped)."""
    import subprocess

    kw.setdefault("env", subprocess_env())
    kw.setdefault("cwd", REPO)
    if os.geteuid() == 0:
        kw["preexec_fn"] = _drop_file_privileges
    return subprocess.run(args, **kw)


def saved_before_values_were_checked(c, dest: Path, unit_id: str, **attrs):
    """A campaign as an earlier version saved it: ``c``'s events with unit ``unit_id`` placed with
    ``attrs`` (values placement now refuses), exported and imported into ``dest`` -- what is saved
    imports whole, never re-checked. Returns the opened campaign at ``dest``."""
    import json

    from assistant.campaign import Campaign

    (src,) = c.export(dest.parent / f"{dest.stem}-export", "json")
    doc = json.loads(src.read_text(encoding="utf-8"))
    placed = [e for e in doc["events"] if e["type"] == "unit_placed" and e["payload"]["unit"]["id"] == unit_id]
    assert placed, f"no placement of {unit_id} in the export"
    placed[0]["payload"]["unit"]["attrs"].update(attrs)
    units = doc["state"]["units"]
    for u in (units.values() if isinstance(units, dict) else units):
        if u["id"] == unit_id:
            u["attrs"].update(attrs)
    src.write_text(json.dumps(doc), encoding="utf-8")
    return Campaign.import_json(src, dest)
