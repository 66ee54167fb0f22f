"""What the campaign reads from a game's data: sides and nations, settings, the calendar."""

from __future__ import annotations

from typing import Any, Mapping, Optional

from ..maps import GameSpec, UnknownGame, load_game_spec
from .calendar import Calendar, build_calendar, without_dates
from .errors import CampaignError
from .model import Nation, Side


def _spec(game: str) -> GameSpec:
    try:
        return load_game_spec(game)
    except UnknownGame as e:
        raise CampaignError(str(e)) from None


def load_sides(game: str) -> tuple[Side, ...]:
    """The game's ``[[sides]]`` with their ``[[sides.nations]]``, as the rules name them."""
    out = []
    for s in _spec(game).sides:
        nations = tuple(Nation(id=n.id, name=n.name, rule=n.rule, note=n.note) for n in s.nations)
        out.append(Side(id=s.id, name=s.name, nations=nations, rule=s.rule, note=s.note))
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
    raw = _spec(game).raw.get("calendar")
    if not raw:
        raise CampaignError(f"game {game!r} has no [calendar] table in its game.toml")
    return build_calendar(raw, settings)


def recorded_calendar(game: str, settings: Mapping[str, Any], recorded: Mapping[str, Any]) -> Calendar:
    """The calendar a campaign recorded at its creation. One recorded before calendars dated their
    turns gets the game's dates (``Calendar.first_day``: analysts' tables only, no rule reads them)
    when it is otherwise the game's calendar for its settings."""
    cal = Calendar.model_validate(recorded)
    if "date_rule" in recorded:
        return cal
    try:
        now = load_calendar(game, settings)
    except CampaignError:
        return cal
    same = without_dates(now.model_dump(mode="json")) == without_dates(cal.model_dump(mode="json"))
    return now if same else cal
