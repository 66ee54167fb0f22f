"""Game maps: game specs (game.toml), gazetteers, calibration to the globe, derived hex data.

The names below are loaded on first use: listing the games or reading a game's spec needs no map
(nor pandas behind it)."""

from __future__ import annotations

from ..lazy import lazy_exports

_EXPORTS = {"GameMap": "gamemap", "HexInfo": "gamemap", "load_map": "gamemap",
            "GameSpec": "gamespec", "UnknownGame": "gamespec", "list_games": "gamespec", "load_game_spec": "gamespec"}
__all__ = ["GameMap", "GameSpec", "HexInfo", "UnknownGame", "list_games", "load_game_spec", "load_map"]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
