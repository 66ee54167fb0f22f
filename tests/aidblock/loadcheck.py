"""Run in a fresh Python whose aids named in ``$CAMPAIGN_TEST_BLOCK_AIDS`` are unimportable (this
folder on ``PYTHONPATH``, so ``sitecustomize`` blocks them before anything is imported): every
other aid loads and works. Prints one JSON object, ``{"blocked", "aids", "problems"}``; an empty
``problems`` list means all is well.

Each other aid: every module of its package imports; its ``cli.register`` is called by the
``campaign`` parser's discovery; and, where the table below names one, one of its commands runs
in this process on a new campaign (the campaign layer's ``control`` runs first, for everyone).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import json
import pkgutil
import sys
import tempfile
import traceback
from pathlib import Path

import blockaid

# One cheap command per aid, on a new witp campaign (Guadalcanal, August 1942). An aid not named
# here is still imported and its commands still registered.
SMOKE = {
    "dice": ["roll", "{file}", "2d6", "--values", "3", "4"],
    "ledger": ["ledger", "{file}", "--side", "allies"],
    "mapedit": ["map", "import", "{file}", "{csv}", "--dry-run"],
    "oob": ["oob", "list", "{file}"],
    "scan": ["scan", "list", "{file}"],
    "strike": ["strikes", "{file}"],
    "supply": ["trace", "{file}", "--unit", "1st-marine-division"],
    "tables": ["table", "list", "{file}"],
}
CORE = [["control", "{file}", "--hex", "E2418", "--side", "japan"], ["control", "{file}", "--at", "E2418"]]


def _one_line(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}".splitlines()[0]


def _run(main, argv: list[str]) -> str | None:
    """None if ``campaign argv`` exits 0 without a warning; else what went wrong."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except BaseException as e:  # noqa: BLE001 - reported
        return f"campaign {' '.join(argv[:2])}: raised {_one_line(e)}"
    if code not in (0, None) or err.getvalue().strip():
        return f"campaign {' '.join(argv[:2])}: exit {code}, stderr {err.getvalue().strip()[:300]!r}"
    return None


def check() -> dict:
    blocked = blockaid.names_from_env()
    problems: list[str] = []
    for name in blocked:
        try:
            importlib.import_module(f"assistant.aids.{name}")
            problems.append(f"assistant.aids.{name} imported although it is blocked")
        except ImportError:
            pass

    import assistant.aids as aids

    others = [a for a in aids.aid_names() if a not in blocked]
    problems += [f"{m} failed to load: {why}" for m, why in sorted(aids.LOAD_ERRORS.items())]
    for aid in others:
        pkg = importlib.import_module(f"assistant.aids.{aid}")
        for m in sorted(pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."), key=lambda m: m.name):
            try:
                importlib.import_module(m.name)
            except Exception as e:  # noqa: BLE001 - reported
                problems.append(f"{m.name} does not import: {_one_line(e)}")

    registered: set[str] = set()
    for aid in others:
        try:
            cli = importlib.import_module(f"assistant.aids.{aid}.cli")
        except ModuleNotFoundError as e:
            if e.name == f"assistant.aids.{aid}.cli":
                continue  # an aid without commands
            raise
        for hook in ("register", "extend"):  # its own commands, or sub-commands of a core group
            if hasattr(cli, hook):
                setattr(cli, hook, lambda *a, _real=getattr(cli, hook), _aid=aid: (_real(*a), registered.add(_aid)))
    from assistant.cli import build_parser, main

    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            build_parser()
    except Exception as e:  # noqa: BLE001 - reported
        problems.append(f"the campaign parser does not build: {_one_line(e)}")
    if err.getvalue().strip():
        problems.append(f"building the campaign parser warned: {err.getvalue().strip()[:300]}")
    with_cli = {a for a in others if importlib.util.find_spec(f"assistant.aids.{a}.cli") is not None}
    problems += [f"the {a} aid's commands were not registered" for a in sorted(with_cli - registered)]

    with tempfile.TemporaryDirectory() as tmp:
        file, csv = Path(tmp) / "smoke.campaign", Path(tmp) / "map.csv"
        csv.write_text("hex,attribute,value\nE2418,terrain,jungle\n")
        runs = [["new", "{file}", "--game", "witp", "--scenario", "guadalcanal-1942"], *CORE]
        runs += [SMOKE[a] for a in others if a in SMOKE]
        for argv in runs:
            problem = _run(main, [a.format(file=file, csv=csv) for a in argv])
            if problem:
                problems.append(problem)
    return {"blocked": blocked, "aids": others, "problems": problems}


if __name__ == "__main__":
    try:
        result = check()
    except Exception:  # noqa: BLE001 - the test shows it
        result = {"problems": [traceback.format_exc()]}
    sys.stdout.write(json.dumps(result) + "\n")
