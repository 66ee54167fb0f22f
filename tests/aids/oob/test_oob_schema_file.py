"""A game's oob_schema.toml loads as typed models: every shipped game's loads, and a misspelt key,
a mistyped value or a kind or attr kinds.toml does not declare, in a copy of one, fails as it
loads, naming the file, the key and its line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from assistant.aids.oob import schema as S
from assistant.maps import list_games
from assistant.paths import game_dir
from assistant.tomldata import DataFileError


@pytest.mark.parametrize("game", list_games())
def test_every_shipped_schema_loads(game):
    loaded = S.load_schema_file(game_dir(game) / "oob_schema.toml", game)
    assert loaded and all(a.type in S.TYPES for ks in loaded.values() for a in ks.attrs.values())
    assert loaded == dict(S.load_schema(game))


def _copy(tmp_path: Path, old: str, new: str) -> tuple[Path, str]:
    """A copy of witp's oob_schema.toml with ``old`` (found once) made ``new``: its path and text."""
    path = Path(shutil.copy(game_dir("witp") / "oob_schema.toml", tmp_path / "oob_schema.toml"))
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return path, text


def _line_of(text: str, needle: str) -> int:
    assert text.count(needle) == 1
    return text[:text.index(needle)].count("\n") + 1


# (what the copy has, what it becomes, the key named, its problem, the text on the line it names)
BROKEN = [
    ('at_least = "normal_range"', 'at_leest = "normal_range"', "kinds.Air Points.attrs.extended_range.at_leest",
     "unknown key 'at_leest' (did you mean 'at_least'?)", 'at_leest = "normal_range"'),
    ("[kinds.HQ.attrs]", "[kinds.HQ.atrs]", "kinds.HQ.atrs", "unknown key 'atrs' (did you mean 'attrs'?)",
     "[kinds.HQ.atrs]"),
    ('sea_radius = { type = "int"', 'sea_radius = { type = "integer"', "kinds.HQ.attrs.sea_radius.type",
     "Input should be", 'sea_radius = { type = "integer"'),
    ('sea_radius = { type = "int", min = 0,', 'sea_radius = { type = "int", min = "0",',
     "kinds.HQ.attrs.sea_radius.min", "must be a number", 'sea_radius = { type = "int", min = "0",'),
    ('[kinds."ground unit".attrs]', '[kinds."ground unti".attrs]', "kinds.ground unti",
     "kind 'ground unti' is not declared in kinds.toml", '[kinds."ground unti".attrs]'),
    ("sea_radius = {", "sea_radious = {", "kinds.HQ.attrs.sea_radious",
     "attr 'sea_radious' is not one kinds.toml lists", "sea_radious = {"),
    ('at_least = "normal_range"', 'at_least = "normal_rang"', "kinds.Air Points.attrs.extended_range.at_least",
     "'normal_rang' is no attr", 'at_least = "normal_rang"'),
]


@pytest.mark.parametrize("old, new, key, problem, line_text", BROKEN, ids=[b[2] for b in BROKEN])
def test_a_broken_schema_fails_at_load_with_file_key_and_line(tmp_path, old, new, key, problem, line_text):
    path, text = _copy(tmp_path, old, new)
    with pytest.raises(DataFileError) as e:
        S.load_schema_file(path, "witp")
    line = _line_of(text, line_text)
    assert (e.value.path, e.value.key, e.value.line) == (path, key, line)
    assert problem in e.value.problem
    assert str(e.value).startswith(f"{path}:{line}: {key}: ")


def test_the_games_schema_fails_as_the_aids_one_line_error(tmp_path, monkeypatch):
    """Through ``load_schema`` a broken file is the aid's own error (what its CLI and page show),
    still naming the file, the key and its line."""
    path, text = _copy(tmp_path, "[kinds.HQ.attrs]", "[kinds.HQ.atrs]")
    monkeypatch.setattr(S, "game_dir", lambda game: tmp_path)
    S.load_schema.cache_clear()
    try:
        with pytest.raises(S.OobError) as e:
            S.load_schema("witp")
    finally:
        S.load_schema.cache_clear()
    assert str(e.value).startswith(f"{path}:{_line_of(text, '[kinds.HQ.atrs]')}: kinds.HQ.atrs: unknown key")
