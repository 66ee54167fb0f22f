"""A game as data: ``data/games/<game>/game.toml`` loaded into typed models."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

from pydantic import BaseModel, ConfigDict

from ..paths import game_dir
from ..tomldata import DataFileError, Key, fail, read_toml, validate
from .gamefile import (
    CalendarTable,
    DeriveTable,
    Fixture,
    GameFile,
    GridTable,
    HexesTable,
    HexsidesTable,
    Setting,
    SideSpec,
)
from .gamelist import GAME_FILE, games_root, list_games

__all__ = ["DataFileError", "Fixture", "GameSpec", "Setting", "UnknownGame", "games_root", "list_games",
           "load_game_file", "load_game_spec"]

class UnknownGame(ValueError):
    """The named game is not one this package knows."""


class GameSpec(BaseModel):
    """One game's ``game.toml``, checked against its schema (``maps.gamefile``) as it loaded."""

    model_config = ConfigDict(extra="forbid")
    id: str
    title: str
    rulebook: str
    grid: GridTable
    fixtures: list[Fixture]  # the same as grid.fixtures
    settings: dict[str, Setting]
    calendar: Optional[CalendarTable] = None
    sides: list[SideSpec] = []
    hexsides: HexsidesTable = HexsidesTable()
    hexes: HexesTable = HexesTable()
    derive: DeriveTable = DeriveTable()
    raw: dict[str, Any]  # the whole file as read (it matched the schema above)


@lru_cache(maxsize=None)
def load_game_spec(game: str) -> GameSpec:
    """The installed game ``game``; UnknownGame names the known ones."""
    if game not in list_games():
        raise UnknownGame(f"unknown game {game!r} (known: {', '.join(list_games())})")
    return load_game_file(game_dir(game) / GAME_FILE)


def load_game_file(path: Path) -> GameSpec:
    """The game.toml at ``path``. A key its schema does not know, a missing or mistyped value, or a
    name that points nowhere (a calendar setting, a phase list) is a DataFileError naming the file,
    the key and its line."""
    path = Path(path)
    text, raw = read_toml(path)
    f = validate(GameFile, raw, path, text)
    _check(f, path, text)
    return GameSpec(id=f.game.id, title=f.game.title, rulebook=f.game.rulebook, grid=f.grid,
                    fixtures=f.grid.fixtures, settings=f.settings, calendar=f.calendar, sides=f.sides,
                    hexsides=f.hexsides, hexes=f.hexes, derive=f.derive, raw=raw)


def _check(f: GameFile, path: Path, text: str) -> None:
    """What one table says about another holds."""

    def bad(key: Key, problem: str) -> DataFileError:
        return fail(path, text, key, problem)

    if f.game.id != path.parent.name:
        raise bad(("game", "id"), f"{f.game.id!r} is not the name of its folder {path.parent.name!r}")
    ids = [s.id for s in f.grid.sections]
    for i, s in enumerate(f.grid.sections):
        if ids.count(s.id) > 1:
            raise bad(("grid", "sections", i, "id"), f"section {s.id!r} is declared twice")
        for j, other in enumerate((*s.overlays, *s.joins)):
            if other not in ids:
                raise bad(("grid", "sections", i, "overlays" if j < len(s.overlays) else "joins"),
                          f"no section {other!r}")
    for name in f.grid.precedence:
        if name not in ids:
            raise bad(("grid", "precedence"), f"no section {name!r}")
    _check_sides(f, bad)
    if f.calendar is not None:
        _check_calendar(f.calendar, f.settings, bad)


def _check_sides(f: GameFile, bad) -> None:
    seen_sides: set[str] = set()
    seen_nations: set[str] = set()
    for i, s in enumerate(f.sides):
        if s.id in seen_sides:
            raise bad(("sides", i, "id"), f"side {s.id!r} is declared twice")
        seen_sides.add(s.id)
        for j, n in enumerate(s.nations):
            if n.id in seen_nations:
                raise bad(("sides", i, "nations", j, "id"), f"nation {n.id!r} is declared twice")
            seen_nations.add(n.id)


def _check_calendar(cal: CalendarTable, settings: dict[str, Setting], bad) -> None:
    for key in ("variant_setting", "origin_setting"):
        name = getattr(cal, key)
        if name is not None and name not in settings:
            raise bad(("calendar", key), f"no setting {name!r} (settings: {', '.join(settings) or 'none'})")
    if cal.origin is None and cal.origin_setting is None:
        raise bad(("calendar",), "needs an origin (or an origin_setting)")
    periods = [p.name for p in cal.periods]
    origins = [(("calendar", "origin"), cal.origin)] + [
        (("calendar", "variants", k, "origin"), v.origin) for k, v in cal.variants.items()]
    for key, origin in origins:
        if origin is not None and origin.period not in periods:
            raise bad(key, f"period {origin.period!r} is not one of the calendar's ({', '.join(periods)})")
        if origin is not None and not 0 <= origin.slot < len(cal.slots):
            raise bad(key, f"slot {origin.slot} is not one of the calendar's 0..{len(cal.slots) - 1}")
    for i, slot in enumerate(cal.slots):
        if slot.phases not in cal.phases:
            raise bad(("calendar", "slots", i, "phases"),
                      f"no phase list {slot.phases!r} (lists: {', '.join(cal.phases) or 'none'})")
    choices = settings[cal.variant_setting].choices if cal.variant_setting else None
    for name, v in cal.variants.items():
        if cal.variant_setting is None:
            raise bad(("calendar", "variants", name), "variants need a variant_setting to pick one")
        if choices is not None and name not in choices:
            raise bad(("calendar", "variants", name),
                      f"{name!r} is not a choice of setting {cal.variant_setting!r}")
        if v.slot_order is not None and sorted(v.slot_order) != list(range(len(cal.slots))):
            raise bad(("calendar", "variants", name, "slot_order"),
                      f"must order every slot 0..{len(cal.slots) - 1} once")
