"""The aids: one folder per aid, found by discovery, never listed by hand, so that adding an aid
edits no existing module (docs/architecture.md shows how an aid is laid out).

Importing this package imports every ``assistant/aids/<aid>/events.py``, which registers the aid's
event types and its state slice with the campaign layer (``assistant.campaign.slices``). The CLI
finds each aid's ``cli.py`` (``register(subparsers)``) the same way; see ``aid_modules``.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil

from ..discovery import part_modules

# Imported for every aid at package import: registrations, no UI. An aid's ``commands`` (whose
# ``@rebuilds`` registrations rebuild an exported event as its command would) import the rules and
# what those need: they are loaded only when an export's events are checked (``load_part``).
AID_PARTS = ("events", "tables")


def aid_names() -> list[str]:
    """The aids in this package (each a subpackage), sorted."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg and not m.name.startswith("_"))


def aid_modules(part: str) -> list[str]:
    """Module names ``assistant.aids.<aid>.<part>`` that exist (e.g. part="cli"), sorted by aid.
    An aid whose package fails to import is left out (and named in ``LOAD_ERRORS``)."""
    return part_modules(__name__, part, failed=_failed)


# Aid modules that failed to import, with the reason: one broken aid neither stops the others nor
# hides why its events are unknown (``assistant.campaign.slices.load_problems`` reports these).
LOAD_ERRORS: dict[str, str] = {}


def _failed(module: str, e: BaseException) -> None:
    LOAD_ERRORS[module] = f"{type(e).__name__}: {e}".splitlines()[0]
    logging.getLogger(__name__).warning("aid module %s failed to load (%s)", module, LOAD_ERRORS[module])


def load_part(part: str) -> None:
    """Import ``part`` of every aid (e.g. "commands"); one that fails is named in ``LOAD_ERRORS``."""
    for module in aid_modules(part):
        try:
            importlib.import_module(module)
        except Exception as e:  # noqa: BLE001 - reported, not swallowed: see LOAD_ERRORS
            _failed(module, e)


for _part in AID_PARTS:
    load_part(_part)
