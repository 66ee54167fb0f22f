"""Shared plumbing for the ``campaign`` command: one-line errors, --json output, and the helpers
every command group (an aid's ``cli.py`` among them) uses to "open FILE, run, emit JSON or text".

    from assistant.cli.common import add_command, done, opened

    def register(sub):
        add_command(sub, "trace", "trace a supply path", cmd_trace, FILE, (("unit",),))

    def cmd_trace(args):
        with opened(args.file) as c:
            rec = c.execute(...)
            done(args, c, rec, f"traced (#{rec.seq})")
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from ..numbertext import NumberField

EXIT_BAD_INPUT = 2
EXIT_CONFLICT = 3


class CliError(Exception):
    """Bad input: printed as one line ``error: ...`` with exit status 2."""

    code = EXIT_BAD_INPUT


class ConflictError(CliError):
    """Another writer moved what the command acts on while it ran (undo's last command, advance's
    turn): one line ``error: not applied: ...``, exit status 3, nothing written. Running it again
    acts on the campaign as it is then."""

    code = EXIT_CONFLICT


def cli_error(e: BaseException) -> CliError:
    """A domain error as the one-line CliError the command line prints (a conflict: ConflictError)."""
    from ..campaign.errors import StaleViewError

    return (ConflictError if isinstance(e, StaleViewError) else CliError)(one_line(e))


class Parser(argparse.ArgumentParser):
    """argparse that reports usage mistakes as one ``error:`` line (exit 2), not a usage dump."""

    def error(self, message: str):  # type: ignore[override]
        raise CliError(f"{message} (see '{self.prog} --help')")


def add_json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print the result as JSON")


def emit(args: argparse.Namespace, payload: Any, text: Callable[[Any], str] | str) -> None:
    """Print ``payload`` as JSON with --json, else the human text."""
    if getattr(args, "json", False):
        json.dump(payload, sys.stdout, indent=1, default=str)
        sys.stdout.write("\n")
    else:
        sys.stdout.write((text(payload) if callable(text) else text).rstrip("\n") + "\n")


def escape_line(text: str) -> str:
    """``text`` on one line: line breaks and other control characters (from an argument such as
    ``$'a\\nb'``) are shown escaped, as ``repr`` shows them, so that an error stays one line."""
    return "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in text)


#: An event number for ``--since``: 0 or more, at most SQLite's largest integer.
seq_number = NumberField("event number", 0, 2**63 - 1).argtype()
#: A seed for the random source (reproducible rolls): any whole number a 64-bit integer holds.
seed_number = NumberField("seed", -(2**63), 2**63 - 1).argtype()


def one_line(exc: BaseException) -> str:
    """The first line of an error's message (its type name if it has none)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def guard(*errors):
    """Decorator: turn the project's own domain errors into CliError (one line, exit 2).

    ``errors`` are exception classes, or functions that give a tuple of them: those are called only
    once an exception is on its way out, so that registering a command imports no module a run of
    another command does not need."""

    def wrap(fn):
        def inner(args):
            try:
                return fn(args)
            except Exception as e:
                if isinstance(e, _classes(errors)):
                    raise cli_error(e) from None
                raise

        inner.__name__ = fn.__name__
        inner.__doc__ = fn.__doc__
        return inner

    return wrap


def _classes(errors) -> tuple[type[BaseException], ...]:
    out: list[type[BaseException]] = []
    for e in errors:
        out.extend([e] if isinstance(e, type) else e())
    return tuple(out)


def domain_errors() -> tuple[type[BaseException], ...]:
    """The project's one-line bad-input errors (each a ValueError subclass): a refused campaign
    command or file, a bad hex label, an unknown game, a game's data file that does not load (it
    names the file, the key and the line)."""
    from ..campaign import CampaignError
    from ..hexes import HexError
    from ..maps import UnknownGame
    from ..tomldata import DataFileError

    return (CampaignError, HexError, UnknownGame, DataFileError)


def command_errors(fn: Callable, *extra) -> Callable:
    """``fn(args)`` with the domain errors (plus ``extra``, e.g. an aid's own) as one-line CliErrors."""
    return guard(domain_errors, *extra)(fn)


def add_command(sub, name: str, help: str, func: Callable, *arguments: tuple,
                errors: tuple[type[BaseException], ...] = ()) -> argparse.ArgumentParser:
    """One sub-command: ``arguments`` are ``((flags...), {add_argument kwargs})`` pairs (the dict
    may be left out); ``--json`` is added and domain errors become one-line errors."""
    p = sub.add_parser(name, help=help)
    for a in arguments:
        p.add_argument(*a[0], **(a[1] if len(a) > 1 else {}))
    add_json(p)
    p.set_defaults(func=command_errors(func, *errors))
    return p


FILE = (("file",), {"help": "the campaign file"})


def game_name(text: str) -> str:
    """A game named as the player types it (``WITP``, `` Witp ``): the known id it means, compared
    like hex labels (case and surrounding spaces ignored); unknown text is returned as given, so the
    error names it."""
    from ..maps.gamespec import list_games

    key = text.strip().lower()
    return next((g for g in list_games() if g.lower() == key), text)


@contextmanager
def opened(path: str, readonly: bool = False) -> Iterator[Any]:
    """The campaign at ``path``, open for the ``with`` block and closed after it, whatever happens.

    A missing, damaged or newer file, and any domain error raised inside the block, becomes a
    one-line ``CliError`` naming the bad value; the file is never changed by a refused command.
    The campaign is opened ``one_shot``: the command shows the player nothing before it writes, so
    it is built on the campaign as it is at write time, whatever another window wrote meanwhile."""
    from ..campaign import Campaign

    errors = domain_errors()
    try:
        c = Campaign.open(path, readonly=readonly, one_shot=True)
    except errors as e:
        raise cli_error(e) from None
    try:
        yield c
    except errors as e:
        raise cli_error(e) from None
    finally:
        c.close()


def event_json(campaign, record) -> dict:
    """An event as JSON, with its turn's label and a one-line summary (a unit said by its name)."""
    from ..words import named

    d = record.to_json()
    d["turn_label"] = campaign.state.calendar.turn(record.turn).label
    d["summary"] = named(record.describe(campaign.state.calendar), {u.id: u.name for u in campaign.state.units.values()})
    return d


def done(args: argparse.Namespace, campaign, record, text: Callable[[Any], str] | str) -> None:
    """Report one recorded event: its JSON with --json, else ``text``."""
    emit(args, event_json(campaign, record), text)


def tell(findings, levels: tuple[str, ...] = ("error", "warning", "question"), names=None) -> None:
    """What the rules said of an entry that was recorded (errors advise, they did not refuse it),
    one line each on stderr, ``level: [rule] text``: the exit status stays 0. ``names`` (id -> name):
    a unit the text names by its id is said by its name."""
    from ..words import named

    for f in findings:
        if f.level in levels:
            print(escape_line(f"{f.level}: {f.ref} {named(f.text, names or {})}"), file=sys.stderr)
