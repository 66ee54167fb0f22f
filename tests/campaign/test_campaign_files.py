"""Bad files: each fails with one clear sentence and is left byte-for-byte untouched."""

import os
import shutil
import sqlite3

import pytest

from assistant.campaign import Campaign, CampaignError, CampaignFileError
from assistant.campaign.store import APPLICATION_ID, SCHEMA_VERSION
from campaignkit import file_fingerprint


@pytest.fixture
def good(tmp_path):
    p = tmp_path / "good.campaign"
    with Campaign.create(p, game="witp", scenario="guadalcanal-1942") as c:
        for i in range(50):
            c.add_note(f"note {i} " + "x" * 200)
    return p


def refuse(path, match):
    before = file_fingerprint(path)
    with pytest.raises(CampaignFileError) as e:
        Campaign.open(path)
    msg = str(e.value)
    assert "\n" not in msg and match in msg, msg
    assert file_fingerprint(path) == before


def tampered(good, tmp_path, name, *sql):
    """A copy of the good campaign with ``sql`` run on it behind the program's back (then
    checkpointed out of WAL, so the whole damage is in the one file)."""
    p = tmp_path / name
    shutil.copy(good, p)
    con = sqlite3.connect(p)
    for statement in sql:
        con.execute(statement)
    con.commit()
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()
    return p


def test_the_file_is_a_wal_sqlite_campaign(good):
    con = sqlite3.connect(good)
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert dict(con.execute("SELECT key, value FROM meta"))["format"] == "campaign-assistant"
    con.close()
    with Campaign.open(good) as c:
        assert c._store.con.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_missing_file(tmp_path):
    with pytest.raises(CampaignFileError, match="no campaign file"):
        Campaign.open(tmp_path / "nope.campaign")


def test_random_bytes(tmp_path):
    p = tmp_path / "random.campaign"
    p.write_bytes(os.urandom(8192))
    refuse(p, "not a SQLite database")


def test_empty_and_tiny_files(tmp_path):
    for data in (b"", b"SQLite format 3\x00"):
        p = tmp_path / f"tiny{len(data)}.campaign"
        p.write_bytes(data)
        refuse(p, "not a campaign file")


def test_text_file(tmp_path):
    p = tmp_path / "notes.txt"
    p.write_text("my campaign notes\n" * 100)
    refuse(p, "not a campaign file")


def test_foreign_sqlite_file(tmp_path):
    p = tmp_path / "other.db"
    con = sqlite3.connect(p)
    con.execute("CREATE TABLE t (x)")
    con.execute("INSERT INTO t VALUES (1)")
    con.commit()
    con.close()
    refuse(p, "not a campaign file")


def test_foreign_sqlite_file_in_wal_mode_with_a_campaign_like_table(tmp_path):
    p = tmp_path / "other.db"
    con = sqlite3.connect(p)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY)")
    con.commit()
    con.close()
    refuse(p, "not a campaign file")


@pytest.mark.parametrize("keep", [0.9, 0.5, 0.1])
def test_truncated_campaign(good, tmp_path, keep):
    p = tmp_path / f"trunc{keep}.campaign"
    data = good.read_bytes()
    p.write_bytes(data[: int(len(data) * keep)])
    refuse(p, "damaged")


def test_campaign_with_a_corrupted_page(good, tmp_path):
    p = tmp_path / "corrupt.campaign"
    data = bytearray(good.read_bytes())
    page = 4096
    for i in range(2 * page + 8, len(data) - page, page):  # scribble over b-tree page headers
        data[i:i + 32] = b"\xff" * 32
    p.write_bytes(bytes(data))
    refuse(p, "damaged")


def test_newer_schema_version(good, tmp_path):
    p = tampered(good, tmp_path, "newer.campaign",
                 f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    refuse(p, "newer version")


def test_newer_event_version(good, tmp_path):
    p = tampered(good, tmp_path, "newer-event.campaign",
                 "DROP TRIGGER events_append_only_update",
                 "UPDATE events SET schema_version = 99 WHERE seq = 5")
    refuse(p, "newer than this program")


def test_unknown_event_type(good, tmp_path):
    p = tampered(good, tmp_path, "unknown-event.campaign",
                 "INSERT INTO events VALUES (1000, 't', 0, NULL, 'dice_rolled_v9', 1, '{}')")
    refuse(p, "unknown to this version")


def test_inconsistent_history(good, tmp_path):
    p = tampered(good, tmp_path, "gap.campaign",
                 "INSERT INTO events VALUES (1000, 't', 0, NULL, 'unit_moved', 1, "
                 """'{"unit_id": "ghost", "hex": "E2519", "from_hex": "E2418"}')""")
    refuse(p, "gap")


def test_missing_meta_table(good, tmp_path):
    p = tampered(good, tmp_path, "nometa.campaign",
                 "DROP TABLE meta")
    refuse(p, "table meta is missing")


def test_readonly_open_cannot_write(good):
    with Campaign.open(good, readonly=True) as c:
        assert c.state.units
        with pytest.raises(CampaignError, match="read-only"):
            c.add_note("x")


def test_good_file_opens_and_closes_cleanly(good):
    with Campaign.open(good, check="full") as c:
        assert len(c.state.notes) == 50 and c.info()["integrity"] == "ok"
    with pytest.raises(CampaignError, match="check"):
        Campaign.open(good, check="thorough")


def test_a_failed_write_is_reported_and_changes_nothing(good, monkeypatch):
    with Campaign.open(good) as c:
        before = c.state
        real = c._store.insert

        def broken(rows):
            c._store.con.execute("INSERT INTO no_such_table VALUES (1)")

        monkeypatch.setattr(c._store, "insert", broken)
        with pytest.raises(CampaignError, match="cannot write to .*nothing was changed"):
            c.add_note("lost?")
        monkeypatch.setattr(c._store, "insert", real)
        assert c.state is before and c._store.last_seq() == before.last_seq
        c.add_note("fine")
        assert c.state.last_seq == before.last_seq + 1
