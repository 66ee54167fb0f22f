"""``campaign backup FILE DEST``: a consistent copy of a campaign at any moment.

SQLite's online backup API copies one consistent snapshot of the file *and* its write-ahead log
(while pages and other processes keep writing), into a hidden temporary file beside DEST that is
checked (``quick_check``), synced and only then moved into place: DEST is either the old file or
the whole copy, never half of one. The copy is a plain single-file database (``journal_mode=DELETE``,
no ``-wal`` to carry along), so it can be e-mailed, synced or burnt to read-only media as it is;
opening it for writing turns WAL on again. DEST is never overwritten without ``force``.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Union

from .errors import CampaignError, CampaignFileError
from .store import _fsync_dir, inspect, integrity, ro_connect
from .tempfiles import clean_stale, locked_temp


@dataclass(frozen=True)
class BackupResult:
    """What was copied where: ``events`` and ``last_seq`` as read from the copy itself."""

    source: str
    dest: str
    events: int
    last_seq: int
    bytes: int
    replaced: bool

    def to_json(self) -> dict:
        return dict(vars(self))


def _dest_for(source: Path, dest: Path) -> Path:
    return dest / source.name if dest.is_dir() else dest


def backup(source: Union[str, Path], dest: Union[str, Path], *, force: bool = False) -> BackupResult:
    """Copy the campaign ``source`` to ``dest`` (a file name, or a directory to copy into under the
    same name). Raises CampaignError (one line, nothing written) if the source is not a sound
    campaign, DEST exists (without ``force``), is the source itself, or cannot be written."""
    source, dest = Path(source), Path(dest)
    inspect(source)  # a damaged, foreign or newer file is refused, untouched
    dest = _dest_for(source, dest)
    if dest.exists() and source.exists() and os.path.samefile(source, dest):
        raise CampaignError(f"{dest} is the campaign file itself; back it up to another name")
    existed = dest.exists() or dest.is_symlink()
    if existed and not force:
        raise CampaignError(f"{dest} exists already; a backup never overwrites a file unless you add --force")
    if existed and not dest.is_file():
        raise CampaignError(f"{dest} exists and is not a file; a backup replaces only a file")
    if not dest.parent.is_dir():
        raise CampaignError(f"directory {dest.parent} does not exist")
    if not os.access(dest.parent, os.W_OK):
        raise CampaignError(f"cannot write the backup {dest}: permission denied in directory {dest.parent}")
    clean_stale(dest.parent)
    try:
        with locked_temp(dest.parent, dest.name, ".backup") as tmp:
            events, last = _copy(source, tmp)
            with open(tmp, "rb+") as f:
                os.fsync(f.fileno())
            size = tmp.stat().st_size
            if force:
                os.replace(tmp, dest)
            else:
                try:
                    os.link(tmp, dest)  # atomic, and never over a file that appeared meanwhile
                except FileExistsError:
                    raise CampaignError(f"{dest} exists already; a backup never overwrites a file unless you "
                                        f"add --force") from None
            _fsync_dir(dest.parent)
    except sqlite3.Error as e:
        raise CampaignError(f"cannot back up {source} to {dest} ({e})") from None
    except OSError as e:
        raise CampaignError(f"cannot write the backup {dest} ({e.strerror or e})") from None
    return BackupResult(source=str(source), dest=str(dest), events=events, last_seq=last, bytes=size,
                        replaced=existed)


def _copy(source: Path, tmp: Path) -> tuple[int, int]:
    """One consistent snapshot of ``source`` (file + WAL) into ``tmp``; (events, last seq) of the copy."""
    try:
        src, _ = ro_connect(source)
    except sqlite3.Error as e:
        raise CampaignFileError(f"{source} cannot be read ({e})") from None
    dst = sqlite3.connect(tmp, isolation_level=None)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")
        result = integrity(dst, full=False)
        if result != "ok":
            raise CampaignError(f"the copy of {source} failed its check ({result}); nothing was written")
        return dst.execute("SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM events").fetchone()
    finally:
        dst.close()
        src.close()
