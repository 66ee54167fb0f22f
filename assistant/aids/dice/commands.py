"""The dice aid's command: roll through the campaign's random source, or record physical dice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ...campaign import validate as v
from ...campaign.commands import Context
from ...campaign.dicenotation import parse_notation
from ...campaign.importcheck import rebuilds
from .events import SLICE, DiceRolled


@dataclass
class RollDice:
    """Roll ``notation`` ("2d6", "1d10z") for ``reason``; ``values`` are faces the player read off
    physical dice (then nothing is rolled)."""

    notation: Any
    reason: Any = None
    values: Any = None

    def build(self, s, ctx: Context) -> DiceRolled:
        spec = parse_notation(self.notation)
        reason = v.optional_text(self.reason, "reason", max_len=200)
        if self.values is None:
            values, entered = ctx.roll(spec.count, spec.low, spec.high), False
        else:
            values, entered = spec.check(self.values), True
        return DiceRolled(roll_id=s.aid(SLICE).next_id, notation=spec.text, reason=reason, values=values,
                          entered=entered)

    def conflict(self, view, fresh, ctx) -> Optional[str]:
        return None  # a roll depends on nothing another window may change (its id is rebuilt)


def roll_dice(campaign, notation: str, reason: Optional[str] = None, values: Any = None, rng=None):
    """Roll (or record) dice in ``campaign``; returns the EventRecord (its body holds the values)."""
    return campaign.execute(RollDice(notation=notation, reason=reason, values=values), rng=rng)


@rebuilds(DiceRolled)
def _rebuild_roll(b: DiceRolled, s, ctx) -> DiceRolled:
    """An imported roll passes the command's checks as if the player had entered its faces: the
    notation parses, every face fits it, the reason is a short text and the id comes next."""
    entered = RollDice(notation=b.notation, reason=b.reason, values=list(b.values)).build(s, ctx)
    return entered.model_copy(update={"entered": b.entered})
