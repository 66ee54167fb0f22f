"""The board the rules read: what each game's rules read from the printed map, and which of it the
rulebook text names.

Two files per game, both optional:

* ``board.toml``: the kinds of board data the rules read (``BoardKind``): a home city, an Industrial
  Hex, a Communications Area hex, an Ultimate Command Source. Each says what marks one on the board
  (hex attributes, or pieces of a role), how it is counted per nation, the rule that reads it, which
  aids cannot answer without it, and where the map already labels places of that role (gazetteer
  kinds a player adopts in one step).
* ``board.csv``: every hex the rulebook text names with such a role, with the attributes the role
  sets (``city=yes``, ``communications=yes``), the rule and the quote. These are on the shipped map:
  the hex graph takes them over the derived map and the territories (``maps/graph.py``); a player's
  correction still wins.

The text names few of them; the printed map holds the rest. Where a rule reads a kind of which the
text names none (or only some) and the player has entered none, the aid says so and asks
(``assistant/rules/board.py``); it never answers as if the board were complete.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping, Optional

from pydantic import BaseModel, ConfigDict

from ..paths import game_dir
from ..tomldata import DataFileError, load_if_present, load_model
from .attrs import AttrValueError, hex_attribute

KINDS_FILE = "board.toml"
ROWS_FILE = "board.csv"
COLUMNS = ("hex", "kind", "place", "attrs", "rule", "quote", "note")
# Where the player enters board data (the page's tab and the command): named in every question.
WHERE = "Board set-up"


class BoardKind(BaseModel):
    """One kind of board data a game's rules read."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str                    # in the game's words, singular ("home city or resource hex")
    plural: str                  # ("home cities and resource hexes")
    attrs: tuple[str, ...] = ()  # hex attributes: a hex with any of them set (yes, or a value) is one
    roles: tuple[str, ...] = ()  # piece roles: a piece of one of these roles is one
    pieces: tuple[str, ...] = ()  # piece kinds (by name, any case): a piece of one of these kinds is one
    nation_from: str = ""        # hex attribute naming whose it is (home_of, country); "" = nobody's
    nations: tuple[str, ...] = ()  # the nations it is asked for (empty: those nation_from names on the map)
    sides: tuple[str, ...] = ()  # the sides whose rules read it (empty: every side)
    rule: str
    quote: str                   # the rulebook's words that make the rules read it
    aids: tuple[str, ...]        # the aids that read it
    cannot: str                  # what those aids cannot answer until it is entered
    places: tuple[str, ...] = ()  # gazetteer kinds that label a place of this role (adopted in one step)
    text_complete: bool = False  # the text names every one: nothing to ask the player
    enter: str = ""              # how the player enters one (a hex attribute, or a piece to place)
    table: str = ""              # the rules' own table that reads these hexes, where no hex attribute marks them


class BoardKinds(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kinds: dict[str, BoardKind] = {}


@dataclass(frozen=True)
class BoardRow:
    """One hex the rulebook text names with a role the rules read."""

    hex: str
    kind: str
    place: str
    attrs: Mapping[str, Any]
    rule: str
    quote: str
    note: str


def kinds_path(game: str) -> Path:
    return game_dir(game) / KINDS_FILE


def rows_path(game: str) -> Path:
    return game_dir(game) / ROWS_FILE


@lru_cache(maxsize=None)
def board_kinds(game: str) -> Mapping[str, BoardKind]:
    """The kinds of board data ``game``'s rules read (empty if it declares none)."""
    got = load_if_present(kinds_path(game), lambda p: load_model(BoardKinds, p), BoardKinds(), DataFileError)
    return MappingProxyType(dict(got.kinds))


def _parse_attrs(game: str, text: str, where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        key, eq, value = part.partition("=")
        if not eq:
            raise ValueError(f"{where}: attrs {part!r} is not key=value")
        try:
            out[key.strip()] = hex_attribute(game, key.strip()).coerce(value.strip())
        except AttrValueError as e:
            raise ValueError(f"{where}: {e}") from None
    return out


@lru_cache(maxsize=None)
def board_rows(game: str) -> tuple[BoardRow, ...]:
    """The hexes ``game``'s rulebook text names with a role, in file order (``board.csv``): each
    row's kind declared in ``board.toml`` and each attribute of the game's hex vocabulary, typed."""
    p = rows_path(game)
    if not p.is_file():
        return ()
    kinds = board_kinds(game)
    out = []
    with p.open(newline="", encoding="utf-8") as f:
        lines = (line for line in f if not line.startswith("#"))
        reader = csv.DictReader(lines)
        if tuple(reader.fieldnames or ()) != COLUMNS:
            raise ValueError(f"{p}: columns must be {', '.join(COLUMNS)}")
        for n, r in enumerate(reader, start=2):
            where = f"{p.name} row {n - 1} ({r['hex']})"
            if r["kind"] not in kinds:
                raise ValueError(f"{where}: kind {r['kind']!r} is not declared in {KINDS_FILE} "
                                 f"({', '.join(kinds) or 'none'})")
            out.append(BoardRow(r["hex"].strip(), r["kind"], r["place"], MappingProxyType(_parse_attrs(
                game, r["attrs"], where)), r["rule"], r["quote"], r["note"]))
    return tuple(out)


def board_attrs(game: str) -> Mapping[str, Mapping[str, Any]]:
    """Printed hex label -> the attributes the text's board rows set on it (rows in file order,
    a later row adding to an earlier one's)."""
    out: dict[str, dict[str, Any]] = {}
    for r in board_rows(game):
        out.setdefault(r.hex, {}).update(r.attrs)
    return out


def kind(game: str, kind_id: str) -> Optional[BoardKind]:
    return board_kinds(game).get(kind_id)
