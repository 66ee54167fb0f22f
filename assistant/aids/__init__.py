"""The aids (design.md section 1): one folder per aid, found by discovery, never listed by hand.

Importing this package imports every ``assistant/aids/<aid>/events.py``, which registers the aid's
event types and its state slice with the campaign layer (``assistant.campaign.slices``). The CLI
finds each aid's ``cli.py`` (``register(subparsers)``) the same way; see ``aid_modules``.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil

AID_PARTS = ("events", "tables")  # imported for every aid at package import: registrations, no UI


def aid_names() -> list[str]:
    """The aids in this package (each a subpackage), sorted."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg and not m.name.startswith("_"))


def aid_modules(part: str) -> list[str]:
    """Module names ``assistant.aids.<aid>.<part>`` that exist (e.g. part="cli"), sorted by aid."""
    out = []
    for name in aid_names():
        full = f"{__name__}.{name}.{part}"
        if importlib.util.find_spec(full) is not None:
            out.append(full)
    return out


for _module in [m for part in AID_PARTS for m in aid_modules(part)]:
    importlib.import_module(_module)
