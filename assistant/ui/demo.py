"""The embedded demo campaign: witp, Guadalcanal, August 1942 (the scenario ships in
``data/games/witp/scenarios``; unit values the rulebook does not give are flagged as samples).

It is created in the user's data directory on first use and then reused, so the player's moves
in the demo persist like any campaign's; ``reset_demo`` (``campaign demo --reset``) starts it over,
keeping the old file beside it as ``.bak``.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Optional

from .userdirs import user_data_dir

DEMO_GAME = "witp"
DEMO_SCENARIO = "guadalcanal-1942"


def demo_path() -> Path:
    return user_data_dir() / f"demo-{DEMO_GAME}-{DEMO_SCENARIO}.campaign"


def ensure_demo(path: Optional[Path] = None) -> Path:
    """The demo campaign file, created (atomically: built aside, then renamed) if missing."""
    from ..campaign import Campaign

    path = Path(path) if path is not None else demo_path()
    if path.is_file():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    for p in (tmp, Path(str(tmp) + "-wal"), Path(str(tmp) + "-shm")):
        p.unlink(missing_ok=True)
    c = Campaign.create(tmp, game=DEMO_GAME, scenario=DEMO_SCENARIO)
    c.close()
    if path.is_file():  # someone else made it meanwhile: theirs wins
        tmp.unlink(missing_ok=True)
    else:
        tmp.replace(path)
    return path


def reset_demo(path: Optional[Path] = None) -> Optional[Path]:
    """Start the demo over: the current demo file is renamed to ``<name>.bak`` (replacing an older
    one) and returned; the next ``ensure_demo`` builds a fresh one. None if there was no demo.

    Refused (CampaignError naming the file) while any program has the demo open, e.g. a running
    ``campaign serve --demo``: SQLite removes a campaign's ``-wal``/``-shm`` when its last
    connection closes, so sidecars that outlive a connection of our own mean another one is open,
    and renaming the file under it would pair its sidecars with the new file."""
    from ..campaign import CampaignError
    from ..campaign.store import sidecar_paths

    path = Path(path) if path is not None else demo_path()
    if not path.is_file():
        return None
    try:
        con = sqlite3.connect(path)
        try:
            con.execute("PRAGMA journal_mode").fetchone()  # opens the WAL, as every campaign connection does
        finally:
            con.close()  # the last connection checkpoints and deletes the sidecars
    except sqlite3.Error as e:
        raise CampaignError(f"cannot reset the demo {path} ({e})") from None
    if any(p.exists() for p in sidecar_paths(path)):
        raise CampaignError(f"the demo {path} is open in another program (e.g. 'campaign serve --demo'); "
                            f"stop it, then reset")
    backup = path.with_name(path.name + ".bak")
    path.replace(backup)
    return backup
