"""A game's templates/schemas.toml loads as typed models: every shipped game's loads, and a
misspelt key, a mistyped value or a column name that points nowhere, in a copy of one, fails as
it loads, naming the file, the key and its line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from assistant.campaign import tableschema as S
from assistant.campaign.errors import CampaignError
from assistant.maps import list_games
from assistant.paths import game_dir
from assistant.tomldata import DataFileError


@pytest.mark.parametrize("game", list_games())
def test_every_shipped_schemas_file_loads(game):
    loaded = S.load_schemas_file(game_dir(game) / "templates" / "schemas.toml", game)
    assert loaded and all(t.columns and t.template for t in loaded.values())
    assert loaded == S.schemas(game)


def _copy(tmp_path: Path, old: str, new: str) -> tuple[Path, str]:
    """A copy of witp's schemas.toml with ``old`` (found once) made ``new``: its path and text."""
    path = Path(shutil.copy(game_dir("witp") / "templates" / "schemas.toml", tmp_path / "schemas.toml"))
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return path, text


def _line_of(text: str, needle: str) -> int:
    assert text.count(needle) == 1
    return text[:text.index(needle)].count("\n") + 1


APAT = "air_point_availability"
# (what the copy has, what it becomes, the key named, its problem, the text on the line it names)
BROKEN = [
    ('{ name = "dr", type = "int", required = true', '{ name = "dr", type = "int", requird = true',
     f"{APAT}.columns[0].requird", "unknown key 'requird' (did you mean 'required'?)", "requird = true"),
    ('ordered = [["msp_min", "msp_max"]]', 'orderd = [["msp_min", "msp_max"]]', "japanese_pp_multiple.orderd",
     "unknown key 'orderd' (did you mean 'ordered'?)", 'orderd = [["msp_min", "msp_max"]]'),
    ('suffix = "%"', 'sufix = "%"', f"{APAT}.bands.sufix", "unknown key 'sufix' (did you mean 'suffix'?)",
     'sufix = "%"'),
    ('{ column = "bands", by = "dr"', '{ column = "bands", bye = "dr"', f"{APAT}.monotonic[1].bye",
     "unknown key 'bye'", 'bye = "dr"'),
    ('{ name = "mp", type = "int"', '{ name = "mp", type = "integer"', "ground_mp.columns[1].type",
     "Input should be", '{ name = "mp", type = "integer"'),
    ('title = "Ground Movement Table', 'tilte = "Ground Movement Table', "ground_mp.tilte",
     "unknown key 'tilte' (did you mean 'title'?)", 'tilte = "Ground Movement Table'),
    ('{ column = "bands", by = "dr", direction = "nondecreasing"', '{ column = "bands", by = "dr", direction = "up"',
     f"{APAT}.monotonic[1].direction", "Input should be", 'direction = "up"'),
    ('key = ["dr"]', 'key = ["roll"]', f"{APAT}.key", "'roll' is not one of dr", 'key = ["roll"]'),
    ('{ column = "bands", by = "dr"', '{ column = "bands", by = "die"', f"{APAT}.monotonic[1].by",
     "'die' is not one of dr", 'by = "die"'),
]


@pytest.mark.parametrize("old, new, key, problem, line_text", BROKEN, ids=[b[2] for b in BROKEN])
def test_a_broken_schemas_file_fails_at_load_with_file_key_and_line(tmp_path, old, new, key, problem, line_text):
    path, text = _copy(tmp_path, old, new)
    with pytest.raises(DataFileError) as e:
        S.load_schemas_file(path, "witp")
    line = _line_of(text, line_text)
    assert (e.value.path, e.value.key, e.value.line) == (path, key, line)
    assert problem in e.value.problem
    assert str(e.value).startswith(f"{path}:{line}: {key}: ")


def test_the_games_schemas_fail_as_the_aids_one_line_error(tmp_path, monkeypatch):
    """Through ``schemas`` a broken file is the aid's own error (what its CLI and page show),
    still naming the file, the key and its line."""
    path, text = _copy(tmp_path, 'suffix = "%"', 'sufix = "%"')
    monkeypatch.setattr(S, "templates_dir", lambda game: tmp_path)
    S.schemas.cache_clear()
    try:
        with pytest.raises(CampaignError) as e:
            S.schemas("witp")
    finally:
        S.schemas.cache_clear()
    assert str(e.value).startswith(f"{path}:{_line_of(text, 'sufix')}: {APAT}.bands.sufix: unknown key")
