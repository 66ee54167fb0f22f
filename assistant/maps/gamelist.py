"""The installed games, listed without loading their specs: each folder of ``data/games`` holding a
game.toml, and the title and map sections it declares, read with ``tomllib`` alone.

``campaign games`` answers from this (no pydantic, no numpy: a listing costs Python's start and the
three files' reading); every command that uses a game loads its spec, checked against its schema
(``maps.gamespec``), so a malformed game.toml is still refused where it would be used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import tomllib

from ..paths import data_dir

GAME_FILE = "game.toml"


def games_root() -> Path:
    """The folder holding one folder per game (``data/games``)."""
    return data_dir() / "games"


def list_games(root: Optional[Path] = None) -> list[str]:
    """Every game: each folder of ``root`` (default ``games_root()``) holding a game.toml, sorted."""
    root = games_root() if root is None else root
    return sorted(p.name for p in root.iterdir() if (p / GAME_FILE).is_file())


def game_summaries(root: Optional[Path] = None) -> list[dict[str, Any]]:
    """Each game's id, title and map sections as its game.toml declares them (``[game] title``,
    ``[[grid.sections]] id``)."""
    root = games_root() if root is None else root
    out = []
    for g in list_games(root):
        with open(root / g / GAME_FILE, "rb") as f:
            data = tomllib.load(f)
        out.append({"id": g, "title": str(data["game"]["title"]),
                    "sections": [str(s["id"]) for s in data["grid"]["sections"]]})
    return out
