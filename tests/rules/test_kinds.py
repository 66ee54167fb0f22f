"""Kinds with roles: each game's kinds.toml is checked as it loads, every
declared role is from the one vocabulary, and an undeclared kind has role "other"."""

from __future__ import annotations

import json

import pytest

from assistant.cli import main
from assistant.maps import list_games
from assistant.rules import kinds as K


@pytest.fixture
def game_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(K, "game_dir", lambda game: tmp_path)
    K.load_kinds.cache_clear()
    yield tmp_path
    K.load_kinds.cache_clear()


def test_loads_kinds_and_finds_them_case_insensitively(game_dir):
    (game_dir / "kinds.toml").write_text('''
[[kinds]]
kind = "HQ"
role = "hq"
rule = "[29.1]"
[kinds.attrs]
sea_radius = "printed Sea Command Radius"

[[kinds]]
kind = "Supply Base"
role = "supply_base"
category = "installation"
''')
    ks = K.load_kinds("x")
    assert list(ks) == ["HQ", "Supply Base"]
    assert K.find_kind("x", " hq ").kind == "HQ" and K.role_of("x", "supply base") == "supply_base"
    assert K.role_of("x", "marines") == K.OTHER
    assert ks["Supply Base"].to_json() == {"kind": "Supply Base", "role": "supply_base", "category": "installation",
                                           "attrs": {}, "rule": "", "doc": ""}


@pytest.mark.parametrize("body, named", [
    ('[[kinds]]\nkind = "HQ"\nrole = "boss"\n', "'boss'"),
    ('[[kinds]]\nkind = ""\nrole = "hq"\n', "entry 1"),
    ('[[kinds]]\nkind = "HQ"\nrole = "hq"\ncategory = "building"\n', "'building'"),
    ('[[kinds]]\nkind = "HQ"\nrole = "hq"\n[[kinds]]\nkind = "hq"\nrole = "hq"\n', "declared twice"),
    ('[[kinds]]\nkind = "HQ"\nrole = "hq"\n[[kinds]]\nkind = "OSB"\nrol = "osb"\n',
     r"kinds.toml:6: kinds\[1\]\.rol: unknown key 'rol' \(did you mean 'role'\?\)"),
])
def test_a_bad_entry_names_itself(game_dir, body, named):
    (game_dir / "kinds.toml").write_text(body)
    with pytest.raises(K.KindError, match=named):
        K.load_kinds("x")


@pytest.mark.parametrize("game", list_games())
def test_each_game_declares_kinds_with_roles_from_the_vocabulary(game, capsys):
    K.load_kinds.cache_clear()
    ks = K.load_kinds(game)
    assert ks, f"{game} declares no kinds"
    assert all(k.role in K.ROLES and k.rule for k in ks.values())
    assert main(["kinds", game, "--json"]) in (0, None)
    listed = json.loads(capsys.readouterr().out)
    assert [k["kind"] for k in listed] == list(ks)
    assert set(listed[0]) >= {"kind", "role", "category", "attrs", "rule"}
