"""The supply history kept between processes (command-line calls, a supply page opened later): a
cache file per campaign in the user's cache folder, never the campaign file.

Why not a table in the campaign file: the campaign file is the player's record (append-only
events, every write a checked transaction the page's writers wait on); a read-only command such
as ``campaign trace --history`` must not write there, nor hold its write lock while it stores
thousands of rows, nor make the player's file (and its copies and backups) grow with derived data;
and a campaign on a read-only place must still have its history kept. A side file beside the
campaign would clutter the player's folder and travel with copies. So the history is kept under
the user's cache folder (``$XDG_CACHE_HOME/campaign-assistant/history``, ``CAMPAIGN_ASSISTANT_HOME``
when set), which may be deleted at any time: the next call computes it again.

One SQLite file per campaign (named by the game and a digest of the campaign's first event, so a
copy of a campaign shares it), one row per turn and side::

    inputs  the rules' version: a sha256 over the code the trace runs through and the game's data
            files (the installed map among them); other inputs, other rows
    side, turn
    seq     the turn's last event; log: a digest of every event up to it (``Campaign.log_digests``)
    json, csv, text   the rows of that turn and side, as each output prints them (json zlib-compressed:
            it is read for --json and by a page; csv and text as they are printed, so that a call
            on an unchanged campaign only copies them out; a page keeps json alone, and the first
            call that prints another format renders it from the json, tracing nothing)

A row is used only when its ``inputs``, ``seq`` and ``log`` are those of the campaign now: the
state at the end of that turn is then the one it was computed from. Anything else -- a turn whose
end moved (it was played on, or an undone advance went back to it), a log that differs from the
one seen (a restored backup played on otherwise), another version of the rules or of the game's
data -- is a miss, and that turn is traced again. Every error of the cache file is a miss too.

A page writes the turn it just traced after its call returns (``save_later``: rendered and written
by one thread of the process: the player does not wait for it); every ``load`` in
the process first waits for the writes queued there, and the thread is joined when the process
exits. Another process that reads before the write lands misses, and traces the turn itself.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import zlib
from concurrent.futures import Future, ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence

from ...campaign.csvout import csv_text
from ...paths import game_dir
from .rows import HISTORY_COLUMNS as COLUMNS

log = logging.getLogger(__name__)

FORMATS = ("json", "csv", "text")
_CODE = ("rules", "maps", "hexes", "campaign", "aids/supply")  # under assistant/: what a trace runs through
_SCHEMA = """
CREATE TABLE IF NOT EXISTS turn_rows (
    inputs TEXT NOT NULL, side TEXT NOT NULL, turn INTEGER NOT NULL, seq INTEGER NOT NULL, log TEXT NOT NULL,
    json BLOB NOT NULL, csv TEXT, text TEXT,
    PRIMARY KEY (inputs, side, turn));
"""


@lru_cache(maxsize=8)
def inputs_version(game: str) -> str:
    """A sha256 over the source of the code a trace runs through and every file of the game's data
    (``data/games/<game>``, the derived map included): equal versions, equal traces of equal states."""
    root = Path(__file__).resolve().parents[2]
    data = game_dir(game)
    files = [(f"assistant/{p.relative_to(root).as_posix()}", p) for d in _CODE for p in (root / d).rglob("*.py")]
    files += [(f"data/{p.relative_to(data).as_posix()}", p) for p in data.rglob("*") if p.is_file()]
    h = hashlib.sha256()
    for name, p in sorted(files):
        body = p.read_bytes()
        h.update(f"{name}\0{len(body)}\0".encode())
        h.update(body)
    return h.hexdigest()


# ----- the rows as each output prints them -------------------------------------------------------
_encode = json.JSONEncoder().encode  # json.dumps with its defaults, without the per-call checks


def render(rows: Sequence[dict[str, Any]], side_name: str, formats: Sequence[str] = FORMATS) -> dict[str, str]:
    """One turn and side's rows as ``campaign trace --history`` prints them: ``json`` (one record a
    line, no brackets), ``csv`` (no header; what ``csvout.frame_csv`` writes for them) and ``text``
    (the side's counts, then one aligned line a unit); ``formats``: those alone."""
    got: dict[str, str] = {}
    if "json" in formats:
        got["json"] = ",\n".join(_encode(r if tuple(r) == COLUMNS else {c: r[c] for c in COLUMNS}) for r in rows)
    if "csv" in formats:
        got["csv"] = csv_text([r[c] for c in COLUMNS] for r in rows)
    if "text" in formats:
        got["text"] = _text(rows, side_name)
    return got


def _num(x: Optional[float]) -> str:
    return "-" if x is None else f"{x:g}"


def _text(rows: Sequence[dict[str, Any]], side_name: str) -> str:
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    head = f"  {side_name}: {len(rows)} traced" + (
        f" ({', '.join(f'{n} × {s}' for s, n in sorted(counts.items()))})" if rows else "")  # "2 × source": a status
    cells = [(str(r["unit"] or "?"), str(r["kind"]), str(r["hex"]), str(r["status"]), _num(r["length"]),
              str(r["source"] or "-")) for r in rows]
    if not cells:
        return head + "\n"
    widths = [max(len(c[i]) for c in cells) for i in range(5)]
    lines = [head]
    for c in cells:
        lines.append("    " + " ".join(c[i].rjust(widths[i]) if i == 4 else c[i].ljust(widths[i]) for i in range(5))
                     + " " + c[5])
    return "\n".join(lines) + "\n"


def rows_of(json_fragment: str) -> list[dict[str, Any]]:
    """The rows back from a ``render(...)["json"]`` fragment."""
    return json.loads(f"[{json_fragment}]") if json_fragment else []


# ----- writing after the call returns ------------------------------------------------------------
_writer: Optional[ThreadPoolExecutor] = None
_pending: list[Future] = []
_pending_lock = threading.Lock()


def flush() -> None:
    """Wait for every write ``save_later`` queued in this process (``load`` does: a process reads
    what it wrote). The pool's thread is joined at exit too, so a queued write is not dropped
    when the process ends normally (killed, the turn is a miss: traced again)."""
    with _pending_lock:
        waiting = list(_pending)
        _pending.clear()
    for f in waiting:
        f.result()


# ----- the cache file ------------------------------------------------------------------------------
def _pack(fmt: str, text: str):
    return zlib.compress(text.encode("utf-8")) if fmt == "json" else text


def _unpack(fmt: str, value) -> str:
    if fmt == "json":
        return zlib.decompress(value).decode("utf-8")
    if not isinstance(value, str):
        raise sqlite3.DatabaseError(f"a {fmt} entry is not text")
    return value


class HistoryStore:
    """The kept history of one campaign (see the module). Never raises for a cache problem: a file
    that cannot be opened, read or written is a miss, logged."""

    def __init__(self, directory: Path, game: str, campaign_digest: str):
        self.path = Path(directory) / f"{game}-{campaign_digest[:32]}.sqlite"
        self.inputs = inputs_version(game)
        self._con: Optional[sqlite3.Connection] = None
        self._purged = False

    def _connect(self) -> Optional[sqlite3.Connection]:
        if self._con is None:
            for attempt in range(2):
                try:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                    con = sqlite3.connect(self.path, timeout=2.0, isolation_level=None, check_same_thread=False)
                    try:
                        con.execute("PRAGMA journal_mode=WAL")
                        con.execute("PRAGMA synchronous=NORMAL")  # a cache: no sync per commit (WAL keeps it whole)
                        con.executescript(_SCHEMA)
                    except BaseException:
                        con.close()
                        raise
                    self._con = con
                    break
                except sqlite3.DatabaseError as e:
                    if attempt == 0 and "not a database" in str(e):  # damaged: it is only a cache, start it over
                        log.info("supply history cache %s damaged (%s): started over", self.path, e)
                        for p in (self.path, *(self.path.with_name(self.path.name + x) for x in ("-wal", "-shm"))):
                            p.unlink(missing_ok=True)
                        continue
                    log.info("supply history cache %s unusable (%s): computing without it", self.path, e)
                    return None
                except (OSError, sqlite3.Error) as e:
                    log.info("supply history cache %s unusable (%s): computing without it", self.path, e)
                    return None
        return self._con

    def load(self, wanted: Iterable[tuple[int, str, int, str]], fmt: str) -> dict[tuple[int, str], str]:
        """``{(turn, side): text in format fmt}`` for each wanted ``(turn, side, seq, log)`` kept with
        those very ``seq`` and ``log`` under this version of the inputs."""
        if fmt not in FORMATS:
            raise ValueError(f"format {fmt!r} is not one of {', '.join(FORMATS)}")
        flush()
        con = self._connect()
        if con is None:
            return {}
        want = {(t, s): (q, lg) for t, s, q, lg in wanted}
        turns = sorted({t for t, _ in want})
        few = f" AND turn IN ({', '.join(map(str, turns))})" if len(turns) <= 32 else ""  # e.g. the turn just played
        try:
            got = con.execute(f"SELECT turn, side, seq, log, {fmt} FROM turn_rows WHERE inputs = ? "
                              f"AND {fmt} IS NOT NULL{few}",
                              (self.inputs,)).fetchall()
            return {(t, s): _unpack(fmt, blob) for t, s, q, lg, blob in got if want.get((t, s)) == (q, lg)}
        except (sqlite3.Error, zlib.error, UnicodeDecodeError) as e:
            log.info("supply history cache %s unreadable (%s): computing again", self.path, e)
            return {}

    def save_later(self, items: Callable[[], Iterable[tuple[int, str, int, str, dict[str, str]]]]) -> None:
        """``save(items())`` in this process's writer thread, after the caller has its answer (the
        page's chart: the turn just played is rendered and written while the chart is drawn)."""
        global _writer

        def write() -> None:
            try:
                self.save(items())
            except Exception:  # a cache: never the caller's failure
                log.exception("supply history cache %s not written", self.path)

        with _pending_lock:
            if _writer is None:
                _writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="supply-history-cache")
            _pending[:] = [f for f in _pending if not f.done()]  # what is written needs no wait
            _pending.append(_writer.submit(write))

    def save(self, items: Iterable[tuple[int, str, int, str, dict[str, str]]]) -> None:
        """Keep ``(turn, side, seq, log, render(...))`` items, replacing what was kept for them (a
        format left out -- the page keeps ``json`` alone -- is rendered by the first call that
        prints it)."""
        con = self._connect()
        if con is None:
            return
        rows = [(self.inputs, s, t, q, lg, *(_pack(f, texts[f]) if f in texts else None for f in FORMATS))
                for t, s, q, lg, texts in items]
        try:
            with con:
                con.execute("BEGIN IMMEDIATE")
                if not self._purged:  # another version's rows are dead: once per connection
                    con.execute("DELETE FROM turn_rows WHERE inputs != ?", (self.inputs,))
                    self._purged = True
                con.executemany("INSERT OR REPLACE INTO turn_rows (inputs, side, turn, seq, log, json, csv, text) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        except sqlite3.Error as e:
            log.info("supply history cache %s not written (%s)", self.path, e)

    def close(self) -> None:
        flush()
        if self._con is not None:
            self._con.close()
            self._con = None
