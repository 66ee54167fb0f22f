"""Shared plumbing for the ``campaign`` command: one-line errors and --json output."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable


class CliError(Exception):
    """Bad input: printed as one line ``error: ...`` with exit status 2."""


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


def guard(*errors: type[BaseException]):
    """Decorator: turn the project's own domain errors into CliError (one line, exit 2)."""

    def wrap(fn):
        def inner(args):
            try:
                return fn(args)
            except errors as e:
                raise CliError(str(e).splitlines()[0] if str(e) else type(e).__name__) from None

        inner.__name__ = fn.__name__
        inner.__doc__ = fn.__doc__
        return inner

    return wrap
