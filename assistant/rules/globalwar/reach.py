"""Global War's distance words, read once: "within N hexes (i.e., N-1 intervening hexes)".

The rulebook states each reach both ways, and the two agree when the distance counts the hexes
entered from the one hex to the other (the far hex counted, the near one not):

- [9.2.2.A] a unit outside a Communications Area "must be within three hexes (i.e., two
  intervening hexes) from a Communications Area hex or a supply source";
- [15.3.2.A] an attacker "within five hexes (i.e., four intervening hexes) of the Merchant Ship
  Holding Area";
- [18.6.3.B] "MS counters must be within five hexes of both terminal port hexes";
- [18.6.3.A] "a MS counter, with ten intervening hexes, then another MS counter" (and "never
  more"): consecutive Holding Areas at most eleven hexes apart.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reach:
    """A rule's reach in hexes: ``hexes`` apart at most, i.e. ``hexes - 1`` intervening hexes."""

    hexes: int
    rule: str
    words: str

    @classmethod
    def intervening(cls, n: int, rule: str, words: str) -> "Reach":
        """The reach the text gives as ``n`` intervening hexes (``n + 1`` hexes apart)."""
        return cls(n + 1, rule, words)

    @property
    def intervening_hexes(self) -> int:
        return self.hexes - 1

    def within(self, distance: float) -> bool:
        """``distance`` (hexes entered from one hex to the other) is inside the reach."""
        if distance < 0:
            raise ValueError(f"distance {distance!r} is negative")
        return distance <= self.hexes

    def reaches(self, net, a: str, b: str) -> bool:
        """Hex ``b`` is within this reach of hex ``a`` on the map (hexes counted across any hexes,
        the east-west wrap included)."""
        return self.within(hexes_apart(net, a, b, self.hexes + 1))


def hexes_apart(net, a: str, b: str, limit: float = float("inf")) -> float:
    """Hexes entered from ``a`` to ``b`` on ``net`` (a ``HexNet``); inf beyond ``limit``."""
    for h in (a, b):
        if h not in net.index:
            raise ValueError(f"hex {h!r} is not on the map")
    return net.search([net.index[a]], limit=limit).distance(b)


SUPPLY_REACH = Reach(3, "9.2.2.A", "within three hexes (i.e., two intervening hexes)")
MS_ATTACK_REACH = Reach(5, "15.3.2.A", "within five hexes (i.e., four intervening hexes)")
PORT_TO_MS = Reach(5, "18.6.3.B", "within five hexes of both terminal port hexes")
MS_GAP = Reach.intervening(10, "18.6.3.A", "with ten intervening hexes")
MAX_UNDEVELOPED = 2  # [9.2.5.C] "may not contain more than two Undeveloped hexes"
