"""Global War combat differentials, naval [15.0]-[15.7] and land [8.3], as the worked examples of
24.1-24.6 compute them (the CRTs themselves are not in the text; the strike plotter's naval
layer and the resolvers use these totals).

"The Differential is the total attack strength minus the total defense strength" [15.0.G],
[8.3.1]. Counter values are the player's (piece attrs ``attack``, ``defence``, land ``sp``); the
rules here decide which units count:

- naval attack: a depleted Surf-A or ASW has no attack strength [15.5.2]; MS and Amph none
  [15.3.1], [15.7.6]; a Transit Attack is made only by units whose ZOC covers the hex -- Surf-As
  and ASWs (24.1.A "Only the Surf-A units can make the Transit Attack"), ASWs at the strength of
  setting ``air_asw_transit_strength`` (24.2.A's printed "Defense strength of 12" is a misprint);
- naval defence: every unit in the hex except submarines, which are never attacked in normal
  combat and add no defence [15.2.1] (24.4.A), plus the defence of friendly ASWs whose ZOC covers
  the hex [15.4.5] (24.1.A "plus 2 from the ASW on 2222"); when submarines are themselves the
  target (a Transit Attack on them, a Counterattack on their stack) they count (24.2.A, 24.4.B);
- column: a normal attack needs a differential of at least 0 (24.2.C "impossible"); a
  Counterattack with a negative differential uses the +0 column [15.7.2] (24.2.A, 24.4.B);
- land: the attacker's mobile SPs (infantry, mechanized [8.1.4.C]) minus every land SP in the
  defending hex, fortifications included [8.2.1] (24.6: 10 vs 3 + 2 = +5); at least 0 [8.6.2].
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Optional

from ..hexnet import truthy
from ..world import Piece

ASW_TRANSIT = "air_asw_transit_strength"
ASW_READINGS = ("attack", "defence")
ZOC_KINDS = ("surf-a", "asw")           # [13.0]: naval ZOCs, hence Transit Attacks
DEPLETABLE = ("surf-a", "asw")          # [15.5.2]
NO_ATTACK = ("merchant ships", "holding area", "amph")  # [15.3.1], [15.7.6]
SUBMARINE = "ss"
MOBILE = ("infantry", "mechanized")     # [8.1.4.C]


def _k(p: Piece) -> str:
    return p.kind.lower()


def value(p: Piece, key: str, default: Optional[int] = None) -> int:
    """A counter value the player entered (piece attribute ``key``): a whole number >= 0;
    ``default`` where none is entered (without a default, that is an error)."""
    v = p.attrs.get(key)
    if v is None:
        if default is not None:
            return default
        raise ValueError(f"{p.kind} {p.id} has no {key} strength: enter it")
    if isinstance(v, bool):
        raise ValueError(f"{p.kind} {p.id} {key} {v!r} is not a strength")
    try:
        n = int(str(v).strip())
    except ValueError:
        raise ValueError(f"{p.kind} {p.id} {key} {v!r} is not a whole number") from None
    if n < 0:
        raise ValueError(f"{p.kind} {p.id} {key} {n} is negative")
    return n


def asw_reading(settings: Mapping[str, Any]) -> str:
    v = settings.get(ASW_TRANSIT, ASW_READINGS[0])
    if v not in ASW_READINGS:
        raise ValueError(f"setting {ASW_TRANSIT}={v!r} must be one of {', '.join(ASW_READINGS)}")
    return v


def depleted(p: Piece) -> bool:
    return _k(p) in DEPLETABLE and truthy(p.attrs.get("depleted"))


def naval_attack(pieces: Iterable[Piece], *, transit: bool = False, settings: Mapping[str, Any] = {}) -> int:
    """Total naval attack strength [15.0.G] of ``pieces`` (for a Counterattack: the defenders that
    counterattack, [15.7])."""
    total = 0
    for p in pieces:
        k = _k(p)
        if k in NO_ATTACK or depleted(p):
            continue  # [15.3.1], [15.7.6], [15.5.2]
        if transit and k not in ZOC_KINDS:
            continue  # only units with a ZOC on the hex make a Transit Attack (24.1.A)
        if transit and k == "asw":
            total += value(p, asw_reading(settings))  # 24.2.A (setting)
            continue
        total += value(p, "attack")
    return total


def naval_defence(pieces: Iterable[Piece], *, submarines_targeted: bool = False,
                  asw_support: Iterable[Piece] = ()) -> int:
    """Total naval defence of a hex [15.0.G]: submarines only when they are the target [15.2.1]
    (24.4.A / 24.4.B); MS at their defence (0) [15.3.1.B]; supporting ASWs' defence [15.4.5]."""
    total = 0
    for p in pieces:
        if _k(p) == SUBMARINE and not submarines_targeted:
            continue
        total += value(p, "defence", 0 if _k(p) in NO_ATTACK else None)
    return total + sum(value(a, "defence") for a in asw_support)


def differential(attack: int, defence: int) -> int:
    """Total attack strength minus total defence strength [15.0.G], [8.3.1]."""
    return attack - defence


def naval_column(diff: int, *, counterattack: bool = False) -> Optional[int]:
    """The CRT column: a Counterattack with negative superiority uses +0 [15.7.2]; a normal attack
    needs at least 0 (None: the attack is impossible, 24.2.C)."""
    if diff >= 0:
        return diff
    return 0 if counterattack else None


def land_attack(pieces: Iterable[Piece]) -> int:
    """The attacker's mobile SPs [8.1.4.C] (self-defence units and forts never attack)."""
    return sum(value(p, "sp", 1) for p in pieces if _k(p) in MOBILE)


def land_defence(pieces: Iterable[Piece]) -> int:
    """Every land SP in the defending hex, forts included [8.2.1], [7.1.1]; naval units do not defend [8.2.4]."""
    return sum(value(p, "sp", 1) for p in pieces if p.role in ("combat", "fortification"))


def land_column(diff: int) -> Optional[int]:
    """The land CRT column: at least 0 [8.6.2] (None below)."""
    return diff if diff >= 0 else None
