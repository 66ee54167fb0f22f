"""The campaign's per-turn tables: every unit, and hex control as the players set it, as they stood
at the end of each turn played (``Campaign.turn_states``, one state at a time).

``control_by_turn`` holds the players' settings only, not who holds every hex: the default
(``assistant.rules.control``: a nation's home territory and colonies, then the pieces alone in a
hex) is decided hex by hex, changes inside a region and with every move, and needs the map's hex
graph; a row for each hex of the map each turn would be over 14,000 rows a witp turn, nearly all
of them the territory tables' answer again. ``campaign control FILE --at HEX`` says who holds a hex
and why.
"""

from __future__ import annotations

from .control import SETTING_COLUMNS, control_rows
from .exporttables import TURN_COLUMNS, Column, TableSource, register_table
from .model import Unit
from .unitcolumns import attr_index, hex_parts, unit_columns, unit_row


def _units_by_turn_columns() -> tuple[Column, ...]:
    return (*TURN_COLUMNS, *unit_columns())


@register_table("units_by_turn", _units_by_turn_columns,
                "Every unit as it stood at the end of each turn played (the turn marker's last event in that "
                "turn), one row per turn and unit, oldest turn first; its columns are those of `units`. A unit "
                "removed during a turn is not in that turn's rows.")
def units_by_turn_table(source: TableSource):
    parts, attrs = hex_parts(source.campaign.map.grid.split), attr_index()
    made: dict[int, tuple[Unit, dict]] = {}  # a unit unchanged since the turn before is the same value
    for index, state in source.turn_states():
        turn, now = source.turn_columns(index), {}
        for u in state.units.values():
            kept = made.get(id(u))
            if kept is None or kept[0] is not u:
                kept = (u, unit_row(u, parts, attrs))
            now[id(u)] = kept
            yield {**turn, **kept[1]}
        made = now  # the last turn's units only


CONTROL_COLUMNS = (*TURN_COLUMNS, *SETTING_COLUMNS)


@register_table("control_by_turn", CONTROL_COLUMNS,
                "Hex control as the players had set it at the end of each turn played (`campaign control`): one "
                "row per turn and setting, hexes before regions, each sorted. Only the settings: a hex or region "
                "without one is held by the rules' default (its nation's home territory or colony, else the side "
                "whose pieces alone stand in it), decided hex by hex and changing with every move, which "
                "`campaign control FILE --at HEX` explains; a row per hex of the map and turn would be over "
                "14,000 rows a witp turn.")
def control_by_turn_table(source: TableSource):
    for index, state in source.turn_states():
        turn = source.turn_columns(index)
        for row in control_rows(state):
            yield {**turn, **row}
