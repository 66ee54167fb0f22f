"""What the Global War supply tracer cannot answer until the board is entered: the kinds of board
data of ``data/games/globalwar/board.toml`` it reads, asked through ``assistant/rules/board.py``.

The rulebook text names few of the hexes the supply rules read: of the Communications Areas only
the ten hexes of the map errata [3.1.4], of the Industrial Hexes [9.1.3] and Supply Centers [9.1.2]
none by a piece (24.5's "Industrial Center in W3020" is a label the player adopts). The printed
map holds the rest. So, on the printed map:

- a unit that finds no supply path while a kind it could trace through or to is missing is not
  "unsupplied" but ``ASKS`` (not supplied), the missing board data named first: its own nation's
  Industrial Hexes or Supply Centers [9.1], [9.1.3] (an Axis Minor Ally's also the German and
  Italian ones [19.9.F]); the Communications Area hexes [9.2.1], [9.2.2] when it stands outside
  any entered and some source could still reach it; the ports [9.0.D], [16.0.A] for a naval unit
  on a coastal hex not entered as a port;
- a unit supplied anyway says in a step which board data is missing.

A map built by hand (a test's, a drill's) holds what its maker put on it: nothing is asked of a map
that lacks the hexes the text names (``printed_map``).
"""

from __future__ import annotations

from typing import Optional

from ...maps.board import board_kinds
from ..board import ASKS, BoardGap, gap, named_rows, printed_map
from ..supply import Piece, Reason
from ..world import World
from .sources import MINOR_ALLIES, MINOR_ALLY_ATTACK_NATIONS

__all__ = ["ASKS", "Questions", "printed_map", "named_rows"]

COMMUNICATIONS = "communications"
INDUSTRIAL_HEX = "industrial_hex"
SUPPLY_CENTER = "supply_center"
PORT = "port"


def refs(rule: str) -> str:
    """``[3.1.4];[9.2.1]`` -> ``[3.1.4], [9.2.1]``."""
    parts = [p.strip() for p in rule.split(";") if p.strip()]
    return ", ".join(p if p.startswith("[") else f"[{p}]" for p in parts)


def step(g: BoardGap) -> str:
    return f"board data missing: {g.text} ({refs(g.rule)})"


def asks_step(gaps: list[BoardGap]) -> str:
    what = [f"{g.nation_name}'s {g.plural}" if g.nation_name else g.plural for g in gaps]
    rules = list(dict.fromkeys(refs(g.rule) for g in gaps))
    return (f"not answered as unsupplied: the board lacks {', '.join(what[:-1]) + ' and ' if len(what) > 1 else ''}"
            f"{what[-1]} ({', '.join(rules)}); enter them and trace again")


class Questions:
    """The gaps one trace call meets, each worked out once."""

    def __init__(self, world: World):
        self.world = world
        self.asked = printed_map(world)
        self._got: dict[tuple[str, Optional[str]], Optional[BoardGap]] = {}

    def gap(self, kind_id: str, nation: Optional[str] = None) -> Optional[BoardGap]:
        if not self.asked or kind_id not in board_kinds(self.world.game):
            return None
        key = (kind_id, nation)
        if key not in self._got:
            self._got[key] = gap(self.world, kind_id, nation)
        return self._got[key]

    def sources(self, p: Piece, attack_only: bool = False) -> list[BoardGap]:
        """The source kinds missing for ``p``'s nation [9.1], [9.1.3] (an Axis Minor Ally: also
        Germany's and Italy's Industrial Hexes, its only Attack Supply [19.9.F])."""
        if p.nation is None:
            return []
        nations = [p.nation] + (list(MINOR_ALLY_ATTACK_NATIONS) if p.nation in MINOR_ALLIES else [])
        kinds = (INDUSTRIAL_HEX,) if attack_only else (INDUSTRIAL_HEX, SUPPLY_CENTER)
        out = []
        for n in nations:
            for k in kinds:
                g = self.gap(k, n)
                if g is not None:
                    out.append(g)
        return out

    def communications(self) -> Optional[BoardGap]:
        return self.gap(COMMUNICATIONS)

    def unsupplied(self, p: Piece, in_comm: bool, has_source: bool) -> list[BoardGap]:
        """What ``p``, found with no supply path, waits for: empty when the board is complete enough
        for "unsupplied" to be the rules' answer."""
        out = self.sources(p)
        comm = self.communications()
        if comm is not None and not in_comm and (has_source or out):
            out.append(comm)
        return out

    def supplied(self, p: Piece, status: str) -> list[BoardGap]:
        """The missing board data a supplied ``p``'s answer did not read: the Communications Area
        hexes (a path of any length within one [9.2.1]); its nation's sources unless it is in
        Attack Supply already."""
        out = [] if status == "attack" else self.sources(p)
        comm = self.communications()
        if comm is not None:
            out.append(comm)
        return out


def reasons_first(gaps: list[BoardGap]) -> list[Reason]:
    return [g.reason() for g in gaps]
