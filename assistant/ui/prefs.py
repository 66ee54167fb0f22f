"""A player's page preferences that outlive a page load (without them the Side dropdown reset on
every load). Kept per campaign file in one small JSON file in the user's data directory; never in
the campaign (a preference is one player's, the campaign is shared)."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from .userdirs import user_data_dir

PREFS_FILE = "dashboard-prefs.json"


@dataclass(frozen=True)
class PagePrefs:
    """Preferences of the pages of one campaign file (``campaign``), stored at ``path``."""

    campaign: Path
    path: Path

    @classmethod
    def for_campaign(cls, campaign: Path, path: Optional[Path] = None) -> "PagePrefs":
        return cls(Path(campaign).expanduser().resolve(), path or user_data_dir() / PREFS_FILE)

    def _all(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # none yet, or unreadable: preferences are a convenience
        return data if isinstance(data, dict) else {}

    def get(self, key: str, default: Any = None) -> Any:
        mine = self._all().get(str(self.campaign))
        return mine.get(key, default) if isinstance(mine, dict) else default

    def set(self, key: str, value: Any) -> None:
        """Store one preference (atomically: pages of other kernels may write at the same time).
        OSError propagates: the caller's guard shows it."""
        data = self._all()
        mine = data.get(str(self.campaign))
        mine = dict(mine) if isinstance(mine, dict) else {}
        if mine.get(key) == value:
            return
        mine[key] = value
        data[str(self.campaign)] = mine
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".prefs-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=1, sort_keys=True)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
