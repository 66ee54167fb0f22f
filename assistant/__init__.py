"""Campaign Assistant: a player aid for witp, apto and globalwar (see README.md)."""

__version__ = "0.1.0"
