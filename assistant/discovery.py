"""Finding the modules that plug into the package (an aid's ``events``, ``tables``, ``cli``) by
looking, never by a list to edit: adding a plug-in edits no existing module."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from typing import Callable, Optional

Failed = Callable[[str, BaseException], None]


def part_modules(package: str, part: str, failed: Optional[Failed] = None) -> list[str]:
    """``<package>.<sub>.<part>`` for every subpackage ``sub`` of ``package`` that has a module
    ``part``, sorted by ``sub`` (names starting with "_" are private). No such package: none.

    A subpackage that fails to import is passed to ``failed(module, error)`` and left out, so one
    broken plug-in neither stops the others nor hides why; without ``failed`` the error propagates."""
    try:
        pkg = importlib.import_module(package)
    except ModuleNotFoundError as e:
        if e.name == package:
            return []
        raise
    found = []
    for m in sorted(pkgutil.iter_modules(getattr(pkg, "__path__", [])), key=lambda m: m.name):
        if not m.ispkg or m.name.startswith("_"):
            continue
        full = f"{package}.{m.name}.{part}"
        try:
            exists = importlib.util.find_spec(full) is not None  # imports the subpackage itself
        except Exception as e:  # noqa: BLE001 - handed to failed(), or raised
            if failed is None:
                raise
            failed(full, e)
            continue
        if exists:
            found.append(full)
    return found
