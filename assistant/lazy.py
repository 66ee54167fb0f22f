"""Package names loaded on first use (PEP 562), for packages whose users often need only a part:
the ``campaign`` command's help, the Voila server process and game listings import no pandas,
networkx or widgets this way.

    __getattr__, __dir__ = lazy_exports(__name__, {"GameMap": "gamemap", "list_games": "gamespec"})
"""

from __future__ import annotations

import importlib
import sys
from typing import Callable


def lazy_exports(package: str, exports: dict[str, str]) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """A module ``__getattr__`` and ``__dir__`` for ``package``: each name in ``exports`` comes from
    the submodule it maps to, imported on first use and then kept in the package."""

    def __getattr__(name: str) -> object:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(exports))

    return __getattr__, __dir__
