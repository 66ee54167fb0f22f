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


def chit_network(remaining: Mapping[str, int]) -> "nx.DiGraph":
    """The flow network's source, sink and each chit with capacity left, its capacity to the sink
    [7.7]; the units' edges are added as they are matched."""
    g = nx.DiGraph()
    g.add_node("s")
    g.add_node("t")
    for c, cap in remaining.items():
        if cap > 0:
            g.add_edge(("c", c), "t", capacity=cap)
    return g


def assign(needs: Sequence[ChitNeed], remaining: Mapping[str, int]) -> dict[str, Optional[str]]:
    """unit id -> the chit that supplies it (None: none can)."""
    out: dict[str, Optional[str]] = {n.unit: None for n in needs}
    g = chit_network(remaining)
    ids = [n.unit for n in needs if n.consumes]
    kept = _greedy(g, needs, remaining) if len(set(ids)) < len(ids) else _grown(g, needs, remaining)
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


def _greedy(g: nx.DiGraph, needs: Sequence[ChitNeed], remaining: Mapping[str, int]) -> list[str]:
    """Each consuming unit, in order, is kept if the max-flow grows with it (a max-flow per unit)."""
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
    return kept


def _grown(g: nx.DiGraph, needs: Sequence[ChitNeed], remaining: Mapping[str, int]) -> list[str]:
    """``_greedy``'s answer (unit ids all different) with one augmenting-path search per unit;
    ``g`` ends as ``_greedy`` leaves it (the kept units' edges, in order)."""
    kept = []
    grow = _Matching(remaining)
    for n in needs:
        if not n.consumes:
            continue
        targets = [c for c in n.reach if remaining.get(c, 0) > 0]
        if not targets:
            continue
        if grow.augment(n.unit, targets):  # the flow grows with this unit: it is kept
            kept.append(n.unit)
            g.add_edge("s", ("u", n.unit), capacity=1)
            for c in targets:
                g.add_edge(("u", n.unit), ("c", c), capacity=1)
    return kept


class _Matching:
    """The maximum flow of ``assign``'s network (source -> unit (1) -> chit -> sink (capacity))
    kept as a matching of units to chits, grown one unit at a time: the flow grows with a new
    unit exactly when an augmenting path starts at it (Ford-Fulkerson), found by a breadth-first
    search over chits in the residual network - one short search per unit, not a max-flow from
    scratch."""

    def __init__(self, remaining: Mapping[str, int]):
        self.free = {c: cap for c, cap in remaining.items() if cap > 0}
        self.reach: dict[str, list[str]] = {}
        self.at: dict[str, Optional[str]] = {}       # unit -> the chit its flow goes to
        self.on: dict[str, list[str]] = {}           # chit -> units whose flow goes to it

    def augment(self, unit: str, targets: list[str]) -> bool:
        """Add ``unit`` (reaching ``targets``); True if the flow grew by one with it (kept)."""
        self.reach[unit] = list(targets)
        back: dict[str, tuple[str, Optional[str]]] = {}  # chit -> (unit that reaches it, that unit's chit)
        queue = [(unit, None)]
        k = 0
        while k < len(queue):
            u, came = queue[k]
            k += 1
            for c in self.reach[u]:
                if c in back or c == came:
                    continue
                back[c] = (u, came)
                if self.free.get(c, 0) > 0:          # a path to the sink: push one unit of flow along it
                    self.free[c] -= 1
                    while True:
                        u, prev = back[c]
                        self._move(u, c)
                        if prev is None:
                            return True
                        c = prev
                for w in self.on.get(c, ()):
                    queue.append((w, c))             # reroute w off c (the residual edge c -> w)
        del self.reach[unit]                         # not kept: its node leaves the network
        return False

    def _move(self, u: str, c: str) -> None:
        old = self.at.get(u)
        if old is not None:
            self.on[old].remove(u)
        self.at[u] = c
        self.on.setdefault(c, []).append(u)
