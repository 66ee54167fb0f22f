"""The games and their rules, found by looking: a game is a folder ``data/games/<game>/`` holding a
``game.toml`` (``list_games``, ``load_game_spec``: its data as typed models), and its rules are
the package ``assistant.rules.<game>``, one module per part (``PARTS``). Adding a game is adding
those two folders; no list names the games.
"""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from types import ModuleType
from typing import Optional

from ..maps.gamespec import GameSpec, UnknownGame, list_games, load_game_spec

__all__ = ["PARTS", "GameSpec", "MissingRules", "UnknownGame", "find_rules_module", "list_games",
           "load_game_spec", "rules_module", "rules_parts"]

RULES_PACKAGE = __name__.rpartition(".")[0]  # "assistant.rules"

# The parts a game's rules package may offer: module name -> what the module holds and who asks.
PARTS: dict[str, str] = {
    "supply": "RULES, a rules.supply.SupplyRules (supply.rules_for; the supply tracer)",
    "air": "RULES, a rules.strike.StrikeRules (strike.rules_for; the strike plotter)",
    "economy": "RULES, a rules.ledger.Economy (ledger.economy_for; the production ledger)",
    "odds": "CALCULATORS, name -> exact-odds calculator (`campaign odds GAME WHAT`)",
    "airmap": "range_map, a base's reach map hex -> range class (the strike plotter's map)",
    "placement": "refusal(side, kind, role, labels, neighbours, surface): why a piece may not stand on a hex "
                 "(campaign.placing.board_refusal; PlaceUnit and MoveUnit refuse in one line); optionally "
                 "in_hex(side, kind, role, label, world): (\"error\" or \"warning\", one line) where the pieces "
                 "already in the hex forbid the piece or leave it in doubt",
}


class MissingRules(LookupError):
    """A game has no rules module for a part ("no supply rules for 'x'"). Each part's own lookup
    raises its subclass (``NoRules``, ``NoAirRules``, ``NoEconomy``)."""


def _has(game: str, part: str) -> bool:
    if not (isinstance(game, str) and game.isidentifier() and part.isidentifier()):
        return False
    try:
        return find_spec(f"{RULES_PACKAGE}.{game}.{part}") is not None  # imports the game's package
    except ModuleNotFoundError as e:
        if e.name != f"{RULES_PACKAGE}.{game}":  # the package exists but fails to import
            raise
        return False


def find_rules_module(game: str, part: str) -> Optional[ModuleType]:
    """``assistant.rules.<game>.<part>``, imported; None when the game has no such module (or no
    rules package at all). An error inside a module that exists propagates."""
    return import_module(f"{RULES_PACKAGE}.{game}.{part}") if _has(game, part) else None


def rules_module(game: str, part: str, missing: type[MissingRules] = MissingRules) -> ModuleType:
    """``assistant.rules.<game>.<part>``; ``missing("no <part> rules for '<game>'")`` when absent."""
    module = find_rules_module(game, part)
    if module is None:
        raise missing(f"no {part} rules for {game!r}")
    return module


def rules_parts(game: str) -> list[str]:
    """The parts of ``PARTS`` that ``game``'s rules offer, in ``PARTS`` order (none without rules)."""
    return [part for part in PARTS if _has(game, part)]
