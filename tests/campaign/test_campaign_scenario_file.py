"""A scenario file loads as typed models: every shipped one loads, and a misspelt key or a mistyped
value in a copy of one fails as it loads, naming the file, the key and its line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from assistant.campaign import CampaignError, list_scenarios, load_scenario
from assistant.campaign import scenario as S
from assistant.maps import list_games
from assistant.tomldata import DataFileError

ALL = [(g, s) for g in list_games() for s in list_scenarios(g)]


@pytest.mark.parametrize("game,name", ALL)
def test_every_shipped_scenario_file_loads(game, name):
    sc = S.load_scenario_file(S.scenarios_dir(game) / f"{name}.toml")
    assert (sc.game, sc.name) == (game, name) and sc.units
    assert sc == load_scenario(game, name)


def _copy(tmp_path: Path, old: str, new: str) -> tuple[Path, str]:
    """A copy of the Guadalcanal scenario with ``old`` (found once) made ``new``: its path and text."""
    path = Path(shutil.copy(S.scenarios_dir("witp") / "guadalcanal-1942.toml", tmp_path / "guadalcanal-1942.toml"))
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
    ("sample_note = ", "sample_notes = ", "sample_notes", "unknown key 'sample_notes' (did you mean 'sample_note'?)",
     "sample_notes = "),
    ('id = "us-poa-hq"\nside = "allies"', 'id = "us-poa-hq"\nsid = "allies"', "units[2].sid",
     "unknown key 'sid' (did you mean 'side'?)", 'sid = "allies"'),
    ('HQ"\nhex = "F3342"\nsample = true', 'HQ"\nhex = "F3342"\nsample = "maybe"', "units[2].sample",
     "valid boolean", 'sample = "maybe"'),
]


@pytest.mark.parametrize("old, new, key, problem, line_text", BROKEN, ids=[b[2] for b in BROKEN])
def test_a_broken_scenario_fails_at_load_with_file_key_and_line(tmp_path, old, new, key, problem, line_text):
    path, text = _copy(tmp_path, old, new)
    with pytest.raises(DataFileError) as e:
        S.load_scenario_file(path)
    line = _line_of(text, line_text)
    assert (e.value.path, e.value.key, e.value.line) == (path, key, line)
    assert problem in e.value.problem
    assert str(e.value).startswith(f"{path}:{line}: {key}: ")


def test_a_broken_scenario_is_one_campaign_error_naming_file_key_and_line(tmp_path, monkeypatch):
    path, text = _copy(tmp_path, "sample_note = ", "sample_notes = ")
    monkeypatch.setattr(S, "scenarios_dir", lambda game: tmp_path)
    with pytest.raises(CampaignError) as e:
        load_scenario("witp", "guadalcanal-1942")
    assert str(e.value).startswith(f"{path}:{_line_of(text, 'sample_notes = ')}: sample_notes: unknown key")
