"""Assigning supply chits to units by max-flow [7.7], [7.11].

A Sea Supply chit supplies at most 4 air and/or land units a month, an Air Supply chit 1 [7.7];
the capacity a chit has already spent this month is its ``used`` attribute [7.11]. Units that
consume (attackers and units drawing in the Supply Step; never defenders, never fractional or
no-strength units [7.7]) are matched to reachable chits: source -> unit (1) -> chit -> sink
(capacity - used), solved with networkx max-flow. When supply is short the player decides who is
supplied [7.7]; the tracer prefers units in the order given (each unit is kept if the flow can
still grow with it - greedy augmentation, which still reaches the maximum).
Defenders are supplied by any chit they reach [7.7]; units that never consume need a chit whose
capacity was not entirely spent before this trace (``used`` < capacity) [7.11] - what they draw
takes nothing from the attackers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

import networkx as nx


@dataclass(frozen=True)
class ChitNeed:
    unit: str
    reach: tuple[str, ...]  # chit ids the unit traces a line to
    consumes: bool
    defending: bool = False


def assign(needs: Sequence[ChitNeed], remaining: Mapping[str, int]) -> dict[str, Optional[str]]:
    """unit id -> the chit that supplies it (None: none can)."""
    out: dict[str, Optional[str]] = {n.unit: None for n in needs}
    g = nx.DiGraph()
    g.add_node("s")
    g.add_node("t")
    for c, cap in remaining.items():
        if cap > 0:
            g.add_edge(("c", c), "t", capacity=cap)
    value = 0
    kept = []
    for n in needs:
        if not n.consumes:
            continue
        targets = [c for c in n.reach if remaining.get(c, 0) > 0]
        if not targets:
            continue
        g.add_edge("s", ("u", n.unit), capacity=1)
        for c in targets:
            g.add_edge(("u", n.unit), ("c", c), capacity=1)
        v = nx.maximum_flow_value(g, "s", "t")
        if v > value:
            value = v
            kept.append(n.unit)
        else:
            g.remove_node(("u", n.unit))
    if kept:
        _, flow = nx.maximum_flow(g, "s", "t")
        for u in kept:
            for (tag, c), f in flow[("u", u)].items():
                if f > 0:
                    out[u] = c
    for n in needs:
        if n.consumes:
            continue
        if n.defending and n.reach:
            out[n.unit] = n.reach[0]
            continue
        free = [c for c in n.reach if remaining.get(c, 0) > 0]
        if free:
            out[n.unit] = free[0]
    return out
