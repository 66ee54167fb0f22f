"""The campaign state: immutable values that the fold of the events produces.

Mappings are read-only views (``MappingProxyType``); replace a state, never mutate it.
``extra`` holds the aids' state slices, each under its registered name (``slices.StateSlice``);
``CampaignState.aid(name)`` reads one. ``map_pin`` is the map the campaign is played on,
``map_revision`` counts every change to it (corrections, hexsides, upgrades).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping, Optional

from pydantic import BaseModel, ConfigDict

from .notelog import NoteLog, as_notelog
from .slices import SLICES, slices_from_json, slices_to_json

if TYPE_CHECKING:
    from .calendar import Calendar, TurnInfo


def frozen_map(d: Optional[Mapping[str, Any]] = None) -> Mapping[str, Any]:
    return MappingProxyType(dict(d or {}))


class Stored(BaseModel):
    """A value a campaign file stores (an event's payload or a part of it, an aid's state slice):
    a key it does not declare is refused, so that a misspelt key or a field of a newer program is
    an error rather than dropped in silence, and it never changes once made."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class MapPin(Stored):
    """The map a campaign is pinned to: the grid model, the map data version
    (``assistant.maps.version.map_version``) and the placed grid geometry (``GridSpec`` JSON)."""

    model: str
    version: str
    grid: dict[str, Any]

    @property
    def short(self) -> str:
        return self.version.split(":")[-1][:12]


@dataclass(frozen=True)
class Nation:
    id: str
    name: str
    rule: str = ""
    note: str = ""


@dataclass(frozen=True)
class Side:
    id: str
    name: str
    nations: tuple[Nation, ...] = ()
    rule: str = ""
    note: str = ""


@dataclass(frozen=True, eq=True)
class Unit:
    """A unit or installation on a hex. ``hex`` is the canonical label; ``sample`` marks demo values."""

    id: str
    side: str
    kind: str
    hex: str
    name: Optional[str] = None
    nation: Optional[str] = None
    attrs: Mapping[str, Any] = field(default_factory=frozen_map)
    sample: bool = False
    category: str = "unit"  # "unit" or "installation"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "side": self.side, "nation": self.nation, "kind": self.kind,
                "category": self.category, "name": self.name, "hex": self.hex,
                "attrs": dict(self.attrs), "sample": self.sample}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Unit":
        return cls(id=d["id"], side=d["side"], kind=d["kind"], hex=d["hex"], name=d.get("name"),
                   nation=d.get("nation"), attrs=frozen_map(d.get("attrs")), sample=bool(d.get("sample")),
                   category=d.get("category", "unit"))


@dataclass(frozen=True)
class Note:
    """A player's journal line, tagged with the turn it was written in."""

    id: int
    seq: int
    time: str
    turn: int
    turn_label: str
    text: str


@dataclass(frozen=True)
class CampaignState:
    """The whole campaign as of one event: an immutable value that only the fold (``fold.fold``) makes
    from the events, or that ``state_from_json`` reads back from a snapshot or an export.

    It holds the game and scenario, the settings chosen for the rules' ambiguities, the sides and
    their nations, the calendar and the current turn and phase, the units by id (``retired_ids``:
    ids of removed units, never reused), the journal (``notes``), the player's map corrections per
    hex and per hexside with the pinned map, the undo and redo stacks (event seqs), and in ``extra``
    each aid's slice under its registered name (read one with ``aid(name)``). ``last_seq`` is the
    seq of the last event folded in. Commands read it and build events; replace it, never mutate it."""

    game: str
    scenario: Optional[str]
    settings: Mapping[str, Any]
    sides: tuple[Side, ...]
    calendar: "Calendar"
    turn: "TurnInfo"
    units: Mapping[str, Unit]
    notes: NoteLog  # a persistent sequence (notelog.py): a command never copies the journal
    map_corrections: Mapping[str, Mapping[str, Any]]
    last_seq: int
    undo_stack: tuple[int, ...] = ()
    redo_stack: tuple[int, ...] = ()
    retired_ids: frozenset[str] = frozenset()
    next_note: int = 1
    sample_note: Optional[str] = None
    created: str = ""
    undo_limit: int = 1000
    extra: Mapping[str, Any] = field(default_factory=frozen_map)
    hexside_corrections: Mapping[str, Mapping[str, Any]] = field(default_factory=frozen_map)
    map_revision: int = 0
    map_pin: Optional[MapPin] = None

    def __post_init__(self) -> None:
        if not isinstance(self.notes, NoteLog):
            object.__setattr__(self, "notes", as_notelog(self.notes))

    # ----- queries --------------------------------------------------------------------------
    def aid(self, name: str) -> Any:
        """The state slice of aid ``name`` (its initial value before any of its events)."""
        if name in self.extra:
            return self.extra[name]
        return SLICES.get(name).initial()

    @property
    def can_undo(self) -> bool:
        return bool(self.undo_stack)

    @property
    def can_redo(self) -> bool:
        return bool(self.redo_stack)

    @property
    def position(self) -> tuple[int, int]:
        return self.turn.index, self.turn.phase_index

    def side(self, side: str) -> Side:
        """The side ``side`` names: its id or its name, in any case; CampaignError naming the sides
        otherwise (``validate.side`` gives the id)."""
        from .validate import side as side_id

        found = side_id(self, side)
        return next(s for s in self.sides if s.id == found)

    def nations(self) -> dict[str, Nation]:
        return {n.id: n for s in self.sides for n in s.nations}

    def units_at(self, hex_label: str) -> list[Unit]:
        return [u for u in self.units.values() if u.hex == hex_label]

    @property
    def has_samples(self) -> bool:
        return any(u.sample for u in self.units.values())


# ----- JSON (snapshots and exports) -------------------------------------------------------------
def state_to_json(s: CampaignState) -> dict[str, Any]:
    return {
        "game": s.game, "scenario": s.scenario, "settings": dict(s.settings),
        "sides": [{"id": x.id, "name": x.name, "rule": x.rule, "note": x.note,
                   "nations": [vars(n) for n in x.nations]} for x in s.sides],
        "calendar": s.calendar.model_dump(mode="json"),
        "turn": {"index": s.turn.index, "phase": s.turn.phase_index, "label": s.turn.label},
        "units": [u.to_json() for u in s.units.values()],
        "notes": [vars(n) for n in s.notes],
        "map_corrections": {k: dict(v) for k, v in s.map_corrections.items()},
        "last_seq": s.last_seq, "undo_stack": list(s.undo_stack), "redo_stack": list(s.redo_stack),
        "retired_ids": sorted(s.retired_ids), "next_note": s.next_note, "sample_note": s.sample_note,
        "created": s.created, "undo_limit": s.undo_limit, "extra": slices_to_json(s.extra),
        "hexside_corrections": {k: dict(v) for k, v in s.hexside_corrections.items()},
        "map_revision": s.map_revision, "map_pin": s.map_pin.model_dump(mode="json") if s.map_pin else None,
    }


def state_from_json(d: Mapping[str, Any]) -> CampaignState:
    from .gamedata import recorded_calendar

    cal = recorded_calendar(d["game"], d["settings"], d["calendar"])
    return CampaignState(
        game=d["game"], scenario=d["scenario"], settings=frozen_map(d["settings"]),
        sides=tuple(Side(id=x["id"], name=x["name"], rule=x["rule"], note=x["note"],
                         nations=tuple(Nation(**n) for n in x["nations"])) for x in d["sides"]),
        calendar=cal, turn=cal.turn(d["turn"]["index"], d["turn"]["phase"]),
        units=frozen_map({u["id"]: Unit.from_json(u) for u in d["units"]}),
        notes=NoteLog.of(Note(**n) for n in d["notes"]),
        map_corrections=frozen_map({k: frozen_map(v) for k, v in d["map_corrections"].items()}),
        last_seq=d["last_seq"], undo_stack=tuple(d["undo_stack"]), redo_stack=tuple(d["redo_stack"]),
        retired_ids=frozenset(d["retired_ids"]), next_note=d["next_note"], sample_note=d["sample_note"],
        created=d["created"], undo_limit=d["undo_limit"], extra=frozen_map(slices_from_json(d["extra"])),
        hexside_corrections=frozen_map({k: frozen_map(v) for k, v in d["hexside_corrections"].items()}),
        map_revision=d["map_revision"], map_pin=MapPin.model_validate(d["map_pin"]) if d["map_pin"] else None,
    )
