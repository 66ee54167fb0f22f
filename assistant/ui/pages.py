"""Which dashboards there are: every notebook in ``notebooks/`` and every notebook an aid ships in
its own package (``assistant/aids/<aid>/*.ipynb``), found by looking, not listed by hand.

``campaign serve`` copies the dashboards it finds into one folder and serves that folder, so the
site's home page (``assistant.ui.site``) links exactly them and nothing else. No aid module is imported
here: an aid's notebooks are found from its package folder.

What the home page says of a page is the notebook's own (its ``metadata``), so an aid's notebook
declares its own:

* ``title``: the page's one name, in the players' words ("Supply tracer"); else the file's stem.
* ``description``: one line saying what question the page answers; else none.
* ``section``: ``"play"`` (a player aid used during the turn; the default), ``"setup"`` (setting the
  campaign up from the game box) or ``"analysis"`` (for analysts): listed in that order (``SECTIONS``).
* ``order``: a number placing it in its section (player aids in the order a turn uses them);
  pages without one follow, the campaign dashboard first, then by name.
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
PLAY, SETUP, ANALYSIS = "play", "setup", "analysis"
SECTIONS = (PLAY, SETUP, ANALYSIS)  # the home page's sections, in the order it lists them


class DashboardError(ValueError):
    """A dashboard notebook that cannot be served as found (one line naming it)."""


@dataclass(frozen=True)
class DashboardNotebook:
    name: str  # the file name it is served under, e.g. "campaign.ipynb"
    title: str  # the notebook's metadata title, else its name without ".ipynb"
    path: Path  # where it was found
    origin: str  # "notebooks", or the aid that ships it
    description: str = ""  # one line: the question the page answers ("" when the notebook gives none)
    section: str = PLAY  # one of SECTIONS
    order: Optional[float] = None  # its place in its section (None: after those with one)


@dataclass(frozen=True)
class PageMeta:
    """What a notebook's metadata says of its page (see the module doc)."""

    title: str
    description: str = ""
    section: str = PLAY
    order: Optional[float] = None


def _text(value) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def notebook_meta(path: Path) -> PageMeta:
    """The page's name, line, section and order from the notebook's metadata; an unreadable
    notebook, an unknown section or an order that is not a number is an error naming it."""
    try:
        nb = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise DashboardError(f"dashboard {path} is not a readable notebook: {e}") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise DashboardError(f"dashboard {path} is not a notebook (no cells)")
    meta = nb.get("metadata") if isinstance(nb.get("metadata"), dict) else {}
    section = _text(meta.get("section")).lower() or PLAY
    if section not in SECTIONS:
        raise DashboardError(f"dashboard {path}: metadata section {meta.get('section')!r} is none of "
                             f"{', '.join(SECTIONS)}")
    order = meta.get("order")
    if order is not None and (isinstance(order, bool) or not isinstance(order, (int, float))):
        raise DashboardError(f"dashboard {path}: metadata order {order!r} is not a number")
    return PageMeta(title=_text(meta.get("title")) or Path(path).stem, description=_text(meta.get("description")),
                    section=section, order=None if order is None else float(order))


def notebook_title(path: Path) -> str:
    """The notebook's ``metadata.title`` (else its file stem); an unreadable notebook is an error."""
    return notebook_meta(path).title


def _page(path: Path, origin: str, meta: Optional[PageMeta] = None) -> DashboardNotebook:
    m = meta or notebook_meta(path)
    return DashboardNotebook(path.name, m.title, path, origin, m.description, m.section, m.order)


def _listing_key(d: DashboardNotebook) -> tuple:
    """Section, then order (pages without one after); a stable sort keeps the rest as found."""
    return (SECTIONS.index(d.section), d.order is None, d.order or 0.0)


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
    """Every dashboard, in the home page's order: by section and order (``_listing_key``); pages
    that tie, ``notebooks/`` first (the campaign dashboard first, then by name), then each aid's,
    by aid and name. Two dashboards with one file name, or two with one title, are an error
    naming both."""
    if notebooks is None:
        from ..paths import notebooks_dir

        notebooks = notebooks_dir()
    core = sorted(_notebooks_in(Path(notebooks)), key=lambda p: (p.name != HOME, p.name))
    found = [_page(p, "notebooks") for p in core]
    for aid, folder in aid_folders(aids_package):
        found += [_page(p, aid) for p in _notebooks_in(folder)]
    seen: dict[str, DashboardNotebook] = {}
    titled: dict[str, DashboardNotebook] = {}
    for d in found:
        if d.name in seen:
            raise DashboardError(f"two dashboards are both named {d.name}: {seen[d.name].path} and {d.path}")
        seen[d.name] = d
        if d.title.casefold() in titled:
            other = titled[d.title.casefold()]
            raise DashboardError(f"two dashboards are both titled {d.title!r}: {other.path} and {d.path} "
                                 "(give one another metadata title)")
        titled[d.title.casefold()] = d
    return sorted(found, key=_listing_key)


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
    ``find_dashboards`` gave when they were staged), then any other by section and order, else the
    campaign's first, by name. A notebook whose metadata cannot be read is listed by its file name
    among the player aids (Voila says what is wrong with it when its page is opened)."""
    rank = {name: i for i, name in enumerate(order)}
    found = []
    for p in sorted(_notebooks_in(Path(site)), key=lambda p: (p.name != HOME, p.name)):
        try:
            meta = notebook_meta(p)
        except DashboardError:
            meta = PageMeta(title=p.stem)
        found.append(_page(p, "served", meta))
    return sorted(found, key=lambda d: (rank.get(d.name, len(rank)), *_listing_key(d)))
