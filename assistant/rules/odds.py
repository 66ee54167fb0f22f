"""Exact odds by enumeration: a distribution is a mapping outcome -> ``Fraction``.

Dice are enumerated face by face (``dice(2, 6)``), combined with ``bind`` (each outcome leads to a
further distribution) and ``convolve``/``repeat`` (independent events summed), never sampled.
``as_json`` gives ``{outcome: {"p": float, "fraction": "n/d"}}``, the form the CLI and UI show.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from itertools import product
from typing import Any, Callable, Hashable, Iterable, Mapping

Dist = Mapping[Hashable, Fraction]


def dice(count: int, sides: int = 6, low: int = 1) -> dict[int, Fraction]:
    """The sum of ``count`` dice of faces ``low..low+sides-1``."""
    out: dict[int, Fraction] = defaultdict(Fraction)
    p = Fraction(1, sides ** count)
    for faces in product(range(low, low + sides), repeat=count):
        out[sum(faces)] += p
    return dict(out)


def faces(count: int, sides: int = 6, low: int = 1) -> dict[tuple[int, ...], Fraction]:
    """Every ordered tuple of ``count`` faces (doubles and the like need the faces, not the sum)."""
    p = Fraction(1, sides ** count)
    return {f: p for f in product(range(low, low + sides), repeat=count)}


def map_outcomes(d: Dist, fn: Callable[[Any], Hashable]) -> dict[Hashable, Fraction]:
    out: dict[Hashable, Fraction] = defaultdict(Fraction)
    for k, p in d.items():
        out[fn(k)] += p
    return dict(out)


def bind(d: Dist, fn: Callable[[Any], Dist]) -> dict[Hashable, Fraction]:
    """Each outcome of ``d`` leads to the distribution ``fn(outcome)``."""
    out: dict[Hashable, Fraction] = defaultdict(Fraction)
    for k, p in d.items():
        for k2, p2 in fn(k).items():
            out[k2] += p * p2
    return dict(out)


def convolve(a: Dist, b: Dist, add: Callable[[Any, Any], Hashable] = lambda x, y: x + y) -> dict[Hashable, Fraction]:
    """Two independent outcomes combined with ``add`` (default: summed)."""
    out: dict[Hashable, Fraction] = defaultdict(Fraction)
    for ka, pa in a.items():
        for kb, pb in b.items():
            out[add(ka, kb)] += pa * pb
    return dict(out)


def repeat(d: Dist, n: int, add: Callable[[Any, Any], Hashable] = lambda x, y: x + y, zero: Hashable = 0):
    """``n`` independent copies of ``d`` combined with ``add``."""
    out: dict[Hashable, Fraction] = {zero: Fraction(1)}
    for _ in range(n):
        out = convolve(out, d, add)
    return out


def total(d: Dist) -> Fraction:
    return sum(d.values(), Fraction(0))


def check(d: Dist) -> Dist:
    """``d`` itself, after asserting its probabilities sum to exactly 1."""
    t = total(d)
    if t != 1:
        raise ValueError(f"probabilities sum to {t}, not 1")
    return d


def as_json(d: Dist, order: Iterable[Hashable] | None = None) -> dict[str, dict[str, Any]]:
    """``{outcome: {"p": float, "fraction": "n/d"}}`` (outcomes as text, in ``order`` if given)."""
    keys = list(order) if order is not None else sorted(d, key=lambda k: (str(type(k)), k))
    return {str(k): {"p": float(d.get(k, Fraction(0))), "fraction": _frac(d.get(k, Fraction(0)))} for k in keys}


def _frac(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator}"
