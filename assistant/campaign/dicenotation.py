"""Dice notation as the three rulebooks write it: ``1D6``, ``2D6``, ``1D10``, ``2D10``.

``NdS`` is N dice of S faces numbered 1..S. The games' ten-sided dice are printed 0-9 and the rules
say how a "0" reads (witp glossary, Troop Quality: 'DR's of "0" (read as "zero")'; witp [5.9]
interdiction: '1D10; reading "0" as "ten"'): ``1d10z`` is a die whose faces read 0..9, ``1d10``
one whose "0" reads as ten (1..10). An optional ``+K`` / ``-K`` is a die roll modifier (DRM)
added to the total. A bare ``d6`` means ``1d6``.

It is read by more than one aid (the dice roller, and the strike plotter asking for the dice a
strike needs), so it lives here, below them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..numbertext import NumberField, NumberTextError
from .errors import CampaignError
from .validate import show

MAX_DICE = 100
MAX_SIDES = 100
MAX_MODIFIER = 1000
#: A face read off a die as typed; the die's own faces are then checked (``DiceSpec.check``).
DIE_VALUE = NumberField("die value", 0, MAX_SIDES)
_NOTATION = re.compile(r"^([0-9]{0,3})[dD]([0-9]{1,3})([zZ]?)(?:([+-])([0-9]{1,4}))?$")


@dataclass(frozen=True)
class DiceSpec:
    """What to roll: ``count`` dice with faces ``low..high``, plus ``modifier`` on the total."""

    count: int
    sides: int
    zero: bool = False  # faces 0..sides-1 ("0" read as zero)
    modifier: int = 0

    @property
    def low(self) -> int:
        return 0 if self.zero else 1

    @property
    def high(self) -> int:
        return self.low + self.sides - 1

    @property
    def text(self) -> str:
        """The canonical notation (``2d6``, ``1d10z``, ``2d6+1``)."""
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{'z' if self.zero else ''}{mod}"

    def total(self, values: tuple[int, ...]) -> int:
        return sum(values) + self.modifier

    def check(self, values: Any) -> tuple[int, ...]:
        """``values`` as a tuple of faces of these dice; CampaignError names a bad one."""
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            raise CampaignError(f"dice values must be a list of whole numbers, not {show(values)}")
        out = tuple(values)
        if len(out) != self.count:
            raise CampaignError(f"{self.text} needs {self.count} value{'s' * (self.count != 1)}, "
                                f"not {len(out)} ({show(list(out))})")
        for x in out:
            if isinstance(x, bool) or not isinstance(x, int) or not self.low <= x <= self.high:
                raise CampaignError(f"die value {show(x)} is not a face of a d{self.sides}"
                                    f"{'z' if self.zero else ''} ({self.low}-{self.high})")
        return out


def read_faces(text: str, what: str = "dice") -> list[int]:
    """Faces read off physical dice as typed, ``4,6`` or ``4 6`` (each as ``numbertext`` reads a
    number); CampaignError names a bad one."""
    faces = [x for x in text.replace(",", " ").split() if x]
    if len(faces) > MAX_DICE:
        raise CampaignError(f"{what}: {len(faces)} values (at most {MAX_DICE})")
    try:
        return [int(DIE_VALUE.read(x)) for x in faces]
    except NumberTextError as e:
        raise CampaignError(f"{what} {show(text)}: {e}") from None


def parse_notation(text: Any) -> DiceSpec:
    """The DiceSpec of ``text`` ("2d6", "1D10", "1d10z", "2d6+1"); CampaignError names bad text."""
    m = _NOTATION.match(text.strip()) if isinstance(text, str) else None
    if not m:
        raise CampaignError(f"dice notation {show(text)} is not like 2d6, 1d10, 1d10z (faces 0-9) or 2d6+1")
    count = int(m.group(1) or 1)
    sides = int(m.group(2))
    modifier = int(m.group(4) + m.group(5)) if m.group(4) else 0
    if not 1 <= count <= MAX_DICE:
        raise CampaignError(f"dice notation {text!r}: {count} dice (1-{MAX_DICE} at a time)")
    if not 2 <= sides <= MAX_SIDES:
        raise CampaignError(f"dice notation {text!r}: a die of {sides} sides (2-{MAX_SIDES})")
    if abs(modifier) > MAX_MODIFIER:
        raise CampaignError(f"dice notation {text!r}: modifier {modifier:+d} is beyond ±{MAX_MODIFIER}")
    return DiceSpec(count=count, sides=sides, zero=bool(m.group(3)), modifier=modifier)
