"""The schema of ``data/games/<game>/game.toml``: one model per table, every one closed to keys it
does not know, so a misspelt key fails as the file loads (``gamespec.load_game_file`` names the
file, the key and its line).

The tables, and who reads them:

- ``[game]``: id (the folder's name), title, the rulebook's file name;
- ``[grid]`` with ``[[grid.sections]]``, ``[[grid.fixtures]]``, ``[grid.models.<name>]`` and
  ``[grid.wrap]``: the hex geometry (``assistant.hexes``, ``maps.calibration``);
- ``[derive.movement_area]``: latitude bands of the derived base map (``maps.derive``);
- ``[calendar]``: turns, their labels and phases (``campaign.calendar``);
- ``[[sides]]`` with ``[[sides.nations]]``: the players' sides as the rules name them;
- ``[settings.<name>]``: each ambiguous reading of a rule, its choices and its default;
- ``[hexsides.features.<name>]``: what a hexside may carry (``maps.hexsides``);
- ``[hexes.attributes.<name>]``: the hex attributes the game's rules read (the map editor offers
  them).
"""

from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, model_validator

from ..hexes import SectionSpec
from ..hexes.offset import Orientation, Parity


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# ----- [game] ------------------------------------------------------------------------------------
class GameInfo(_Table):
    id: str
    title: str
    rulebook: str


# ----- [grid] ------------------------------------------------------------------------------------
class Fixture(_Table):
    """A distance or adjacency the rulebook states; the geometry must reproduce it."""

    a: str
    b: str
    distance: Optional[int] = None
    max_distance: Optional[int] = None
    rule: str
    seam: bool = False
    presumed: bool = False  # the text implies rather than states it; yields to stated ones


class GeometryModel(_Table):
    """One reading of a geometry the text leaves open (``[grid.models.<name>]``): what it changes."""

    orientation: Optional[Orientation] = None
    shifted: Optional[Parity] = None
    doc: str = ""


class Wrap(_Table):
    """The map is a cylinder: leaving one edge re-enters at the other (the period is calibrated)."""

    rule: str = ""


class GridTable(_Table):
    """``[grid]``: how the printed labels read and where the sections lie."""

    label: Literal["compact", "spaced"]  # "B2048" or "W 4533"
    first_pair: Literal["col", "row"]
    orientation: Orientation
    shifted: Parity
    precedence: list[str] = []  # where sections overlap, the first here that holds a hex names it
    rule: str = ""
    extent_source: str = ""
    projection: Optional[Literal["equirectangular", "mercator", "movement_area"]] = None  # else fitted
    projection_rule: str = ""
    sections: list[SectionSpec]
    fixtures: list[Fixture] = []
    models: dict[str, GeometryModel] = {}
    wrap: Optional[Wrap] = None


# ----- [derive] ----------------------------------------------------------------------------------
class PerArea(_Table):
    arctic: float
    temperate: float
    tropical: float


class MovementAreas(_Table):
    """Latitude bands of witp-style Movement Areas, and what a hex of each is worth."""

    tropical_max_abs_lat: float
    tropical_max_lat: Optional[float] = None
    arctic_min_lat: float
    rule: str = ""
    nm_per_hex: Optional[PerArea] = None
    mp_per_hex: Optional[PerArea] = None
    nm_rule: str = ""


class DeriveTable(_Table):
    movement_area: Optional[MovementAreas] = None


# ----- [calendar] --------------------------------------------------------------------------------
class Phase(_Frozen):
    id: str
    name: str
    rule: str = ""


class Period(_Frozen):
    name: str
    months: tuple[str, ...] = ()
    # The period's first day, "MM-DD", where its months do not say it (globalwar's seasons);
    # ``year_offset`` -1: it begins in the year before the one it is named by (a winter named by its January).
    starts: Optional[str] = None
    year_offset: int = 0


class Slot(_Frozen):
    kind: str
    label: str
    phases: str
    rule: str = ""
    month: Optional[int] = None  # 1-based index into the period's months
    day: int = 0  # days from the period's first day to the turn's (``period_days`` calendars)


class Origin(_Frozen):
    year: int
    period: str
    slot: int = 0


class CalendarVariant(_Frozen):
    """What one value of the calendar's ``variant_setting`` changes."""

    origin: Optional[Origin] = None
    slot_order: Optional[tuple[int, ...]] = None


class CalendarTable(_Frozen):
    """``[calendar]`` as written, before a campaign's settings pick its readings."""

    rule: str = ""
    period_noun: str = "period"
    periods: tuple[Period, ...]
    slots: tuple[Slot, ...]
    phases: dict[str, tuple[Phase, ...]]
    origin: Optional[Origin] = None
    origin_rule: str = ""
    origin_setting: Optional[str] = None  # a setting whose value "<period> <year>" is the origin
    variant_setting: Optional[str] = None  # a setting whose value picks one of ``variants``
    variants: dict[str, CalendarVariant] = {}
    last_turn: Optional[int] = None
    last_rule: str = ""
    period_days: Optional[int] = None  # periods of this many days from 1 January (witp's 28-day cycles)
    date_rule: str = ""  # where the turn's date comes from (a rule, or "inference: ...")


# ----- [[sides]] ---------------------------------------------------------------------------------
class NationSpec(_Table):
    id: str
    name: str
    rule: str = ""
    note: str = ""


class SideSpec(_Table):
    id: str
    name: str
    rule: str = ""
    note: str = ""
    nations: list[NationSpec] = []


# ----- [settings] --------------------------------------------------------------------------------
class Setting(_Table):
    """A named reading of an ambiguous rule, with its documented default."""

    default: Any
    choices: Optional[list[Any]] = None
    rule: str = ""
    doc: str = ""

    @model_validator(mode="after")
    def _default_is_a_choice(self) -> "Setting":
        if self.choices is not None and self.default not in self.choices:
            raise ValueError(f"default {self.default!r} is not one of its choices "
                             f"({', '.join(map(repr, self.choices))})")
        return self


# ----- [hexsides] and [hexes] --------------------------------------------------------------------
class FeatureSpec(_Table):
    """``[hexsides.features.<name>]``: a feature a hexside may carry."""

    type: Literal["bool", "int", "str"] = "bool"
    rule: str = ""
    doc: str = ""


class HexsidesTable(_Table):
    features: dict[str, FeatureSpec] = {}


class HexAttributeSpec(_Table):
    """``[hexes.attributes.<name>]``: a hex attribute the game's rules read."""

    type: Literal["choice", "bool", "int", "str"]
    rule: str = ""
    doc: str = ""
    choices: tuple[str, ...] = ()  # the words a "choice" takes (lower case)
    low: Optional[int] = None  # bounds of an "int"
    high: Optional[int] = None

    @model_validator(mode="after")
    def _choices_fit_the_type(self) -> "HexAttributeSpec":
        if (self.type == "choice") != bool(self.choices):
            raise ValueError("choices are given exactly when the type is choice")
        if any(c != c.lower() for c in self.choices):
            raise ValueError("choices are lower case (a value is matched in lower case)")
        if (self.low is not None or self.high is not None) and self.type != "int":
            raise ValueError("low and high bound an int only")
        return self


class HexesTable(_Table):
    attributes: dict[str, HexAttributeSpec] = {}


# ----- the whole file ----------------------------------------------------------------------------
class GameFile(_Table):
    """Every table of a game.toml."""

    game: GameInfo
    grid: GridTable
    derive: DeriveTable = DeriveTable()
    calendar: Optional[CalendarTable] = None
    sides: list[SideSpec] = []
    settings: dict[str, Setting] = {}
    hexsides: HexsidesTable = HexsidesTable()
    hexes: HexesTable = HexesTable()
