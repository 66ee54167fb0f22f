"""apto's lend-lease routes [8.3], [2.12] on the map, through the supply tracer where the map can
decide them; a named question where it cannot (or for the political conditions: at war, the
Indian Ocean declaration).

- Vladivostok Route (US -> USSR): closed if Vladivostok (W 5128) is held by Japan, isolated [7.8],
  blockaded (a Japanese naval unit with a gunnery or torpedo rating of at least 0 in the hex) or its
  port destroyed (hex attribute ``port_destroyed``), unless another Soviet Pacific port serves.
- Australia (US or UK -> Australia): an Allied-held, functional (``port`` and not
  ``port_destroyed``) port in Australia where an Australian land unit would be in supply along an
  overland line to an Australian home city source.
- China (US or UK -> China): a path of land hexes free of Japanese land units from the India Box
  (hexes with attribute ``india_box``) to a Chinese home city held by the Allies and not isolated.
"""

from __future__ import annotations

from collections import deque
from typing import Optional

from ..hexnet import not_overland, truthy
from ..kinds import find_kind
from ..strike import Finding
from ..world import Piece, World
from .terrain import norm

VLADIVOSTOK = "W 5128"
LAND = ("land", "coastal")


def _nation(a) -> str:
    return norm(a.get("home_of") or a.get("colony_of") or a.get("country"))


def _ports(world: World, nation: str) -> list[str]:
    return [h for h, a in world.graph.nodes(data=True) if truthy(a.get("port")) and _nation(a) == nation]


def _functional(world: World, label: str) -> bool:
    return world.control.owner(label) == "allies" and not truthy(world.graph.nodes[label].get("port_destroyed"))


def _rating(p: Piece, key: str) -> Optional[int]:
    v = p.attrs.get(key)
    try:
        return None if v is None else int(v)
    except (TypeError, ValueError):
        return None


def vladivostok(world: World) -> list[Finding]:
    """The Vladivostok Route's map conditions [8.3]."""
    if VLADIVOSTOK not in world.graph:
        return [Finding("question", "[8.3]", f"Vladivostok ({VLADIVOSTOK}) is not on this map: is the Vladivostok "
                                              "Route open (not captured, isolated, blockaded or destroyed)?")]
    closed = []
    if world.control.owner(VLADIVOSTOK) == "japan":
        closed.append("captured by Japan")
    if truthy(world.graph.nodes[VLADIVOSTOK].get("port_destroyed")):
        closed.append("its port destroyed")
    for p in world.at(VLADIVOSTOK):
        if p.side == "japan" and p.role == "naval":
            g, t = _rating(p, "gunnery"), _rating(p, "torpedo")
            if (g is not None and g >= 0) or (t is not None and t >= 0):
                closed.append(f"blockaded by {p.id}")
    from .supply import AptoSupply

    for iso in AptoSupply().sources(world, "allies"):
        if iso.source.hex == VLADIVOSTOK and iso.isolated:
            closed.append("isolated [7.8]")
    if not closed:
        return [Finding("info", "[8.3]", f"Vladivostok ({VLADIVOSTOK}) is held and neither isolated, blockaded nor "
                                         "destroyed on the map")]
    others = [h for h in _ports(world, "ussr") if h != VLADIVOSTOK and _functional(world, h)]
    why = ", ".join(closed)
    if not others:
        return [Finding("error", "[8.3]", f"the Vladivostok Route is closed: Vladivostok ({VLADIVOSTOK}) {why}, and "
                                          "the USSR holds no other functional Pacific port")]
    return [Finding("question", "[8.3]", f"Vladivostok ({VLADIVOSTOK}) {why}: is {', '.join(others)} a supplied port "
                                         "with an uninhibited overland line of supply to a non-isolated Soviet home "
                                         "city or source?")]


def australia(world: World) -> list[Finding]:
    """An Australian port that opens lend-lease to Australia [8.3], [2.12]."""
    ports = _ports(world, "australia")
    if not ports:
        return [Finding("question", "[8.3];[2.12]", "a Western Ally holds a functional, supplied, non-isolated port "
                                                    "in Australia with an uninhibited overland line of supply to an "
                                                    "Australian home city? (no Australian port on the map)")]
    held = [h for h in ports if _functional(world, h)]
    if held:
        from .supply import AptoSupply

        kind = find_kind("apto", "Land unit")
        pieces = [Piece(id=f"lend-lease:{h}", side="allies", kind=kind.kind, role=kind.role, hex=h,
                        nation="australia", category=kind.category, hypothetical=True) for h in held]
        for h, t in zip(held, AptoSupply().trace(world, "allies", pieces)):
            src = (t.source or {}).get("hex")
            if t.supplied and src in world.graph and norm(world.graph.nodes[src].get("home_of")) == "australia" \
                    and all(world.graph.nodes[x].get("surface") in LAND for x in t.path):
                return [Finding("info", "[8.3]", f"port {h} in Australia traces an overland line of supply to "
                                                 f"the Australian home city {src}")]
    return [Finding("error", "[8.3];[2.12]", f"no lend-lease to Australia: none of its ports ({', '.join(ports)}) is "
                                             "Allied-held, functional and supplied overland from an Australian home city")]


def china(world: World) -> list[Finding]:
    """A land path free of Japanese land units from the India Box to a Chinese home city [8.3]."""
    starts = [h for h, a in world.graph.nodes(data=True) if truthy(a.get("india_box"))]
    if not starts:
        return [Finding("question", "[8.3]", "a path of land hexes unobstructed by enemy land units runs from the "
                                             "India Box (or India map) to a non-isolated Chinese-controlled Chinese "
                                             "home city? (no hex marked india_box on the map)")]
    from .pieces import is_land
    from .supply import AptoSupply

    blocked = {p.hex for p in world.pieces if p.side == "japan" and is_land(p)}
    isolated = {i.source.hex for i in AptoSupply().sources(world, "allies") if not i.works}
    goals = {h for h, a in world.graph.nodes(data=True) if norm(a.get("home_of")) == "china"
             and truthy(a.get("city")) and world.control.owner(h) == "allies" and h not in isolated}
    seen = {h for h in starts if h not in blocked}
    todo = deque(seen)
    while todo:
        h = todo.popleft()
        if h in goals:
            return [Finding("info", "[8.3]", f"a land path free of enemy land units runs from the India Box to "
                                             f"the Chinese home city {h}")]
        for n in world.graph.neighbors(h):
            if (n not in seen and n not in blocked and world.graph.nodes[n].get("surface") in LAND
                    and not not_overland(world.graph.edges[h, n].get("overland"))):
                seen.add(n)
                todo.append(n)
    return [Finding("error", "[8.3]", "no lend-lease to China: no path of land hexes free of enemy land units runs "
                                      "from the India Box to a non-isolated Chinese-controlled Chinese home city")]
