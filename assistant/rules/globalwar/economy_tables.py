"""Global War's production tables the text references but does not print, read from the player's
templates (``data/games/globalwar/templates``) and the one it does print, 18.10.2.

- ``production_multiples`` (``turn,nation,multiple``): the Production Multiple "for that country on
  that turn" [18.0.D] from the Turn Record Track / Production Track (not in the text). Production
  Mode and Production Multiple are read as one value (the text uses both names, apparently for one
  thing), so a recaptured home IH produces at Mode 1 = 1 PP [18.4.2].
- ``production_costs`` (``type,build_cost,build_turns,rebuild_cost,rebuild_turns,undeplete_cost,
  undeplete_turns``): the Production Cost Table [18.0.F], [18.1.1] (a gap; the text's one figure is
  an example, a German mechanized SP for 3 PP on Turn 2 [18.2.2], shown as such and never used as a
  price). A blank cell: not on the chart.

Every cell read is checked; a bad one names its table, row (data rows from 1) and column.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping, Optional

from .airtables import _cell, _int, _rows

MULTIPLES = "production_multiples"
COSTS = "production_costs"

#: 18.10.2 Maintenance Costs, per SP; ½** "round up" for SS and ASW.
MAINTENANCE: Mapping[str, Fraction] = {
    "Inf": Fraction(0), "Mech": Fraction(1), "LRB": Fraction(1), "SS": Fraction(1, 2),
    "ASW": Fraction(1, 2), "Surf-A": Fraction(3), "Surf-B": Fraction(2)}

#: Buildable types: the 22.4.1 headings.
TYPES = ("Inf", "Mech", "Fort", "Port", "AD", "LRB", "ASW", "Surf-A", "Surf-B", "Amph", "SS", "MS", "A-Bomb")
#: [18.2.2]'s one example, never a general price: "In the Production Preparation Phase of Turn 2, the
#: Axis spends 3 PPs to build one new German mechanized SP ... On Turn 6, the unit appears". The
#: Production Cost Table [18.0.F] is not in the text: the player enters each real cost and delay.
EXAMPLE = {"Mech": "Germany, Turn 2: one mechanized SP for 3 PP, appearing on Turn 6"}
#: Only Surf-As and ASWs are undepleted [18.0.E], [18.3.2.B].
UNDEPLETE = ("Surf-A", "ASW")
ALIASES = {"infantry": "Inf", "inf": "Inf", "mechanized": "Mech", "mech": "Mech", "fortification": "Fort",
           "fort": "Fort", "submarine": "SS", "submarines": "SS", "ss": "SS", "a-bomb": "A-Bomb",
           "atomic bomb": "A-Bomb"}


def unit_type(name: str) -> Optional[str]:
    """The 22.4.1 type a name means (``Mech``, ``mechanized``, ``SS`` ...), None if none."""
    key = name.strip().lower()
    if key in ALIASES:
        return ALIASES[key]
    return next((t for t in TYPES if t.lower() == key), None)


def multiple(tables: Mapping[str, Any], turn: int, nation: str) -> Optional[int]:
    """The Production Multiple of ``nation`` on Game-Turn ``turn`` [18.0.D]; None without the
    table or its row (the player enters the production)."""
    rows = _rows(tables, MULTIPLES)
    if rows is None:
        return None
    for i, row in enumerate(rows, 1):
        if _int(MULTIPLES, i, row, "turn", 1) == turn and _cell(MULTIPLES, i, row, "nation") == nation:
            return _int(MULTIPLES, i, row, "multiple", 0)
    return None


def example_note(type_: str) -> str:
    """The [18.2.2] example for ``type_`` as the one example it is ("" for a type it does not show)."""
    if type_ not in EXAMPLE:
        return ""
    return (f"[18.2.2] example only ({EXAMPLE[type_]}): not a price for every nation and turn; the Production "
            f"Cost Table is not in the text: enter the real cost (production_costs)")


def cost(tables: Mapping[str, Any], what: str, type_: str) -> Optional[int]:
    """The PP cost of ``what`` (build, rebuild, undeplete) of one ``type_`` from the player's
    Production Cost Table; None without its row (the [18.2.2] example is no price)."""
    return _cost_row(tables, type_, f"{what}_cost")[1]


def delay(tables: Mapping[str, Any], what: str, type_: str) -> Optional[int]:
    """Turns on the Production Track from the turn paid to the turn the unit appears [18.0.G-H],
    from the player's Production Cost Table; None without its row."""
    return _cost_row(tables, type_, f"{what}_turns")[1]


def _cost_row(tables: Mapping[str, Any], type_: str, column: str) -> tuple[bool, Optional[int]]:
    """Whether the player's Production Cost Table has a row for ``type_``, and that row's
    ``column`` (None where the cell is left blank)."""
    for i, row in enumerate(_rows(tables, COSTS) or (), 1):
        if _cell(COSTS, i, row, "type") == type_:
            return True, (None if _cell(COSTS, i, row, column) == "" else _int(COSTS, i, row, column, 0))
    return False, None
