"""Which dashboards there are: every notebook in ``notebooks/`` and every notebook an aid ships in
its own package (``assistant/aids/<aid>/*.ipynb``), found by looking, not listed by hand.

``campaign serve`` copies the dashboards it finds into one folder and serves that folder, so the
site's home page (``assistant.ui.site``) links exactly them and nothing else. No aid module is imported
here: an aid's notebooks are found from its package folder.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

HOME = "campaign.ipynb"  # the campaign dashboard: first in the list, the page `campaign serve` opens
BOARD_PAGE = "board.ipynb"  # Board set-up: the page every page's "board incomplete" note links to
AIDS_PACKAGE = "assistant.aids"
ENV_ORDER = "CAMPAIGN_DASHBOARDS"  # the served names in find_dashboards' order, os.pathsep-separated


class DashboardError(ValueError):
    """A dashboard notebook that cannot be served as found (one line naming it)."""


@dataclass(frozen=True)
class DashboardNotebook:
    name: str  # the file name it is served under, e.g. "campaign.ipynb"
    title: str  # the notebook's metadata title, else its name without ".ipynb"
    path: Path  # where it was found
    origin: str  # "notebooks", or the aid that ships it


def notebook_title(path: Path) -> str:
    """The notebook's ``metadata.title`` (else its file stem); an unreadable notebook is an error."""
    try:
        nb = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise DashboardError(f"dashboard {path} is not a readable notebook: {e}") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise DashboardError(f"dashboard {path} is not a notebook (no cells)")
    title = (nb.get("metadata") or {}).get("title")
    return title.strip() if isinstance(title, str) and title.strip() else Path(path).stem


def _notebooks_in(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.ipynb") if p.is_file() and not p.name.startswith("."))


def aid_folders(package: Optional[str] = None) -> list[tuple[str, Path]]:
    """(aid, package folder) for every aid package, alphabetically; none if there is no aids package."""
    package = package or AIDS_PACKAGE
    try:
        spec = importlib.util.find_spec(package)
    except ModuleNotFoundError:  # a parent package is missing
        return []
    if spec is None or not spec.submodule_search_locations:
        return []
    found = []
    for root in spec.submodule_search_locations:
        for d in sorted(Path(root).iterdir()):
            if d.is_dir() and (d / "__init__.py").is_file() and not d.name.startswith(("_", ".")):
                found.append((d.name, d))
    return sorted(found)


def find_dashboards(notebooks: Optional[Path] = None, aids_package: Optional[str] = None) -> list[DashboardNotebook]:
    """Every dashboard: ``notebooks/`` (the campaign dashboard first, then by name), then each
    aid's, by aid and name. Two dashboards with one file name are an error naming both."""
    if notebooks is None:
        from ..paths import notebooks_dir

        notebooks = notebooks_dir()
    core = sorted(_notebooks_in(Path(notebooks)), key=lambda p: (p.name != HOME, p.name))
    found = [DashboardNotebook(p.name, notebook_title(p), p, "notebooks") for p in core]
    for aid, folder in aid_folders(aids_package):
        found += [DashboardNotebook(p.name, notebook_title(p), p, aid) for p in _notebooks_in(folder)]
    seen: dict[str, DashboardNotebook] = {}
    for d in found:
        if d.name in seen:
            raise DashboardError(f"two dashboards are both named {d.name}: {seen[d.name].path} and {d.path}")
        seen[d.name] = d
    return found


def stage_dashboards(dashboards: list[DashboardNotebook], site: Path) -> Path:
    """Copy the dashboards into the empty folder ``site`` (the folder Voila serves)."""
    site = Path(site)
    site.mkdir(parents=True, exist_ok=True)
    if any(site.iterdir()):
        raise DashboardError(f"the folder to serve dashboards from, {site}, is not empty")
    for d in dashboards:
        shutil.copyfile(d.path, site / d.name)
    return site


def served_dashboards(site: Path, order: tuple[str, ...] = ()) -> list[DashboardNotebook]:
    """The dashboards in the folder Voila serves: the names in ``order`` first (the order
    ``find_dashboards`` gave when they were staged), then any other, the campaign's first, by name.
    A notebook whose title cannot be read is listed by its file name (Voila says what is wrong
    with it when its page is opened)."""
    rank = {name: i for i, name in enumerate(order)}
    found = []
    for p in sorted(_notebooks_in(Path(site)), key=lambda p: (rank.get(p.name, len(rank)), p.name != HOME, p.name)):
        try:
            title = notebook_title(p)
        except DashboardError:
            title = p.stem
        found.append(DashboardNotebook(p.name, title, p, "served"))
    return found
