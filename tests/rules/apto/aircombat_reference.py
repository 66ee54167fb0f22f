"""The engagement enumeration as it was first written, kept as the reference the faster one is
checked against: every state of a group of units that meet, attack by attack, each
probability a ``Fraction``, the groups' totals convolved as ``Fraction`` dictionaries.

It uses only the one-attack rules of ``assistant.rules.apto.aircombat`` (``attack_dist``,
``return_fire_dist``, ``Attack``); how an engagement is played out ([4.16]: two rounds, the
targeting of the units still in the fight, the escort bonus [4.18], return fire [4.19]) is
written out again here, so a change to the fast engine's bookkeeping cannot change the reference.
"""

from __future__ import annotations

from fractions import Fraction

from assistant.rules.apto.aircombat import ABORT, HIT, Attack, Engagement, Flyer, attack_dist, return_fire_dist
from assistant.rules.odds import convolve


def _out(u: Flyer, st: tuple[int, bool]) -> bool:
    hits, aborted = st
    return hits > 0 or aborted if not u.kamikaze else hits >= u.steps


def _escorting(units_by, pairs, active) -> set[str]:
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
        for a, t in made:
            dd = attack_dist(_attack_of(by[a], by[t], a in esc))
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


def _summarise(eng: Engagement, members: list[str], state: tuple) -> tuple[int, int, int, int]:
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


def engagement_dist(eng: Engagement):
    """(joint {(A hits, A aborts, B hits, B aborts): Fraction}, {unit: {hit, eliminated, aborted}})."""
    by = {u.id: u for u in eng.units}
    total: dict = {(0, 0, 0, 0): Fraction(1)}
    per_unit: dict[str, dict[str, Fraction]] = {}
    add = lambda x, y: tuple(i + j for i, j in zip(x, y))  # noqa: E731
    for members in _components(eng):
        states = {tuple((0, False) for _ in members): Fraction(1)}
        states = _round(eng, members, states, eng.round1, 1)
        if eng.round2:
            states = _round(eng, members, states, eng.round2, 2)
        summ: dict = {}
        for s, p in states.items():
            k = _summarise(eng, members, s)
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
