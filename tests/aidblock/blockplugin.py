"""``pytest --block-aid NAME``: run the suite with the aid ``assistant.aids.NAME`` unimportable.

The other aids' tests then show that they load and work without it. The blocked aid's own tests
(``tests/aids/NAME/``) are not collected: each of their files is reported as skipped, with the
reason. A test module elsewhere that imports the blocked aid itself is skipped likewise (at
collection, or when its test runs), and so is a test marked ``@pytest.mark.needs_aid("NAME")`` (one
that drives two aids together); an aid or core module that imports it fails, which is what the
option is for. Subprocesses the tests start (``campaign ...``) are blocked too (see ``blockaid``).
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import sys
from pathlib import Path

import pytest

import blockaid

TESTS = Path(__file__).resolve().parents[1]
AIDS_TESTS = TESTS / "aids"
BLOCKER = pytest.StashKey[blockaid.AidBlocker]()
IGNORED = pytest.StashKey[list]()


def pytest_addoption(parser, pluginmanager):
    parser.addoption("--block-aid", action="append", default=[], metavar="NAME",
                     help="make the aid assistant.aids.NAME unimportable for the whole run (repeatable): the "
                          "other aids' tests run without it; its own tests (tests/aids/NAME/) are skipped")
    # The block must apply before the first conftest that imports an aid (tests/aids/ledger's does),
    # and those load before the options are parsed: read the option from the command line now.
    config = pluginmanager.get_plugin("pytestconfig")
    if config is not None:
        names = _names_in([*shlex.split(os.environ.get("PYTEST_ADDOPTS", "")), *config.invocation_params.args])
        if names and not any(blockaid.AidBlocker(names).aid_of(m) for m in sys.modules):
            config.stash[BLOCKER] = blockaid.install(names)


def _names_in(args) -> list[str]:
    names, rest = [], iter(args)
    for a in rest:
        if a == "--block-aid":
            names.append(next(rest, ""))
        elif a.startswith("--block-aid="):
            names.append(a.partition("=")[2])
    return [n for n in names if n]


def _aid_folders() -> list[Path]:
    spec = importlib.util.find_spec("assistant.aids")  # imports ``assistant`` only, not the aids
    return [Path(p) for p in (spec.submodule_search_locations or [])] if spec else []


def pytest_configure(config):
    config.addinivalue_line("markers", "needs_aid(*names): the test exercises these aids too (e.g. a table the "
                                       "strike plotter reads); --block-aid of any of them skips it")
    names = config.getoption("block_aid")
    if not names:
        return
    folders = _aid_folders()
    unknown = [n for n in names if not any((f / n / "__init__.py").is_file() for f in folders)]
    if unknown:
        raise pytest.UsageError(f"--block-aid: no aid called {', '.join(unknown)} in assistant/aids/")
    blocker = config.stash.get(BLOCKER, None)
    if blocker is None or blocker.names != set(names):  # e.g. the option came from an ini file's addopts
        early = sorted(m for m in sys.modules if blockaid.AidBlocker(names).aid_of(m))
        if early:
            raise pytest.UsageError(f"--block-aid: {', '.join(early)} was imported before the block could apply")
        blocker = blockaid.install(names)
    os.environ.update(blockaid.env_for(names))
    config.stash[BLOCKER] = blocker
    config.stash[IGNORED] = []


def pytest_report_header(config):
    if BLOCKER in config.stash:
        return f"aids made unimportable (--block-aid): {', '.join(sorted(config.stash[BLOCKER].names))}"


def pytest_ignore_collect(collection_path, config):
    blocker = config.stash.get(BLOCKER, None)
    if blocker is None:
        return None
    path = Path(collection_path)
    if path.parent == AIDS_TESTS and path.name in blocker.names:
        config.stash[IGNORED].append(path)
        return True
    return None


class BlockedAidTests(pytest.Item):
    """Stands for one test file of a blocked aid: skipped, saying why."""

    def __init__(self, *, aid: str, **kw):
        super().__init__(**kw)
        self.aid = aid

    def runtest(self):
        pytest.skip(f"the {self.aid} aid's own tests: --block-aid {self.aid} made it unimportable")

    def reportinfo(self):
        return self.path, None, self.name


def pytest_collection_modifyitems(session, config, items):
    blocker = config.stash.get(BLOCKER, None)
    for item in items if blocker else ():
        needed = {n for m in item.iter_markers("needs_aid") for n in m.args} & blocker.names
        if needed:
            item.add_marker(pytest.mark.skip(reason=f"it exercises the {', '.join(sorted(needed))} aid too, "
                                                    "which --block-aid made unimportable"))
    asked = [Path(a.split("::")[0]).resolve() for a in config.args]
    for folder in config.stash.get(IGNORED, []):
        if not any(folder.resolve().is_relative_to(a) for a in asked):
            continue  # passed on the way to what was asked for, not asked for itself
        for f in sorted(folder.rglob("test_*.py")):
            rel = f.relative_to(TESTS.parent).as_posix()
            items.append(BlockedAidTests.from_parent(session, name=rel, nodeid=rel, path=f, aid=folder.name))


def _from_tests_only(blocker: blockaid.AidBlocker, since: int) -> bool:
    """Every import of a blocked aid since refusal ``since`` came from a test file (not from an aid)."""
    new = blocker.refusals[since:]
    return bool(new) and all(Path(r.importer).resolve().is_relative_to(TESTS) for r in new if r.importer)


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    blocker = collector.config.stash.get(BLOCKER, None)
    since = len(blocker.refusals) if blocker else 0
    rep = yield
    if blocker is not None and rep.failed and _from_tests_only(blocker, since):
        rep.outcome = "skipped"
        rep.longrepr = (str(collector.path), None, f"Skipped: it imports {blocker.refusals[-1].module}, "
                                                   "which --block-aid made unimportable")
    return rep


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    blocker = item.config.stash.get(BLOCKER, None)
    since = len(blocker.refusals) if blocker else 0
    try:
        return (yield)
    except ImportError:
        if blocker is not None and _from_tests_only(blocker, since):
            pytest.skip(f"this test imports {blocker.refusals[-1].module}, which --block-aid made unimportable")
        raise
