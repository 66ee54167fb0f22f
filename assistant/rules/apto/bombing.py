"""apto strategic bombing [2.3]-[2.8]: bombing strength (halvings), the Bombing Table column and
its shifts, the result read from the player's Bombing Table.

The Bombing Table is not in the rulebook text: the player enters it (template
``data/games/apto/templates/bombing_table.csv``: ``column,roll,result``; a column is ``lo-hi`` or
``lo+``, a roll 2-12, a result a number of EPs, ``-`` or either with ``*`` (one bomber takes an AA
step loss [2.5])). Without it the rules ask for the printed result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence

from ..hexnet import truthy
from .economy_colonies import OIL
from .terrain import norm

TABLE = "bombing_table"
COL = re.compile(r"^\s*([0-9]+)\s*(?:-\s*([0-9]+)|(\+))\s*$")
RESULT = re.compile(r"^\s*([0-9]+|-)?\s*(\*)?\s*$")
# [2.3]: city 0, resource only 1 left, city/resource 1 right, + a non-conquered capital 1 more right;
# the Indonesian oil hexes always 2 right, never left, never halved.
TARGET_SHIFT = {"city": 0, "resource": -1, "city_resource": 1, "oil": 2}
TARGET_NAMES = {"city": "city", "resource": "resource", "city_resource": "city/resource", "oil": "Indonesian oil"}
# The hexes the text itself names as Strategic Targets [2.3]: Tokyo holds "both a city and a
# resource symbol (such as Tokyo)" and is the capital ("any city denoted as a "star", such as
# Tokyo"); gazetteer.csv places Tokyo at W 4533. (Nagasaki is named both a city-only and a
# city/resource hex in [2.3], and the text prints no hex for it: it is not here.)
NAMED_TARGETS = {"W 4533": ("Tokyo", "city_resource", True)}


@dataclass(frozen=True)
class Target:
    """A Strategic Target as the rules read it [2.3]: ``type`` (a TARGET_SHIFT key; None: neither
    the player, the text nor the board says, and the rules ask ``question``), ``capital``,
    ``steps`` (each value and where it came from) and ``assumed`` (what was taken without the
    player or the board saying it, each with its rule)."""

    type: Optional[str]
    capital: bool
    steps: tuple[str, ...] = ()
    assumed: tuple[str, ...] = ()
    question: Optional[str] = None


def target_type_of(value: Any) -> str:
    """The option target_type read (city/resource as printed is city_resource); a bad one names it."""
    t = str(value).strip().lower().replace("/", "_").replace("-", "_").replace(" ", "_")
    if t not in TARGET_SHIFT:
        raise ValueError(f"target type {value!r} must be one of {', '.join(TARGET_SHIFT)}")
    return t


def strategic_target(hex_label: str, attrs: Mapping[str, Any], options: Mapping[str, Any]) -> Target:
    """What ``hex_label`` is as a Strategic Target [2.3], from the player's options first
    (``target_type``, ``capital``), then the text (the Indonesian oil hexes, the hexes it names),
    then the board's city and resource symbols (hex attributes city, resource); never a silent
    default: an unknown type is a question, an assumption is said with its rule."""
    place = attrs.get("place") or ""
    where = f"{hex_label} ({place})" if place else hex_label
    steps: list[str] = []
    assumed: list[str] = []
    named = NAMED_TARGETS.get(hex_label)
    ttype: Optional[str] = None
    if options.get("target_type") is not None:
        ttype = target_type_of(options["target_type"])
        steps.append(f"{where}: a {TARGET_NAMES[ttype]} target, as entered [2.3]")
    elif hex_label in OIL:
        ttype = "oil"
        steps.append(f"{where}: an Indonesian oil hex, always two columns right, never left [2.3]")
    elif named is not None:
        ttype = named[1]
        steps.append(f"{where}: a {TARGET_NAMES[ttype]} target, as the text names {named[0]} [2.3]")
    else:
        city, res = attrs.get("city"), attrs.get("resource")
        if truthy(city) or truthy(res):
            ttype = "city_resource" if truthy(city) and truthy(res) else ("city" if truthy(city) else "resource")
            steps.append(f"{where}: a {TARGET_NAMES[ttype]} target, as the board marks it [2.3]")
            unmarked = "resource" if truthy(city) and res is None else ("city" if truthy(res) and city is None else None)
            if unmarked:
                assumed.append(f"{where}: no {unmarked} symbol is marked on the board, so it is read as a "
                               f"{TARGET_NAMES[ttype]} target only; if the map shows one, mark it in Board set-up "
                               f"or give the option target_type [2.3]")
    question = None
    if ttype is None:
        question = (f"what {where} is as a Strategic Target: give the option target_type (city, resource, "
                    f"city_resource or oil), or mark its city and resource symbols in Board set-up [2.3]")
    if options.get("capital") is not None:
        capital = truthy(options["capital"])
        steps.append(f"{where}: {'a' if capital else 'not a'} non-conquered national capital, as entered [2.3]")
    elif ttype == "oil":
        capital = False  # already "equivalent to a city/resource capital hex" [2.3]
    elif named is not None and named[2]:
        capital = True
        steps.append(f"{where}: a national capital (a star), as the text names {named[0]} [2.3]")
        assumed.append(f"{where}: the capital is taken as non-conquered (+1 column); if its nation is conquered, "
                       f"give the option capital=no [2.3]")
    else:
        capital = False
        if ttype is not None:
            assumed.append(f"{where}: not taken for a non-conquered national capital (the text names Tokyo "
                           f"alone); if the map shows a capital star there, give the option capital=yes [2.3]")
    return Target(ttype, capital, tuple(steps), tuple(assumed), question)


@dataclass(frozen=True)
class Column:
    lo: int
    hi: Optional[int]  # None: "lo+"
    label: str

    def holds(self, strength: int) -> bool:
        return strength >= self.lo and (self.hi is None or strength <= self.hi)


def columns(rows: Sequence[Mapping[str, str]]) -> list[Column]:
    """The table's columns, lowest first (a bad cell names its row and column)."""
    seen: dict[str, Column] = {}
    for i, row in enumerate(rows, start=1):
        lab = str(row.get("column") or "").strip()
        m = COL.match(lab)
        if not m:
            raise ValueError(f"{TABLE} row {i}, column column: {lab!r} must be lo-hi or lo+")
        lo, hi = int(m.group(1)), (None if m.group(3) else int(m.group(2)))
        if hi is not None and hi < lo:
            raise ValueError(f"{TABLE} row {i}, column column: {lab!r} runs backwards")
        seen.setdefault(lab, Column(lo, hi, lab))
    cols = sorted(seen.values(), key=lambda c: c.lo)
    for a, b in zip(cols, cols[1:]):
        if a.hi is None or a.hi >= b.lo:
            raise ValueError(f"{TABLE}: columns {a.label} and {b.label} overlap")
    return cols


def target_shift(target_type: str, capital: bool = False) -> int:
    """Column shift of a Strategic Target [2.3] (oil: always 2 right, the capital adds nothing)."""
    if target_type not in TARGET_SHIFT:
        raise ValueError(f"target type {target_type!r} must be one of {', '.join(TARGET_SHIFT)}")
    return TARGET_SHIFT[target_type] + (1 if capital and target_type != "oil" else 0)


def bombing_strength(strengths: Sequence[int], *, non_home: bool = False, redundant: bool = False,
                     oil: bool = False, rail: bool = False) -> int:
    """[2.4]: the bombers' total, halved (round down, even to 0) on a non-home enemy-occupied or
    minor-nation target, halved again when redundant (quartered); never for oil or rail."""
    total = sum(strengths)
    if not (oil or rail):
        total = total // 2 if non_home else total
        total = total // 2 if redundant else total
    return total


@dataclass(frozen=True)
class Halvings:
    """The [2.4] halvings of a strategic bombing: ``non_home``, ``redundant``, ``steps`` (each value
    and where it came from) and ``assumed`` (what was taken without the player or the board saying
    it, each with its rule)."""

    non_home: bool
    redundant: bool
    steps: tuple[str, ...] = ()
    assumed: tuple[str, ...] = ()


def halvings(hex_label: str, attrs: Mapping[str, Any], options: Mapping[str, Any], home_nations: Sequence[str],
             oil: bool = False) -> Halvings:
    """Whether a strategic bombing of ``hex_label`` is halved [2.4]: from the player's options first
    (``non_home``, ``redundant``), then the board (the hex's ``home_of`` or ``colony_of``: a home hex
    of one of the bombed side's income nations ``home_nations`` is not halved, any other nation's
    home hex or a colony is). The Indonesian oil hexes are never halved. Never a silent default:
    what neither the player nor the board says is taken as no halving and said, with its rule."""
    place = attrs.get("place") or ""
    where = f"{hex_label} ({place})" if place else hex_label
    if oil:
        return Halvings(False, False, (f"{where}: an Indonesian oil hex, never halved [2.4]",))
    steps: list[str] = []
    assumed: list[str] = []
    if options.get("non_home") is not None:
        non_home = truthy(options["non_home"])
        steps.append(f"{where}: {'a' if non_home else 'not a'} non-home or minor-nation Strategic Target, as entered: "
                     f"{'halved' if non_home else 'not halved'} [2.4]")
    else:
        home, colony = norm(attrs.get("home_of")), norm(attrs.get("colony_of"))
        if home and home in home_nations:
            non_home = False
            steps.append(f"{where}: a home hex of {home}, as the board marks it: not halved [2.4]")
        elif home:
            non_home = True
            steps.append(f"{where}: a home hex of {home}, not of the bombed nation ({', '.join(home_nations)}), "
                         f"as the board marks it: halved [2.4]")
        elif colony:
            non_home = True
            steps.append(f"{where}: a colony of {colony}, as the board marks it: a Strategic Target in a minor "
                         f"nation, halved [2.4]")
        else:
            non_home = False
            assumed.append(f"{where}: taken for a home Strategic Target, not halved, as the board marks no home "
                           f"nation or colony there; if it is not the bombed nation's home, give the option "
                           f"non_home=yes [2.4]")
    if options.get("redundant") is not None:
        redundant = truthy(options["redundant"])
        steps.append(f"{where}: {'already' if redundant else 'not'} successfully bombed in an earlier monthly "
                     f"game-turn this season, as entered: {'halved' if redundant else 'not halved'} [2.4]")
    else:
        redundant = False
        assumed.append(f"{where}: taken as not successfully bombed in an earlier monthly game-turn this season, "
                       f"not halved; if it was, give the option redundant=yes [2.4]")
    return Halvings(non_home, redundant, tuple(steps), tuple(assumed))


def column_for(strength: int, shift: int, cols: Sequence[Column]) -> tuple[Column, list[str]]:
    """The column holding ``strength`` moved ``shift`` columns (right +), clamped at the table's
    ends; notes say when a shift ran off the table."""
    notes: list[str] = []
    base = [i for i, c in enumerate(cols) if c.holds(strength)]
    if not base:
        raise ValueError(f"bombing strength {strength} is in no column of the {TABLE}")
    i = base[0] + shift
    if not 0 <= i < len(cols):
        notes.append(f"a shift of {shift:+d} from {cols[base[0]].label} runs off the table: {cols[min(max(i, 0), len(cols) - 1)].label} used")
        i = min(max(i, 0), len(cols) - 1)
    return cols[i], notes


def result(rows: Sequence[Mapping[str, str]], column: str, roll: int) -> tuple[Optional[int], bool]:
    """(EPs eliminated or None for "-", AA step loss?) for 2d6 ``roll`` in ``column``."""
    for i, row in enumerate(rows, start=1):
        if str(row.get("column") or "").strip() != column:
            continue
        try:
            r = int(str(row.get("roll") or "").strip())
        except ValueError:
            raise ValueError(f"{TABLE} row {i}, column roll: {row.get('roll')!r} is not 2-12") from None
        if r != roll:
            continue
        cell = str(row.get("result") or "")
        m = RESULT.match(cell)
        if not m or not (m.group(1) or m.group(2)):
            raise ValueError(f"{TABLE} row {i}, column result: {cell!r} must be a number, - or with *")
        eps = None if m.group(1) in (None, "-") else int(m.group(1))
        return eps, bool(m.group(2))
    raise KeyError(f"{TABLE} has no row for column {column} roll {roll}")
