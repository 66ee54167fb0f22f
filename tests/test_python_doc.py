"""docs/python.md's examples, and the examples in the docstrings of the modules that define the
campaign accessors (``campaign.control``, ``campaign.ledger`` ...), run as doctests against a fresh
copy of the demo campaign (witp, Guadalcanal, August 1942), so that the documented API is the one
that runs: every section of the page, whoever wrote it."""

from __future__ import annotations

import doctest
import sys
from pathlib import Path

import pytest

from assistant.campaign import Campaign, CampaignError
from assistant.campaign.accessors import ACCESSORS, accessor_names
from assistant.ui.demo import ensure_demo

DOC = Path(__file__).resolve().parents[1] / "docs" / "python.md"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.fixture
def demo_here(tmp_path, monkeypatch):
    """The current folder a tmp folder holding ``demo.campaign``: the demo as it is built for a
    player (``ensure_demo``), fresh, never the player's own."""
    ensure_demo(tmp_path / "demo.campaign")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "demo.campaign"


@pytest.mark.needs_aid("ledger", "strike", "supply")  # the page's accessor sections use them
def test_python_md_examples_run(demo_here, capsys):
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=FLAGS, report=True,
                              encoding="utf-8")
    report = capsys.readouterr().out
    assert result.failed == 0, report
    # every section has examples: a page whose examples stopped being doctests would pass with none
    sections = [s for s in DOC.read_text(encoding="utf-8").split("\n## ")[1:]]
    assert all(">>> " in s for s in sections), [s.splitlines()[0] for s in sections if ">>> " not in s]
    assert result.attempted >= 60


@pytest.mark.parametrize("name", sorted(set(accessor_names())))
def test_accessor_docstring_examples_run(name, demo_here):
    """Every example in the docstrings of the modules behind ``campaign.<name>``, with ``campaign``
    an open copy of the demo (and ``Campaign``, ``CampaignError``) in their namespace."""
    with Campaign.open(demo_here) as campaign:
        view = getattr(campaign, name)
        modules = {ACCESSORS[name].__module__, type(view).__module__}
        finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(optionflags=FLAGS)
        for module in sorted(modules):
            for test in finder.find(sys.modules[module], module,
                                    globs={"campaign": campaign, "Campaign": Campaign, "CampaignError": CampaignError}):
                runner.run(test, clear_globs=False)
        result = runner.summarize(verbose=False)
    assert result.failed == 0


def test_control_view_examples_are_run():
    """``ControlView`` carries an example (so the doctest above runs something for the core
    accessor, which every installation has)."""
    from assistant.campaign import control

    tests = doctest.DocTestFinder().find(control, control.__name__)
    assert sum(len(t.examples) for t in tests) >= 3
