"""The dice aid's export table: the roll log (``campaign export --format csv|parquet|xlsx``)."""

from __future__ import annotations

from ...campaign.exporttables import TURN_COLUMNS, Column, register_table
from .events import roll_log


@register_table("dice_rolls", [
    Column("id", "int", "the roll's number"), Column("seq", "int", "the event that recorded it"), *TURN_COLUMNS,
    Column("notation", "text", "the dice rolled (e.g. 2d6)"), Column("reason", "text", "what the roll was for"),
    Column("values", "text", "each die's value, in order, separated by spaces"),
    Column("modifier", "int", "the modifier added"), Column("total", "int", "the dice and the modifier added up"),
    Column("entered", "bool", "the player entered the values (rolled at the table), not the assistant")],
    "Every dice roll recorded (the dice aid's log), rolled by the assistant or entered by a player.")
def dice_rolls_table(source):
    cal = source.state.calendar
    return [{**r.model_dump(), "date": cal.first_day(r.turn), "values": " ".join(map(str, r.values))}
            for r in roll_log(source.state) if source.wants(r.turn)]
