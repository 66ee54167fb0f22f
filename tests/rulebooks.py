"""Where the tests find the games' rulebooks, and the one way a test checks what a rulebook says.

The rulebook texts are the publishers' and are not in the repository. They are looked for in the
folder $CAMPAIGN_ASSISTANT_RULEBOOKS names, else in ``shared/rulebooks`` beside the checkout (where
CI has them); a game's file is the ``rulebook`` of its game.toml.

Without them only the checks that a rulebook says something skip, each saying why; every test of
the arithmetic still runs, with the rulebook's numbers written into the test. Under CI a missing
rulebook fails those checks instead, so CI always checks every quotation.

A test module declares the sentences it quotes beside the tests they back, and one collected test
checks them all (one case per quotation)::

    BOOK = Quotes("apto")

    @BOOK.says("A line of supply cannot enter into any desert hex")
    def test_a_desert_hex_blocks_a_line(): ...

    test_quotes_in_rulebook = BOOK.check()  # last in the module: every quotation above

A test that reads more than a sentence (a printed table, a section) calls ``text(game)`` and has
``rulebook`` in its name, so a skip list shows it for what it is.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path
from typing import Callable

import pytest

from assistant.maps.gamespec import load_game_spec

ENV = "CAMPAIGN_ASSISTANT_RULEBOOKS"
BESIDE_THE_CHECKOUT = Path(__file__).resolve().parents[1].parent / "shared" / "rulebooks"


def folder() -> Path:
    return Path(os.environ.get(ENV) or BESIDE_THE_CHECKOUT)


def path(game: str) -> Path:
    return folder() / load_game_spec(game).rulebook


def under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def one_line(words: str) -> str:
    """Every run of whitespace one space: the texts break lines mid-sentence."""
    return re.sub(r"\s+", " ", words).strip()


def text(game: str) -> str:
    """``game``'s rulebook as one line (``one_line``). Without it the calling test skips -- it can
    only be a check of the rulebook's words -- or, under CI, fails."""
    p = path(game)
    if not p.is_file():
        where = f"the {game} rulebook {p.name} is not in {p.parent}"
        if under_ci():
            pytest.fail(f"{where}: CI checks every quotation (set {ENV} to the rulebooks' folder)")
        pytest.skip(f"{where} (it is not in the repository; set {ENV}): "
                    f"only the check of the rulebook's own words is skipped")
    return _read(p)


@functools.cache
def _read(p: Path) -> str:
    return one_line(p.read_text(encoding="utf-8", errors="replace"))


def assert_says(game: str, words: str) -> None:
    assert one_line(words) in text(game), f"the {game} rulebook does not say: {words!r}"


class Quotes:
    """The sentences one test module quotes from ``game``'s rulebook. ``says`` records them as the
    module is read; ``check`` makes the test with one case per quotation, named after the test
    that relies on it."""

    def __init__(self, game: str):
        self.game = game
        self.quoted: list[tuple[str, str]] = []  # (case id, words)

    def says(self, *words: str) -> Callable:
        """Decorator: the test below relies on the rulebook saying each of ``words``."""
        assert words, "says() needs the words the rulebook says"

        def recorded(test: Callable) -> Callable:
            name = test.__name__.removeprefix("test_")
            for w in words:
                n = sum(1 for i, _ in self.quoted if i == name or i.startswith(name + "-"))
                self.quoted.append((name if n == 0 else f"{name}-{n + 1}", w))
            return test

        return recorded

    def check(self) -> Callable:
        assert self.quoted, f"no {self.game} quotation was recorded before check()"
        game, quoted = self.game, list(self.quoted)

        @pytest.mark.parametrize("words", [w for _, w in quoted], ids=[i for i, _ in quoted])
        def test_quotes_in_rulebook(words: str) -> None:
            assert_says(game, words)

        return test_quotes_in_rulebook
