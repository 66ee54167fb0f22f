"""apto air-to-air combat: one attack [4.16]-[4.18], heavy-bomber return fire [4.19], and their
exact distributions (every face of the die enumerated: ``Fraction`` probabilities, and for a whole
engagement whole numbers over one denominator, ``engagement_odds``).

An attack's "air target number" is the attacker's strength + its quality - the target's quality
[4.16], strength modifiers added first (+1 over its own airbase, +1 escorting an attacked bomber,
+1 Elite Pilots [4.18]); die modifiers (Sneak Attack -1, Strafing +1 [4.18]) change the roll but
never a physical 5 or 6 [4.16].
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from ..odds import convolve_counts

if TYPE_CHECKING:
    import numpy as np

HIT, ABORT, MISS = "hit", "abort", "miss"
OUTCOMES = (HIT, ABORT, MISS)


@dataclass(frozen=True)
class Attack:
    """One air-combat attack's numbers [4.16], [4.18]. ``kamikaze``: the TARGET flies as a
    Kamikaze, immune to aborts [4.16], [10.7]."""

    strength: int
    quality: int = 0
    target_quality: int = 0
    own_base: bool = False   # +1 strength over its own airbase [4.18]
    escort: bool = False     # +1 strength: untargeted escort attacking a fighter that attacks a bomber [4.18]
    elite: bool = False      # +1 strength, Elite Pilots [11.46] (cited in [4.18] as "[11.49]")
    sneak: bool = False      # -1 to the die, Japanese Sneak Attack [4.18]
    strafe: bool = False     # +1 to the die, strafing a target not out of supply [4.18]
    kamikaze: bool = False

    def __post_init__(self):
        for name in ("strength", "quality", "target_quality"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not -50 <= v <= 99:
                raise ValueError(f"air combat {name} {v!r} must be a whole number from -50 to 99")

    @property
    def target_number(self) -> int:
        """Strength (+ modifiers) + own quality - the target's quality [4.16]."""
        return self.strength + self.own_base + self.escort + self.elite + self.quality - self.target_quality

    @property
    def die_modifier(self) -> int:
        return self.strafe - self.sneak


def attack_result(attack: Attack, die: int) -> str:
    """The result of one attack rolled ``die`` [4.16]: below the target number a hit, equal an
    abort, above a miss; a roll (or result) of 1 that is neither is an abort; a 5 is never a hit
    (abort); a 6 is always a miss; physical 5s and 6s are never modified; a Kamikaze target
    ignores aborts (an abort is no effect: a miss)."""
    if not 1 <= die <= 6:
        raise ValueError(f"air combat die {die!r} must be 1 to 6")
    t = attack.target_number
    net = die if die >= 5 else die + attack.die_modifier
    res = HIT if net < t else ABORT if net == t else MISS
    if (die == 1 or net == 1) and res == MISS:
        res = ABORT
    if net == 5 and res == HIT:
        res = ABORT
    if net >= 6 and res != MISS:  # a result of 6 that calculates to a hit or abort is a miss
        res = MISS
    if attack.kamikaze and res == ABORT:
        res = MISS
    return res


def attack_dist(attack: Attack) -> dict[str, Fraction]:
    """{hit, abort, miss} of one attack, each face of 1d6 enumerated [4.16]-[4.18]."""
    out = {k: Fraction(0) for k in OUTCOMES}
    for die in range(1, 7):
        out[attack_result(attack, die)] += Fraction(1, 6)
    return out


def return_fire_result(bomber_quality: int, fighter_quality: int, die: int) -> str:
    """Heavy-bomber return fire [4.19]: 1d6 + bomber quality - fighter quality against the
    fighter's quality: greater a hit, equal an abort, less a miss; a 6 always hits, a 1 always
    misses. (Ki-84 Q4 vs B-29 Q4, roll 3: 3 + 4 - 4 = 3 < 4, a miss.)"""
    if not 1 <= die <= 6:
        raise ValueError(f"return fire die {die!r} must be 1 to 6")
    if die == 6:
        return HIT
    if die == 1:
        return MISS
    net = die + bomber_quality - fighter_quality
    return HIT if net > fighter_quality else ABORT if net == fighter_quality else MISS


def return_fire_dist(bomber_quality: int, fighter_quality: int) -> dict[str, Fraction]:
    out = {k: Fraction(0) for k in OUTCOMES}
    for die in range(1, 7):
        out[return_fire_result(bomber_quality, fighter_quality, die)] += Fraction(1, 6)
    return out


# --------------------------------------------------------------------------------------------
# A whole engagement [4.16]: two rounds, results of a round noted then applied together, units hit
# or aborted in round 1 out of round 2, half-step Naval-Air units never attacking in round 2,
# the targeting restriction, heavy-bomber return fire, the escort bonus worked out per round.
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Flyer:
    """One air unit in an engagement. ``fighter``: attacks (a Fighter-type flying as a fighter);
    ``heavy``: a Heavy Bomber (return fire [4.19]); ``steps``: 2, or 1 for a depleted or one-step
    unit; ``half_naval``: a half-step Naval-Air unit (no attack in round 2 [4.16]); ``own_base``:
    +1 strength over its own airbase; ``sneak``: -1 to its dice; ``kamikaze``: immune to aborts."""

    id: str
    side: str
    strength: int
    quality: int = 0
    fighter: bool = True
    heavy: bool = False
    steps: int = 2
    half_naval: bool = False
    own_base: bool = False
    elite: bool = False
    sneak: bool = False
    kamikaze: bool = False

    def __post_init__(self):
        if self.steps not in (1, 2):
            raise ValueError(f"unit {self.id}: steps {self.steps!r} must be 1 or 2")


@dataclass(frozen=True)
class Engagement:
    """Units of both sides and who attacks whom in each round (``(attacker id, target id)``
    pairs, each attacker at most once a round). Round 2 attacks by or on a unit that is out of
    the fight after round 1 (hit, aborted, eliminated) are not made [4.16]."""

    units: tuple[Flyer, ...]
    round1: tuple[tuple[str, str], ...]
    round2: tuple[tuple[str, str], ...] = ()
    return_fire_on_abort: bool = False  # setting air_return_fire: [4.16] "hit or aborted" vs [4.19] "hit"

    def __post_init__(self):
        ids = [u.id for u in self.units]
        if len(set(ids)) != len(ids):
            raise ValueError(f"engagement: a unit id is given twice ({', '.join(sorted(i for i in ids if ids.count(i) > 1))})")
        by = {u.id: u for u in self.units}
        for rnd, pairs in (("round 1", self.round1), ("round 2", self.round2)):
            seen = set()
            for a, t in pairs:
                for x in (a, t):
                    if x not in by:
                        raise ValueError(f"engagement {rnd}: unknown unit {x!r}")
                if by[a].side == by[t].side:
                    raise ValueError(f"engagement {rnd}: {a} and {t} are on the same side")
                if not by[a].fighter:
                    raise ValueError(f"engagement {rnd}: {a} is not a Fighter-type flying as a fighter: it cannot attack [4.16]")
                if a in seen:
                    raise ValueError(f"engagement {rnd}: {a} attacks twice (one attack a round [4.16])")
                seen.add(a)
            check_targeting(self.units, pairs, rnd)

    def unit(self, uid: str) -> Flyer:
        for u in self.units:
            if u.id == uid:
                return u
        raise KeyError(uid)


def check_targeting(units, pairs, what: str = "round") -> None:
    """[4.16]: no unit is attacked a second time until every opposing unit has been attacked once
    (then twice ...): per attacking side, the counts on the other side's units differ by <= 1."""
    for side in {u.side for u in units}:
        enemies = [u.id for u in units if u.side != side]
        counts = {e: 0 for e in enemies}
        for a, t in pairs:
            if next(u for u in units if u.id == a).side == side:
                counts[t] += 1
        if counts and max(counts.values()) - min(counts.values()) > 1:
            top = max(counts, key=counts.get)
            idle = min(counts, key=counts.get)
            raise ValueError(f"engagement {what}: {top} is attacked {counts[top]} times while {idle} is attacked "
                             f"{counts[idle]} times (targeting restriction [4.16])")


# a unit's state: (hits taken, aborted)
def _out(u: Flyer, st: tuple[int, bool]) -> bool:
    hits, aborted = st
    return hits > 0 or aborted if not u.kamikaze else hits >= u.steps


def _escorting(units_by, pairs, active) -> set[str]:
    """Attackers that get the escort bonus [4.18]: untargeted this round, attacking an enemy
    fighter that attacks one of their side's bombers."""
    targeted = {t for a, t in pairs if a in active and t in active}
    attacks = {a: t for a, t in pairs}
    out = set()
    for a, t in pairs:
        if a in targeted:
            continue
        tt = attacks.get(t)
        if tt is not None and units_by[t].fighter and not units_by[tt].fighter and units_by[tt].side == units_by[a].side:
            out.add(a)
    return out


def _attack_of(a: Flyer, t: Flyer, escort: bool) -> Attack:
    return Attack(strength=a.strength, quality=a.quality, target_quality=t.quality, own_base=a.own_base,
                  escort=escort, elite=a.elite, sneak=a.sneak, kamikaze=t.kamikaze)


def _apply(state: tuple, idx: int, res: str) -> tuple:
    hits, ab = state[idx]
    if res == HIT:
        new = (hits + 1, ab)
    elif res == ABORT:
        new = (hits, True)
    else:
        return state
    return state[:idx] + (new,) + state[idx + 1:]


def _components(eng: Engagement) -> list[list[str]]:
    parent = {u.id: u.id for u in eng.units}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, t in eng.round1 + eng.round2:
        parent[find(a)] = find(t)
    groups: dict[str, list[str]] = {}
    for u in eng.units:
        groups.setdefault(find(u.id), []).append(u.id)
    return list(groups.values())


def summarise(eng: Engagement, members: list[str], state: tuple) -> tuple[int, int, int, int]:
    """(hits on side A, aborts on side A, hits on B, aborts on B): hits are steps lost (a hit
    beyond elimination is lost), aborts count units aborted without a hit. Side A is the side of
    the first unit listed."""
    by = {u.id: u for u in eng.units}
    first = eng.units[0].side
    ah = aa = bh = ba = 0
    for m, (hits, ab) in zip(members, state):
        u = by[m]
        h = min(hits, u.steps)
        a = int(ab and hits == 0 and not u.kamikaze)
        if u.side == first:
            ah, aa = ah + h, aa + a
        else:
            bh, ba = bh + h, ba + a
    return ah, aa, bh, ba


# --------------------------------------------------------------------------------------------
# The exact distribution, counted in whole numbers. A die has six faces, so one attack's outcomes
# have whole-number weights summing to 6 (to 36 when a Heavy Bomber's return-fire die may follow
# [4.19]). A group's states carry whole-number weights over one denominator, the product of the
# totals of every attack the group may make: an attack that is not made (its attacker or target
# out of the fight in round 2) multiplies a state's weight by its total, so every state stays over
# the same denominator. Groups alike in every number are enumerated once. The groups' totals are
# convolved in numpy integers (``rules.odds.convolve_counts``), and a ``Fraction`` is made only for
# a figure that is shown.
# --------------------------------------------------------------------------------------------

_H, _A, _M = 0, 1, 2  # HIT, ABORT, MISS as indices
_CODE = {HIT: _H, ABORT: _A, MISS: _M}
_BITS = 3  # a member's state in its group: hits taken (at most its steps) * 2 + aborted


def attack_outcomes(att: Attack, heavy: bool = False, bomber_quality: int = 0, fighter_quality: int = 0,
                    return_fire_on_abort: bool = False) -> tuple[tuple[tuple[str, str, int], ...], int]:
    """((result on the target, result on the attacker, weight), ...) and the weights' total: the
    faces of the attack's die [4.16]-[4.18] counted (total 6), and if the target is a Heavy Bomber
    the faces of its return-fire die after a hit (or an abort, by the setting) [4.19] (total 36)."""
    faces = [attack_result(att, d) for d in range(1, 7)]
    if not heavy:
        return tuple((r, MISS, faces.count(r)) for r in OUTCOMES if r in faces), 6
    back = [return_fire_result(bomber_quality, fighter_quality, d) for d in range(1, 7)]
    out: list[tuple[str, str, int]] = []
    for r in OUTCOMES:
        n = faces.count(r)
        if not n:
            continue
        if r == HIT or (r == ABORT and return_fire_on_abort):
            out += [(r, b, n * back.count(b)) for b in OUTCOMES if b in back]
        else:
            out.append((r, MISS, n * 6))
    return tuple(out), 36


@lru_cache(maxsize=4096)
def _coded_outcomes(att: Attack, heavy: bool, bomber_quality: int, fighter_quality: int, on_abort: bool):
    outs, total = attack_outcomes(att, heavy, bomber_quality, fighter_quality, on_abort)
    return tuple((_CODE[rt], _CODE[ra], w) for rt, ra, w in outs), total


@lru_cache(maxsize=None)
def _member_codes(steps: int, kamikaze: bool) -> tuple[tuple[tuple[int, ...], ...], tuple[bool, ...]]:
    """For a unit of ``steps`` steps: by result (hit, abort, miss) and code (hits * 2 + aborted),
    how much its code changes; and by code, whether it is out of the fight [4.16]."""
    u = Flyer("", "", 0, steps=steps, kamikaze=kamikaze)
    change = []
    for res in (_H, _A, _M):
        row = []
        for code in range(1 << _BITS):
            hits, aborted = code >> 1, code & 1
            if res == _H:
                hits = min(hits + 1, steps)  # a hit beyond the last step changes nothing that is counted
            elif res == _A:
                aborted = 1
            row.append(hits * 2 + aborted - code)
        change.append(tuple(row))
    return tuple(change), tuple(_out(u, (c >> 1, bool(c & 1))) for c in range(1 << _BITS))


def _group_weights(eng: Engagement, units: list[Flyer]) -> tuple[dict[int, int], int]:
    """The group's states after both rounds, each a whole-number weight over one denominator:
    ({state: weight}, denominator). A state packs each member's (hits, aborted) in 3 bits."""
    pos = {u.id: i for i, u in enumerate(units)}
    by = {u.id: u for u in units}
    shift = [i * _BITS for i in range(len(units))]
    # delta[i][result][code]: what a result on member i adds to a state where i's code is `code`
    delta = [[[d << shift[i] for d in row] for row in _member_codes(u.steps, u.kamikaze)[0]] for i, u in enumerate(units)]
    out_of_fight = [_member_codes(u.steps, u.kamikaze)[1] for u in units]
    every = (1 << len(units)) - 1
    tables: dict = {}

    def table(a: str, t: str, esc: bool):
        if (a, t, esc) not in tables:
            tables[a, t, esc] = _coded_outcomes(_attack_of(by[a], by[t], esc), by[t].heavy, by[t].quality,
                                                by[a].quality, eng.return_fire_on_abort)
        return tables[a, t, esc]

    dist, den = {0: 1}, 1
    for rnd, pairs in ((1, eng.round1), (2, eng.round2)):
        can = [(a, t) for a, t in pairs if a in pos and not (rnd == 2 and by[a].half_naval)]
        if not can:
            continue
        totals = {a: table(a, t, False)[1] for a, t in can}
        # the states grouped by who is still in the fight (round 1: everyone)
        groups: dict[int, dict[int, int]] = {}
        if rnd == 1:
            groups[every] = dist
        else:
            for s, w in dist.items():
                mask = 0
                for i, sh in enumerate(shift):
                    if not out_of_fight[i][(s >> sh) & 7]:
                        mask |= 1 << i
                groups.setdefault(mask, {})[s] = w
        new: dict[int, int] = {}
        for mask, cur in groups.items():
            active = {u.id for i, u in enumerate(units) if mask >> i & 1}
            made = [(a, t) for a, t in can if a in active and t in active]
            esc = _escorting(by, made, active)
            skipped = math.prod(totals[a] for a, t in can if (a, t) not in made)
            if skipped != 1:
                cur = {s: w * skipped for s, w in cur.items()}
            for a, t in made:  # results noted against the state at the start of the round
                outcomes = table(a, t, a in esc)[0]
                ia, it = pos[a], pos[t]
                sa, st, da, dt = shift[ia], shift[it], delta[ia], delta[it]
                nxt: dict[int, int] = {}
                for s, w in cur.items():
                    ca, ct = (s >> sa) & 7, (s >> st) & 7
                    for rt, ra, wt in outcomes:
                        s2 = s + dt[rt][ct] + da[ra][ca]
                        nxt[s2] = nxt.get(s2, 0) + w * wt
                cur = nxt
            for s, w in cur.items():
                new[s] = new.get(s, 0) + w
        dist = new
        den *= math.prod(totals[a] for a, _ in can)
    g = math.gcd(den, *dist.values())
    return {s: w // g for s, w in dist.items()}, den // g


@dataclass(frozen=True)
class EngagementOdds:
    """The exact distribution of an engagement as whole numbers over one denominator: outcome
    ``outcomes[i]`` = (A hits, A aborts, B hits, B aborts) has probability ``numerators[i] /
    denominator``; ``units``: each unit's chance to be hit, eliminated, aborted (without a hit)."""

    outcomes: np.ndarray      # (n, 4) int64
    numerators: np.ndarray    # (n,) uint64 while the denominator is below 2**64, else Python integers (object)
    denominator: int
    units: dict[str, dict[str, Fraction]]

    def fractions(self) -> dict[tuple[int, int, int, int], Fraction]:
        """Every outcome's probability as a ``Fraction``."""
        d = self.denominator
        return {(a, b, c, e): Fraction(int(n), d) for (a, b, c, e), n in zip(self.outcomes.tolist(), self.numerators.tolist())}

    def marginal(self, i: int) -> dict[int, Fraction]:
        """The distribution of one count (0 A hits, 1 A aborts, 2 B hits, 3 B aborts), summed in
        whole numbers, each value's probability made a ``Fraction`` once."""
        sums: dict[int, int] = {}
        for v, n in zip(self.outcomes[:, i].tolist(), self.numerators.tolist()):
            sums[v] = sums.get(v, 0) + int(n)
        return {v: Fraction(n, self.denominator) for v, n in sorted(sums.items())}


def _signature(eng: Engagement, units: list[Flyer], first: str) -> tuple:
    """Two groups with equal signatures have equal distributions, member by member."""
    pos = {u.id: i for i, u in enumerate(units)}
    return (tuple((u.side == first, u.strength, u.quality, u.fighter, u.heavy, u.steps, u.half_naval, u.own_base,
                   u.elite, u.sneak, u.kamikaze) for u in units),
            tuple((pos[a], pos[t]) for a, t in eng.round1 if a in pos),
            tuple((pos[a], pos[t]) for a, t in eng.round2 if a in pos), eng.return_fire_on_abort)


def engagement_odds(eng: Engagement) -> EngagementOdds:
    """The exact distribution of (A hits, A aborts, B hits, B aborts) of the whole engagement, in
    whole numbers over one denominator, and each unit's chance to be hit, eliminated, aborted
    (without a hit). Side A is the side of the first unit listed. Units that never meet (no
    attack between their groups) are independent: each group is enumerated on its own (groups
    alike in every number once), and the groups' totals convolved."""
    import numpy as np

    first = eng.units[0].side if eng.units else None
    by = {u.id: u for u in eng.units}
    side_a = [u for u in eng.units if u.side == first]
    side_b = [u for u in eng.units if u.side != first]
    # the key of (ah, aa, bh, ba): a mixed-radix number, each digit at most the side's total
    radix = (sum(u.steps for u in side_a) + 1, sum(not u.kamikaze for u in side_a) + 1,
             sum(u.steps for u in side_b) + 1, sum(not u.kamikaze for u in side_b) + 1)
    stride = (radix[1] * radix[2] * radix[3], radix[2] * radix[3], radix[3], 1)
    memo: dict = {}
    parts = []
    per_unit: dict[str, dict[str, Fraction]] = {}
    for members in _components(eng):
        units = [by[m] for m in members]
        sig = _signature(eng, units, first)
        if sig not in memo:
            dist, den = _group_weights(eng, units)
            # each member's contribution to the key, by its code; and each member's weight by code
            contrib = []
            for u in units:
                h, a = (0, 1) if u.side == first else (2, 3)
                contrib.append([(c >> 1) * stride[h] + ((c & 1) and not (c >> 1) and not u.kamikaze) * stride[a]
                                for c in range(1 << _BITS)])
            summ: dict[int, int] = {}
            by_code = [[0] * (1 << _BITS) for _ in units]
            for s, w in dist.items():
                k = 0
                for i, row in enumerate(contrib):
                    c = (s >> (i * _BITS)) & 7
                    k += row[c]
                    by_code[i][c] += w
                summ[k] = summ.get(k, 0) + w
            ks = sorted(summ)
            unit_odds = []
            for u, row in zip(units, by_code):
                hit = sum(w for c, w in enumerate(row) if c >> 1)
                gone = sum(w for c, w in enumerate(row) if c >> 1 >= u.steps)
                ab = 0 if u.kamikaze else sum(w for c, w in enumerate(row) if c & 1 and not c >> 1)
                unit_odds.append({"hit": Fraction(hit, den), "eliminated": Fraction(gone, den), "aborted": Fraction(ab, den)})
            memo[sig] = (ks, [summ[k] for k in ks], den, unit_odds)
        ks, ws, den, unit_odds = memo[sig]
        parts.append((ks, ws, den))
        for m, d in zip(members, unit_odds):
            per_unit[m] = dict(d)
    denominator = math.prod(den for _, _, den in parts)
    keys, weights = convolve_counts([(ks, ws) for ks, ws, _ in parts], denominator)
    outcomes = np.stack([keys // stride[0], keys // stride[1] % radix[1], keys // stride[2] % radix[2], keys % radix[3]], 1)
    return EngagementOdds(outcomes, weights, denominator, per_unit)


def engagement_dist(eng: Engagement) -> tuple[dict[tuple[int, int, int, int], Fraction], dict[str, dict[str, Fraction]]]:
    """The exact distribution of (A hits, A aborts, B hits, B aborts) of the whole engagement as
    ``Fraction``s, and each unit's chance to be hit, eliminated, aborted (without a hit)
    (``engagement_odds`` in fractions)."""
    odds = engagement_odds(eng)
    return odds.fractions(), odds.units


def simulate_engagement(eng: Engagement, rng) -> tuple[int, int, int, int]:
    """One engagement with random dice (``rng.randint``), by the same rules, one trial at a time:
    a check of the exact odds by sampling (the tests)."""
    members = [u.id for u in eng.units]
    by = {u.id: u for u in eng.units}
    pos = {m: i for i, m in enumerate(members)}
    state = tuple((0, False) for _ in members)
    for rnd, pairs in ((1, eng.round1), (2, eng.round2)):
        active = {m for m in members if rnd == 1 or not _out(by[m], state[pos[m]])}
        made = [(a, t) for a, t in pairs if a in active and t in active and not (rnd == 2 and by[a].half_naval)]
        esc = _escorting(by, made, active)
        for a, t in made:
            res = attack_result(_attack_of(by[a], by[t], a in esc), rng.randint(1, 6))
            state = _apply(state, pos[t], res)
            if by[t].heavy and (res == HIT or (res == ABORT and eng.return_fire_on_abort)):
                state = _apply(state, pos[a], return_fire_result(by[t].quality, by[a].quality, rng.randint(1, 6)))
    return summarise(eng, members, state)
