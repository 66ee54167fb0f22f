"""Aids stand alone: no aid imports another, no module outside the aids imports one, and with any
one aid's package unimportable every other aid loads and works.

What several aids read (hex control, the printed tables, the rules' world, dice notation) lives in
the campaign layer; what one aid hands another goes through ``assistant.campaign.handover``. The
first test reads every module's imports (``ast``, no import is run); the second starts one fresh
Python per aid with that aid blocked (``tests/aidblock``), all at once, and has each check the
others (``loadcheck.py``). ``pytest --block-aid NAME`` runs the other aids' own tests the same way.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import assistant

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "aidblock"))

import blockaid  # noqa: E402

PACKAGE = Path(assistant.__file__).resolve().parent
AIDS = PACKAGE / "aids"
REPO = PACKAGE.parent
LOADCHECK = Path(blockaid.__file__).with_name("loadcheck.py")


def aid_names() -> list[str]:
    """The aids as the folder holds them (blocked or not: no import)."""
    return sorted(p.name for p in AIDS.iterdir() if (p / "__init__.py").is_file() and not p.name.startswith("_"))


def imported_names(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` for every import in ``path``, relative ones made absolute; ``from M import
    n`` gives ``M.n`` too when ``M`` is a package that ``n`` may be a module of, and an
    ``import_module("...")`` call with a literal name counts as an import."""
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    package = parts[:-1]  # a module's package; ``__init__``'s is its own folder
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            out.append((node.lineno, module))
            out += [(node.lineno, f"{module}.{a.name}") for a in node.names if a.name != "*"]
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__")):
            out.append((node.lineno, node.args[0].value))
    return out


def aid_import_problems() -> list[str]:
    aids = set(aid_names())
    shared = {p.stem for p in AIDS.glob("*.py") if p.stem != "__init__"}  # modules beside the aids
    problems: dict[str, str] = {}  # one per import statement
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(REPO)
        parts = rel.parts
        own = parts[2] if parts[:2] == ("assistant", "aids") and len(parts) > 3 else None
        for line, name in imported_names(path):
            target = name.split(".")
            if target[:2] != ["assistant", "aids"] or len(target) < 3:
                continue
            where = f"{rel.as_posix()}:{line}"
            if ((target[2] in aids and target[2] != own) or target[2] in shared) and where not in problems:
                problems[where] = f"{where} imports {name}"
    return sorted(problems.values())


def test_no_aid_imports_another_and_no_module_outside_the_aids_imports_one():
    """An aid imports only its own package (and the layers below the aids); ``ui``, ``cli``,
    ``campaign``, ``rules``, ``maps`` and ``hexes`` import no aid: they find aids by discovery."""
    assert aid_import_problems() == []


def test_the_import_reader_sees_relative_absolute_and_literal_imports(tmp_path, monkeypatch):
    """The checker above would miss nothing it claims to see (a checker that sees nothing passes)."""
    fake = tmp_path / "assistant" / "aids" / "alpha"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "engine.py").write_text(
        "from ..beta.events import x\nfrom .. import beta\nimport assistant.aids.gamma.cli\n"
        "from . import widget\nimportlib.import_module('assistant.aids.delta.engine')\n")
    monkeypatch.setattr(sys.modules[__name__], "REPO", tmp_path)
    names = [n for _, n in imported_names(fake / "engine.py")]
    assert {"assistant.aids.beta.events", "assistant.aids.beta", "assistant.aids.gamma.cli",
            "assistant.aids.alpha.widget", "assistant.aids.delta.engine"} <= set(names)


def _check_without(aid: str) -> dict:
    env = blockaid.env_for([aid])
    env["PYTHONPATH"] = os.pathsep.join([str(LOADCHECK.parent), str(REPO), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, str(LOADCHECK)], capture_output=True, text=True, env=env, cwd=REPO,
                          timeout=300)
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return {"problems": [f"exit {done.returncode}: {done.stdout[-500:]} {done.stderr[-1500:]}"]}


def test_with_any_one_aid_unimportable_every_other_aid_loads_and_works():
    """For each aid X (as the folder holds them), a fresh Python in which ``assistant.aids.X``
    cannot be imported imports every module of every other aid, builds the ``campaign`` parser with
    each of their commands and no warning, and runs one command of each on a new campaign."""
    names = aid_names()
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        results = dict(zip(names, pool.map(_check_without, names)))
    assert {x: r["problems"] for x, r in results.items()} == {x: [] for x in names}
    for x, r in results.items():
        assert r["blocked"] == [x] and r["aids"] == [a for a in names if a != x]
