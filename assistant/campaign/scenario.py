"""Scenarios: ``data/games/<game>/scenarios/<name>.toml`` starting positions.

A scenario names its start turn (a label of the game's calendar) and lists units to place. Any
unit carrying values the rulebook text does not give is ``sample = true`` and the file then has a
top-level ``sample_note`` that the UI shows: the player must know which values are not the rulebook's.
A key the format does not know fails as the file loads, naming the file, the key and its line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, model_validator

from ..paths import game_dir
from ..tomldata import DataFileError, load_model
from .errors import CampaignError


class ScenarioUnit(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: Optional[str] = None
    side: str
    nation: Optional[str] = None
    kind: str
    category: str = "unit"
    name: Optional[str] = None
    hex: str
    attrs: dict[str, Any] = {}
    sample: bool = False
    source: str = ""  # where the unit, its place and its values come from


class Scenario(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    title: str
    game: str
    start: Optional[str] = None  # a turn label, e.g. "G/T 4/8/42"; None: the calendar's origin
    start_phase: int = 0
    rule: str = ""
    doc: str = ""
    sample_note: Optional[str] = None
    sources: list[str] = []
    settings: dict[str, Any] = {}
    units: list[ScenarioUnit] = []

    @model_validator(mode="after")
    def _samples_are_labelled(self):
        if any(u.sample for u in self.units) and not self.sample_note:
            raise ValueError("units marked sample need a top-level sample_note")
        return self


def scenarios_dir(game: str) -> Path:
    return game_dir(game) / "scenarios"


def list_scenarios(game: str) -> list[str]:
    d = scenarios_dir(game)
    return sorted(p.stem for p in d.glob("*.toml")) if d.is_dir() else []


def load_scenario(game: str, name: str) -> Scenario:
    known = list_scenarios(game)
    if not isinstance(name, str) or name not in known:
        raise CampaignError(f"unknown scenario {name!r} for {game} (scenarios: {', '.join(known) or 'none'})")
    path = scenarios_dir(game) / f"{name}.toml"
    try:
        sc = load_scenario_file(path)
    except DataFileError as e:
        raise CampaignError(str(e)) from None
    if sc.game != game or sc.name != name:
        raise CampaignError(f"scenario file {path.name} says it is {sc.game}/{sc.name}, not {game}/{name}")
    return sc


def load_scenario_file(path: Path) -> Scenario:
    """The scenario file at ``path``; a key the format does not know, a missing or mistyped value
    is a DataFileError naming the file, the key and its line."""
    return load_model(Scenario, Path(path))
