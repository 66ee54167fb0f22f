"""The ``campaign`` command (design.md section 6). Each command group lives in its own module and
registers its sub-commands; this module owns argument parsing, ``--json`` and error handling.

Contract: exit 0 on success; on bad input exit 2 with one line ``error: ...`` on stderr and no
traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, Optional

from . import common
from .common import CliError, emit

# Command-group modules, in help order. Each has ``register(subparsers)``.
_GROUPS = ["assistant.cli.hexcmds", "assistant.cli.campaigncmds", "assistant.cli.servecmd"]


def build_parser() -> argparse.ArgumentParser:
    import importlib

    parser = common.Parser(prog="campaign", description="Campaign Assistant: player aid for witp, apto and globalwar.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=common.Parser)
    sub.required = True
    for name in _GROUPS:
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name == name:  # group not written yet
                continue
            raise
        mod.register(sub)
    return parser


def main(argv: Optional[list[str]] = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        result = args.func(args)
        return 0 if result is None else int(result)
    except CliError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
