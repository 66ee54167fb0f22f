"""Make aids unimportable, to show that the others stand alone without them (tests only).

``AidBlocker(names)`` is a meta-path finder that refuses ``assistant.aids.<name>`` and every module
in it. ``install(names)`` puts one first on ``sys.meta_path`` and also hides those aids from the
listing of ``assistant/aids/`` that discovery reads (``pkgutil.iter_modules``), so the process
sees them as not installed at all: no aid is found, none reported as failing to load. The names also travel in ``$CAMPAIGN_TEST_BLOCK_AIDS`` (comma-separated): a
Python process started with this folder on ``PYTHONPATH`` runs ``sitecustomize.py`` here at
start-up, which blocks them too, so a ``campaign`` subprocess started by a test is blocked as well.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import pkgutil
import sys
from pathlib import Path
from typing import Iterable, NamedTuple

ENV = "CAMPAIGN_TEST_BLOCK_AIDS"
HERE = Path(__file__).resolve().parent
TAG = "left out of this test run"


class Refusal(NamedTuple):
    module: str
    importer: str  # the file whose import statement asked for it ("" if none is known)


class AidBlocker(importlib.abc.MetaPathFinder):
    """Refuses the modules of the aids named in ``names``, and remembers who asked (``refusals``):
    a test that imports a blocked aid itself is not the same finding as an aid that does."""

    def __init__(self, names: Iterable[str]):
        self.names = frozenset(names)
        self.refusals: list[Refusal] = []

    def aid_of(self, module: str) -> str | None:
        """The blocked aid ``module`` belongs to (``assistant.aids.<aid>[...]``), or None."""
        parts = module.split(".")
        if len(parts) >= 3 and parts[:2] == ["assistant", "aids"] and parts[2] in self.names:
            return parts[2]
        return None

    def find_spec(self, fullname, path=None, target=None):
        aid = self.aid_of(fullname)
        if aid is not None:
            self.refusals.append(Refusal(fullname, _importer()))
            raise ModuleNotFoundError(f"No module named {fullname!r} (the {aid} aid is {TAG})", name=fullname)
        return None


def _importer() -> str:
    """The file of the innermost frame outside the import machinery and this module."""
    f = sys._getframe(2)
    while f is not None:
        name = f.f_code.co_filename
        if not (name.startswith("<frozen importlib") or name == __file__ or f"{os.sep}importlib{os.sep}" in name):
            return name
        f = f.f_back
    return ""


class _Unlisted:
    """The path-entry finder of ``assistant/aids/`` with the blocked aids left out of its listing."""

    def __init__(self, real, names: frozenset[str]):
        self.real, self.names = real, names

    def find_spec(self, fullname, target=None):
        if fullname.rpartition(".")[2] in self.names:
            return None
        return self.real.find_spec(fullname, target)

    def invalidate_caches(self):
        self.real.invalidate_caches()

    def iter_modules(self, prefix=""):
        for name, ispkg in pkgutil.iter_importer_modules(self.real, prefix):
            if name[len(prefix):] not in self.names:
                yield name, ispkg


def install(names: Iterable[str]) -> AidBlocker:
    """Block ``names`` in this process from now on."""
    blocker = AidBlocker(names)
    sys.meta_path.insert(0, blocker)
    spec = importlib.util.find_spec("assistant.aids")  # imports ``assistant`` only, not the aids
    for folder in (spec.submodule_search_locations or []) if spec else []:
        real = pkgutil.get_importer(folder)
        if real is not None and not isinstance(real, _Unlisted):
            sys.path_importer_cache[folder] = _Unlisted(real, blocker.names)
    return blocker


def names_from_env() -> list[str]:
    return [n.strip() for n in os.environ.get(ENV, "").split(",") if n.strip()]


def env_for(names: Iterable[str], env: dict[str, str] | None = None) -> dict[str, str]:
    """``env`` (default: this process's) for a subprocess in which ``names`` are blocked."""
    out = dict(os.environ if env is None else env)
    out[ENV] = ",".join(names)
    out["PYTHONPATH"] = os.pathsep.join(p for p in (str(HERE), out.get("PYTHONPATH", "")) if p)
    return out


def install_from_env() -> AidBlocker | None:
    names = names_from_env()
    return install(names) if names else None
