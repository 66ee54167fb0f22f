"""``campaign odds globalwar raid ...``: exact odds of an LRB raid [17.3.1] on the player's CRTs,
no campaign needed: ADs over the target roll the AD-to-LRB CRT under AD strength minus LRB defence
[17.3.1.B], the surviving LRBs' strength is the LRB CRT column [17.3.1.C] (24.5). The CRTs are the
player's CSV files (``data/games/globalwar/templates``); a die face whose cell is not entered is an
outcome named as such, never a guess."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import networkx as nx

from ..calculators import whole_number
from ..control import Control
from ..strike import Launch, StrikePlan
from ..world import Piece, World
from . import airtables as T
from .air import RULES

MAX_UNITS = 60


def _table(spec: str) -> tuple[str, list[dict[str, str]]]:
    name, eq, path = spec.partition("=")
    name, path = name.strip(), path.strip()
    if not eq or name not in (T.AD_LRB_CRT, T.LRB_CRT) or not path:
        raise ValueError(f"--table {spec!r} must be {T.AD_LRB_CRT}=CSV or {T.LRB_CRT}=CSV")
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"table {name}: cannot read {path}: {e.__class__.__name__}") from None
    rows = list(csv.DictReader(text.splitlines()))
    if not rows:
        raise ValueError(f"table {name}: {path} has no rows under a header")
    return name, rows


class Raid:
    help = "an LRB raid on the player's AD-to-LRB and LRB CRTs [17.3.1] (24.5)"

    def add_arguments(self, p) -> None:
        p.add_argument("--ads", type=whole_number("ads", 0, 10), default=0, help="ADs over the target (at most 10 [17.2.2])")
        p.add_argument("--ad-attack", type=whole_number("ad attack", 0, 99), default=0, help="strength of each AD")
        p.add_argument("--lrbs", type=whole_number("lrbs", 1, MAX_UNITS), required=True, help="LRBs in the raid")
        p.add_argument("--lrb-attack", type=whole_number("lrb attack", 0, 99), required=True, help="LRB CRT strength of each LRB")
        p.add_argument("--lrb-defence", type=whole_number("lrb defence", 0, 99), default=0, help="defence of each LRB against ADs")
        p.add_argument("--table", action="append", default=[], metavar="NAME=CSV",
                       help=f"{T.AD_LRB_CRT}=CSV and/or {T.LRB_CRT}=CSV (templates/README.md)")

    def compute(self, args: Any) -> dict:
        tables = dict(_table(s) for s in args.table)
        g = nx.Graph()
        g.add_node("T")
        g.add_node("B")
        pieces = [Piece(id=f"ad{i}", side="defender", kind="AD", role="air", hex="T", attrs={"attack": args.ad_attack})
                  for i in range(1, args.ads + 1)]
        pieces.append(Piece(id="ih", side="defender", kind="Industrial Hex", role="industrial_hex", hex="T",
                            category="installation"))  # what the raid attacks [17.3.A]
        pieces += [Piece(id=f"lrb{i}", side="attacker", kind="LRB", role="air", hex="B",
                         attrs={"attack": args.lrb_attack, "defence": args.lrb_defence}) for i in range(1, args.lrbs + 1)]
        world = World(game="globalwar", graph=g, pieces=tuple(pieces), control=Control.build(g, {}),
                      settings={"air_pp_loss_cap": "none"}, sides={"attacker": (), "defender": ()}, tables=tables)
        plan = StrikePlan(side="attacker", target="T", launches=(Launch("B", tuple(p.id for p in pieces if p.kind == "LRB")),))
        raid = RULES.raid(world, plan)
        odds, missing = RULES.raid_odds(world, raid)
        return {"differential": raid.differential if raid.ads else None, "ad_strength": raid.ad_strength,
                "lrb_defence": raid.lrb_defence, "lrb_strength": raid.surviving_strength(set()), **odds,
                "missing": [{"rule": r, "text": t} for r, t in missing]}

    def text(self, payload: dict) -> str:
        lines = []
        if payload["differential"] is not None:
            lines.append(f"AD {payload['ad_strength']} - LRB defence {payload['lrb_defence']} = {payload['differential']:+d} [17.3.1.B]")
            lines.append("AD-to-LRB: " + "  ".join(f"{k} {v['fraction']}" for k, v in payload["ad_vs_lrb"].items()))
        lines.append("PP lost: " + "  ".join(f"{k} {v['fraction']} ({v['p']:.4f})" for k, v in payload["pp_lost"].items()))
        lines += [f"[{m['rule']}] {m['text']}" for m in payload["missing"]]
        return "\n".join(lines)


CALCULATORS = {"raid": Raid()}
