"""A unit as a row of an analysts' table (``units``, ``units_by_turn``): its fields, the printed
parts of its hex label, and its attributes split into typed columns.

The attribute columns are the counter values the games declare (``[kinds.attrs]`` in each game's
kinds.toml, ``assistant.rules.kinds``), the union over every installed game, so a table has the
same columns whatever the campaign's game, its units or their values. An attribute's kind follows
its declared type (``ATTR_KINDS``); one that two declarations type differently (witp's ``carrier``
is yes/no, apto's the carrier's name) is text. A value that is not of its column's kind (an
attribute no game declares, a player's note under a declared name, the word ``none`` where a
number is printed, a value recorded before its type was declared) stays, as entered, in the
``attrs`` column (JSON), so no value is lost. A printed fraction (``1/2``) is its value, 0.5.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Mapping, Optional

from ..hexes import HexError
from .exporttables import Column
from .model import Unit

# A declared attribute type (assistant.maps.attrs.TYPES) -> the kind of its column.
ATTR_KINDS = {"choice": "category", "bool": "bool", "int": "int", "number": "float", "fraction": "float",
              "str": "text", "hex": "text"}
INT64 = (-(2 ** 63), 2 ** 63 - 1)

SIDE = Column("side", "category", "the side's id (docs/python.md: a side's name is accepted wherever an id is)")
UNIT_COLUMNS = (
    Column("id", "text", "the unit's id in this campaign"), SIDE,
    Column("nation", "category", "the nation's id"), Column("kind", "category", "the unit's kind (the game's words)"),
    Column("category", "category", "unit or installation"), Column("name", "text", "the counter's name"),
    Column("hex", "text", "the hex it stands in (the game's hex label)"),
    Column("hex_section", "category", "the map section of its hex label (the letter printed before the numbers)"),
    Column("hex_col", "int", "the column number in its hex label (the game's grid says which printed pair it is: "
                             "witp E2519 is column 25, apto W 3021 column 21)"),
    Column("hex_row", "int", "the row number in its hex label (witp E2519: 19; apto W 3021: 30)"),
    Column("sample", "bool", "a sample unit of the demo campaign, not a counter of the game box"),
)
ATTRS = Column("attrs", "text", "its attributes that have no column of their kind, as JSON: those no game declares "
                                "(a player's own notes) and values not of their column's kind (the word none for a "
                                "number; a value recorded before its attribute was typed); empty when none")
RESERVED = frozenset(c.name for c in UNIT_COLUMNS) | {"attrs", "turn", "turn_label", "date"}


def attr_column_name(attr: str) -> str:
    """The column of attribute ``attr``: its own name, or ``attr_<name>`` where that is a unit
    field's or a turn column's."""
    return f"attr_{attr}" if attr in RESERVED else attr


@lru_cache(maxsize=None)
def _attr_columns(games: tuple[str, ...]) -> tuple[tuple[Column, str], ...]:
    from ..rules.kinds import load_kinds

    found: dict[str, list[tuple[str, str, Any]]] = {}
    for g in games:
        for kind in load_kinds(g).values():
            for name, spec in kind.specs.items():
                found.setdefault(name, []).append((g, kind.kind, spec))
    out = []
    for name in sorted(found):
        decl = found[name]
        kinds = {ATTR_KINDS[s.type] for _, _, s in decl}
        kind = kinds.pop() if len(kinds) == 1 else "text"
        where: dict[str, list[str]] = {}
        for g, k, _ in decl:
            where.setdefault(g, []).append(k)
        docs: dict[str, str] = {}  # each game's first doc of it
        for g, _, s in decl:
            if s.doc:
                docs.setdefault(g, s.doc)
        units = list(dict.fromkeys(f"{s.unit} ({g})" if len({x.unit for _, _, x in decl}) > 1 else s.unit
                                   for g, _, s in decl if s.unit))
        rules: dict[str, list[str]] = {}  # a rule number is the game's own: each is named with its game
        for g, _, s in decl:
            rules.setdefault(g, []).extend(r for r in s.rule.split(";") if r and r not in rules[g])
        said = (next(iter(docs.values())) if len(set(docs.values())) == 1 else
                "; ".join(f"{g}: {d}" for g, d in docs.items()) if docs else name)
        doc = said + "; declared for " + "; ".join(
            f"{g}: {', '.join(ks)}" for g, ks in where.items())
        if kind == "text" and len({s.type for _, _, s in decl}) > 1:
            doc += " (typed differently there: text, a yes/no or number written as JSON)"
        rule = "; ".join(f"{g} {';'.join(rs)}" for g, rs in rules.items() if rs)
        out.append((Column(attr_column_name(name), kind, doc, ", ".join(units), rule), name))
    return tuple(out)


def attr_columns() -> tuple[tuple[Column, str], ...]:
    """``(column, attribute name)`` for every attribute some installed game declares, by name."""
    from ..maps.gamelist import list_games

    return _attr_columns(tuple(list_games()))


def attr_index() -> dict[str, Column]:
    """Each declared attribute's column, by the attribute's name."""
    return {name: c for c, name in attr_columns()}


def unit_columns() -> tuple[Column, ...]:
    """The columns of a unit's row: its fields, its hex's parts, the typed attributes, ``attrs``."""
    return (*UNIT_COLUMNS, *(c for c, _ in attr_columns()), ATTRS)


def _fits(kind: str, value: Any) -> tuple[bool, Any]:
    """Whether ``value`` is of column kind ``kind``, and the value the column holds."""
    if kind == "bool":
        return isinstance(value, bool), value
    if isinstance(value, bool):
        return (True, json.dumps(value)) if kind == "text" else (False, None)
    if kind == "int":
        return isinstance(value, int) and INT64[0] <= value <= INT64[1], value
    if kind == "float":
        if isinstance(value, (int, float)):
            return math.isfinite(value), float(value)
        if isinstance(value, str) and "/" in value:  # a printed fraction, such as 1/2
            try:
                return True, float(Fraction(value.strip()))
            except (ValueError, ZeroDivisionError):
                return False, None
        return False, None
    if kind == "category":
        return isinstance(value, str), value
    if isinstance(value, str):
        return True, value
    return isinstance(value, (int, float)), json.dumps(value)


def hex_parts(split: Callable[[str], tuple[str, int, int]]) -> Callable[[str], tuple[Optional[str], ...]]:
    """``label -> (section, col, row)`` by ``split`` (a Grid's), None for each where it does not
    read the label; remembered per label (a war moves its units over a few thousand hexes)."""
    cache: dict[str, tuple[Optional[str], ...]] = {}

    def parts(label: str) -> tuple[Optional[str], ...]:
        if label not in cache:
            try:
                cache[label] = tuple(split(label))
            except HexError:  # a label of no section of this grid: its parts are unknown
                cache[label] = (None, None, None)
        return cache[label]

    return parts


def unit_row(u: Unit, parts: Callable[[str], tuple], attrs: Mapping[str, Column]) -> dict[str, Any]:
    """The row of unit ``u``: ``parts`` as ``hex_parts`` gives, ``attrs`` as ``attr_index``."""
    section, col, row = parts(u.hex) if u.hex else (None, None, None)
    out = {"id": u.id, "side": u.side, "nation": u.nation, "kind": u.kind, "category": u.category, "name": u.name,
           "hex": u.hex, "hex_section": section, "hex_col": col, "hex_row": row, "sample": u.sample}
    rest = {}
    for name, value in u.attrs.items():
        c = attrs.get(name)
        ok, typed = _fits(c.kind, value) if c is not None else (False, None)
        if ok:
            out[c.name] = typed
        else:
            rest[name] = value
    out["attrs"] = json.dumps(rest, sort_keys=True, ensure_ascii=False) if rest else None
    return out
