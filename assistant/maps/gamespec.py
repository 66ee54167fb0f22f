"""A game as data: ``data/games/<game>/game.toml`` loaded into typed models."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from typing import Any, Optional

from pydantic import BaseModel, ConfigDict

from ..paths import data_dir, game_dir


class UnknownGame(ValueError):
    """The named game is not one this package knows."""


class Fixture(BaseModel):
    """A distance or adjacency the rulebook states; the geometry must reproduce it."""

    model_config = ConfigDict(extra="forbid")
    a: str
    b: str
    distance: Optional[int] = None
    max_distance: Optional[int] = None
    rule: str
    seam: bool = False
    presumed: bool = False  # the text implies rather than states it; yields to stated ones


class Setting(BaseModel):
    """A named reading of an ambiguous rule, with its documented default."""

    model_config = ConfigDict(extra="allow")
    default: Any
    choices: Optional[list[Any]] = None
    rule: str = ""
    doc: str = ""


class GameSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    title: str
    rulebook: str
    grid: dict[str, Any]
    fixtures: list[Fixture]
    settings: dict[str, Setting]
    raw: dict[str, Any]  # the whole file, for sections other layers own (calendar, sides)


def list_games() -> list[str]:
    root = data_dir() / "games"
    return sorted(p.name for p in root.iterdir() if (p / "game.toml").is_file())


@lru_cache(maxsize=None)
def load_game_spec(game: str) -> GameSpec:
    if game not in list_games():
        raise UnknownGame(f"unknown game {game!r} (known: {', '.join(list_games())})")
    raw = tomllib.loads((game_dir(game) / "game.toml").read_text(encoding="utf-8"))
    grid = dict(raw["grid"])
    fixtures = [Fixture(**f) for f in grid.pop("fixtures", [])]
    return GameSpec(
        id=raw["game"]["id"],
        title=raw["game"]["title"],
        rulebook=raw["game"]["rulebook"],
        grid=grid,
        fixtures=fixtures,
        settings={k: Setting(**v) for k, v in raw.get("settings", {}).items()},
        raw=raw,
    )
