"""A printed table given for one query (``strike --table NAME=CSV``, ``odds ... --table``) is one
of the game's tables (its schemas.toml) and a file that is that table, checked whole as ``campaign
table import`` checks it; anything else is refused in one line naming the name or the file, never
quoting the file. Both were read unchecked: an unknown name was ignored, any file was accepted."""

from __future__ import annotations

import pytest

from assistant.campaign import Campaign
from assistant.cli import main
from campaignkit import file_fingerprint

SECRET = "root:x:0:0:secret-line:/root:/bin/bash\ndaemon:x:1:1::/:/bin/false\n"


@pytest.fixture
def files(tmp_path):
    path = tmp_path / "g.campaign"
    Campaign.create(path, game="witp", scenario="guadalcanal-1942").close()
    (tmp_path / "passwd").write_text(SECRET)
    (tmp_path / "binary.csv").write_bytes(b"\xff\xfe\x00dr,0\n")
    (tmp_path / "header-only.csv").write_text("dr,0,1-12\n")
    (tmp_path / "bad-cell.csv").write_text("dr,0,1-12\n2,75,x\n")
    return path, tmp_path


@pytest.mark.parametrize("spec, named", [
    ("nonsense={d}/passwd", "witp has no table 'nonsense' (tables: air_point_availability,"),
    ("air_point_availability={d}/passwd", "'{d}/passwd' is not that table (its first line must be the columns dr,<bands>)"),
    ("air_point_availability={d}/binary.csv", "'{d}/binary.csv' is not that table"),
    ("air_point_availability={d}", "'{d}' is not a file"),
    ("air_point_availability={d}/header-only.csv", "table air_point_availability: no rows under the header"),
    ("air_point_availability={d}/bad-cell.csv", "line 2 column 1-12: 'x'"),
    ("air_point_availability=", "must be NAME=CSV"),
])
@pytest.mark.parametrize("resolve", [False, True], ids=["plot", "resolve"])
def test_strike_table_is_the_games_and_the_file_that_table(files, capsys, spec, named, resolve):
    path, d = files
    before = file_fingerprint(path)
    code = main(["strike", str(path), "--target", "E2418", "--side", "japan", "--table", spec.format(d=d)]
                + (["--resolve", "--dice", "3"] if resolve else []))
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and named.format(d=d) in err, err
    assert "secret-line" not in err and "root:x" not in err
    assert file_fingerprint(path)[:2] == before[:2]


@pytest.mark.parametrize("spec, named", [
    ("nonsense={d}/passwd", "globalwar has no table 'nonsense'"),
    ("lrb_crt={d}/passwd", "'{d}/passwd' is not that table (its first line must be the columns differential,"),
    ("lrb_radius={d}/passwd", "'{d}/passwd' is not that table"),
])
def test_odds_table_is_checked_the_same_way(files, capsys, spec, named):
    _, d = files
    code = main(["odds", "globalwar", "raid", "--lrbs", "2", "--lrb-attack", "3", "--table", spec.format(d=d)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and named.format(d=d) in err, err
    assert "secret-line" not in err
