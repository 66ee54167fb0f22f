"""Hand-built worlds for Global War's air rules: gwkit's maps (hex (c, r) labelled CCRR, the hop
count is the hex distance) with the turn and the player's tables the strike rules read."""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Optional

import networkx as nx

from assistant.rules.control import Control
from assistant.rules.strike import Launch, StrikePlan
from assistant.rules.world import Piece, World
from gwkit import NATION_SIDE, hexgrid, lab, piece, set_hexes, sides  # noqa: F401

# The only cells of the air CRTs the rulebook reveals (24.5.A, 24.5.B): test fixtures, not data.
AD_24_5 = [{"differential": "+4", "die": "4", "ad_destroyed": "1", "lrb_destroyed": "0", "lrb_aborted": "1"}]
LRB_24_5 = [{"differential": "+6", "die": "3", "pp_lost": "8"}]


def radius_rows(*rows: tuple[int, str, int]) -> list[dict[str, str]]:
    return [{"turn": str(t), "nation": n, "radius": str(r)} for t, n, r in rows]


def air_world(g: nx.Graph, pieces: Iterable[Piece], *, turn: Optional[int] = 20,
              tables: Optional[Mapping[str, Any]] = None, settings: Optional[Mapping[str, Any]] = None,
              control: Optional[Mapping[str, str]] = None) -> World:
    pieces = tuple(pieces)
    ctl = Control.build(g, NATION_SIDE, hexes=control or {}, pieces=pieces)
    return World(game="globalwar", graph=g, pieces=pieces, control=ctl, settings=dict(settings or {}),
                 sides=sides(), tables=dict(tables or {}), turn=turn)


def lrb(pid: str, hex_: str, nation: str = "us", **attrs: Any) -> Piece:
    """An LRB with 24.5's implied values (defence 4, attack 2), maintained, unless told otherwise."""
    return piece(pid, hex_, "LRB", nation, **{"attack": 2, "defence": 4, "maintained": "yes", **attrs})


def ad(pid: str, hex_: str, nation: str = "germany", **attrs: Any) -> Piece:
    """An AD with 24.5's implied strength 4."""
    return piece(pid, hex_, "AD", nation, **{"attack": 4, **attrs})


def plan(side: str, target: str, world: World, *ids: str, **kw: Any) -> StrikePlan:
    by: dict[str, list[str]] = {}
    for i in ids:
        by.setdefault(world.piece(i).hex, []).append(i)
    return StrikePlan(side=side, target=target, launches=tuple(Launch(b, tuple(u)) for b, u in by.items()), **kw)


def levels(findings, level: str) -> list[str]:
    return [f.rule for f in findings if f.level == level]


def write_csv(path, rows) -> str:
    """``rows`` (dicts with the same keys) as a CSV file at ``path``, as a player exports a filled table."""
    import csv

    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return str(path)
