"""What the games' exact-odds calculators share (``assistant.rules.<game>.odds.CALCULATORS``).

A calculator reads its figures from the command line (``campaign odds GAME WHAT ...``);
``whole_number`` is the argparse ``type`` for a figure printed on a counter or a table: a whole
number within the range the game allows, refused with a message that names the figure.
"""

from __future__ import annotations

from typing import Callable


def whole_number(what: str, lo: int, hi: int) -> Callable[[str], int]:
    """An argparse ``type`` reading ``what`` as a whole number from ``lo`` to ``hi`` (a ValueError
    names the figure and the bad value)."""

    def conv(s: str) -> int:
        try:
            v = int(s)
        except ValueError:
            raise ValueError(f"{what} {s!r} is not a whole number") from None
        if not lo <= v <= hi:
            raise ValueError(f"{what} {v} must be from {lo} to {hi}")
        return v

    conv.__name__ = what
    return conv
