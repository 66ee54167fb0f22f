"""A game's game.toml loads as typed models: every shipped game loads, and a misspelt, missing or
dangling key in a copy of one fails as it loads, naming the file, the key and its line."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from assistant.maps.gamespec import DataFileError, games_root, list_games, load_game_file, load_game_spec
from assistant.paths import game_dir


@pytest.mark.parametrize("game", list_games())
def test_every_shipped_game_loads_with_its_tables(game):
    spec = load_game_file(game_dir(game) / "game.toml")
    assert spec.id == game and spec.title and spec.rulebook
    assert spec.grid.sections and spec.fixtures == spec.grid.fixtures
    assert spec.calendar is not None and spec.calendar.slots and spec.sides and spec.settings
    assert all(s.choices is None or s.default in s.choices for s in spec.settings.values())
    assert spec.hexsides.features and spec.hexes.attributes
    assert load_game_spec(game).model_dump() == spec.model_dump()


def test_the_games_are_the_folders_with_a_game_toml():
    folders = sorted(p.parent.name for p in games_root().glob("*/game.toml"))
    assert folders and list_games() == folders


def _copy(tmp_path: Path, game: str = "witp", folder: str | None = None) -> Path:
    d = tmp_path / (folder or game)
    d.mkdir()
    return Path(shutil.copy(game_dir(game) / "game.toml", d / "game.toml"))


def _line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


# (what the copy has, what the typo makes it, the key named, the text on the line it names)
TYPOS = [
    ('default = "undamaged_port"', 'defualt = "undamaged_port"',
     "settings.supply_osb_damage.defualt", 'defualt = "undamaged_port"'),
    ('name = "Dutch East Indies/Western Australia"\ncols', 'name = "Dutch East Indies/Western Australia"\ncolz',
     "grid.sections[2].colz", "colz = [1, 40]"),
    ('id = "australia"\nname = "Australia"', 'id = "australia"\nnmae = "Australia"',
     "sides[1].nations[3].nmae", 'nmae = "Australia"'),
    ('origin = { year = 1941, period = "13", slot = 0 }\norigin_rule',
     'origin = { yeer = 1941, period = "13", slot = 0 }\norigin_rule',
     "calendar.origin.yeer", "origin = { yeer = 1941"),
    ("[hexsides.features.pass]\ntype", "[hexsides.features.pass]\ntyp", "hexsides.features.pass.typ", 'typ = "bool"'),
    ("[hexes.attributes.airfield]\ntype", "[hexes.attributes.airfield]\ntpye",
     "hexes.attributes.airfield.tpye", 'tpye = "int"'),
    ("[settings.ledger_four_three]", "[setings.ledger_four_three]", "setings", "[setings.ledger_four_three]"),
]


@pytest.mark.parametrize("old, new, key, line_text", TYPOS, ids=[t[2] for t in TYPOS])
def test_a_misspelt_key_fails_at_load_with_file_key_and_line(tmp_path, old, new, key, line_text):
    path = _copy(tmp_path)
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as e:
        load_game_file(path)
    line = _line_of(text, line_text)
    assert (e.value.path, e.value.key, e.value.line) == (path, key, line)
    assert str(e.value).startswith(f"{path}:{line}: {key}: unknown key")


def test_an_unknown_key_suggests_the_one_meant(tmp_path):
    path = _copy(tmp_path)
    path.write_text(path.read_text().replace('default = "undamaged_port"', 'defualt = "undamaged_port"'))
    with pytest.raises(DataFileError, match=r"unknown key 'defualt' \(did you mean 'default'\?\)"):
        load_game_file(path)


# (what the copy has, what it becomes, the key named, its problem, the text on the line it names)
BROKEN = [
    ('title = "War in the Pacific (2nd ed.)"\n', "", "game.title", "missing key", "[game]"),
    ('id = "witp"', 'id = "witp2"', "game.id", "is not the name of its folder", 'id = "witp2"'),
    ('orientation = "flat"', 'orientation = "flat-top"', "grid.orientation", "'flat' or 'pointy'",
     'orientation = "flat-top"'),
    ('default = "radius"', 'default = "radii"', "settings.supply_port_damage_rounding",
     "default 'radii' is not one of its choices", "[settings.supply_port_damage_rounding]"),
    ('variant_setting = "strategic_turn_position"', 'variant_setting = "strategic_turn"',
     "calendar.variant_setting", "no setting 'strategic_turn'", 'variant_setting = "strategic_turn"'),
    ('label = "G/T 1/{period}/{yy}"\nphases = "operational"', 'label = "G/T 1/{period}/{yy}"\nphases = "operations"',
     "calendar.slots[1].phases", "no phase list 'operations'", 'phases = "operations"'),
    ('overlays = ["E", "F"]', 'overlays = ["E", "H"]', "grid.sections[3].overlays", "no section 'H'",
     'overlays = ["E", "H"]'),
    ('id = "britain"', 'id = "us"', "sides[1].nations[1].id", "nation 'us' is declared twice", 'id = "us"\nname = "Britain"'),
    ('choices = ["arctic", "temperate", "tropical"]', 'choices = ["Arctic", "temperate", "tropical"]',
     "hexes.attributes.movement_area", "lower case", "[hexes.attributes.movement_area]"),
]


@pytest.mark.parametrize("old, new, key, problem, line_text", BROKEN, ids=[b[2] for b in BROKEN])
def test_a_wrong_or_dangling_value_fails_at_load_with_file_key_and_line(tmp_path, old, new, key, problem, line_text):
    path = _copy(tmp_path)
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as e:
        load_game_file(path)
    assert (e.value.key, e.value.line) == (key, _line_of(text, line_text))
    assert problem in e.value.problem
    assert str(e.value).startswith(f"{path}:{e.value.line}: {key}: ")


def test_a_toml_syntax_error_names_file_and_line(tmp_path):
    path = _copy(tmp_path)
    text = path.read_text().replace('rulebook = "000_a763e4ba4882ac34.txt"', 'rulebook = "000_a763e4ba4882ac34.txt')
    path.write_text(text)
    with pytest.raises(DataFileError, match=re.escape(f"{path}:{_line_of(text, 'rulebook =')}: not valid TOML")):
        load_game_file(path)


def test_a_fourth_game_is_its_folder(tmp_path):
    """A new game is a folder with a game.toml: it is listed and loads, and nothing names it."""
    root = tmp_path / "games"
    root.mkdir()
    path = _copy(root, "apto", "testgame")
    path.write_text(path.read_text().replace('id = "apto"', 'id = "testgame"'))
    (root / "notes").mkdir()  # a folder without a game.toml is not a game
    assert list_games(root) == ["testgame"]
    spec = load_game_file(path)
    assert (spec.id, spec.title) == ("testgame", "Advanced Pacific Theater of Operations")
    assert [s.id for s in spec.grid.sections] == ["W", "E", "I"]


def test_a_misspelt_key_is_one_line_from_the_command(tmp_path, monkeypatch, capsys):
    """`campaign` names the broken data file, its key and line in one line (exit 2), no traceback."""
    import assistant.maps.gamelist as gamelist
    import assistant.maps.gamespec as gamespec
    from assistant.cli import main

    path = _copy(tmp_path, "witp", "testgame")
    text = path.read_text().replace('id = "witp"', 'id = "testgame"').replace('title =', 'titel =', 1)
    path.write_text(text)
    monkeypatch.setattr(gamelist, "games_root", lambda: tmp_path)  # where list_games looks
    monkeypatch.setattr(gamespec, "game_dir", lambda game: tmp_path / game)
    load_game_spec.cache_clear()
    try:
        assert main(["map", "info", "testgame"]) == 2
    finally:
        load_game_spec.cache_clear()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("error: ") and f"game.toml:{_line_of(text, 'titel =')}" in err and "titel" in err
