"""Settings shared by the whole test suite; each part in its own block."""

import os
import sys
from pathlib import Path

import pytest

# ---- compiled modules are kept -----------------------------------------------------------------------
# The suite starts hundreds of Python processes (page kernels, servers, CLI calls) and each pytest-xdist
# worker imports every test module through pytest's assertion rewriting. Where PYTHONDONTWRITEBYTECODE is
# set (some CI images set it), each of them compiled every module from source again: 11 s of a
# collection's 13 s. The suite's processes keep their bytecode, as a player's Python does.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# ---- how many pytest-xdist workers "-n auto" starts --------------------------------------------------
# One more than the cores this process may use. A browser or server test spends much of its time
# waiting on other processes (chromium, Voila, a page's kernel), so with one worker per core the cores
# sat idle a quarter of the run; measured on 2 cores, the whole suite took 428 s with 2 workers and 354 s
# with 3. PYTEST_XDIST_AUTO_NUM_WORKERS, pytest-xdist's own variable, still decides where it is set.
@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config):
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist reads it
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return cores + 1


# ---- the games' rulebooks --------------------------------------------------------------------------
# Where the rulebook texts are and the one way a test quotes them live in rulebooks.py beside this
# file; tests/ goes on the import path (whatever pytest's import mode) so any test can import it.
sys.path.insert(0, str(Path(__file__).resolve().parent))

# ---- aids made unimportable: pytest --block-aid NAME -----------------------------------------------
# Runs the suite as if the aid NAME could not be imported, to show the other aids stand alone; the
# option, the skips and the subprocess block are in aidblock/blockplugin.py.
sys.path.insert(0, str(Path(__file__).resolve().parent / "aidblock"))
# ---- property tests: the hypothesis profiles -------------------------------------------------------
# "ci", the default, keeps the suite quick and the same from run to run: a test whose every example
# builds a campaign file asks for a few examples (propkit.examples), and the examples are drawn from a
# seed fixed per test (derandomize), so a red run is the change's doing and reruns red. "nightly"
# explores: fresh random examples each run, those tests at their full count, every other property test
# with 1000. Choose with HYPOTHESIS_PROFILE=nightly or pytest --hypothesis-profile=nightly (README).
# No deadline in either: on a loaded two-core machine a slow example is not a wrong one.
from hypothesis import settings as _hypothesis_settings  # noqa: E402

from blockplugin import (  # noqa: E402,F401
                         pytest_addoption,
                         pytest_collection_modifyitems,
                         pytest_configure,
                         pytest_ignore_collect,
                         pytest_make_collect_report,
                         pytest_report_header,
                         pytest_runtest_call,
)

_hypothesis_settings.register_profile("ci", deadline=None, print_blob=True, derandomize=True)
_hypothesis_settings.register_profile("nightly", max_examples=1000, deadline=None, print_blob=True)
_hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# ---- the long test files first (longfirst.py) ------------------------------------------------------
from longfirst import pytest_collection_modifyitems_long_files_first  # noqa: E402,F401


# ---- the user's folders: this test process's own -----------------------------------------------------
# A test that names no CAMPAIGN_ASSISTANT_HOME would write the real user's logs, board cache and (for
# the demo) data; each test process (each pytest-xdist worker) gets its own XDG data, cache and state
# folders instead, which the processes it starts inherit.
@pytest.fixture(scope="session", autouse=True)
def user_folders(tmp_path_factory):
    folders = tmp_path_factory.mktemp("user")
    with pytest.MonkeyPatch.context() as mp:
        for name in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
            mp.setenv(name, str(folders / name.lower()))
        yield folders


@pytest.fixture(autouse=True)
def _search_engine_as_it_was():
    """The hex searches' engine choice is the process's (rules/_search.py: the numpy loops' time
    spent, a page kernel staying with them): each test starts from and leaves the state it found,
    so a page built in one test does not choose the engine of the next."""
    from assistant.rules import _search

    kept = (_search._spent[0], _search._STAY[0], _search.ENGINE[0])
    yield
    _search._spent[0], _search._STAY[0], _search.ENGINE[0] = kept
