"""SQLite I/O for a campaign file: create, validate-then-open, append, read, snapshots.

One file per campaign: an append-only ``events`` table (triggers refuse UPDATE and DELETE), a
``meta`` table and derived ``snapshots``. ``journal_mode=WAL`` and ``synchronous=FULL``: a
committed event survives a crash. ``PRAGMA application_id`` marks the file as a campaign and
``PRAGMA user_version`` holds the schema version.

Opening never writes to a file it has not first validated read-only (header bytes, then a
``mode=ro`` connection: application_id, user_version, tables, ``quick_check``).

SQLite's sidecars (``FILE-wal``, ``FILE-shm``) take the campaign's mode when created, so reading a
0444 campaign makes 0444 sidecars that outlive the reader and, after ``chmod 644`` on the campaign,
refuse every write (issue 8 defect 5). Every connection here therefore leaves the player's own
sidecars owner-writable (``release_sidecars``), and a write refused for a read-only file names it.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import struct
import tempfile
import urllib.parse
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional, Sequence

from .errors import BusyError, CampaignError, CampaignFileError

APPLICATION_ID = 0x43414D50  # "CAMP"
SCHEMA_VERSION = 1
FORMAT = "campaign-assistant"
MAGIC = b"SQLite format 3\x00"
KEEP_SNAPSHOTS = 3  # snapshots kept per file (the newest); writing one prunes the older ones
BUSY_TIMEOUT_S = 30.0

SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    time TEXT NOT NULL,
    turn INTEGER NOT NULL,
    side TEXT,
    type TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    payload TEXT NOT NULL
);
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TABLE snapshots (
    seq INTEGER PRIMARY KEY,
    fold_version INTEGER NOT NULL,
    time TEXT NOT NULL,
    state TEXT NOT NULL
);
PRAGMA application_id = {APPLICATION_ID};
PRAGMA user_version = {SCHEMA_VERSION};
"""

Row = tuple  # (seq, time, turn, side, type, schema_version, payload)
_COLUMNS = "seq, time, turn, side, type, schema_version, payload"


def sidecar_paths(path: Path) -> tuple[Path, Path]:
    """SQLite's write-ahead log and shared-memory index beside ``path``."""
    return Path(str(path) + "-wal"), Path(str(path) + "-shm")


def release_sidecars(path: Path) -> None:
    """Make the sidecars of ``path`` that this user owns writable by their owner. Changing a mode
    never disturbs a connection that has the file open; a sidecar someone else owns is left alone
    (``readonly_cause`` names it when it refuses a write)."""
    for p in sidecar_paths(path):
        try:
            st = p.stat()
            if st.st_uid == os.geteuid() and not st.st_mode & stat.S_IWUSR:
                os.chmod(p, stat.S_IMODE(st.st_mode) | stat.S_IWUSR)
        except OSError:
            pass  # gone meanwhile, or not ours to change


def readonly_cause(path: Path) -> str:
    """Why SQLite found ``path`` read-only, naming the file: the campaign itself, or a sidecar."""
    for p in (path, *sidecar_paths(path)):
        if p.exists() and not os.access(p, os.W_OK):
            mode = stat.filemode(p.stat().st_mode)
            if p == path:
                return f"{p} is read-only ({mode})"
            return (f"its SQLite sidecar {p} is read-only ({mode}); make it writable (chmod u+w) or, "
                    f"when no program has the campaign open, delete it")
    if not os.access(path.parent, os.W_OK):
        return f"its directory {path.parent} is read-only (SQLite keeps {sidecar_paths(path)[1].name} there)"
    return f"{path} is read-only"


def _write_error(path: Path, e: sqlite3.Error, tail: str = "") -> CampaignError:
    """The one-line error for a refused write; a read-only refusal names the read-only file."""
    if "readonly" in str(e) or "read-only" in str(e):
        return CampaignError(f"cannot write to {path}: {readonly_cause(path)}{tail}")
    return CampaignError(f"cannot write to {path} ({e}){tail}")


def create_error(path: Path, e: OSError) -> CampaignError:
    """One line for a file system refusal while creating ``path`` (unwritable, unreadable directory)."""
    if isinstance(e, PermissionError):
        return CampaignError(f"cannot create {path}: permission denied in directory {path.parent}")
    return CampaignError(f"cannot create {path} ({e.strerror or e})")


def _ro_uri(path: Path) -> str:
    return "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro"


def inspect(path: Path, check: str = "quick") -> dict[str, str]:
    """Validate ``path`` as a campaign file without writing to it; return its meta table.

    Raises CampaignFileError with one sentence if it is missing, not SQLite, not a campaign,
    truncated or damaged, or written by a newer schema. ``check``: "quick", "full" or "none".
    """
    name = str(path)
    if not path.is_file():
        raise CampaignFileError(f"there is no campaign file at {name}")
    size = path.stat().st_size
    with open(path, "rb") as f:
        head = f.read(100)
    if len(head) < 100 or head[:16] != MAGIC:
        raise CampaignFileError(f"{name} is not a campaign file (it is not a SQLite database)")
    (app_id,) = struct.unpack(">I", head[68:72])
    if app_id != APPLICATION_ID:
        raise CampaignFileError(f"{name} is a SQLite database but not a campaign file")
    page_size = struct.unpack(">H", head[16:18])[0] or 65536
    page_size = 65536 if page_size == 1 else page_size
    change, pages, valid_for = struct.unpack(">I", head[24:28])[0], struct.unpack(">I", head[28:32])[0], \
        struct.unpack(">I", head[92:96])[0]
    no_wal = not Path(str(path) + "-wal").exists()  # else a checkpoint may be growing the file
    if no_wal and change == valid_for and pages and size < pages * page_size:
        raise CampaignFileError(f"{name} is damaged: it is truncated ({size} bytes of {pages * page_size})")
    try:
        con = sqlite3.connect(_ro_uri(path), uri=True, timeout=BUSY_TIMEOUT_S)
    except sqlite3.Error as e:
        raise CampaignFileError(f"{name} cannot be opened ({e})") from None
    try:
        (app_id,) = con.execute("PRAGMA application_id").fetchone()
        (version,) = con.execute("PRAGMA user_version").fetchone()
        if app_id != APPLICATION_ID:
            raise CampaignFileError(f"{name} is a SQLite database but not a campaign file")
        if version > SCHEMA_VERSION:
            raise CampaignFileError(f"{name} was written by a newer version of Campaign Assistant "
                                    f"(schema {version}; this one reads up to {SCHEMA_VERSION}); upgrade to open it")
        if version < 1:
            raise CampaignFileError(f"{name} is damaged: it has no schema version")
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        missing = {"meta", "events", "snapshots"} - tables
        if missing:
            raise CampaignFileError(f"{name} is damaged: table {sorted(missing)[0]} is missing")
        meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("format") != FORMAT:
            raise CampaignFileError(f"{name} is damaged: its meta table does not name the campaign format")
        if check != "none":
            result = integrity(con, full=(check == "full"))
            if result != "ok":
                raise CampaignFileError(f"{name} is damaged: integrity check says {result}")
        return meta
    except sqlite3.Error as e:
        if "readonly" in str(e):  # not damage: SQLite could not make its sidecars
            raise CampaignFileError(f"{name} cannot be read: {readonly_cause(path)}") from None
        raise CampaignFileError(f"{name} is damaged or not a campaign file ({e})") from None
    finally:
        con.close()
        release_sidecars(path)


def integrity(con: sqlite3.Connection, full: bool = True) -> str:
    rows = con.execute("PRAGMA integrity_check" if full else "PRAGMA quick_check").fetchall()
    return "ok" if rows == [("ok",)] else "; ".join(str(r[0]) for r in rows[:3])


def _fsync_dir(d: Path) -> None:
    try:
        fd = os.open(d, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class Store:
    """An open campaign file (read-write). Not thread-safe: the Campaign serialises access."""

    readonly = False

    def __init__(self, path: Path, con: sqlite3.Connection, meta: dict[str, str]):
        self.path, self.con, self.meta = path, con, meta

    # ----- create / open --------------------------------------------------------------------
    @classmethod
    def create(cls, path: Path, meta: dict[str, str], rows: Sequence[Row],
               snapshot: Optional[tuple[int, int, str, str]] = None) -> None:
        """Write a new campaign file holding ``rows``; refuse if ``path`` exists. Atomic: the file
        is built under a temporary name, synced, then linked into place."""
        path = Path(path)
        try:
            if path.exists():
                raise CampaignError(f"{path} exists already; a new campaign never overwrites a file")
            if not path.parent.is_dir():
                raise CampaignError(f"directory {path.parent} does not exist")
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".creating", dir=path.parent)
        except OSError as e:
            raise create_error(path, e) from None
        os.close(fd)
        tmp_path = Path(tmp)
        try:
            con = sqlite3.connect(tmp_path, isolation_level=None)
            try:
                con.execute("PRAGMA journal_mode=DELETE")
                con.execute("PRAGMA synchronous=FULL")
                con.executescript(SCHEMA)
                con.execute("BEGIN")
                con.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                                [("format", FORMAT), ("schema_version", str(SCHEMA_VERSION)), *meta.items()])
                con.executemany(f"INSERT INTO events ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
                if snapshot:
                    con.execute("INSERT INTO snapshots (seq, fold_version, time, state) VALUES (?, ?, ?, ?)", snapshot)
                con.execute("COMMIT")
                con.execute("PRAGMA journal_mode=WAL")
            finally:
                con.close()
            with open(tmp_path, "rb+") as f:
                os.fsync(f.fileno())
            try:
                os.link(tmp_path, path)  # atomic, and fails if path exists
            except FileExistsError:
                raise CampaignError(f"{path} exists already; a new campaign never overwrites a file") from None
            except OSError:
                if path.exists():
                    raise CampaignError(f"{path} exists already; a new campaign never overwrites a file") from None
                os.rename(tmp_path, path)  # file systems without hard links
            _fsync_dir(path.parent)
        except sqlite3.Error as e:
            raise CampaignError(f"cannot create {path} ({e})") from None
        except OSError as e:
            raise create_error(path, e) from None
        finally:
            for p in (tmp_path, Path(str(tmp_path) + "-journal")):
                if p.exists():
                    p.unlink()

    @classmethod
    def open(cls, path: Path, check: str = "quick", readonly: bool = False) -> "Store":
        """Validate read-only (``inspect``), then connect (read-write unless ``readonly``)."""
        path = Path(path)
        meta = inspect(path, check=check)
        if readonly:
            try:
                con = sqlite3.connect(_ro_uri(path), uri=True, isolation_level=None,
                                      check_same_thread=False, timeout=BUSY_TIMEOUT_S)
            except sqlite3.Error as e:
                raise CampaignFileError(f"{path} cannot be opened ({e})") from None
            store = cls(path, con, meta)
            store.readonly = True
            return store
        release_sidecars(path)  # e.g. left read-only by an older version: the write must not fail on it
        try:
            con = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_S)
            con.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            mode = con.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            con.execute("PRAGMA synchronous=FULL")
        except sqlite3.Error as e:
            raise CampaignFileError(f"{path} cannot be opened for writing ({e})") from None
        if str(mode).lower() != "wal":
            con.close()
            raise CampaignFileError(f"{path} cannot be put in WAL mode (journal_mode is {mode})")
        return cls(path, con, meta)

    def close(self) -> None:
        self.con.close()
        release_sidecars(self.path)

    # ----- reading --------------------------------------------------------------------------
    def last_seq(self) -> int:
        return self.con.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0]

    def count(self) -> int:
        return self.con.execute("SELECT COUNT(*) FROM events").fetchone()[0]

    def rows(self, after: int = 0, upto: Optional[int] = None) -> list[Row]:
        sql = f"SELECT {_COLUMNS} FROM events WHERE seq > ?"
        args: list = [after]
        if upto is not None:
            sql += " AND seq <= ?"
            args.append(upto)
        return self.con.execute(sql + " ORDER BY seq", args).fetchall()

    def turn_column(self) -> list[tuple[int, int]]:
        return self.con.execute("SELECT seq, turn FROM events ORDER BY seq").fetchall()

    def type_versions(self) -> list[tuple[str, int]]:
        """Each event type in the file with the highest schema_version it is stored at."""
        return self.con.execute("SELECT type, MAX(schema_version) FROM events GROUP BY type").fetchall()

    def data_version(self) -> int:
        return self.con.execute("PRAGMA data_version").fetchone()[0]

    def snapshots(self, upto: int, fold_version: int) -> Iterator[tuple[int, str]]:
        """Snapshots at or before ``upto`` for this fold version, newest first."""
        yield from self.con.execute(
            "SELECT seq, state FROM snapshots WHERE seq <= ? AND fold_version = ? ORDER BY seq DESC",
            (upto, fold_version))

    def integrity(self, full: bool = True) -> str:
        return integrity(self.con, full)

    # ----- writing --------------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT (ROLLBACK on error). Waits for other writers."""
        if self.readonly:
            raise CampaignError(f"{self.path} was opened read-only")
        try:
            self.con.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):
                raise BusyError(f"{self.path} is busy: another program has been writing to it for "
                                f"over {BUSY_TIMEOUT_S:.0f} s; try again") from None
            raise _write_error(self.path, e) from None
        try:
            yield self.con
            self.con.execute("COMMIT")
        except BaseException as e:
            if self.con.in_transaction:
                try:
                    self.con.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            if isinstance(e, sqlite3.Error):
                raise _write_error(self.path, e, "; nothing was changed") from None
            raise

    def insert(self, rows: Sequence[Row]) -> None:
        """Insert event rows; call inside ``transaction()``."""
        try:
            self.con.executemany(f"INSERT INTO events ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        except sqlite3.IntegrityError as e:
            raise CampaignError(f"event #{rows[0][0]} already exists ({e})") from None

    def write_snapshot(self, seq: int, fold_version: int, time: str, state_json: str) -> None:
        try:
            with self.transaction() as con:
                con.execute("INSERT OR REPLACE INTO snapshots (seq, fold_version, time, state) VALUES (?, ?, ?, ?)",
                            (seq, fold_version, time, state_json))
                # Keep the newest KEEP_SNAPSHOTS only: a snapshot holds the whole state, so keeping
                # every one grew the file quadratically with the journal (issue 13 point 8).
                con.execute("DELETE FROM snapshots WHERE seq < (SELECT seq FROM snapshots ORDER BY seq DESC "
                            "LIMIT 1 OFFSET ?)", (KEEP_SNAPSHOTS - 1,))
        except (CampaignError, sqlite3.Error):
            pass  # snapshots are derived data: a missed one only slows the next opening
