"""The campaign's own errors: each carries one clear sentence naming what was wrong."""

from __future__ import annotations


class CampaignError(ValueError):
    """A command or file the campaign refuses. ``str(e)`` is one line; nothing was changed."""

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))


class CampaignFileError(CampaignError):
    """The file is missing, damaged, foreign, or written by a newer version. It was not touched."""


class StaleViewError(CampaignError):
    """A command built on a view that another window has since changed, and that no longer holds."""


class BusyError(CampaignError):
    """Another program held the campaign file for writing for too long."""


class FileGoneError(CampaignFileError):
    """The campaign file was deleted, moved or replaced while open: this window refuses writes."""
