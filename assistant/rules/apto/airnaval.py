"""apto air-naval attacks [4.20] and naval anti-aircraft [4.21]: attacks per bomber, the attack
modifiers, one 2d6 attack (hit, sink on doubles), the AA value and AA hits, and exact odds.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable

NAMED = ("CV", "CVL", "BB", "BBCV", "CA", "RAIDER")  # "named" naval units [4.20]
MISS, HIT, SINK = "miss", "hit", "sink"


def attacks_per_bomber(strength: int, underscored: bool = False, intensive: bool = False) -> int:
    """[4.20]: attacks = printed strength, half (round down) if underscored, never more than 4;
    [4.28] an Intensive Air-Naval Attack gives attacks equal to the printed strength."""
    if strength < 0:
        raise ValueError(f"bomber strength {strength!r} must be >= 0")
    n = strength // 2 if underscored else strength
    return n if intensive else min(n, 4)


@dataclass(frozen=True)
class NavalAttack:
    """One air-naval attack's situation [4.20]. ``attacker``: ``naval_air`` (a Naval-Air unit) or
    ``land`` (a land-based Bomber-type)."""

    armor: int
    attacker: str = "land"
    named: bool = False          # target is a CV, CVL, BB, BBCV, CA or Raider
    underscored: bool = False    # the bomber's strength is underscored
    in_port: bool = False
    sneak: bool = False          # Japanese Naval-Air in the first Sneak Attack month [10.2]
    heavy: bool = False          # a Heavy Bomber (circled quality)
    vs_stp: bool = False         # target is an STP: no heavy-bomber penalty, doubles do nothing more
    japanese_vs_sub: bool = False
    kamikaze: bool = False
    damaged: bool = False        # the target is already damaged or depleted (or one-step): a hit sinks
    extra: int = 0               # any other modifier the player states (e.g. night -1 [11.37])

    def __post_init__(self):
        if self.attacker not in ("land", "naval_air"):
            raise ValueError(f"air-naval attacker {self.attacker!r} must be land or naval_air")
        if not isinstance(self.armor, int) or not 0 <= self.armor <= 30:
            raise ValueError(f"armor {self.armor!r} must be a whole number from 0 to 30")

    @property
    def modifier(self) -> int:
        """[4.20] modifiers, cumulative except the Kamikaze +2, which replaces them all."""
        if self.kamikaze:
            return 2
        m = self.extra
        if self.named:
            m += 3 if self.attacker == "naval_air" else (1 if self.underscored else 2)
        if self.in_port:
            m += 2
        if self.sneak and self.attacker == "naval_air":
            m += 1
        if self.heavy and not self.vs_stp:
            m -= 1
        if self.japanese_vs_sub:
            m -= 1
        return m


def naval_result(att: NavalAttack, d1: int, d2: int) -> str:
    """One attack rolled (d1, d2) [4.20]: 2d6 + modifiers >= armor hits (a net 12+ always hits
    when armor > 12); a hit on a damaged target sinks it; doubles that hit sink at once (no
    extra effect on an STP)."""
    for d in (d1, d2):
        if not 1 <= d <= 6:
            raise ValueError(f"air-naval die {d!r} must be 1 to 6")
    net = d1 + d2 + att.modifier
    hit = net >= att.armor or (att.armor > 12 and net >= 12)
    if not hit:
        return MISS
    if att.damaged or (d1 == d2 and not att.vs_stp):
        return SINK
    return HIT


def aa_value(gunnery: Iterable[int], *, port: str = "none", dd_screen: bool = False, us_1944: bool = False) -> int:
    """[4.21]: total current gunnery of the ships in the location (no submarines) // 10, +2 docked
    in a friendly Major/fortified/enlarged port, +1 in a Minor Port, +1 when DDs >= the other
    chits or an undamaged named carrier is present, +1 for >= 50% US units from 1944; at most 4.
    (Gunnery 4+4+4+2+7+0 = 21 -> 2.)"""
    bonus = {"none": 0, "minor": 1, "major": 2, "fortified": 2}
    if port not in bonus:
        raise ValueError(f"port {port!r} must be one of {', '.join(bonus)}")
    total = 0
    for g in gunnery:
        if g < 0:
            raise ValueError(f"gunnery {g!r} must be >= 0")
        total += g
    return min(4, total // 10 + bonus[port] + dd_screen + us_1944)


def aa_hit(d1: int, d2: int, aa: int, dd_present: bool = False, night: bool = False) -> bool:
    """[4.21]: the unmodified roll <= the AA value is an AA hit on the attacking bomber; a roll of
    2 always is when AA >= 1 or a DD is present. Night [11.37]: only a roll below the AA value."""
    roll = d1 + d2
    if roll == 2 and (aa >= 1 or dd_present):
        return True
    return roll < aa if night else roll <= aa


def attack_odds(att: NavalAttack, aa: int, dd_present: bool = False, night: bool = False) -> dict[tuple[str, bool], Fraction]:
    """Exact {(miss|hit|sink, AA hit?): p} of one attack, each of the 36 faces enumerated."""
    out: dict[tuple[str, bool], Fraction] = {}
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            k = (naval_result(att, d1, d2), aa_hit(d1, d2, aa, dd_present, night))
            out[k] = out.get(k, Fraction(0)) + Fraction(1, 36)
    return out


def series_odds(att: NavalAttack, aa: int, attacks: int, steps: int = 2, dd_present: bool = False,
                night: bool = False) -> dict[tuple[str, str], Fraction]:
    """``attacks`` attacks by one bomber on one target at a fixed AA value: the exact distribution
    of (target afterwards: intact|damaged|sunk, bomber afterwards: intact|depleted|eliminated).
    AA hits are applied after all the attacks [4.21]; a second hit sinks [4.20]."""
    if not 0 <= attacks <= 20:
        raise ValueError(f"attacks {attacks!r} must be 0 to 20")
    from dataclasses import replace

    fresh = attack_odds(att, aa, dd_present, night)
    hurt = attack_odds(replace(att, damaged=True), aa, dd_present, night)
    dist = {("damaged" if att.damaged else "intact", 0): Fraction(1)}
    for _ in range(attacks):
        nxt: dict = {}
        for (ship, aah), p in dist.items():
            if ship == "sunk":
                d = {(MISS, False): Fraction(1)}  # nothing left to attack: no roll
            else:
                d = hurt if ship == "damaged" else fresh
            for (res, aa_h), q in d.items():
                s2 = "sunk" if res == SINK else ("damaged" if res == HIT else ship)
                k = (s2, aah + aa_h)
                nxt[k] = nxt.get(k, Fraction(0)) + p * q
        dist = nxt
    out: dict = {}
    for (ship, aah), p in dist.items():
        b = "intact" if aah == 0 else ("depleted" if aah < steps else "eliminated")
        out[(ship, b)] = out.get((ship, b), Fraction(0)) + p
    return out
