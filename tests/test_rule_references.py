"""Every rule reference a game's rules can print names a rule that game's rulebook has.

A finding, refusal or ledger step carries its rule as a string literal in the game's rules package
(``assistant/rules/<game>/``) or data (``data/games/<game>/``). This test reads every such literal
(the Python source through ``ast``, the TOML and CSV files as text), so it covers every place a
citation can come from without having to build the state that makes each one appear.

How a rulebook numbers its rules:

* witp and apto: a rule starts a line with its number in brackets, ``[5.14.3] ...``; a reference is
  written the same way, ``[5.14.3]`` (several: ``[2.0];[8.2]``). A rule the text names but does not
  print ("see Optional Rule 38.4") may be cited as well.
* globalwar: a rule starts a line with its number, ``9.1.5 Fortifications``, its paragraphs with a
  capital letter, ``A. ...``; a reference is ``9.1.5`` or ``9.1.5.A``.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

import rulebooks
from assistant.maps.gamespec import list_games

ROOT = Path(__file__).resolve().parents[1]
BRACKETED = re.compile(r"\[(\d+(?:\.\d+)+)\]")
PLAIN = re.compile(r"^\d+(?:\.\d+)+(?:\.[A-Z])?$")
STYLE = {"witp": "bracketed", "apto": "bracketed", "globalwar": "plain"}


def literals(game: str) -> list[tuple[str, str]]:
    """(where, text) of every string the game's rules and data hold."""
    out = []
    for py in sorted((ROOT / "assistant" / "rules" / game).rglob("*.py")):
        for node in ast.walk(ast.parse(py.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                out.append((f"{py.relative_to(ROOT)}:{node.lineno}", node.value))
    for data in sorted((ROOT / "data" / "games" / game).glob("*")):
        if data.suffix in (".toml", ".csv"):
            for n, line in enumerate(data.read_text(encoding="utf-8").splitlines(), 1):
                out.append((f"{data.relative_to(ROOT)}:{n}", line))
    return out


def references(game: str) -> dict[str, str]:
    """Each rule reference of ``game`` -> one place it is written."""
    found: dict[str, str] = {}
    for where, s in literals(game):
        if STYLE[game] == "bracketed":
            refs = BRACKETED.findall(s)
        else:  # a literal that is a reference, or several joined by ";" (code never writes a number bare otherwise)
            parts = [p.strip() for p in s.split(";")]
            refs = parts if parts and all(PLAIN.match(p) for p in parts) else []
        for r in refs:
            found.setdefault(r, where)
    return found


@cache
def numbered(game: str) -> frozenset[str]:
    """The rule numbers ``game``'s rulebook gives (with globalwar's lettered paragraphs)."""
    rulebooks.text(game)  # skips (or, under CI, fails) without the rulebook
    lines = rulebooks.path(game).read_text(encoding="utf-8", errors="replace").splitlines()
    out: set[str] = set()
    if STYLE[game] == "bracketed":
        for line in lines:
            m = re.match(r"\s*\[(\d+(?:\.\d+)+)\]", line)
            if m:
                out.add(m.group(1))
        return frozenset(out)
    section = None
    for line in lines:
        m = re.match(r"\s*(\d+(?:\.\d+)+)\s+\S", line)
        if m:
            section = m.group(1)
            out.add(section)
            continue
        m = re.match(r"\s*([A-Z])\.\s", line)
        if m and section:
            out.add(f"{section}.{m.group(1)}")
    return frozenset(out)


def test_every_game_has_a_citation_style():
    assert set(STYLE) == set(list_games())


@pytest.mark.parametrize("game", list_games())
def test_the_rules_cite_many_rules(game):
    """The scan finds what it is for: each game's rules cite dozens of rules."""
    assert len(references(game)) > 40, sorted(references(game))


@pytest.mark.parametrize("game", list_games())
def test_every_rule_reference_is_a_rule_of_the_rulebook(game):
    have = numbered(game)
    assert len(have) > 200  # the rulebook's numbering was read
    # A rule the text names without printing it ("Optional Rule 38.4") may be cited too.
    named = set(re.findall(r"\bRule (\d+(?:\.\d+)+)", rulebooks.text(game)))
    missing = {ref: where for ref, where in references(game).items() if ref not in have | named}
    assert missing == {}, f"{game}: rule references the rulebook does not number: {missing}"


def test_the_rulebook_numbering_read_tells_rules_from_non_rules():
    """What the check compares against: rules the text numbers are in, others are not."""
    assert {"5.14.3", "32.7"} <= numbered("witp") and "5.14.9" not in numbered("witp")
    assert "4.16" in numbered("apto") and "4.99" not in numbered("apto")
    assert {"9.1.5", "9.1.5.A", "9.1.5.C"} <= numbered("globalwar") and "9.1.5.D" not in numbered("globalwar")
