"""``campaign odds GAME WHAT ...``: each game's exact-odds calculators, no campaign needed.

A game offers them as ``assistant.rules.<game>.odds.CALCULATORS``: name -> an object with
``help`` (one line), ``add_arguments(parser)``, ``compute(args) -> dict`` (the JSON payload; a
ValueError names a bad value) and ``text(payload) -> str`` (what is printed without --json)."""

from __future__ import annotations

from ...cli.common import CliError, add_json, command_errors, emit
from ...rules.registry import find_rules_module, list_games


def _calculators(game: str) -> dict:
    module = find_rules_module(game, "odds")
    return dict(module.CALCULATORS) if module else {}


def register_odds(sub, help: str) -> None:
    p = sub.add_parser("odds", help=help)
    games = p.add_subparsers(dest="odds_game", metavar="GAME", parser_class=type(p))
    games.required = True
    for game in list_games():
        calcs = _calculators(game)
        if not calcs:
            continue
        g = games.add_parser(game, help=f"{game}: {', '.join(calcs)}")
        whats = g.add_subparsers(dest="odds_what", metavar="WHAT", parser_class=type(p))
        whats.required = True
        for name, calc in calcs.items():
            c = whats.add_parser(name, help=calc.help, description=calc.help)
            calc.add_arguments(c)
            add_json(c)
            c.set_defaults(func=command_errors(_run(calc)))


def _run(calc):
    def run(args) -> None:
        if getattr(args, "table", None):  # the player's printed tables: checked as a strike's are
            from .engine import tables_from

            tables_from(args.odds_game, args.table)
        try:
            payload = calc.compute(args)
        except ValueError as e:
            raise CliError(str(e).splitlines()[0]) from None
        emit(args, payload, calc.text)
    return run
