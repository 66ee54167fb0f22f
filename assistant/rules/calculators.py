"""What the games' exact-odds calculators share (``assistant.rules.<game>.odds.CALCULATORS``).

A calculator reads its figures from the command line (``campaign odds GAME WHAT ...``);
``whole_number`` is the argparse ``type`` for a figure printed on a counter or a table: a whole
number within the range the game allows, read as ``numbertext`` reads every typed number (the
digits 0-9 only) and refused with a message that names the figure, the value and the range.
"""

from __future__ import annotations

from typing import Callable

from ..numbertext import NumberField


def whole_number(what: str, lo: int, hi: int) -> Callable[[str], int]:
    """An argparse ``type`` reading ``what`` as a whole number from ``lo`` to ``hi``."""
    return NumberField(what, lo, hi).argtype()  # type: ignore[return-value]
