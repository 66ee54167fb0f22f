"""The rules' world built from a campaign state: one builder for every aid.

``world_of(state, graph)`` gives ``assistant.rules.world.World``: the campaign's map graph (with
its corrections), its units as ``Piece`` with their kinds' roles (``data/games/<game>/kinds.toml``),
hex control (``control``: set per hex or region, defaults in ``assistant.rules.control``), the
game's settings (documented defaults, the campaign's choices, then per-query overrides) and the
printed tables the player entered (``printedtables``). It reads only the campaign layer's own
state, so every aid can build the same world whichever other aids are installed.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, Optional

from ..maps.gamespec import load_game_spec
from ..rules.control import Control
from ..rules.kinds import OTHER, find_kind
from ..rules.world import Piece, World
from .control import control_of
from .errors import CampaignError
from .printedtables import rows_of


def settings_of(state, overrides: Optional[Mapping[str, Any]] = None) -> dict[str, Any]:
    """The game's settings: the documented defaults, then the campaign's choices, then
    ``overrides`` (each checked against the setting's choices)."""
    spec = load_game_spec(state.game)
    values = {name: s.default for name, s in spec.settings.items()}
    values.update(state.settings)
    for name, value in (overrides or {}).items():
        if name not in spec.settings:
            known = ", ".join(sorted(k for k in spec.settings if k.startswith("supply"))) or "none"
            raise CampaignError(f"unknown setting {name!r} for {state.game} (supply settings: {known})")
        choices = spec.settings[name].choices
        if choices and value not in choices:
            raise CampaignError(f"setting {name}={value!r} must be one of {', '.join(map(str, choices))}")
        values[name] = value
    return values


def piece_of(game: str, u) -> Piece:
    """A campaign unit as the rules see it (its kind's role; ``other`` for an undeclared kind)."""
    k = find_kind(game, u.kind)
    return Piece(id=u.id, side=u.side, nation=u.nation, kind=k.kind if k else u.kind,
                 role=k.role if k else OTHER, hex=u.hex, category=u.category, attrs=u.attrs, name=u.name)


def world_of(state, graph, *, settings: Optional[Mapping[str, Any]] = None,
             tables: Optional[Mapping[str, Any]] = None) -> World:
    """The rules' view of ``state`` on ``graph`` (``Campaign.graph()``): pieces with their kinds'
    roles, hex control as the players set it, the game's settings (``settings`` overriding), the
    player's tables: those entered into the campaign, with ``tables`` (name -> rows, e.g. a printed
    CRT read from CSV for one query) winning per name."""
    pieces = tuple(piece_of(state.game, u) for u in state.units.values())
    sides = {s.id: tuple(n.id for n in s.nations) for s in state.sides}
    nation_side = {n: s for s, ns in sides.items() for n in ns}
    ctl = control_of(state)
    control = Control.build(graph, nation_side, ctl.hexes, ctl.regions, pieces)
    return World(game=state.game, graph=graph, pieces=pieces, control=control,
                 settings=settings_of(state, settings), sides=sides,
                 tables=MappingProxyType({**rows_of(state), **dict(tables or {})}), turn=state.turn.number)
