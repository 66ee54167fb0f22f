"""apto turns named as the rulebook names them, for rules that change on a named turn: "Japanese units
in Indochina may draw supply from Saigon (W 2713) as of the Summer Seasonal Turn of 1941" [7.0].

``World.turn`` is the Game-Turn number the campaign layer gives the rules (its calendar index + 1,
``assistant/campaign/world.py``); the index counts from the calendar's origin, which the setting
``campaign_start`` picks (``[calendar]`` of data/games/apto/game.toml and its variants). A rule reads
the calendar from the game data (``assistant/maps``), never from the campaign layer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping, Optional

from ...maps.gamespec import load_game_spec

GAME = "apto"


@dataclass(frozen=True)
class NamedTurn:
    """A turn as the text names it: a slot kind ("seasonal") or a month, of a period and a year."""

    period: str
    year: int
    slot: str = "seasonal"  # a slot kind of the calendar, or a month name ("July")
    text: str = ""          # the text's words ("the Summer Seasonal Turn of 1941")


@lru_cache(maxsize=None)
def _calendar():
    cal = load_game_spec(GAME).calendar
    if cal is None:
        raise ValueError(f"{GAME} game.toml has no [calendar]")
    return cal


def _origin(settings: Mapping[str, Any]):
    cal = _calendar()
    origin, slots = cal.origin, list(cal.slots)
    if cal.variant_setting:
        v = cal.variants.get(str(settings.get(cal.variant_setting, "")))
        if v is not None:
            origin = v.origin or origin
            if v.slot_order is not None:
                slots = [cal.slots[i] for i in v.slot_order]
    if origin is None:
        raise ValueError(f"{GAME} calendar has no origin under settings {dict(settings)!r}")
    return origin, slots


def number_of(turn: NamedTurn, settings: Mapping[str, Any]) -> int:
    """The Game-Turn number (``World.turn``) of ``turn`` in a campaign under ``settings``."""
    cal = _calendar()
    origin, slots = _origin(settings)
    periods = [p.name for p in cal.periods]
    per = len(slots)
    want = turn.slot.lower()
    slot = next((i for i, s in enumerate(slots) if s.kind == want), None)
    if slot is None:
        p = cal.periods[periods.index(turn.period)]
        months = [m.lower() for m in p.months]
        slot = next(i for i, s in enumerate(slots) if s.month and months[s.month - 1] == want)
    year_len = per * len(periods)
    at = turn.year * year_len + periods.index(turn.period) * per + slot
    start = origin.year * year_len + periods.index(origin.period) * per + origin.slot
    return at - start + 1


def reached(turn: NamedTurn, world_turn: Optional[int], settings: Mapping[str, Any]) -> Optional[bool]:
    """Is the world's turn ``turn`` or later? None when the world carries no turn."""
    if world_turn is None:
        return None
    return int(world_turn) >= number_of(turn, settings)


def label_of(world_turn: int, settings: Mapping[str, Any]) -> str:
    """The calendar's label of Game-Turn ``world_turn`` ("July 1937", "Summer Seasonal Turn 1941")."""
    cal = _calendar()
    origin, slots = _origin(settings)
    periods = [p.name for p in cal.periods]
    per = len(slots)
    a = periods.index(origin.period) * per + origin.slot + int(world_turn) - 1
    year, r = divmod(a, per * len(periods))
    period, slot = cal.periods[r // per], slots[r % per]
    month = period.months[slot.month - 1] if slot.month and slot.month <= len(period.months) else ""
    return slot.label.format(year=origin.year + year, yy=f"{(origin.year + year) % 100:02d}", period=period.name,
                             period_no=r // per + 1, month=month, turn_no=world_turn)
