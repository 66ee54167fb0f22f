"""Hexsides as data: one id per hexside, each game's feature vocabulary, and ``hexsides.csv``.

A hexside is named by the two canonical labels of the hexes it separates, sorted, joined by ``|``
(``"B1949|B2048"``). Its features come from ``data/games/<game>/hexsides.csv`` (the hexsides the
rulebook text states, one row per feature, each with its rule and quote) and from a campaign's
``source=user`` corrections, which win. The vocabulary (feature names, types, rules) is
``[hexsides.features]`` in the game's ``game.toml``.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Union

from ..hexes import Axial, Grid, HexError
from ..numbertext import NumberField, NumberTextError, shown
from ..paths import game_dir
from .gamespec import GameSpec

SEPARATOR = "|"
HEXSIDES_CSV = "hexsides.csv"
CSV_COLUMNS = ("hex_a", "hex_b", "feature", "value", "rule", "quote")
_TRUE = {"true", "yes", "1"}
_FALSE = {"false", "no", "0"}


class HexsideError(HexError):
    """Two hexes that share no hexside, or a hexside feature that is unknown or malformed. One line."""


def hexside_id(grid: Grid, a: Union[str, Axial], b: Union[str, Axial]) -> str:
    """The canonical id of the hexside between hexes ``a`` and ``b`` (labels or hexes): their
    canonical labels, sorted, joined by "|" (e.g. "B1949|B2048"). The hexes must be adjacent on
    ``grid`` (``Grid.neighbors``: across joins, seam links and the wrap). Raises HexsideError."""
    try:
        ha, hb = (grid.parse(x) if isinstance(x, str) else x for x in (a, b))
        ca, cb = grid.canonical(ha), grid.canonical(hb)
        if ca is None or cb is None:
            off = a if ca is None else b
            raise HexsideError(f"{off!r} is off the {grid.spec.game} map")
        la, lb = grid.label(ca), grid.label(cb)
    except HexError as e:
        raise HexsideError(str(e)) from None
    if ca == cb:
        raise HexsideError(f"{la} and {lb} are the same hex, not a hexside")
    if cb not in grid.neighbors(ca):
        raise HexsideError(f"{la} and {lb} are not adjacent, so they share no hexside")
    return SEPARATOR.join(sorted((la, lb)))


def split_id(side: str) -> tuple[str, str]:
    a, _, b = side.partition(SEPARATOR)
    return a, b


@dataclass(frozen=True)
class Feature:
    """One hexside feature a game's rules use."""

    id: str
    type: str  # "bool" | "int" | "str"
    rule: str
    doc: str = ""

    def coerce(self, value: Any) -> Any:
        """The feature's value from a CSV cell or CLI word; HexsideError names a bad value."""
        if self.type == "bool":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise HexsideError(f"hexside feature {self.id!r} takes true/false, not {value!r}")
        if self.type == "int":
            if isinstance(value, bool):
                raise HexsideError(f"hexside feature {self.id!r} takes a whole number, not {value!r}")
            try:  # the digits 0-9 only, checked before it is converted (numbertext)
                return int(NumberField(f"hexside feature {self.id!r}").read(value if isinstance(value, int) else str(value)))
            except NumberTextError:
                raise HexsideError(f"hexside feature {self.id!r} takes a whole number written with the digits "
                                   f"0-9, not '{shown(value)}'") from None
        text = str(value).strip()
        if not text or len(text) > 100 or "\n" in text:
            raise HexsideError(f"hexside feature {self.id!r} takes a short one-line text, not {value!r}")
        return text


def feature_vocabulary(spec: GameSpec) -> dict[str, Feature]:
    """The hexside features of a game (``[hexsides.features]`` in game.toml), by id."""
    return {k: Feature(id=k, type=f.type, rule=f.rule, doc=f.doc) for k, f in spec.hexsides.features.items()}


def check_features(spec: GameSpec, features: Mapping[str, Any]) -> dict[str, Any]:
    """``features`` with every value coerced to its feature's type; HexsideError names an unknown
    feature or a bad value."""
    vocab = feature_vocabulary(spec)
    out = {}
    for key, value in features.items():
        feat = vocab.get(key)
        if feat is None:
            raise HexsideError(f"unknown hexside feature {key!r} in {spec.id} (features: {', '.join(vocab)})")
        out[key] = feat.coerce(value)
    return out


@dataclass(frozen=True)
class HexsideRow:
    """One feature of one hexside as the rulebook states it."""

    side: str
    feature: str
    value: Any
    rule: str
    quote: str


def hexsides_path(game: str) -> Path:
    return game_dir(game) / HEXSIDES_CSV


def load_hexside_rows(spec: GameSpec, grid: Grid, path: Path | None = None) -> list[HexsideRow]:
    """Every row of a game's ``hexsides.csv``, validated. A bad row raises HexsideError naming its
    line and value; a missing file is no rows."""
    p = path or hexsides_path(spec.id)
    if not p.is_file():
        return []
    vocab = feature_vocabulary(spec)
    rows: list[HexsideRow] = []
    with p.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if tuple(reader.fieldnames or ()) != CSV_COLUMNS:
            raise HexsideError(f"{p.name}: header must be {','.join(CSV_COLUMNS)}, not {','.join(reader.fieldnames or ())}")
        for line, rec in enumerate(reader, start=2):
            try:
                side = hexside_id(grid, rec["hex_a"], rec["hex_b"])
                feat = vocab.get(rec["feature"])
                if feat is None:
                    raise HexsideError(f"unknown hexside feature {rec['feature']!r} (features: {', '.join(vocab)})")
                value = feat.coerce(rec["value"])
                if not rec["rule"].strip():
                    raise HexsideError("every row names the rule that states it")
            except HexError as e:
                raise HexsideError(f"{p.name} line {line}: {e}") from None
            rows.append(HexsideRow(side, feat.id, value, rec["rule"], rec["quote"]))
    return rows


def merge_features(rows: list[HexsideRow], corrections: Mapping[str, Mapping[str, Any]] | None = None
                   ) -> dict[str, dict[str, Any]]:
    """Hexside id -> features: the rulebook's rows, then a campaign's corrections (which win)."""
    out: dict[str, dict[str, Any]] = {}
    for r in rows:
        out.setdefault(r.side, {})[r.feature] = r.value
    for side, fix in (corrections or {}).items():
        out.setdefault(side, {}).update(fix)
    return out
