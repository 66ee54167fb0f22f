"""``campaign odds apto ...``: exact odds of apto's air dice, no campaign needed.

``air-attack`` (one air-combat attack [4.16]-[4.18]), ``return-fire`` ([4.19]), ``air-naval`` (one
attack and a bomber's series of attacks on one ship [4.20]-[4.21]) and ``engagement`` (both rounds
of an air combat for a stated assignment of attackers to targets [4.16]-[4.19]). Every die face is
enumerated (``assistant.rules.odds``): probabilities are exact fractions, shown also as floats.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from ..calculators import whole_number
from ..odds import as_json, check
from .aircombat import OUTCOMES, Attack, Engagement, Flyer, attack_dist, engagement_odds, return_fire_dist
from .airnaval import NavalAttack, aa_value, attack_odds, attacks_per_bomber, series_odds


def _fmt(d: dict) -> str:
    return "  ".join(f"{k} {v['fraction']} ({v['p']:.4f})" for k, v in d.items())


@dataclass(frozen=True)
class Calc:
    help: str
    add: Callable
    run: Callable
    show: Callable

    def add_arguments(self, p) -> None:
        self.add(p)

    def compute(self, args) -> dict:
        return self.run(args)

    def text(self, payload: dict) -> str:
        return self.show(payload)


def _switches(p, helps: dict[str, str]) -> None:
    """On/off options (each a modifier or a circumstance the rules name), with their help."""
    for flag, help_ in helps.items():
        p.add_argument(flag, action="store_true", help=help_)


def _air_attack_args(p) -> None:
    p.add_argument("--strength", required=True, type=whole_number("strength", 0, 99), help="attacker's printed strength")
    p.add_argument("--quality", type=whole_number("quality", 0, 9), default=0, help="attacker's quality (none = 0)")
    p.add_argument("--target-quality", type=whole_number("target quality", 0, 9), default=0, help="target's quality")
    _switches(p, {
        "--own-base": "+1 strength over its own airbase [4.18]",
        "--escort": "+1 strength, escort bonus [4.18]",
        "--elite": "+1 strength, Elite Pilots [11.46]",
        "--sneak": "-1 to the die, Sneak Attack [4.18]",
        "--strafe": "+1 to the die, strafing [4.18]",
        "--kamikaze": "the target flies as a Kamikaze: immune to aborts [4.16]",
    })


def _air_attack(a) -> dict:
    att = Attack(strength=a.strength, quality=a.quality, target_quality=a.target_quality, own_base=a.own_base,
                 escort=a.escort, elite=a.elite, sneak=a.sneak, strafe=a.strafe, kamikaze=a.kamikaze)
    out = as_json(check(attack_dist(att)), OUTCOMES)
    out["target_number"] = att.target_number
    out["rule"] = "[4.16]-[4.18]"
    return out


def _return_fire_args(p) -> None:
    p.add_argument("--bomber-quality", required=True, type=whole_number("bomber quality", 0, 9))
    p.add_argument("--fighter-quality", required=True, type=whole_number("fighter quality", 0, 9))


def _return_fire(a) -> dict:
    out = as_json(check(return_fire_dist(a.bomber_quality, a.fighter_quality)), OUTCOMES)
    out["rule"] = "[4.19]"
    return out


def _naval_args(p) -> None:
    p.add_argument("--armor", required=True, type=whole_number("armor", 0, 30), help="target's printed armor")
    p.add_argument("--attacker", choices=("land", "naval_air"), default="land",
                   help="land-based Bomber-type or Naval-Air unit [4.20]")
    _switches(p, {
        "--named": "target is a CV/CVL/BB/BBCV/CA/Raider",
        "--underscored": "bomber's strength is underscored",
        "--in-port": "+2, target in port",
        "--sneak": "+1 Japanese Naval-Air, first Sneak Attack month",
        "--heavy": "-1 Heavy Bomber (not vs STPs)",
        "--vs-stp": "target is an STP",
        "--japanese-vs-sub": "-1 Japanese air unit vs a submarine",
        "--kamikaze": "+2 flat, replaces the other modifiers [10.7]",
        "--damaged": "target already damaged/depleted: a hit sinks",
    })
    p.add_argument("--aa", type=whole_number("AA value", 0, 4), default=None, help="the AA value (else from --gunnery)")
    p.add_argument("--gunnery", type=whole_number("gunnery", 0, 999), default=0, help="total current gunnery in the location [4.21]")
    p.add_argument("--port", choices=("none", "minor", "major", "fortified"), default="none", help="docked in a friendly port [4.21]")
    _switches(p, {
        "--dd-screen": "+1 AA: DDs >= the other chits, or an undamaged named carrier [4.21]",
        "--us-1944": "+1 AA: >= 50%% US units, 1944 or later [4.21]",
        "--dd-present": "a DD is present: a roll of 2 is always an AA hit [4.21]",
    })
    p.add_argument("--strength", type=whole_number("strength", 0, 99), default=None,
                   help="bomber's printed strength: adds the series of its attacks on this ship [4.20]")
    p.add_argument("--steps", type=whole_number("steps", 1, 2), default=2, help="bomber's steps left (AA hits to eliminate it)")


def _naval(a) -> dict:
    att = NavalAttack(armor=a.armor, attacker=a.attacker, named=a.named, underscored=a.underscored, in_port=a.in_port,
                      sneak=a.sneak, heavy=a.heavy, vs_stp=a.vs_stp, japanese_vs_sub=a.japanese_vs_sub,
                      kamikaze=a.kamikaze, damaged=a.damaged)
    aa = a.aa if a.aa is not None else aa_value([a.gunnery], port=a.port, dd_screen=a.dd_screen, us_1944=a.us_1944)
    one = check(attack_odds(att, aa, a.dd_present))
    res = {k: sum((p for (r, _), p in one.items() if r == k), Fraction(0)) for k in ("miss", "hit", "sink")}
    aa_d = {k: sum((p for (_, h), p in one.items() if h == k), Fraction(0)) for k in (True, False)}
    out: dict[str, Any] = as_json(res, ("hit", "sink", "miss"))
    out["aa_hit"] = as_json({"yes": aa_d[True], "no": aa_d[False]}, ("yes", "no"))
    out.update(modifier=att.modifier, aa_value=aa, rule="[4.20]-[4.21]")
    if a.strength is not None:
        n = attacks_per_bomber(a.strength, a.underscored)
        ser = check(series_odds(att, aa, n, steps=a.steps, dd_present=a.dd_present))
        out["attacks"] = n
        out["series"] = as_json({f"ship {s}, bomber {b}": p for (s, b), p in ser.items()})
    return out


def _naval_text(p: dict) -> str:
    lines = [f"one attack (modifier {p['modifier']:+d}, AA {p['aa_value']}): " + _fmt({k: p[k] for k in ("hit", "sink", "miss")}),
             "AA hit on the bomber: " + _fmt(p["aa_hit"])]
    if "series" in p:
        lines.append(f"{p['attacks']} attacks on this ship:")
        lines += [f"  {k}: {v['fraction']} ({v['p']:.4f})" for k, v in p["series"].items()]
    return "\n".join(lines)


UNIT = re.compile(r"^\s*([A-Za-z0-9_.\-]{1,40})\s*=\s*([FBH])([0-9]{1,2})/([0-9])([a-z]*)\s*$")
FLAGS = {"d": "depleted or one-step (1 step)", "n": "half-step Naval-Air (no attack in round 2)",
         "o": "over its own airbase (+1)", "e": "Elite Pilots (+1)", "s": "Sneak Attack (-1 to its dice)",
         "k": "Kamikaze (immune to aborts)"}


def parse_units(text: str, side: str) -> list[Flyer]:
    """``ID=F4/3,ID=H20/4d``: F a Fighter-type flying as a fighter, B a bomber (or FB/N in the
    bomber role), H a Heavy Bomber; strength/quality; flags: d n o e s k (see FLAGS)."""
    out = []
    for item in [x for x in text.split(",") if x.strip()]:
        m = UNIT.match(item)
        if not m:
            raise ValueError(f"unit {item.strip()!r} must be ID=F|B|H<strength>/<quality>[flags], e.g. K1=F4/4")
        uid, kind, s, q, flags = m.groups()
        bad = set(flags) - set(FLAGS)
        if bad:
            raise ValueError(f"unit {uid}: flag {''.join(sorted(bad))!r} is not one of {''.join(FLAGS)}")
        out.append(Flyer(id=uid, side=side, strength=int(s), quality=int(q), fighter=kind == "F", heavy=kind == "H",
                         steps=1 if "d" in flags else 2, half_naval="n" in flags, own_base="o" in flags,
                         elite="e" in flags, sneak="s" in flags, kamikaze="k" in flags))
    if not out:
        raise ValueError(f"side {side}: no units given")
    return out


def parse_assign(text: str) -> tuple[tuple[str, str], ...]:
    out = []
    for item in [x for x in (text or "").split(",") if x.strip()]:
        a, sep, t = item.partition(">")
        if not sep or not a.strip() or not t.strip():
            raise ValueError(f"assignment {item.strip()!r} must be ATTACKER>TARGET")
        out.append((a.strip(), t.strip()))
    return tuple(out)


def _eng_args(p) -> None:
    p.add_argument("--attackers", required=True, help="side A (first in the hex): ID=F4/3,ID=H20/4d,... "
                   "(F fighter-type, B bomber, H heavy bomber; flags d depleted/one-step, n half-step Naval-Air, "
                   "o own base, e elite, s sneak, k kamikaze)")
    p.add_argument("--defenders", required=True, help="side B, same form")
    p.add_argument("--assign", required=True, help="round 1 attacks of both sides: A>T,A>T,...")
    p.add_argument("--assign2", default=None, help="round 2 attacks (default: the round 1 assignment); attacks by "
                   "or on units out of the fight after round 1 are not made")
    p.add_argument("--return-fire-on-abort", action="store_true",
                   help="heavy bombers return fire when aborted too ([4.16] wording; setting air_return_fire)")


def _engagement(a) -> dict:
    units = tuple(parse_units(a.attackers, "A") + parse_units(a.defenders, "B"))
    r1 = parse_assign(a.assign)
    r2 = parse_assign(a.assign2) if a.assign2 is not None else r1
    eng = Engagement(units=units, round1=r1, round2=r2, return_fire_on_abort=a.return_fire_on_abort)
    odds = engagement_odds(eng)
    if sum(int(n) for n in odds.numerators.tolist()) != odds.denominator:  # sums to exactly 1, in whole numbers
        raise ValueError(f"engagement odds sum to {sum(int(n) for n in odds.numerators.tolist())}/{odds.denominator}, not 1")
    total = odds.fractions()
    marg = {}
    for i, (side, what) in enumerate((("A", "hits"), ("A", "aborts"), ("B", "hits"), ("B", "aborts"))):
        marg.setdefault(side, {})[what] = as_json(odds.marginal(i))
    joint = as_json({f"A {k[0]} hits {k[1]} aborts / B {k[2]} hits {k[3]} aborts": p for k, p in total.items()})
    return {"sides": marg, "joint": joint,
            "units": {u: as_json(d, ("hit", "eliminated", "aborted")) for u, d in odds.units.items()},
            "rule": "[4.16]-[4.19]"}


def _eng_text(p: dict) -> str:
    lines = []
    for side, d in p["sides"].items():
        for what, dist in d.items():
            lines.append(f"side {side} {what}: " + _fmt(dist))
    for u, d in p["units"].items():
        lines.append(f"  {u}: " + _fmt(d))
    return "\n".join(lines)


CALCULATORS = {
    "air-attack": Calc("one air-combat attack: hit / abort / miss [4.16]-[4.18]", _air_attack_args, _air_attack,
                       lambda p: f"target number {p['target_number']}: " + _fmt({k: p[k] for k in OUTCOMES})),
    "return-fire": Calc("heavy-bomber return fire on the fighter that hit it [4.19]", _return_fire_args, _return_fire,
                        lambda p: _fmt({k: p[k] for k in OUTCOMES})),
    "air-naval": Calc("one air-naval attack (hit / sink / miss, AA hit) and a bomber's series on one ship [4.20]-[4.21]",
                      _naval_args, _naval, _naval_text),
    "engagement": Calc("a whole air combat (both rounds, targeting restriction, return fire) for a stated assignment "
                       "[4.16]-[4.19]", _eng_args, _engagement, _eng_text),
}
