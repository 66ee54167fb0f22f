"""A campaign pins its map: ``campaign new`` records the grid model, the map
version and the placed geometry; a later ``campaign map derive`` (here: a changed calibration or
derived map in a copy of the game data) does not move hexes under an existing campaign;
``campaign info`` says which version a file uses and whether the installed one differs; old files
without a pin keep opening on the installed map; ``campaign map upgrade`` moves a campaign."""

import gzip
import json
import re
import shutil

import pytest

from assistant import paths
from assistant.campaign import Campaign, CampaignError, mappin
from assistant.campaign.campaign import initial_records, state_json
from assistant.campaign.events import CampaignCreated, EventRecord
from assistant.campaign.fold import FOLD_VERSION, fold
from assistant.campaign.store import Store
from assistant.cli import main
from assistant.maps import gamelist, load_game_spec, load_map
from assistant.maps.version import current_map_version
from campaignkit import file_fingerprint


def _clear_caches():
    load_map.cache_clear()
    load_game_spec.cache_clear()
    mappin._pinned_map.cache_clear()


@pytest.fixture
def data(tmp_path, monkeypatch):
    """A private copy of the witp and globalwar data, installed in place of the package's."""
    root = tmp_path / "data"
    for game in ("witp", "globalwar"):
        shutil.copytree(paths.data_dir() / "games" / game, root / "games" / game)
    monkeypatch.setattr(paths, "data_dir", lambda: root)
    monkeypatch.setattr(gamelist, "data_dir", lambda: root)  # where the games are listed
    _clear_caches()
    yield root / "games"
    monkeypatch.undo()
    _clear_caches()


def _rederive_with_offset(games, section: str, shift: tuple[int, int]) -> None:
    """What a ``campaign map derive`` with a different fit writes: section offsets moved."""
    p = games / "witp" / "derived" / "calibration.json"
    cal = json.loads(p.read_text())
    moved = 0
    for fit in cal["models"].values():
        for s in fit["sections"]:
            if s["section"] == section:
                s["offset"] = [s["offset"][0] + shift[0], s["offset"][1] + shift[1]]
                moved += 1
    assert moved, f"no section {section!r} in {p}: the re-derivation would change nothing"
    p.write_text(json.dumps(cal))
    _clear_caches()


def test_new_campaign_pins_the_installed_map(data, tmp_path):
    with Campaign.create(tmp_path / "c.campaign", game="witp") as c:
        pin, now = c.state.map_pin, current_map_version("witp")
        assert (pin.model, pin.version, pin.grid) == (now.model, now.version, now.grid)
        assert pin.version.startswith("sha256:") and len(pin.version) == 7 + 64
        assert pin.grid == load_map("witp").grid_spec.model_dump(mode="json")
        assert c.map is load_map("witp")  # same geometry: the shared installed map
        m = c.info()["map"]
        assert (m["pinned"], m["newer"], m["geometry_changed"], m["version"]) == (True, False, False, now.version)


def test_a_rederived_map_does_not_move_hexes_under_a_campaign(data, tmp_path):
    path = tmp_path / "c.campaign"
    with Campaign.create(path, game="witp") as c:
        c.place_unit("allies", "division", "G0626", id="marines")
        pinned_axial = c.map.grid.parse("G0626")
    _rederive_with_offset(data, "G", (2, -1))
    assert load_map("witp").grid.parse("G0626") != pinned_axial  # the installed map moved section G
    with Campaign.open(path) as c:
        assert c.map.grid.parse("G0626") == pinned_axial
        assert c.map.grid_spec.model_dump(mode="json") == c.state.map_pin.grid
        c.move_unit("marines", "G0627")  # commands validate on the pinned geometry
        m = c.info()["map"]
        assert m["newer"] and m["geometry_changed"] and m["installed_version"] != m["version"]
        assert "campaign map upgrade" in m["note"] and "hexes lie elsewhere" in m["note"]
    with Campaign.create(tmp_path / "new.campaign", game="witp") as fresh:
        assert fresh.state.map_pin.version == current_map_version("witp").version != m["version"]


def test_info_says_which_map_and_whether_another_is_installed(data, tmp_path, capsys):
    f = str(tmp_path / "c.campaign")
    assert main(["new", f, "--game", "witp"]) == 0
    capsys.readouterr()
    short = current_map_version("witp").short
    assert main(["info", f]) == 0
    out = capsys.readouterr().out
    assert f"map        {current_map_version('witp').model} {short} (revision 0)" in out and "map note" not in out
    p = data / "witp" / "derived" / "hexes.csv.gz"
    rows = gzip.decompress(p.read_bytes()).decode().splitlines()
    p.write_bytes(gzip.compress(("\n".join(rows[:-1]) + "\n").encode()))  # one hex fewer, same geometry
    _clear_caches()
    assert main(["info", f]) == 0
    out = capsys.readouterr().out
    assert f"differs from the campaign's {short} (same geometry)" in out
    assert main(["info", f, "--json"]) == 0
    m = json.loads(capsys.readouterr().out)["map"]
    assert (m["pinned"], m["newer"], m["geometry_changed"]) == (True, True, False)
    assert m["installed_version"] == current_map_version("witp").version


def test_upgrade_moves_the_campaign_and_is_undoable(data, tmp_path):
    path = tmp_path / "c.campaign"
    with Campaign.create(path, game="witp") as c:
        old = c.state.map_pin
        c.place_unit("allies", "division", "G0626", id="marines")
    _rederive_with_offset(data, "G", (2, -1))
    with Campaign.open(path) as c:
        rec = c.upgrade_map()
        assert c.state.map_pin.version == current_map_version("witp").version and c.state.map_revision == 1
        assert c.map.grid.parse("G0626") == load_map("witp").grid.parse("G0626")
        assert "->" in rec.describe() and c.info()["map"]["newer"] is False
        with pytest.raises(CampaignError, match="already on map"):
            c.upgrade_map()
        c.undo()
        assert c.state.map_pin == old and c.state.map_revision == 2
        assert c.map.grid.parse("G0626") != load_map("witp").grid.parse("G0626")
        assert c.replay() == c.state


def test_upgrade_is_refused_when_a_unit_would_be_off_the_new_map(data, tmp_path, capsys):
    path = tmp_path / "c.campaign"
    with Campaign.create(path, game="witp") as c:
        c.place_unit("allies", "division", "G0640", id="far")
    toml = data / "witp" / "game.toml"
    text, n = re.subn(r'(id = "G".*?rows = )\[[^\]]*\]', r"\g<1>[1, 30]", toml.read_text(), count=1, flags=re.S)
    assert n == 1
    toml.write_text(text)
    _clear_caches()
    before = file_fingerprint(path)
    assert main(["map", "upgrade", str(path)]) == 2
    assert capsys.readouterr().err == (f"error: unit far at G0640 is not a hex on map "
                                       f"{current_map_version('witp').short}; the campaign stays on its map\n")
    assert file_fingerprint(path) == before
    with Campaign.open(path) as c:
        assert c.map.grid.contains(c.map.grid.parse("G0640"))  # still on its pinned map


def _unpinned_file(path, game="witp"):
    """A campaign file as written before map pins: campaign_created without ``map``."""
    records, _ = initial_records(game)
    body = records[0].body.model_copy(update={"map": None})
    assert "map" not in body.payload()
    rec = EventRecord.make(1, records[0].time, records[0].turn, None, CampaignCreated.model_validate(body.payload()))
    state = fold(None, [rec])
    Store.create(path, {"game": game, "created": rec.time, "fold_version": str(FOLD_VERSION)}, [rec.row()],
                 snapshot=(1, FOLD_VERSION, rec.time, state_json(state)))


def test_old_files_without_a_pin_open_on_the_installed_map_and_can_be_pinned(tmp_path, capsys):
    path = tmp_path / "old.campaign"
    _unpinned_file(path)
    with Campaign.open(path) as c:
        assert c.state.map_pin is None and c.map is load_map("witp")
        m = c.info()["map"]
        assert (m["pinned"], m["newer"], m["version"]) == (False, False, None) and "not pinned" in m["note"]
        c.upgrade_map()
        assert c.state.map_pin.version == current_map_version("witp").version
        c.undo()
        assert c.state.map_pin is None and c.replay() == c.state
    assert main(["info", str(path)]) == 0
    assert "not pinned: uses the installed map" in capsys.readouterr().out


def test_globalwar_pins_the_chosen_grid_model(tmp_path, capsys):
    # globalwar's hex orientation is undecided by the text: both readings are grid models
    f = tmp_path / "c.campaign"
    assert main(["new", str(f), "--game", "globalwar", "--model", "straight_columns", "--json"]) == 0
    capsys.readouterr()
    with Campaign.open(f) as c:
        assert c.state.map_pin.model == "straight_columns" and c.map.model == "straight_columns"
        assert c.map.grid_spec.model_dump(mode="json") == current_map_version("globalwar", "straight_columns").grid
        assert c.state.map_pin.grid != current_map_version("globalwar", "straight_rows").grid
    before = file_fingerprint(f)
    assert main(["new", str(tmp_path / "x.campaign"), "--game", "globalwar", "--model", "hexagonal"]) == 2
    assert "unknown grid model 'hexagonal'" in capsys.readouterr().err
    assert not (tmp_path / "x.campaign").exists() and file_fingerprint(f) == before


def test_map_version_ignores_gzip_time_stamps_but_not_content(data):
    v0 = current_map_version("witp").version
    p = data / "witp" / "derived" / "hexes.csv.gz"
    raw = gzip.decompress(p.read_bytes())
    p.write_bytes(gzip.compress(raw, mtime=12345))
    assert current_map_version("witp").version == v0
    p.write_bytes(gzip.compress(raw.replace(b",sea,", b",land,", 1)))
    v1 = current_map_version("witp").version
    assert v1 != v0
    sides = data / "witp" / "hexsides.csv"
    sides.write_text(sides.read_text() + "E2418,E2519,river,true,[29.7],test\n" if sides.exists()
                     else "hex_a,hex_b,feature,value,rule,quote\nE2418,E2519,river,true,[29.7],test\n")
    assert current_map_version("witp").version not in (v0, v1)


def test_upgrade_is_refused_when_a_corrected_hexside_would_no_longer_be_one(data, tmp_path):
    path = tmp_path / "c.campaign"
    with Campaign.create(path, game="witp") as c:
        c.set_hexside("G0626", "G0627", river=True)
    _rederive_with_offset(data, "G", (2, -1))
    with Campaign.open(path) as c:
        # G's own hexes keep their adjacency when the whole section moves: the upgrade applies
        c.upgrade_map()
        c.undo()
    toml = data / "witp" / "game.toml"
    text, n = re.subn(r'(id = "G".*?rows = )\[[^\]]*\]', r"\g<1>[1, 26]", toml.read_text(), count=1, flags=re.S)
    assert n == 1
    toml.write_text(text)
    _clear_caches()
    with Campaign.open(path) as c:
        with pytest.raises(CampaignError, match=re.escape("the corrected hexside G0626|G0627 is not a hexside on map")):
            c.upgrade_map()


def test_opening_a_file_whose_snapshots_an_older_fold_wrote_replays_once(tmp_path):
    path = tmp_path / "c.campaign"
    with Campaign.create(path, game="witp", snapshot_every=10**6) as c:
        for i in range(30):
            c.add_note(f"line {i}")
        want = c.state
        c._store.con.execute("UPDATE snapshots SET fold_version = ?", (FOLD_VERSION - 1,))
    fp = file_fingerprint(path)
    with Campaign.open(path, readonly=True, snapshot_every=10) as c:
        assert c.state == want
    assert file_fingerprint(path) == fp  # a read-only open writes nothing
    with Campaign.open(path, snapshot_every=10) as c:
        assert c.state == want
        snaps = c._store.con.execute("SELECT seq FROM snapshots WHERE fold_version = ?", (FOLD_VERSION,)).fetchall()
        assert snaps == [(10,), (20,), (want.last_seq,)]  # the last, and those the thinning keeps before it
