"""Exact odds by enumeration: a distribution is a mapping outcome -> ``Fraction``.

Dice are enumerated face by face (``dice(2, 6)``), combined with ``bind`` (each outcome leads to a
further distribution) and ``convolve``/``repeat`` (independent events summed), never sampled.
``as_json`` gives ``{outcome: {"p": float, "fraction": "n/d"}}``, the form the CLI and UI show.
"""

from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction
from itertools import product
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

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


# --------------------------------------------------------------------------------------------
# Whole-number weights: a distribution as integers over one denominator, convolved in numpy.
# --------------------------------------------------------------------------------------------

_MODULI: list[int] = []
_WORD = 2 ** 64  # uint64 arithmetic is arithmetic modulo 2**64, at no cost


def _moduli(limit: int) -> list[int]:
    """Odd moduli below 2**31, pairwise coprime (the largest such, in turn), whose product with
    2**64 exceeds ``limit``: a number below ``limit`` is known exactly from its remainder modulo
    2**64 and its remainders by them."""
    prod, n = _WORD, 0
    while prod <= limit:
        if n == len(_MODULI):
            m = (_MODULI[-1] if _MODULI else 2 ** 31 + 1) - 2
            while any(math.gcd(m, x) != 1 for x in _MODULI):
                m -= 2
            _MODULI.append(m)
        prod *= _MODULI[n]
        n += 1
    return _MODULI[:n]


def convolve_counts(parts: Sequence[tuple[Sequence[int], Sequence[int]]], limit: int):
    """Independent distributions in whole numbers combined: each part is (keys, weights), its
    probabilities ``weights / its denominator``; keys are non-negative integers that add without
    carrying (a mixed-radix number of counts), so the combined key is the sum of the parts' keys
    and its weight the sum of the products of the parts' weights. ``limit``: a bound on every
    weight of every partial combination (the product of the parts' denominators will do: a
    weight is at most its denominator).

    Returns (keys, weights), keys sorted. Exact, in numpy integers: the weights modulo 2**64 in
    ``uint64`` (which is all of them while ``limit`` is below 2**64: ``uint64`` weights returned);
    beyond, also their remainders by a few odd moduli below 2**31 in ``int64`` (each product below
    2**62, reduced before it is summed), put together at the end by the Chinese remainder theorem
    (Python integers returned)."""
    import numpy as np

    mods = _moduli(limit)
    m_col = np.array(mods, np.int64)[:, None]
    keys = np.zeros(1, np.int64)
    low = np.ones(1, np.uint64)                    # the weights modulo 2**64
    res = np.ones((len(mods), 1), np.int64)        # and by each odd modulus
    for ks, ws in sorted(parts, key=lambda p: len(p[0])):
        kb = np.asarray(ks, np.int64)
        k = np.add.outer(keys, kb).ravel()
        span = int(keys[-1]) + int(kb.max()) + 1
        if span <= 2 ** 24:  # the new keys marked in an array over their range, each's rank its index
            seen = np.zeros(span, bool)
            seen[k] = True
            keys = np.flatnonzero(seen)
            rank = np.empty(span, np.int64)
            rank[keys] = np.arange(len(keys))
            at = rank[k]
        else:
            keys, at = np.unique(k, return_inverse=True)
        n = len(keys)
        products = np.multiply.outer(low, np.array([w % _WORD for w in ws], np.uint64)).ravel()
        low = np.zeros(n, np.uint64)
        np.add.at(low, at, products)
        if mods:
            wb = np.array([[w % m for w in ws] for m in mods], np.int64)
            products = ((res[:, :, None] * wb[:, None, :]) % m_col[:, :, None]).reshape(len(mods), -1)
            # a sum of remainders below 2**31, fewer than 2**32 of them (fewer than the products), is below 2**63
            acc = np.zeros(len(mods) * n, np.int64)
            np.add.at(acc, (np.arange(len(mods))[:, None] * n + at).ravel(), products.ravel())
            res = acc.reshape(len(mods), n) % m_col
    if not mods:
        return keys, low
    return keys, _from_remainders(low, res, mods)


def _from_remainders(low, res, mods: list[int]):
    """The integers (below 2**64 times the product of ``mods``) whose remainder modulo 2**64 is
    ``low`` and by ``mods[i]`` is ``res[i]``: Garner's mixed-radix digits (the first ``low``
    itself, the others below 2**31 in int64), two digits to an int64 limb, the limbs put together
    as Python integers."""
    import numpy as np

    digits: list = []
    for i, m in enumerate(mods):
        acc = np.zeros(res.shape[1], np.int64)  # the number so far, by its digits, modulo m
        for j in range(i - 1, -1, -1):
            acc = (acc * (mods[j] % m) + digits[j]) % m
        acc = (acc * (_WORD % m) + (low % np.uint64(m)).astype(np.int64)) % m
        inv = pow(_WORD * math.prod(mods[:i]) % m, -1, m)
        digits.append((res[i] - acc) % m * inv % m)
    limbs, bases = [], []
    for j in range(0, len(mods), 2):
        if j + 1 < len(mods):
            limbs.append(digits[j] + mods[j] * digits[j + 1])
            bases.append(mods[j] * mods[j + 1])
        else:
            limbs.append(digits[j])
            bases.append(mods[j])
    high = limbs[-1].astype(object)
    for limb, base in zip(reversed(limbs[:-1]), reversed(bases[:-1])):
        high = high * base + limb.astype(object)
    return high * _WORD + low.astype(object)
