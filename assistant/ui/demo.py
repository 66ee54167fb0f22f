"""The embedded demo campaign: witp, Guadalcanal, August 1942 (the scenario ships in
``data/games/witp/scenarios``; unit values the rulebook does not give are flagged as samples).

It is created in the user's data directory on first use and then reused, so the player's moves
in the demo persist like any campaign's.
"""

from __future__ import annotations

import os
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
