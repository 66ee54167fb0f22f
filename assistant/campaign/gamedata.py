"""What the campaign reads from a game's data: sides and nations, settings, the calendar."""

from __future__ import annotations

from typing import Any, Mapping, Optional

from ..maps import UnknownGame, load_game_spec
from .calendar import Calendar, build_calendar
from .errors import CampaignError
from .model import Nation, Side


def game_raw(game: str) -> dict[str, Any]:
    try:
        return load_game_spec(game).raw
    except UnknownGame as e:
        raise CampaignError(str(e)) from None


def load_sides(game: str) -> tuple[Side, ...]:
    """The game's ``[[sides]]`` with their ``[[sides.nations]]``, as the rules name them."""
    out = []
    for s in game_raw(game).get("sides", []):
        nations = tuple(Nation(id=n["id"], name=n["name"], rule=n.get("rule", ""), note=n.get("note", ""))
                        for n in s.get("nations", []))
        out.append(Side(id=s["id"], name=s["name"], nations=nations, rule=s.get("rule", ""),
                        note=s.get("note", "")))
    if not out:
        raise CampaignError(f"game {game!r} lists no [[sides]] in its game.toml")
    return tuple(out)


def resolve_settings(game: str, chosen: Optional[Mapping[str, Any]] = None) -> dict[str, Any]:
    """Every setting of the game at its documented default, with ``chosen`` values applied."""
    spec = load_game_spec(game)
    values = {name: s.default for name, s in spec.settings.items()}
    for name, value in (chosen or {}).items():
        if name not in spec.settings:
            known = ", ".join(sorted(spec.settings)) or "none"
            raise CampaignError(f"unknown setting {name!r} for {game} (settings: {known})")
        s = spec.settings[name]
        if s.choices is not None and value not in s.choices:
            raise CampaignError(f"setting {name} = {value!r} is not one of {', '.join(map(str, s.choices))}")
        values[name] = value
    return values


def load_calendar(game: str, settings: Mapping[str, Any]) -> Calendar:
    raw = game_raw(game).get("calendar")
    if not raw:
        raise CampaignError(f"game {game!r} has no [calendar] table in its game.toml")
    return build_calendar(raw, settings)
