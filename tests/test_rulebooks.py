"""The suite stands on its own: the rulebook texts (not in the repository) are found in one place,
tests/rulebooks.py, and without them only the checks of the rulebooks' words skip -- every other
test runs, so a fresh clone runs the same arithmetic as CI."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import rulebooks
from assistant.maps.gamespec import load_game_spec

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
HELPER = TESTS / "rulebooks.py"
HERE = Path(__file__).resolve()

# What finding the rulebooks looks like: the variable that names their folder, the folder beside
# the checkout, a constant holding it, one of their files joined to a folder.
LOCATING = {
    "the folder's variable": re.compile(r"CAMPAIGN_ASSISTANT_RULEBOOKS"),
    "a 'shared' path part": re.compile(r"""["']shared["']"""),
    "a shared/rulebooks path": re.compile(r"shared/rulebooks"),
    "a RULEBOOKS constant": re.compile(r"\bRULEBOOKS\b"),
    "a rulebook file joined to a path": re.compile(r"""/\s*f?["'][^"'\n]*\d{3}_[0-9a-f]{16}\.txt"""),
}


def python_files() -> list[Path]:
    return [p for d in (TESTS, REPO / "benchmarks") for p in sorted(d.rglob("*.py"))
            if p not in (HELPER, HERE) and "__pycache__" not in p.parts]


def test_only_the_helper_locates_the_rulebooks():
    found = [f"{p.relative_to(REPO)}:{n}: {what}"
             for p in python_files()
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             for what, pattern in LOCATING.items() if pattern.search(line)]
    assert not found, "find the rulebooks through tests/rulebooks.py, not a copy:\n" + "\n".join(found)


def test_the_guard_sees_a_copy(tmp_path):
    copy = ('# the texts sit in ../shared/rulebooks beside the checkout\n'
            'RULEBOOKS = Path(os.environ.get("CAMPAIGN_ASSISTANT_RULEBOOKS")\n'
            '                 or Path(__file__).parents[3].parent / "shared" / "rulebooks")\n'
            'WITP = RULEBOOKS / "000_a763e4ba4882ac34.txt"\n')
    hits = {what for line in copy.splitlines() for what, p in LOCATING.items() if p.search(line)}
    assert hits == set(LOCATING)


READERS = {"text", "assert_says"}  # what in rulebooks.py reads a rulebook


def _calls(node: ast.AST) -> set[str]:
    """The names of the module's functions ``node`` calls, and ``rulebooks.X`` as X."""
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Name):
                out.add(f.id)
            elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "rulebooks":
                out.add(f.attr)
    return out


def _readers_imported(tree: ast.Module) -> set[str]:
    """The local names of the rulebook readers (``from rulebooks import text``), and the readers
    themselves when the module imports ``rulebooks``."""
    names = set()
    for n in tree.body:
        if isinstance(n, ast.ImportFrom) and n.module == "rulebooks":
            names |= {a.asname or a.name for a in n.names if a.name in READERS}
        elif isinstance(n, ast.Import) and any(a.name == "rulebooks" for a in n.names):
            names |= READERS
    return names


def _test_modules() -> list[tuple[Path, ast.Module]]:
    return [(p, ast.parse(p.read_text(encoding="utf-8"))) for p in python_files()
            if p.name.startswith("test_")]


def test_a_test_that_reads_a_rulebook_says_so_in_its_name():
    """Such a test skips without the rulebooks: its name shows it is a check of their words (the
    quotations' own test is test_quotes_in_rulebook). Helpers of the module that read it count."""
    bad = []
    for p, tree in _test_modules():
        funcs = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
        reading = _readers_imported(tree)
        while True:
            more = {name for name, f in funcs.items() if _calls(f) & reading} - reading
            if not more:
                break
            reading |= more
        bad += [f"{p.relative_to(REPO)}::{name}" for name in reading & set(funcs)
                if name.startswith("test_") and "rulebook" not in name]
    assert not bad, "these tests read a rulebook but their names do not say so:\n" + "\n".join(sorted(bad))


def test_every_module_that_quotes_checks_its_quotations():
    bad = []
    for p, tree in _test_modules():
        quotes = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                  and n.func.id == "Quotes"]
        checks = [n for n in tree.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                  and isinstance(n.value.func, ast.Attribute) and n.value.func.attr == "check"
                  and all(isinstance(t, ast.Name) and t.id.startswith("test_quotes_in_rulebook")
                          for t in n.targets)]
        if len(quotes) != len(checks):
            bad.append(f"{p.relative_to(REPO)}: {len(quotes)} Quotes, {len(checks)} test_quotes_in_rulebook")
    assert not bad, "\n".join(bad)


# ----- the helper itself ---------------------------------------------------------------------------

@pytest.fixture
def no_rulebooks(tmp_path, monkeypatch):
    monkeypatch.setenv(rulebooks.ENV, str(tmp_path))
    monkeypatch.delenv("CI", raising=False)
    return tmp_path


def test_without_the_rulebook_the_check_skips_saying_why(no_rulebooks):
    with pytest.raises(pytest.skip.Exception) as e:
        rulebooks.text("apto")
    reason = str(e.value)
    assert load_game_spec("apto").rulebook in reason and str(no_rulebooks) in reason and rulebooks.ENV in reason
    with pytest.raises(pytest.skip.Exception):
        rulebooks.assert_says("apto", "any words")


@pytest.mark.parametrize("ci", ["true", "1"])
def test_under_ci_a_missing_rulebook_fails(no_rulebooks, monkeypatch, ci):
    monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.fail.Exception, match="CI checks every quotation"):
        rulebooks.text("witp")


@pytest.mark.parametrize("ci", ["", "false", "0"])
def test_ci_off_is_not_ci(no_rulebooks, monkeypatch, ci):
    monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.skip.Exception):
        rulebooks.text("witp")


def test_the_words_are_found_whatever_the_line_breaks(no_rulebooks):
    (no_rulebooks / load_game_spec("globalwar").rulebook).write_text(
        "[9.1] Units are in Attack Supply if the unit\ntraces a  supply path.\n", encoding="utf-8")
    assert rulebooks.text("globalwar") == "[9.1] Units are in Attack Supply if the unit traces a supply path."
    rulebooks.assert_says("globalwar", "Attack Supply if the unit traces\n    a supply path.")
    with pytest.raises(AssertionError, match="does not say: 'Defense Supply'"):
        rulebooks.assert_says("globalwar", "Defense Supply")


def test_without_the_variable_the_folder_is_beside_the_checkout(monkeypatch):
    monkeypatch.delenv(rulebooks.ENV, raising=False)
    assert rulebooks.folder() == REPO.parent / "shared" / "rulebooks"
    assert rulebooks.path("witp") == REPO.parent / "shared" / "rulebooks" / load_game_spec("witp").rulebook


def test_quotes_are_checked_one_case_each_named_after_their_test():
    book = rulebooks.Quotes("apto")

    @book.says("first words", "second words")
    @book.says("third words")
    def test_7_7_something():
        pass

    assert book.quoted == [("7_7_something", "third words"), ("7_7_something-2", "first words"),
                           ("7_7_something-3", "second words")]
    check = book.check()
    assert check.__name__ == "test_quotes_in_rulebook"
    (mark,) = [m for m in check.pytestmark if m.name == "parametrize"]
    assert mark.args == ("words", ["third words", "first words", "second words"])
    assert mark.kwargs["ids"] == ["7_7_something", "7_7_something-2", "7_7_something-3"]
    with pytest.raises(AssertionError, match="no apto quotation"):
        rulebooks.Quotes("apto").check()
