"""Rules of globalwar."""
