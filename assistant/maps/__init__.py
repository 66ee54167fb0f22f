"""Game maps: game specs (game.toml), gazetteers, calibration to the globe, derived hex data."""

from .gamemap import GameMap, HexInfo, load_map
from .gamespec import GameSpec, UnknownGame, list_games, load_game_spec

__all__ = ["GameMap", "GameSpec", "HexInfo", "UnknownGame", "list_games", "load_game_spec", "load_map"]
