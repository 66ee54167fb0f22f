"""Which map a campaign is played on: a version for a game's derived map.

The version is a sha256 over the placed grid geometry (``GridSpec`` JSON: model, section extents
and offsets, wrap, links) and the map data files that ``campaign map derive`` and the game data
write: ``derived/calibration.json``, ``derived/hexes.csv.gz``, ``derived/hexsides.csv.gz`` (hashed decompressed, so that the gzip
header's time stamp does not count) and ``hexsides.csv``, ``derived/countries.csv.gz`` and
``territories.csv`` (whose territory each hex is) and ``board.csv`` (the hexes the rulebook
text names with a role the rules read) when present. Equal versions mean the
same map; a campaign pins the version and the geometry it was created on.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from ..paths import game_dir
from .gamemap import DERIVED, load_calibration, placed_spec
from .gamespec import load_game_spec

VERSION_FILES = (f"{DERIVED}/calibration.json", f"{DERIVED}/hexes.csv.gz", f"{DERIVED}/hexsides.csv.gz", "hexsides.csv",
                 f"{DERIVED}/countries.csv.gz", "territories.csv",
                 "board.csv")


@dataclass(frozen=True)
class MapVersion:
    """A game's map as it is installed now: grid model, version string and placed geometry."""

    game: str
    model: str
    version: str  # "sha256:<64 hex digits>"
    grid: dict[str, Any]  # GridSpec.model_dump(mode="json")
    files: tuple[str, ...]  # the map files that went into the version (relative to the game dir)

    @property
    def short(self) -> str:
        return self.version.split(":")[-1][:12]


def map_files(game: str) -> list[Path]:
    """The map data files of ``game`` that exist, in ``VERSION_FILES`` order."""
    root = game_dir(game)
    return [root / f for f in VERSION_FILES if (root / f).is_file()]


def _content(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def current_map_version(game: str, model: Optional[str] = None) -> MapVersion:
    """The version of ``game``'s map as installed now, for grid ``model`` (None: the calibrated one).
    The map files are read on every call (game.toml through ``load_game_spec``'s cache).
    Raises UnknownGame, or HexError for an unknown model."""
    spec = load_game_spec(game)
    calibration = load_calibration(game)
    grid = placed_spec(spec, calibration, model)
    name = model or (calibration.model if calibration else None) or _first_model(spec)
    grid_json = grid.model_dump(mode="json")
    h = hashlib.sha256()
    h.update(b"grid\0" + json.dumps(grid_json, sort_keys=True, separators=(",", ":")).encode() + b"\0")
    root = game_dir(game)
    files = map_files(game)
    for p in files:
        body = _content(p)
        rel = p.relative_to(root).as_posix()
        h.update(f"{rel}\0{len(body)}\0".encode() + body)
    return MapVersion(game=game, model=name, version="sha256:" + h.hexdigest(), grid=grid_json,
                      files=tuple(p.relative_to(root).as_posix() for p in files))


def _first_model(spec) -> str:
    from .calibration import model_specs

    return next(iter(model_specs(spec)))
