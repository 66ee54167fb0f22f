"""apto air-to-air combat: one attack [4.16]-[4.18], heavy-bomber return fire [4.19], and their
exact distributions (every face of the die enumerated, ``Fraction`` probabilities).

An attack's "air target number" is the attacker's strength + its quality - the target's quality
[4.16], strength modifiers added first (+1 over its own airbase, +1 escorting an attacked bomber,
+1 Elite Pilots [4.18]); die modifiers (Sneak Attack -1, Strafing +1 [4.18]) change the roll but
never a physical 5 or 6 [4.16].
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

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


@lru_cache(maxsize=4096)
def _adist(att: Attack):
    return attack_dist(att)


def _apply(state: tuple, idx: int, res: str) -> tuple:
    hits, ab = state[idx]
    if res == HIT:
        new = (hits + 1, ab)
    elif res == ABORT:
        new = (hits, True)
    else:
        return state
    return state[:idx] + (new,) + state[idx + 1:]


def _round(eng: Engagement, members: list[str], dist: dict, pairs, rnd: int) -> dict:
    by = {u.id: u for u in eng.units}
    pos = {m: i for i, m in enumerate(members)}
    out: dict = {}
    for state, p in dist.items():
        active = {m for m in members if not _out(by[m], state[pos[m]])} if rnd == 2 else set(members)
        made = [(a, t) for a, t in pairs if a in pos and a in active and t in active
                and not (rnd == 2 and by[a].half_naval)]
        esc = _escorting(by, made, active)
        cur = {state: p}
        for a, t in made:  # results noted against the state at the start of the round
            att = _attack_of(by[a], by[t], a in esc)
            dd = _adist(att)
            heavy = by[t].heavy
            nxt: dict = {}
            for s, ps in cur.items():
                for res, pr in dd.items():
                    if not pr:
                        continue
                    s2 = _apply(s, pos[t], res)
                    fires = heavy and (res == HIT or (res == ABORT and eng.return_fire_on_abort))
                    if fires:
                        for rf, prf in return_fire_dist(by[t].quality, by[a].quality).items():
                            if prf:
                                s3 = _apply(s2, pos[a], rf)
                                nxt[s3] = nxt.get(s3, 0) + ps * pr * prf
                    else:
                        nxt[s2] = nxt.get(s2, 0) + ps * pr
            cur = nxt
        for s, ps in cur.items():
            out[s] = out.get(s, 0) + ps
    return out


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


def component_states(eng: Engagement, members: list[str]) -> dict:
    """The exact joint distribution of the members' (hits, aborted) after both rounds."""
    dist = {tuple((0, False) for _ in members): Fraction(1)}
    dist = _round(eng, members, dist, eng.round1, 1)
    if eng.round2:
        dist = _round(eng, members, dist, eng.round2, 2)
    return dist


def engagement_dist(eng: Engagement) -> tuple[dict[tuple[int, int, int, int], Fraction], dict[str, dict[str, Fraction]]]:
    """The exact distribution of (A hits, A aborts, B hits, B aborts) of the whole engagement,
    and each unit's chance to be hit, eliminated, aborted (without a hit). Units that never meet
    (no attack between their groups) are independent: each group is enumerated on its own and the
    groups' totals convolved."""
    from ..odds import convolve

    by = {u.id: u for u in eng.units}
    total: dict = {(0, 0, 0, 0): Fraction(1)}
    per_unit: dict[str, dict[str, Fraction]] = {}
    add = lambda x, y: tuple(i + j for i, j in zip(x, y))  # noqa: E731
    for members in _components(eng):
        states = component_states(eng, members)
        summ: dict = {}
        for s, p in states.items():
            k = summarise(eng, members, s)
            summ[k] = summ.get(k, 0) + p
            for m, (hits, ab) in zip(members, s):
                d = per_unit.setdefault(m, {"hit": Fraction(0), "eliminated": Fraction(0), "aborted": Fraction(0)})
                if hits:
                    d["hit"] += p
                if hits >= by[m].steps:
                    d["eliminated"] += p
                if ab and not hits and not by[m].kamikaze:
                    d["aborted"] += p
        total = convolve(total, summ, add)
    return total, per_unit


def simulate_engagement(eng: Engagement, rng) -> tuple[int, int, int, int]:
    """One engagement with random dice (``rng.randint``), by the same rules: the Monte Carlo
    baseline of the benchmark."""
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
