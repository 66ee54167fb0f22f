"""The ``campaign`` command. Each command group lives in its own module and
registers its sub-commands with ``register(subparsers)``; this module finds them (no list to edit),
and owns argument parsing, ``--json`` and error handling.

Groups are discovered: every module of ``assistant.cli`` that has ``register``, then every
``assistant.aids.<aid>.cli`` (an aid without a ``cli.py`` simply has no commands). Help order:
hex, campaign, serve (``CORE_ORDER``), any other core module, then the aids, each alphabetically.

A run imports only the modules of the command it runs. Each group module names its top-level
commands in a literal ``COMMANDS = {name: help}``, read from its source without importing it, so
``campaign --help`` lists every command and ``campaign games`` runs without importing any aid (nor
pandas, networkx or numba behind them). A module that adds sub-commands to another module's group
(``campaign map set`` to hexcmds' ``map``) names the group in ``EXTENDS = ("map",)`` and adds them
in ``extend(name, subparsers)``. A module without a readable ``COMMANDS`` is imported on every run.

Contract: exit 0 on success; on bad input (or a file system refusal) exit 2 with one line
``error: ...`` on stderr and no traceback; a command whose target another writer moved while it ran
(undo's last command, advance's turn: ``common.ConflictError``) exits 3 the same way, nothing
written; a reader that closes the pipe early ends it quietly (exit 1). The ledger's ``add`` exits 1
when the rules forbid the entry.
"""

from __future__ import annotations

import argparse
import ast
import gc
import importlib
import importlib.util
import os
import pkgutil
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Collection, Optional

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
           "command_groups", "done", "emit", "event_json", "main", "opened"]

# Help order of the core groups only (discovery finds them). campaigncmds adds ``map set`` to the
# ``map`` group of hexcmds, so hexcmds comes first.
CORE_ORDER = ("hexcmds", "campaigncmds", "servecmd")
AIDS_PACKAGE = "assistant.aids"


@dataclass(frozen=True)
class Group:
    """A module that registers commands, as its source declares them."""

    module: str
    commands: Optional[dict[str, str]]  # top-level name -> help; None: not declared, always imported
    extends: tuple[str, ...] = ()  # other modules' groups it adds sub-commands to

    def wanted(self, names: Optional[Collection[str]]) -> bool:
        """Must this module be imported to run one of ``names`` (None: every command)?"""
        return names is None or self.commands is None or bool(set(names) & (set(self.commands) | set(self.extends)))


def core_modules() -> list[str]:
    """Modules of ``assistant.cli`` that may hold a group, in help order."""
    names = [m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")]
    rank = {n: i for i, n in enumerate(CORE_ORDER)}
    return [f"{__name__}.{n}" for n in sorted(names, key=lambda n: (rank.get(n, len(rank)), n))]


def aid_modules(package: str = AIDS_PACKAGE) -> list[str]:
    """``<package>.<aid>.cli`` for every aid package that has one, alphabetically (found on disk:
    importing the aids package would import every aid)."""
    return [module for module, _path in _aid_cli_files(package)]


def _aid_cli_files(package: str) -> list[tuple[str, Path]]:
    try:
        spec = importlib.util.find_spec(package)  # imports the parent packages only
    except ModuleNotFoundError:
        return []
    if spec is None or not spec.submodule_search_locations:
        return []
    found = {}
    for location in spec.submodule_search_locations:
        for m in pkgutil.iter_modules([location]):  # the listing every other discovery reads
            source = Path(location) / m.name / "cli.py"
            if m.ispkg and not m.name.startswith("_") and source.is_file():
                found.setdefault(m.name, (f"{package}.{m.name}.cli", source))
    return [found[name] for name in sorted(found)]


def command_groups(package: Optional[str] = None) -> list[Group]:
    """Every module that registers commands, in help order, with what its source declares."""
    core = [(m, Path(__file__).with_name(m.rsplit(".", 1)[1] + ".py")) for m in core_modules()]
    return [declared(module, path) for module, path in core + _aid_cli_files(package or AIDS_PACKAGE)]


def declared(module: str, path: Path) -> Group:
    """``module``'s ``COMMANDS`` and ``EXTENDS``, read from its source ``path`` (not imported)."""
    values: dict[str, object] = {}
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
        for node in tree.body:
            target = (node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1
                      else node.target if isinstance(node, ast.AnnAssign) and node.value is not None else None)
            if isinstance(target, ast.Name) and target.id in ("COMMANDS", "EXTENDS"):
                values[target.id] = ast.literal_eval(node.value)
    except (OSError, SyntaxError, ValueError):  # not readable as declared: imported on every run
        return Group(module, None)
    commands = values.get("COMMANDS")
    ok = isinstance(commands, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in commands.items())
    return Group(module, dict(commands) if ok else None, tuple(values.get("EXTENDS", ())) if ok else ())


def _warn(module: str, e: BaseException) -> None:
    print(f"warning: {module} failed to load, its commands are missing ({type(e).__name__}: {e})".splitlines()[0],
          file=sys.stderr)


EPILOG = f"""exit status:
  0  done
  1  the rules forbid a ledger entry (the rule's reason is printed; nothing recorded), or the
     reader of the output stopped early ('| head')
  {common.EXIT_BAD_INPUT}  bad input or a file the system refused: one line 'error: ...'; nothing recorded
  {common.EXIT_CONFLICT}  conflict: another writer moved what the command acts on while it ran (undo's last
     command, redo's last undo, advance's or close-turn's turn); nothing recorded, run it again
A command is checked against the campaign as it is when it writes: entries another window
records meanwhile are kept, and yours is added after them if the rules still allow it."""


def build_parser(commands: Optional[Collection[str]] = None) -> argparse.ArgumentParser:
    """The ``campaign`` parser. The modules of ``commands`` (None: every command) are imported and
    register their commands in full; every other command is listed with its help only, so that
    ``--help`` and a misspelt command read the same either way."""
    parser = common.Parser(prog="campaign", description="Campaign Assistant: player aid for witp, apto and globalwar.",
                           epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=common.Parser)
    sub.required = True
    core = set(core_modules())
    loaded: list[tuple[Group, object]] = []
    for group in command_groups():
        if not group.wanted(commands):
            for name, help in (group.commands or {}).items():
                if name not in sub.choices:
                    sub.add_parser(name, help=help, add_help=False).set_defaults(func=_not_loaded(name))
            continue
        try:
            module = importlib.import_module(group.module)
        except Exception as e:  # noqa: BLE001 - a broken aid is named; a broken core module is a bug
            if group.module in core:
                raise
            _warn(group.module, e)
            continue
        register = getattr(module, "register", None)
        try:
            if callable(register):  # not e.g. common (helpers) or a module that only extends
                register(sub)
        except argparse.ArgumentError as e:  # two groups claim one command name
            raise CliError(f"{group.module}: {e}") from None
        loaded.append((group, module))
    for group, module in loaded:
        for name in group.extends:
            target = _subcommands(sub.choices.get(name))
            if target is not None:  # the group itself was registered, not only listed
                module.extend(name, target)
    return parser


def _subcommands(parser: Optional[argparse.ArgumentParser]):
    """The sub-commands action of a command group's parser (None if it has none)."""
    actions = [a for a in (parser._actions if parser else []) if isinstance(a, argparse._SubParsersAction)]
    return actions[0] if actions else None


def _not_loaded(name: str):
    def fail(_args):
        raise CliError(f"the '{name}' command did not load")

    return fail


def command_word(argv: list[str]) -> Optional[str]:
    """The command a command line runs: its first word that is not an option."""
    return next((a for a in argv if not a.startswith("-")), None)


def main(argv: Optional[list[str]] = None) -> int:
    one_shot = argv is None  # this process runs one command and ends
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        _no_nul(argv)
        with _no_collection(freeze=one_shot):
            word = command_word(argv)
            parser = build_parser([word] if word else [])
            args = parser.parse_args(argv)
        result = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
        return 0 if result is None else int(result)
    except CliError as e:
        print(f"error: {escape_line(str(e))}", file=sys.stderr)
        return e.code
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


def _no_nul(argv: list[str]) -> None:
    """A NUL character ends a string for the operating system: no command line can carry one, and
    a file name holding one is no file (Python raises ValueError for it). Called in-process with
    one, the argument is refused here, before any command reads it."""
    for a in argv:
        if isinstance(a, str) and "\x00" in a:
            raise CliError(f"argument {a!r} holds a NUL character (no command line can carry one)")


@contextmanager
def _no_collection(freeze: bool):
    """Start-up without the cyclic garbage collector: importing the command's modules and building
    its parser makes some hundred thousand objects that stay, and no cycles worth finding; each
    full collection would walk all of them again (~15% of a one-unit trace's CPU). With ``freeze``
    (a one-shot process) what start-up made is then left out of every later collection."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            if freeze:
                gc.freeze()
            gc.enable()


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
