"""``campaign map geojson GAME [--campaign FILE] [--out FILE]``: the map's hexes as GeoJSON on
stdout, or written whole to FILE; a bad game, campaign file or output path is one line, exit 2,
nothing written."""

from __future__ import annotations

import json

import pytest

from assistant.campaign import Campaign
from assistant.maps.gamemap import load_map
from clikit import run


@pytest.fixture
def camp_path(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    c.close()
    return tmp_path / "g.campaign"


def test_stdout_is_a_feature_collection_of_every_hex(capsys):
    code, out, err = run(capsys, "map", "geojson", "GlobalWar")  # the game as a player types it
    assert code == 0, err
    fc = json.loads(out)
    assert fc["type"] == "FeatureCollection" and len(fc["features"]) == len(load_map("globalwar").grid.all_hexes)
    assert set(fc["features"][0]["properties"]) == {"label", "surface", "terrain"}


def test_out_writes_the_file_with_the_campaigns_units(capsys, camp_path, tmp_path):
    out = tmp_path / "witp.geojson"
    code, text, err = run(capsys, "map", "geojson", "witp", "--campaign", camp_path, "--out", out)
    assert code == 0, err
    fc = json.loads(out.read_text(encoding="utf-8"))
    assert text.strip() == f"wrote {len(fc['features'])} hexes of witp to {out}"
    with Campaign.open(camp_path, readonly=True) as c:
        units = {u.id for u in c.state.units.values()}
    assert {i for f in fc["features"] for i in f["properties"]["units"]} == units
    code, text, _ = run(capsys, "map", "geojson", "witp", "--out", out, "--json")
    assert json.loads(text) == {"out": str(out), "game": "witp", "features": len(fc["features"])}
    assert "units" not in json.loads(out.read_text(encoding="utf-8"))["features"][0]["properties"]  # replaced


@pytest.mark.parametrize("argv, says", [
    (["chess"], "game 'chess' is not a game"),
    (["witp", "--campaign", "{tmp}/none.campaign"], "no campaign file"),
    (["apto", "--campaign", "{camp}"], "is a witp campaign, not apto"),
    (["witp", "--out", "{tmp}/no/such/dir/x.geojson"], "no directory"),
    (["witp", "--out", "{tmp}"], "is a directory"),
    (["globalwar", "--out", "/dev/null"], "is not a regular file"),  # a device is never replaced
])
def test_bad_input_is_one_line_exit_2_nothing_written(capsys, camp_path, tmp_path, argv, says):
    def written():  # the campaign's SQLite sidecars aside (opening it read-only makes them)
        return sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("g.campaign"))

    before = written()
    code, out, err = run(capsys, "map", "geojson", *[a.format(tmp=tmp_path, camp=camp_path) for a in argv],
                         *([] if "--out" in argv else ["--out", tmp_path / "x.geojson"]))
    assert code == 2 and out == "" and says in err and len(err.strip().splitlines()) == 1, err
    assert written() == before
