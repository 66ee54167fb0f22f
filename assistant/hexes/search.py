"""Exact shortest paths on a hex map with holes and concave edges, in pure Python.

A map is given by its ``neighbors`` function (every step costs one hex) and a lower bound of the
remaining distance (the lattice distance, which never overestimates: a consistent heuristic, so A*
returns a shortest path). Used by ``Grid`` only where the straight lattice line leaves the map.
"""

from __future__ import annotations

import heapq
from collections import deque
from typing import Callable, Hashable, Iterable, Optional, TypeVar

H = TypeVar("H", bound=Hashable)


def astar(start: H, goal: H, neighbors: Callable[[H], Iterable[H]],
          bound: Callable[[H], int]) -> Optional[list[H]]:
    """A shortest path start..goal (both included), or None if goal cannot be reached.

    ``bound(h)`` must never exceed the true number of steps from h to goal and must drop by at
    most one per step (consistent); then the first time goal is taken from the queue its path is
    shortest. Ties are broken toward the deeper node, so straight runs are followed first."""
    if start == goal:
        return [start]
    best = {start: 0}
    parent: dict[H, Optional[H]] = {start: None}
    heap = [(bound(start), 0, 0, start)]
    tick = 0
    while heap:
        _, neg_g, _, h = heapq.heappop(heap)
        g = -neg_g
        if h == goal:
            path = [h]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])
            return path[::-1]
        if g > best[h]:
            continue
        for n in neighbors(h):
            ng = g + 1
            if ng < best.get(n, 1 << 60):
                best[n] = ng
                parent[n] = h
                tick += 1
                heapq.heappush(heap, (ng + bound(n), -ng, tick, n))
    return None


def within(start: H, radius: int, neighbors: Callable[[H], Iterable[H]]) -> dict[H, int]:
    """Every node at most ``radius`` steps from start, with its step count (breadth first)."""
    if radius < 0:
        raise ValueError(f"radius must be >= 0, not {radius}")
    seen = {start: 0}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        d = seen[h]
        if d == radius:
            continue
        for n in neighbors(h):
            if n not in seen:
                seen[n] = d + 1
                todo.append(n)
    return seen
