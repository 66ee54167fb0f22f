"""How apto's supply rules read a piece: land unit or not, ZOC, printed strength, chit capacity.

Piece attributes read: ``strength`` (printed combat strength; "1/2" or "0.5" is fractional,
absent = none), ``torpedo``, ``gunnery``, ``o`` (the "o" no-ZOC symbol), ``embarked``, ``aloft``,
``out_of_supply`` (marked Out-of-Supply), ``posture`` (attacking|defending), ``capacity`` and
``used`` (supply chits), ``refuelled`` (naval units), ``functional`` (a permanent fortification;
default yes), ``assaulting`` (conducting an Amphibious Assault or Paradrop this Offensive Phase
[7.7]), ``motorized`` (armor, mechanized or motorized) with ``offensive_supplied`` (supplied at the
start of the Offensive in which it is Activated [7.10]).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Optional

from ..hexnet import truthy
from ..supply import Piece

LAND_ROLES = ("combat", "hq", "partisan")  # land units [5.13]; leaders are chits of their own
CHIT_CAPACITY = {"sea supply chit": 4, "air supply chit": 1}  # units a month [7.7]


def flag(p: Piece, key: str) -> bool:
    return truthy(p.attrs.get(key))


def is_land(p: Piece) -> bool:
    return p.role in LAND_ROLES and not flag(p, "embarked")


def exerts_zoc(p: Piece) -> bool:
    """Into its six neighbours [5.13]: not "o" units, HQs (and Coastwatchers [10.36]), Generals,
    Admirals, partisans, embarked units, air or naval units."""
    return p.role == "combat" and not flag(p, "o") and not flag(p, "embarked")


def strength(p: Piece) -> Optional[Fraction]:
    """The printed combat strength (None if the counter has none)."""
    v = p.attrs.get("strength")
    if v is None or (isinstance(v, str) and v.strip().lower() in ("", "none", "-")):
        return None
    got = _fraction(str(v).strip())
    if got is None:
        raise ValueError(f"unit {p.id}: strength {v!r} is not a number such as 4 or 1/2")
    return got


@lru_cache(maxsize=1024)
def _fraction(text: str) -> Optional[Fraction]:
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None


def printed(p: Piece, key: str) -> Optional[Fraction]:
    v = p.attrs.get(key)
    if v is None or (isinstance(v, str) and v.strip() == ""):
        return None
    got = _fraction(str(v).strip())
    if got is None:
        raise ValueError(f"unit {p.id}: {key} {v!r} is not a number")
    return got


def consumes(p: Piece) -> bool:
    """Draws down a chit's capacity [7.7]: not a defender, not a fractional or no-strength unit."""
    s = strength(p)
    if s is None or s.denominator != 1 or s < 1:
        return False
    return str(p.attrs.get("posture") or "").strip().lower() != "defending"


def interrupts_chain(p: Piece) -> bool:
    """[10.42]: a supplied enemy air (not aloft), land or naval unit with a printed combat strength
    (even fractional) or a torpedo rating; never Generals, Admirals, STPs or Coastwatchers."""
    if p.role not in ("combat", "air", "naval") or flag(p, "out_of_supply"):
        return False
    if p.role == "air" and flag(p, "aloft"):
        return False
    return strength(p) is not None or printed(p, "torpedo") is not None


def chit_capacity(p: Piece) -> int:
    cap = p.attrs.get("capacity")
    if cap is None:
        cap = CHIT_CAPACITY.get(p.kind.strip().lower())
    if cap is None:
        raise ValueError(f"supply chit {p.id}: kind {p.kind!r} has no capacity (set capacity=4 or 1)")
    try:
        return int(cap)
    except ValueError:
        raise ValueError(f"supply chit {p.id}: capacity {cap!r} is not a whole number") from None


def chit_used(p: Piece) -> int:
    v = p.attrs.get("used", 0)
    try:
        return int(v or 0)
    except ValueError:
        raise ValueError(f"supply chit {p.id}: used {v!r} is not a whole number") from None
