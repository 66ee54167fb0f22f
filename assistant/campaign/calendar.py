"""A game's turn calendar as data (``[calendar]`` in game.toml): turns, their labels and phases.

A calendar is a year of ``periods`` (witp cycles, apto/globalwar seasons), each holding the same
``slots`` (the turns inside a period: witp's Strategic G/T and four operational G/Ts, apto's
Seasonal Turn and three months, globalwar's single Game-Turn). A turn is addressed by its
``index``: 0 is the calendar's origin (the campaign game's first turn), 1 the turn after it.
Each slot names its phase list (the game's sequence of play). Ambiguous readings are named
settings: ``variant_setting`` picks a ``[calendar.variants.<value>]`` override and
``origin_setting`` reads the origin from a "<period> <year>" value.
"""

from __future__ import annotations

import datetime
import numbers
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional

from pydantic import BaseModel, ConfigDict, ValidationError

from ..maps.gamefile import Origin, Period, Phase, Slot
from .errors import CampaignError

__all__ = ["Calendar", "Origin", "Period", "Phase", "Slot", "TurnInfo", "build_calendar", "next_turn_where",
           "steps_to"]


class Calendar(BaseModel):
    """One game's calendar with its ambiguous readings already chosen. Immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    rule: str = ""
    period_noun: str = "period"
    periods: tuple[Period, ...]
    slots: tuple[Slot, ...]
    phases: dict[str, tuple[Phase, ...]]
    origin: Origin
    origin_rule: str = ""
    last_turn: Optional[int] = None  # 1-based number of the last turn, if the rules fix one
    last_rule: str = ""
    period_days: Optional[int] = None
    date_rule: str = ""
    reading: dict[str, str] = {}  # setting name -> value used to build this calendar

    # ----- positions ------------------------------------------------------------------------
    def _abs(self, index: int) -> tuple[int, int, int]:
        per = len(self.slots)
        names = [p.name for p in self.periods]
        a = names.index(self.origin.period) * per + self.origin.slot + index
        year_len = per * len(self.periods)
        year, r = divmod(a, year_len)
        return self.origin.year + year, r // per, r % per

    def phases_of(self, index: int) -> tuple[Phase, ...]:
        return self.phases.get(self.slots[self._abs(index)[2]].phases, ())

    def turn(self, index: int, phase: int = 0) -> "TurnInfo":
        year, p, s = self._abs(index)
        period, slot = self.periods[p], self.slots[s]
        month = period.months[slot.month - 1] if slot.month and slot.month <= len(period.months) else ""
        label = slot.label.format(year=year, yy=f"{year % 100:02d}", period=period.name,
                                  period_no=p + 1, month=month, turn_no=index + 1)
        phases = self.phases.get(slot.phases, ())
        return TurnInfo(
            index=index, number=index + 1, label=label, kind=slot.kind, year=year,
            period=period.name, phase=phases[phase] if phases else None,
            phase_index=phase if phases else 0, phase_count=len(phases), rule=slot.rule,
        )

    def first_day(self, index: int) -> Optional[datetime.date]:
        """The first day of turn ``index`` on the real calendar (``date_rule`` says on what
        grounds): the slot's month of its period, else the period's first month or ``starts``, else
        ``period_days`` from 1 January plus the slot's ``day``. None when the game's data gives no date."""
        year, p, s = self._abs(int(index))
        period, slot = self.periods[p], self.slots[s]
        year += period.year_offset
        if period.months:
            name = period.months[(slot.month or 1) - 1] if (slot.month or 1) <= len(period.months) else ""
            month = _MONTHS.get(name.lower())
            return datetime.date(year, month, 1) if month else None
        if period.starts:
            m, d = (int(x) for x in period.starts.split("-"))
            return datetime.date(year, m, d) + datetime.timedelta(days=slot.day)
        if self.period_days:
            return datetime.date(year, 1, 1) + datetime.timedelta(days=p * self.period_days + slot.day)
        return None

    def is_last(self, index: int) -> bool:
        return self.last_turn is not None and index + 1 >= self.last_turn

    def step(self, index: int, phase: int, to: str) -> tuple[int, int]:
        """The position after ``advance(to)`` from (index, phase). ``to`` is "turn" or "phase"."""
        if to not in ("turn", "phase"):
            raise CampaignError(f"cannot advance to {to!r}: to must be 'turn' or 'phase'")
        if to == "phase" and phase + 1 < len(self.phases_of(index)):
            return index, phase + 1
        if self.is_last(index):
            raise CampaignError(
                f"{self.turn(index).label} is the last turn of the game {self.last_rule}".strip()
                + "; there is no turn to advance to")
        return index + 1, 0

    def find(self, label: str, around: int = 0, years: int = 60) -> int:
        """The index of the turn ``label`` names, in any form the game prints it (case and spacing
        ignored): the whole label ("Strategic G/T 0/9/42", "July 1937", "Turn 3 (Spring 1940)") or
        its end or the part before its brackets when that names one turn only ("0/9/42", "4/8/42",
        "Spring 1940", "Turn 3"; "1937" names twelve)."""
        want = _norm(label)
        span = years * len(self.slots) * len(self.periods)
        tails = []
        for i in range(around - span // 2, around + span // 2):
            have = _norm(self.turn(i).label)
            if have == want:
                return i
            if want and (have.endswith(" " + want) or have.endswith("(" + want + ")")
                         or have.startswith(want + " (")):
                tails.append(i)
        if len(tails) == 1:
            return tails[0]
        one = self.turn(around).label
        if tails:
            raise CampaignError(f"{label!r} names {len(tails)} turns of this game's calendar; give the whole "
                                f"label (as {one!r})")
        raise CampaignError(f"{label!r} is not a turn of this game's calendar (turns look like {one!r})")

    def index_of(self, value: Any, around: int = 0, what: str = "turn") -> int:
        """The calendar index ``value`` gives: an index (a whole number, or its ASCII digits) or a
        label in any form ``find`` reads. CampaignError naming ``what`` and the forms otherwise."""
        if isinstance(value, numbers.Integral) and not isinstance(value, bool):
            return int(value)  # numpy's integers too (a typed table's turn column gives them)
        if isinstance(value, str):
            text = value.strip()
            if re.fullmatch(r"-?[0-9]{1,6}", text):
                return int(text)
            if text:
                try:
                    return self.find(text, around)
                except CampaignError as e:
                    raise CampaignError(f"{what} {e}") from None
        raise CampaignError(f"{what} must be a turn label (as {self.turn(around).label!r}) or a calendar "
                            f"index (a whole number), not {_shown(value)}")


_MONTHS = {name: i for i, name in enumerate(("january", "february", "march", "april", "may", "june", "july", "august",
                                              "september", "october", "november", "december"), 1)}


DATE_FIELDS = ("period_days", "date_rule")  # and each period's starts/year_offset, each slot's day


def without_dates(d: Mapping[str, Any]) -> dict[str, Any]:
    """A calendar's JSON without what dates its turns (``first_day``): the part every rule reads, the
    part a campaign recorded before its calendar dated turns."""
    out = {k: v for k, v in d.items() if k not in DATE_FIELDS}
    if isinstance(out.get("periods"), (list, tuple)):
        out["periods"] = [{k: v for k, v in p.items() if k not in ("starts", "year_offset")} if isinstance(p, Mapping)
                          else p for p in out["periods"]]
    if isinstance(out.get("slots"), (list, tuple)):
        out["slots"] = [{k: v for k, v in x.items() if k != "day"} if isinstance(x, Mapping) else x
                        for x in out["slots"]]
    return out


def _shown(value: Any) -> str:
    if value is None:
        return "nothing"
    return repr(value) if isinstance(value, str) else f"{type(value).__name__} {str(value)[:40]}"


def _norm(s: str) -> str:
    return " ".join(str(s).lower().split())


@dataclass(frozen=True)
class TurnInfo:
    """Where the campaign stands: the turn (its calendar index and label) and the phase in it."""

    index: int
    number: int
    label: str
    kind: str
    year: int
    period: str
    phase: Optional[Phase]
    phase_index: int
    phase_count: int
    rule: str = ""

    @property
    def title(self) -> str:
        return f"{self.label}, {self.phase.name}" if self.phase else self.label

    def __str__(self) -> str:
        return self.title


def next_turn_where(calendar: Calendar, from_index: int, phase_index: int,
                    predicate: Callable[[TurnInfo], bool], *, years: int = 2) -> Optional[TurnInfo]:
    """The first position after (``from_index``, ``phase_index``) where ``predicate`` holds: the
    TurnInfo of that turn and phase, for a refusal that depends on the calendar to name where the
    entry is allowed ("the next Strategic G/T is Strategic G/T 0/1/42"). The positions are the ones
    ``Calendar.step(..., "phase")`` walks (each phase of each turn; a turn with no phases is one
    position), so a predicate on the turn alone (``t.kind == "strategic"``) finds that turn's first
    phase, and one on the phase (``t.phase.id == "C"``) the next such phase, in this turn or a later one.
    None when no position within ``years`` calendar years (nor before the game's last turn) holds.
    Pure: reads the calendar only."""
    index, phase = int(from_index), int(phase_index)
    horizon = index + max(1, years) * len(calendar.slots) * len(calendar.periods)
    while True:
        try:
            index, phase = calendar.step(index, phase, "phase")
        except CampaignError:  # past the game's last turn
            return None
        if index > horizon:
            return None
        info = calendar.turn(index, phase)
        if predicate(info):
            return info


def steps_to(calendar: Calendar, from_index: int, phase_index: int, to_index: int, to_phase: int = 0) -> tuple[str, ...]:
    """The advances (each "turn" or "phase", as ``Campaign.advance`` takes them) that bring the turn
    marker from (``from_index``, ``phase_index``) to (``to_index``, ``to_phase``): whole turns to
    reach the turn, then phases inside it. Empty when already there; CampaignError when the target
    is behind (the marker only goes forward) or not a phase of its turn."""
    here, there = (int(from_index), int(phase_index)), (int(to_index), int(to_phase))
    count = len(calendar.phases_of(there[0]))
    if there[1] < 0 or (there[1] >= count and not (count == 0 and there[1] == 0)):
        raise CampaignError(f"{calendar.turn(there[0]).label} has no phase {there[1] + 1}")
    if there < here:
        raise CampaignError(f"{calendar.turn(*there).title} is behind {calendar.turn(*here).title}; "
                            "the turn marker only goes forward")
    out: list[str] = []
    if there[0] > here[0]:
        out += ["turn"] * (there[0] - here[0])
        here = (there[0], 0)
    out += ["phase"] * (there[1] - here[1])
    return tuple(out)


def build_calendar(raw: Mapping[str, Any], settings: Mapping[str, Any]) -> Calendar:
    """The calendar of a game.toml ``[calendar]`` table under the chosen ``settings``."""
    data = {k: v for k, v in raw.items() if k not in ("variants", "variant_setting", "origin_setting")}
    reading: dict[str, str] = {}
    name = raw.get("variant_setting")
    if name:
        value = str(settings.get(name, ""))
        reading[name] = value
        override = dict(raw.get("variants", {}).get(value, {}))
        order = override.pop("slot_order", None)
        if order is not None:
            data["slots"] = [raw["slots"][i] for i in order]
        data.update(override)
    name = raw.get("origin_setting")
    if name:
        value = str(settings.get(name, ""))
        reading[name] = value
        periods = [p["name"] for p in raw["periods"]]
        m = re.fullmatch(r"\s*(\S+)\s+(-?[0-9]{1,4})\s*", value)
        match = next((p for p in periods if m and p.lower() == m.group(1).lower()), None)
        if match is None:
            raise CampaignError(f"setting {name} = {value!r} is not '<{'|'.join(periods)}> <year>'")
        data["origin"] = {"year": int(m.group(2)), "period": match, "slot": 0}
    data["reading"] = reading
    try:
        cal = Calendar.model_validate(data)
    except ValidationError as e:
        raise CampaignError(f"the game's [calendar] table is malformed: {e.errors()[0]['msg']}") from None
    if cal.origin.period not in [p.name for p in cal.periods] or not 0 <= cal.origin.slot < len(cal.slots):
        raise CampaignError(f"the game's calendar origin {cal.origin} is not a turn of its calendar")
    for s in cal.slots:
        if s.phases not in cal.phases:
            raise CampaignError(f"the game's calendar slot {s.label!r} names unknown phases {s.phases!r}")
    return cal
