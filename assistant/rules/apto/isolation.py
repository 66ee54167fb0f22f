"""The isolation test of home supply sources [7.8].

Each home supply source of a nation must connect by a line of supply to at least one other home
source of the same nation; if it cannot, it is isolated (and supplies nobody itself; only the
Sea Supply chits placed there do). Exceptions: minor nations are never isolated; permanent
fortresses never are; a home-source port is isolated only if its port is destroyed or an enemy
naval unit with a gunnery rating of at least 0 occupies the port hex. A nation with a single
home source: setting ``supply_single_home_source``.

Hex attributes read: ``port``, ``port_destroyed``, ``permanent_fort``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from ..hexnet import truthy
from ..supply import SupplyWorld
from .lines import Lines
from .pieces import printed
from .sources import MINOR_NATIONS, Source, hex_attr


@dataclass(frozen=True)
class Isolation:
    source: Source
    captured: bool
    isolated: bool
    why: str  # one line: why it is (not) isolated, citing the rule

    @property
    def works(self) -> bool:
        return not self.captured and not self.isolated


def fortress(world: SupplyWorld, label: str) -> bool:
    if truthy(hex_attr(world, label, "permanent_fort")):
        return True
    return any(p.role == "fortification" and p.kind.strip().lower() == "permanent fortification"
               and truthy(p.attrs.get("functional", True)) for p in world.at(label))


def blockade(world: SupplyWorld, label: str, side: str) -> Optional[str]:
    """Why the port at ``label`` may be isolated (destroyed, or an enemy ship with gunnery >= 0)."""
    if truthy(hex_attr(world, label, "port_destroyed")):
        return "its port is destroyed"
    for p in world.at(label):
        if p.side != side and p.role == "naval":
            g = printed(p, "gunnery")
            if g is not None and g >= 0:
                return f"enemy naval unit {p.id} (gunnery {g}) is in the port hex"
    return None


def isolation(world: SupplyWorld, side: str, lines: Lines, sources: list[Source]) -> dict[str, Isolation]:
    """The [7.8] test for each home source (by hex) of ``side``'s nations."""
    nations = set(world.sides.get(side, ()))
    mine = [s for s in sources if s.nation in nations]
    out: dict[str, Isolation] = {}
    by_nation: dict[str, list[Source]] = {}
    for s in mine:
        captured = world.control.owner(s.hex) != side
        if captured:
            out[s.hex] = Isolation(s, True, False, f"{s.hex} is captured: no source until recaptured [7.0]")
        else:
            by_nation.setdefault(s.nation, []).append(s)
    single = world.settings.get("supply_single_home_source", "not_isolated")
    if single not in ("not_isolated", "isolated"):
        raise ValueError(f"setting supply_single_home_source={single!r} must be not_isolated or isolated")
    for nation, group in by_nation.items():
        linked = _linked(lines, group) if len(group) > 1 else {}
        for s in group:
            if nation in MINOR_NATIONS:
                out[s.hex] = Isolation(s, False, False, f"{s.hex}: minor nation sources are never isolated [7.8]")
                continue
            if fortress(world, s.hex):
                out[s.hex] = Isolation(s, False, False, f"{s.hex}: permanent fortresses are never isolated [7.8]")
                continue
            if len(group) == 1:
                iso = single == "isolated"
                out[s.hex] = Isolation(s, False, iso, f"{s.hex} is the only home source of {nation}: "
                                       f"{'isolated' if iso else 'not isolated'} (setting supply_single_home_source) [7.8]")
                continue
            to = linked.get(s.hex)
            if to is not None:
                out[s.hex] = Isolation(s, False, False, f"{s.hex} traces a line of supply to home source {to} [7.8]")
                continue
            if truthy(hex_attr(world, s.hex, "port")):
                why = blockade(world, s.hex, side)
                if why is None:
                    out[s.hex] = Isolation(s, False, False, f"{s.hex} is cut off but a home-source port is isolated "
                                           "only if destroyed or blockaded by an enemy ship with gunnery >= 0 [7.8]")
                    continue
                out[s.hex] = Isolation(s, False, True, f"{s.hex} is isolated: no line to another {nation} home "
                                       f"source and {why} [7.8]")
                continue
            out[s.hex] = Isolation(s, False, True, f"{s.hex} is isolated: no line of supply to another {nation} "
                                   "home source [7.8]")
    return out


def _linked(lines: Lines, group: list[Source]) -> dict[str, str]:
    """For each source of one nation linked by a line of supply to another: that other's hex.
    A line runs both ways (its rules are symmetric), so one search from a source settles every
    source it reaches: one search per group of linked sources, not one per source."""
    net = lines.net
    idx = {s.hex: net.index[s.hex] for s in group}
    out: dict[str, str] = {}
    done: set[str] = set()
    for s in group:
        if s.hex in done:
            continue
        reach = lines.search([idx[s.hex]])
        met = [o.hex for o in group if o.hex != s.hex and np.isfinite(reach.end_dist[idx[o.hex]])]
        done.add(s.hex)
        if met:
            out[s.hex] = met[0]
            for o in met:
                out.setdefault(o, s.hex)
                done.add(o)
    return out
