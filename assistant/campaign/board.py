"""Board set-up: for a campaign, each kind of board data its game's rules read
(``assistant/maps/board.py``), what the rulebook text names already, what the player has entered,
and what each aid cannot answer until then; and the command that enters more.

``board_report(state, graph)`` is what the page, ``campaign board FILE`` and ``campaign.board``
show. ``EnterBoard`` marks hexes as one kind (hex attributes set as map corrections, or pieces
placed, by the kind's declaration), all in one step: one undo takes them back. ``adoptable``
lists the places the map already labels with the kind's role (the gazetteer's kinds), which a
player adopts in one step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from ..hexes import HexError
from ..maps.board import WHERE, BoardKind, board_kinds
from ..maps.calibration import NOT_AN_ANCHOR
from ..maps.gamemap import gazetteer_rows
from ..rules import board as rb
from ..rules.kinds import load_kinds, role_of
from ..words import counted
from . import validate as v
from .accessors import register_accessor
from .batch import RunBatch
from .commands import Context, PlaceUnit, RemoveUnit, SetHex
from .errors import CampaignError
from .places import lookup
from .world import world_of

MAX_HEXES = 500
SHOWN = 4  # nations named in a kind's state before their count


@dataclass(frozen=True)
class Entry:
    """One hex holding a kind: named by the rulebook text (``rule``, ``quote``) or entered by the
    player (a correction of the map, or a piece)."""

    hex: str
    place: str
    by: str  # "rulebook" | "player"
    nations: tuple[str, ...] = ()
    rule: str = ""
    quote: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"hex": self.hex, "place": self.place, "by": self.by, "nations": list(self.nations),
                "rule": self.rule, "quote": self.quote}


@dataclass(frozen=True)
class KindStatus:
    """One kind of board data on a campaign's board: the text's hexes, the player's, the gaps."""

    id: str
    kind: BoardKind
    named: tuple[Entry, ...]
    entered: tuple[Entry, ...]
    gaps: tuple[rb.BoardGap, ...]
    adoptable: tuple[tuple[str, str], ...]  # (hex, place) the map labels with this role, not yet entered

    @property
    def complete(self) -> bool:
        return not self.gaps

    @property
    def state(self) -> str:
        """In a word or three: what the kind's aids can do now."""
        if self.kind.text_complete:
            return "complete: the rulebook names all"
        if self.complete:
            return "entered"
        whose = [g.nation_name for g in self.gaps if g.nation_name]
        if not whose:
            return "missing"
        return "missing for " + (", ".join(whose) if len(whose) <= SHOWN else f"{len(whose)} nations")

    def to_json(self) -> dict[str, Any]:
        k = self.kind
        return {"kind": self.id, "name": k.name, "rule": k.rule, "quote": k.quote, "aids": list(k.aids),
                "cannot": k.cannot, "enter": k.enter, "complete": self.complete,
                "named": [e.to_json() for e in self.named], "entered": [e.to_json() for e in self.entered],
                "missing": [g.to_json() for g in self.gaps],
                "adoptable": [{"hex": h, "place": p} for h, p in self.adoptable]}

    def lines(self) -> list[str]:
        k = self.kind
        whose = [g.nation_name for g in self.gaps if g.nation_name]
        head = f"{k.plural} {k.rule}: {self.state}"
        if len(whose) > SHOWN:
            head += f" ({', '.join(whose)})"
        out = [head, f"  named by the rulebook text: {len(self.named)}"
               + (f" ({', '.join(f'{e.hex} {e.place}'.strip() for e in self.named[:SHOWN])}"
                  + (", …" if len(self.named) > SHOWN else "") + ")" if self.named else "")
               + f"; entered by you: {len(self.entered)}"
               + (f" ({', '.join(e.hex for e in self.entered[:SHOWN])}{', …' if len(self.entered) > SHOWN else ''})"
                  if self.entered else "")]
        if self.gaps:
            out.append(f"  until then the {_either(k.aids)} cannot say {k.cannot}")
        if self.adoptable:
            out.append("  the map labels: " + ", ".join(f"{p} ({h})" for h, p in self.adoptable)
                       + f" (campaign board FILE --kind {self.id} --adopt)")
        out.append(f"  to enter one (--kind {self.id}): {k.enter}")
        return out


def _either(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


@dataclass(frozen=True)
class BoardReport:
    """Every kind of board data the campaign's game reads, as its board holds them now."""

    game: str
    kinds: tuple[KindStatus, ...] = field(default_factory=tuple)

    @property
    def complete(self) -> bool:
        return all(k.complete for k in self.kinds)

    @property
    def gaps(self) -> list[rb.BoardGap]:
        return [g for k in self.kinds for g in k.gaps]

    def status(self, kind_id: str) -> KindStatus:
        for k in self.kinds:
            if k.id == kind_id:
                return k
        raise CampaignError(f"{kind_id} is not a kind of board data of {self.game} "
                            f"(kinds: {', '.join(k.id for k in self.kinds) or 'none'})")

    def summary(self) -> str:
        """One line: complete, or what is missing."""
        if not self.kinds:
            return f"the {self.game} rules read no board data beyond the map"
        if self.complete:
            return "the board holds every kind of data the rules read"
        return f"the board is incomplete: enter {self.missing()} in {WHERE}"

    def missing(self) -> str:
        """The kinds missing, each with the nations it is missing for: "Industrial Hexes (7 nations);
        Communications Area hexes"."""
        return "; ".join(k.kind.plural + (f" ({k.state.removeprefix('missing for ')})" if k.state != "missing" else "")
                         for k in self.kinds if not k.complete)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "complete": self.complete, "summary": self.summary(),
                "kinds": [k.to_json() for k in self.kinds]}

    def explain(self) -> str:
        out = [self.summary()]
        for k in self.kinds:
            out += ["", *k.lines()]
        return "\n".join(out)


def board_report(state: Any, graph: Any, gm: Any) -> BoardReport:
    """The board of a campaign ``state`` on its map ``gm`` and ``graph`` (with its corrections)."""
    world = world_of(state, graph)
    places = gm.places
    kinds = []
    for kid, k in board_kinds(state.game).items():
        named_rows = rb.named_rows(state.game, kid)
        named = tuple(Entry(h, r.place, "rulebook", rule=r.rule, quote=r.quote) for h, r in named_rows.items())
        marked = rb.marked(world, kid)
        entered = tuple(Entry(h, "; ".join(places.get(h, ())), "player", tuple(sorted(n for n in ns if n)))
                        for h, ns in sorted(rb.entered_marks(world, kid).items()))
        gaps = tuple(dict.fromkeys(g for side in world.sides for g in rb.gaps(world, side, (kid,))))
        asked = rb.asked_nations(world, kid) if k.nation_from else None
        adoptable = tuple((h, name) for h, name in _labelled(gm, k) if h not in marked and h in graph
                          and (asked is None or rb.norm(graph.nodes[h].get(k.nation_from)) in asked))
        kinds.append(KindStatus(kid, k, named, entered, gaps, adoptable))
    return BoardReport(state.game, tuple(kinds))


def _labelled(gm: Any, k: BoardKind) -> list[tuple[str, str]]:
    """(hex, place) of the gazetteer's places whose kind is one of ``k.places``."""
    out = []
    for r in gazetteer_rows(gm.game):
        if r.kind in k.places and not str(r.note).startswith(NOT_AN_ANCHOR):
            try:
                out.append((gm.grid.label(gm.grid.parse(r.hex)), r.name))
            except HexError:
                continue
    return list(dict.fromkeys(out))


def _piece_kind(game: str, k: BoardKind) -> str:
    if k.pieces:
        return k.pieces[0]
    for name, kind in load_kinds(game).items():
        if kind.role in k.roles:
            return name
    raise CampaignError(f"no kind of piece of {game} has the role of a {k.name}")  # pragma: no cover - data


@dataclass
class EnterBoard:
    """Mark ``hexes`` (labels or place names) as board data of ``kind``, or ``clear`` them: the
    kind's first hex attribute set to ``value`` (yes unless given) as a map correction, or, for a
    kind of piece, a piece placed for ``side`` (of ``nation``, else the hex's owner). One step."""

    kind: Any
    hexes: Any
    value: Any = None
    side: Any = None
    nation: Any = None
    clear: Any = False

    def commands(self, s, ctx: Context) -> list[Any]:
        kinds = board_kinds(s.game)
        if not isinstance(self.kind, str) or self.kind not in kinds:
            raise CampaignError(f"{v.show(self.kind)} is not a kind of board data of {s.game} "
                                f"(kinds: {', '.join(kinds) or 'none'})")
        k = kinds[self.kind]
        if not (k.attrs or k.roles or k.pieces):
            raise CampaignError(f"the rules' own table holds the {k.plural} the rulebook names ({k.table}): "
                                "there is nothing to enter")
        texts = [self.hexes] if isinstance(self.hexes, str) else self.hexes
        if not isinstance(texts, Sequence) or not texts:
            raise CampaignError(f"name the hexes to mark as {k.plural} (hex labels or place names)")
        if len(texts) > MAX_HEXES:
            raise CampaignError(f"{counted(len(texts), 'hex')} at once (at most {MAX_HEXES})")
        hexes: list[str] = []
        for t in texts:
            for h in lookup(ctx.map, t).all:
                if h not in hexes:
                    hexes.append(h)
        if k.attrs:
            value = None if self.clear else ("yes" if self.value in (None, "") else self.value)
            return [SetHex(h, {k.attrs[0]: value}) for h in hexes]
        if self.clear:
            ids = [u.id for u in s.units.values() if u.hex in hexes and (role_of(s.game, u.kind) in k.roles
                                                                          or u.kind.lower() in map(str.lower, k.pieces))]
            if not ids:
                raise CampaignError(f"there is no {k.name} at {', '.join(hexes)} to clear")
            return [RemoveUnit(i) for i in ids]
        kind_name = _piece_kind(s.game, k)
        out = []
        for h in hexes:
            nation = self.nation or (ctx.map.graph().nodes[h].get(k.nation_from) if k.nation_from else None)
            side = self.side or (_side_of(s, nation) if nation else (k.sides[0] if len(k.sides) == 1 else None))
            if side is None:
                raise CampaignError(f"whose {k.name} is {h}? Its hex names no nation: give the side")
            out.append(PlaceUnit(side=side, kind=kind_name, hex=h, nation=nation, category="installation"))
        return out

    def build(self, s, ctx: Context):
        return RunBatch(self.commands(s, ctx)).build(s, ctx)

    def conflict(self, view, fresh, ctx) -> Optional[str]:
        return None  # each mark is checked again on the fresh state


def _side_of(s: Any, nation: Any) -> Optional[str]:
    for side in s.sides:
        if any(n.id == nation for n in side.nations):
            return side.id
    return None


class BoardView:
    """``campaign.board``: the board the rules read, as this campaign holds it.

    ``report()`` is the ``BoardReport``; ``enter(kind, hexes, ...)`` and ``adopt(kind)`` record
    board data as one step each."""

    def __init__(self, campaign: Any):
        self._c = campaign

    def report(self) -> BoardReport:
        c = self._c
        return board_report(c.state, c.graph(), c.map)

    def enter(self, kind: str, hexes: Any, *, value: Any = None, side: Any = None, nation: Any = None,
              clear: bool = False):
        return self._c.execute(EnterBoard(kind, hexes, value=value, side=side, nation=nation, clear=clear))

    def adopt(self, kind: str):
        """Mark every place the map labels with ``kind``'s role (not yet entered) as one."""
        status = self.report().status(kind)
        if not status.adoptable:
            raise CampaignError(f"the map labels no {status.kind.name} that is not entered already")
        return self.enter(kind, [h for h, _ in status.adoptable])


@register_accessor("board")
def board_view(campaign: Any) -> BoardView:
    """``campaign.board``: see ``BoardView``."""
    return BoardView(campaign)
