"""SQLite I/O for a campaign file: create, validate-then-open, append, read, snapshots.

One file per campaign: an append-only ``events`` table (triggers refuse UPDATE and DELETE), a
``meta`` table and derived ``snapshots``. ``journal_mode=WAL`` and ``synchronous=FULL``: a
committed event survives a crash. ``PRAGMA application_id`` marks the file as a campaign and
``PRAGMA user_version`` holds the schema version.

Opening never writes to a file it has not first validated read-only (header bytes, then a
``mode=ro`` connection: application_id, user_version, tables, ``quick_check``).

SQLite's sidecars (``FILE-wal``, ``FILE-shm``) take the campaign's mode when created, so reading a
0444 campaign makes 0444 sidecars that outlive the reader and, after ``chmod 644`` on the campaign,
refuse every write. Every connection here therefore leaves the player's own
sidecars owner-writable (``release_sidecars``), and a write refused for a read-only file names it.

Every commit is followed by ``PRAGMA wal_checkpoint(FULL)`` before it is acknowledged, so
the ``.campaign`` file alone holds every acknowledged event (a plain copy is complete; deleting or
truncating ``-wal`` loses nothing acknowledged). The file's identity (st_dev, st_ino) is compared
with the path's before and after every write and on every poll: a deleted, moved or replaced file
refuses writes (``FileGone``). A healthy file in a place that cannot be written opens read-only
(``immutable=1`` when SQLite cannot create its ``-shm`` there). ``wal_notices`` reads ``-shm`` before
SQLite recovers it, so a vanished ``-wal`` that held committed frames is reported, not hidden.
"""

from __future__ import annotations

import logging
import os
import random
import sqlite3
import stat
import struct
import threading
import time
import urllib.parse
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Callable, Iterator, Optional, Sequence

from ..words import counted
from .errors import BusyError, CampaignError, CampaignFileError, FileGoneError
from .snapshots import DEFAULT_SNAPSHOT_EVERY, kept, pack, unpack
from .tempfiles import clean_stale, locked_temp

log = logging.getLogger(__name__)

APPLICATION_ID = 0x43414D50  # "CAMP"
SCHEMA_VERSION = 1
FORMAT = "campaign-assistant"
MAGIC = b"SQLite format 3\x00"
BUSY_TIMEOUT_S = 30.0  # reading and validating (a long foreign write may finish)
WRITE_BUSY_TIMEOUT_S = 5.0  # an interactive write waits this long for a foreign lock
_FIRST_PAUSE_S, _LAST_PAUSE_S = 0.0005, 0.004  # between tries for the write lock

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
_TABLE_COLUMNS = {"meta": {"key", "value"}, "events": set(_COLUMNS.split(", ")),
                  "snapshots": {"seq", "fold_version", "time", "state"}}


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


def _ro_uri(path: Path, immutable: bool = False) -> str:
    return "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro" + ("&immutable=1" if immutable else "")


def file_identity(path: Path) -> tuple[int, int]:
    """(st_dev, st_ino) of the file at ``path`` (FileNotFoundError if there is none)."""
    st = os.stat(path)
    return st.st_dev, st.st_ino


def wal_notices(path: Path) -> list[str]:
    """Read ``FILE-shm``'s header (before SQLite recovers it): if it records committed frames that
    are neither in the file (backfilled) nor in ``FILE-wal`` (missing or truncated), say so. SQLite
    itself would rebuild the index from what is left and report "ok"."""
    wal, shm = sidecar_paths(path)
    try:
        with open(shm, "rb") as f:
            head = f.read(136)
    except OSError:
        return []
    if len(head) < 100 or head[12] != 1:  # not initialised
        return []
    (version,) = struct.unpack("=I", head[0:4])
    (page_size,) = struct.unpack("=H", head[14:16])
    (max_frame,) = struct.unpack("=I", head[16:20])
    (backfill,) = struct.unpack("=I", head[96:100])
    if version != 3007000 or max_frame <= backfill:
        return []
    page_size = 65536 if page_size == 1 else page_size
    try:
        wal_size = wal.stat().st_size
    except FileNotFoundError:
        wal_size = -1
    need = 32 + max_frame * (24 + page_size)
    if wal_size >= need:
        return []
    lost = max_frame - backfill
    what = f"{wal.name} is missing" if wal_size < 0 else f"{wal.name} was cut short ({wal_size} of {need} bytes)"
    return [f"{what}: {counted(lost, 'committed write-ahead frame')} past the last checkpoint {'is' if lost == 1 else 'are'} not in {path.name}, "
            f"so events committed after it may be lost"]


def _readonly_place(e: sqlite3.Error) -> bool:
    return "readonly" in str(e) or "read-only" in str(e) or "unable to open" in str(e)


def utf8_text(path: Path) -> Callable[[bytes], str]:
    """A ``text_factory`` reading TEXT as UTF-8 that calls a column which is not UTF-8 (a corrupted
    file: sqlite3 raised UnicodeDecodeError or "Could not decode") damage, naming the file."""

    def decode(raw: bytes) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise CampaignFileError(f"{path} is damaged: it holds text that is not UTF-8") from None

    return decode


def ro_connect(path: Path, timeout: float = BUSY_TIMEOUT_S) -> tuple[sqlite3.Connection, bool]:
    """A read-only connection and whether it is ``immutable``: where SQLite cannot create the
    ``-shm`` it needs (a read-only directory or mount) and no write-ahead log holds anything, the
    file alone is the whole campaign and is read as immutable."""
    con = sqlite3.connect(_ro_uri(path), uri=True, isolation_level=None, check_same_thread=False, timeout=timeout)
    try:
        con.execute("PRAGMA application_id").fetchone()
        return con, False
    except sqlite3.Error as e:
        con.close()
        wal = sidecar_paths(path)[0]
        if not _readonly_place(e) or (wal.exists() and wal.stat().st_size > 0):
            raise
    con = sqlite3.connect(_ro_uri(path, immutable=True), uri=True, isolation_level=None, check_same_thread=False,
                          timeout=timeout)
    return con, True


def write_refusal(path: Path) -> Optional[str]:
    """Why this process cannot write the campaign at ``path`` (None: it can): the file, a sidecar
    or the directory SQLite needs is read-only (a 0444 file, a 0555 directory, a read-only mount)."""
    path = Path(path)
    wal, shm = sidecar_paths(path)
    if not path.exists():
        return f"there is no file at {path}"
    if not os.access(path, os.W_OK):
        return f"{path} is read-only ({stat.filemode(path.stat().st_mode)})"
    for p in (wal, shm):
        if p.exists() and not os.access(p, os.W_OK):
            return f"its SQLite sidecar {p} is read-only ({stat.filemode(p.stat().st_mode)})"
    if not os.access(path.parent, os.W_OK) and not (wal.exists() and shm.exists()):
        return f"its directory {path.parent} is read-only (SQLite must create {wal.name} and {shm.name} there)"
    return None


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
        con, _ = ro_connect(path)
        con.text_factory = utf8_text(path)  # text that is not UTF-8 is damage, not a traceback
    except sqlite3.Error as e:
        if _readonly_place(e):
            raise CampaignFileError(f"{name} cannot be read: {readonly_cause(path)}") from None
        raise CampaignFileError(f"{name} is damaged or not a campaign file ({e})") from None
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
        for table, wanted in _TABLE_COLUMNS.items():  # a damaged schema text may rename a column
            have = {r[1] for r in con.execute(f"PRAGMA table_info({table})")}
            if wanted - have:
                raise CampaignFileError(f"{name} is damaged: table {table} has no column {sorted(wanted - have)[0]}")
        meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("format") != FORMAT:
            raise CampaignFileError(f"{name} is damaged: its meta table does not name the campaign format")
        if check != "none":
            result = integrity(con, full=(check == "full"))
            if result != "ok":
                raise CampaignFileError(f"{name} is damaged: integrity check says {result}")
        return meta
    except UnicodeDecodeError:  # SQLite's own text (its schema) is not UTF-8
        raise CampaignFileError(f"{name} is damaged: its schema is not UTF-8 text") from None
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
    """An open campaign file. Writes and reads are serialised by an internal lock; the Campaign
    holds its own lock around whole commands."""

    readonly = False

    def __init__(self, path: Path, con: sqlite3.Connection, meta: dict[str, str],
                 identity: Optional[tuple[int, int]] = None, notices: Sequence[str] = ()):
        self.path, self.con, self.meta = path, con, meta
        con.text_factory = utf8_text(path)  # text that is not UTF-8 is damage, not a traceback
        self.identity = identity
        self.notices: list[str] = list(notices)  # e.g. a vanished -wal (``wal_notices``)
        self.readonly_reason: Optional[str] = None  # why this store was opened read-only, if it was forced
        self.gone: Optional[str] = None  # why the file at ``path`` is no longer this store's file
        self.unsynced = False  # a commit whose checkpoint could not finish (readers held it)
        self._lock = threading.RLock()
        self._jitter = random.Random()  # spacing of tries for the write lock, not game chance

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
            clean_stale(path.parent)  # what a killed new/import left here
            temp = ExitStack()
            tmp_path = temp.enter_context(locked_temp(path.parent, path.name, ".creating"))
        except OSError as e:
            raise create_error(path, e) from None
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
                    seq, fold_version, time, state_json = snapshot
                    con.execute("INSERT INTO snapshots (seq, fold_version, time, state) VALUES (?, ?, ?, ?)",
                                (seq, fold_version, time, pack(state_json)))
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
            temp.close()  # deletes the temporary file (and its -journal) unless it was renamed

    @classmethod
    def open(cls, path: Path, check: str = "quick", readonly: bool = False) -> "Store":
        """Validate read-only (``inspect``), then connect (read-write unless ``readonly``)."""
        path = Path(path)
        notices = wal_notices(path)  # before any connection lets SQLite rebuild -shm
        meta = inspect(path, check=check)
        try:
            before = file_identity(path)
        except OSError as e:
            raise CampaignFileError(f"{path} cannot be opened ({e.strerror or e})") from None
        if readonly:
            try:
                con, _ = ro_connect(path)
            except sqlite3.Error as e:
                raise CampaignFileError(f"{path} cannot be opened ({e})") from None
            store = cls(path, con, meta, identity=before, notices=notices)
            store.readonly = True
            return store
        release_sidecars(path)  # e.g. left read-only by an older version: the write must not fail on it
        refusal = write_refusal(path)
        if refusal is not None:
            raise CampaignError(f"cannot write to {path}: {refusal} (it can still be viewed and exported)")
        try:
            con = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=WRITE_BUSY_TIMEOUT_S)
            con.execute(f"PRAGMA busy_timeout = {int(WRITE_BUSY_TIMEOUT_S * 1000)}")
            mode = con.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            con.execute("PRAGMA synchronous=FULL")
        except sqlite3.Error as e:
            raise CampaignFileError(f"{path} cannot be opened for writing ({e})") from None
        if str(mode).lower() != "wal":
            con.close()
            raise CampaignFileError(f"{path} cannot be put in WAL mode (journal_mode is {mode})")
        store = cls(path, con, meta, identity=before, notices=notices)
        try:
            store.check_in_place()  # replaced between validating and connecting
        except CampaignFileError:
            store.close()
            raise
        return store

    def close(self) -> None:
        with self._lock:
            self.con.close()
        if self.gone is None:
            release_sidecars(self.path)

    # ----- the file at its path -------------------------------------------------------------
    def check_in_place(self) -> None:
        """Raise FileGoneError (and remember why) unless the file at ``path`` is still the file this
        store has open: compares (st_dev, st_ino) with the ones seen at opening."""
        if self.gone is None and self.identity is not None:
            try:
                now: Optional[tuple[int, int]] = file_identity(self.path)
            except FileNotFoundError:
                now = None
            except OSError as e:
                raise CampaignFileError(f"{self.path} cannot be checked ({e.strerror or e}); nothing was written") \
                    from None
            if now is None:
                self.gone = (f"{self.path} was deleted or moved away while it was open here; this window "
                             f"refuses further writes (reopen the campaign where it now is)")
            elif now != self.identity:
                self.gone = (f"{self.path} was replaced by another file while it was open here (a restore or "
                             f"a sync tool?); this window refuses further writes (reopen the campaign to see it)")
        if self.gone is not None:
            raise FileGoneError(self.gone)

    # ----- reading --------------------------------------------------------------------------
    def _all(self, sql: str, args: Sequence = ()) -> list:
        with self._lock:
            return self.con.execute(sql, args).fetchall()

    def last_seq(self) -> int:
        return self._all("SELECT COALESCE(MAX(seq), 0) FROM events")[0][0]

    def count(self) -> int:
        return self._all("SELECT COUNT(*) FROM events")[0][0]

    def rows(self, after: int = 0, upto: Optional[int] = None) -> list[Row]:
        sql = f"SELECT {_COLUMNS} FROM events WHERE seq > ?"
        args: list = [after]
        if upto is not None:
            sql += " AND seq <= ?"
            args.append(upto)
        return self._all(sql + " ORDER BY seq", args)

    def raw_rows(self, upto: int, after: int = 0) -> list[Row]:
        """The event rows after ``after`` up to ``upto`` with their text as the stored bytes (not
        decoded: for digests of the log, ``replay.log_digests``)."""
        return self._all("SELECT seq, CAST(time AS BLOB), turn, CAST(side AS BLOB), CAST(type AS BLOB), "
                         "schema_version, CAST(payload AS BLOB) FROM events WHERE seq > ? AND seq <= ? ORDER BY seq",
                         (after, upto))

    def turn_column(self, after: int = 0, upto: Optional[int] = None) -> list[tuple[int, int]]:
        """``(seq, turn)`` of the events after ``after`` (up to ``upto``), in order."""
        if upto is None:
            return self._all("SELECT seq, turn FROM events WHERE seq > ? ORDER BY seq", (after,))
        return self._all("SELECT seq, turn FROM events WHERE seq > ? AND seq <= ? ORDER BY seq", (after, upto))

    def type_versions(self) -> list[tuple[str, int]]:
        """Each event type in the file with the highest schema_version it is stored at."""
        return self._all("SELECT type, MAX(schema_version) FROM events GROUP BY type")

    def data_version(self) -> int:
        return self._all("PRAGMA data_version")[0][0]

    def snapshots(self, upto: int, fold_version: int) -> Iterator[tuple[int, str]]:
        """Snapshots at or before ``upto`` for this fold version, newest first: ``(seq, state
        JSON)``, each read when the one before it has been passed over (one that cannot be unpacked
        is logged and passed over: snapshots are a cache)."""
        seqs = [r[0] for r in self._all("SELECT seq FROM snapshots WHERE seq <= ? AND fold_version = ? "
                                        "ORDER BY seq DESC", (upto, fold_version))]
        for seq in seqs:
            got = self._all("SELECT state FROM snapshots WHERE seq = ? AND fold_version = ?", (seq, fold_version))
            if not got:  # thinned by another writer meanwhile
                continue
            try:
                text = unpack(got[0][0])
            except ValueError as e:
                log.warning("campaign %s: ignoring snapshot at #%s (%s)", self.path, seq, e)
                continue
            yield seq, text

    def snapshot_seqs(self) -> list[tuple[int, int]]:
        """``(seq, fold version)`` of every snapshot kept, oldest first."""
        return self._all("SELECT seq, fold_version FROM snapshots ORDER BY seq")

    def integrity(self, full: bool = True) -> str:
        with self._lock:
            return integrity(self.con, full)

    # ----- writing --------------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, then a checkpoint (ROLLBACK on error). Waits up to
        ``WRITE_BUSY_TIMEOUT_S`` for other writers. The file must still be at its path before the
        commit and after it (FileGoneError otherwise: nothing acknowledged)."""
        if self.readonly:
            raise CampaignError(f"{self.path} was opened read-only"
                                + (f": {self.readonly_reason}" if self.readonly_reason else ""))
        with self._lock:
            self.check_in_place()
            self._begin_immediate()
            try:
                yield self.con
                self.check_in_place()
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
            self.checkpoint()
            try:
                self.check_in_place()
            except FileGoneError as e:
                raise FileGoneError(f"{e} (the last write reached only the old file)") from None

    def _begin_immediate(self) -> None:
        """BEGIN IMMEDIATE, retried every few milliseconds (with jitter) for up to
        ``WRITE_BUSY_TIMEOUT_S``. SQLite's own busy handler sleeps up to 100 ms between tries, so
        against two writers in a tight loop a third can wait past the timeout although the lock is
        free between their commits; short tries give every waiting writer its turn."""
        deadline = time.monotonic() + WRITE_BUSY_TIMEOUT_S
        pause = _FIRST_PAUSE_S
        self.con.execute("PRAGMA busy_timeout = 0")
        try:
            while True:
                try:
                    self.con.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as e:
                    if "locked" not in str(e) and "busy" not in str(e):
                        raise _write_error(self.path, e) from None
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BusyError(f"{self.path} is busy: another program has held it for writing for over "
                                    f"{WRITE_BUSY_TIMEOUT_S:.0f} s (how long a write waits); nothing was "
                                    f"changed; try again")
                time.sleep(min(left, pause * self._jitter.uniform(0.5, 1.0)))
                pause = min(pause * 2, _LAST_PAUSE_S)
        finally:
            self.con.execute(f"PRAGMA busy_timeout = {int(WRITE_BUSY_TIMEOUT_S * 1000)}")

    def record_notice(self, time: str, text: str) -> None:
        """Keep ``text`` in the meta table (``notice:TIME``) so every later ``info`` reports it."""
        with self.transaction() as con:
            con.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (f"notice:{time}", text))
        self.meta[f"notice:{time}"] = text

    def file_notices(self) -> list[str]:
        """What ``info`` must say besides the integrity check: a vanished ``-wal`` seen now or recorded."""
        kept = [v for k, v in sorted(self.meta.items()) if k.startswith("notice:")]
        return kept + [n for n in self.notices if n not in kept]

    def checkpoint(self) -> bool:
        """Copy every committed frame of ``-wal`` into the file itself (``PRAGMA wal_checkpoint(FULL)``:
        waits for readers up to the busy timeout). True when the file alone holds every commit."""
        with self._lock:
            try:
                busy, log_frames, done = self.con.execute("PRAGMA wal_checkpoint(FULL)").fetchone()
            except sqlite3.Error as e:
                busy, log_frames, done = 1, -1, -2
                log.warning("campaign %s: checkpoint failed (%s)", self.path, e)
            ok = not busy and done == log_frames
            if busy and log_frames == -1:
                # another connection is checkpointing or holds the write lock: it copies this commit too
                # when it checkpoints after its own; ``poll`` retries meanwhile
                log.debug("campaign %s: checkpoint left to the writer that holds the lock", self.path)
            elif not ok:
                log.warning("campaign %s: checkpoint incomplete (%s of %s frames); the commit is safe in %s",
                            self.path, done, log_frames, sidecar_paths(self.path)[0].name)
            self.unsynced = not ok
            return ok

    def insert(self, rows: Sequence[Row]) -> None:
        """Insert event rows; call inside ``transaction()``."""
        try:
            self.con.executemany(f"INSERT INTO events ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        except sqlite3.IntegrityError as e:
            raise CampaignError(f"event #{rows[0][0]} already exists ({e})") from None

    def write_snapshot(self, seq: int, fold_version: int, time: str, state_json: str,
                       every: int = DEFAULT_SNAPSHOT_EVERY) -> bool:
        """Keep a snapshot of the state after event ``seq`` and thin the older ones
        (``snapshots.kept``: the newest few, and one in each of at most ``SPREAD`` stretches of the
        log, ``every`` the events between two snapshots), in one transaction: a crash keeps the
        snapshots as they were or as thinned, never none. False: not written (busy, read-only)."""
        try:
            with self.transaction() as con:
                con.execute("INSERT OR REPLACE INTO snapshots (seq, fold_version, time, state) VALUES (?, ?, ?, ?)",
                            (seq, fold_version, time, pack(state_json)))
                have = con.execute("SELECT seq, fold_version FROM snapshots").fetchall()
                keep = kept([(s, v == fold_version) for s, v in have], every)
                con.executemany("DELETE FROM snapshots WHERE seq = ?", [(s,) for s, _ in have if s not in keep])
        except (CampaignError, sqlite3.Error):
            return False  # snapshots are derived data: a missed one only slows the next opening
        return True
