"""The ``campaign`` command. Each command group lives in its own module and
registers its sub-commands with ``register(subparsers)``; this module finds them (no list to edit),
and owns argument parsing, ``--json`` and error handling.

Groups are discovered: every module of ``assistant.cli`` that has ``register``, then every
``assistant.aids.<aid>.cli`` (an aid without a ``cli.py`` simply has no commands). Help order:
hex, campaign, serve (``CORE_ORDER``), any other core module, then the aids, each alphabetically.

Contract: exit 0 on success; on bad input (or a file system refusal) exit 2 with one line
``error: ...`` on stderr and no traceback; a reader that closes the pipe early ends it quietly (exit 1).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from typing import Optional

from ..discovery import part_modules
from . import common
from .common import (
    FILE,
    CliError,
    add_command,
    add_json,
    command_errors,
    done,
    emit,
    escape_line,
    event_json,
    one_line,
    opened,
)

__all__ = ["FILE", "CliError", "add_command", "add_json", "build_parser", "command_errors",
           "command_modules", "done", "emit", "event_json", "main", "opened"]

# Help order of the core groups only (discovery finds them). campaigncmds adds ``map set`` to the
# ``map`` group of hexcmds, so hexcmds comes first.
CORE_ORDER = ("hexcmds", "campaigncmds", "servecmd")
AIDS_PACKAGE = "assistant.aids"


def core_modules() -> list[str]:
    """Modules of ``assistant.cli`` that may hold a group, in help order."""
    names = [m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")]
    rank = {n: i for i, n in enumerate(CORE_ORDER)}
    return [f"{__name__}.{n}" for n in sorted(names, key=lambda n: (rank.get(n, len(rank)), n))]


def aid_modules(package: str = AIDS_PACKAGE) -> list[str]:
    """``<package>.<aid>.cli`` for every aid package that has one, alphabetically. An aid that
    fails to import is named in a one-line warning and left out: the other commands still work."""
    return part_modules(package, "cli", failed=_warn)


def _warn(module: str, e: BaseException) -> None:
    print(f"warning: {module} failed to load, its commands are missing ({type(e).__name__}: {e})".splitlines()[0],
          file=sys.stderr)


def command_modules() -> list[str]:
    """Every module that registers commands, in help order."""
    return core_modules() + aid_modules(AIDS_PACKAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = common.Parser(prog="campaign", description="Campaign Assistant: player aid for witp, apto and globalwar.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=common.Parser)
    sub.required = True
    core = set(core_modules())
    for name in command_modules():
        try:
            module = importlib.import_module(name)
        except Exception as e:  # noqa: BLE001 - a broken aid is named; a broken core module is a bug
            if name in core:
                raise
            _warn(name, e)
            continue
        register = getattr(module, "register", None)
        if not callable(register):  # e.g. common: helpers, no commands
            continue
        try:
            register(sub)
        except argparse.ArgumentError as e:  # two groups claim one command name
            raise CliError(f"{name}: {e}") from None
    return parser


def main(argv: Optional[list[str]] = None) -> int:
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        result = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
        return 0 if result is None else int(result)
    except CliError as e:
        print(f"error: {escape_line(str(e))}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return _reader_gone()
    except OSError as e:  # the file system refused (permission, disk full): one line, naming the file
        print(f"error: {escape_line(os_error_line(e))}", file=sys.stderr)
        return 2
    except UnicodeError as e:  # e.g. a path holding a lone surrogate: no file system can name it
        print(f"error: {escape_line(str(e))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def os_error_line(e: OSError) -> str:
    """``Permission denied: /path`` (the OS's words, then the file it refused)."""
    what = e.strerror or one_line(e)
    return f"{what}: {e.filename}" if e.filename else what


def _reader_gone() -> int:
    """The reader of our output went away (``campaign units F --json | head -c 400``): exit quietly,
    as https://docs.python.org/3/library/signal.html#note-on-sigpipe does. stdout is pointed at
    devnull so the interpreter's final flush cannot raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # stdout without a file descriptor (tests)
        pass
    return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
