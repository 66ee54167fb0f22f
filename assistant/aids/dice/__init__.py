"""The dice roll record: every die a player rolls, by the campaign's random source or at the table.

Dice are explicit chance events (as OpenSpiel's): the command rolls through the campaign's
injectable random source, or takes the values the player read off physical dice, and the event
stores the values, so replay, undo and redo never roll again.

    from assistant.aids.dice import roll_dice, roll_log
    rec = roll_dice(campaign, "2d6", reason="Air Point Availability [5.4]")
    roll_log(campaign.state)[-1].values     # e.g. (3, 5)

``campaign roll FILE 2d6 [--reason ...] [--values 3 5] [--seed N]`` and ``campaign rolls FILE``.
"""

from __future__ import annotations

from ...campaign.dicenotation import DiceSpec, parse_notation
from .commands import RollDice, roll_dice
from .events import DICE, DiceLog, DiceRolled, DiceRollWithdrawn, Roll, roll_log

__all__ = ["DICE", "DiceLog", "DiceRollWithdrawn", "DiceRolled", "DiceSpec", "Roll", "RollDice",
           "parse_notation", "roll_dice", "roll_log"]
