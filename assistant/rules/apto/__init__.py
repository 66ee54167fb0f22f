"""Rules of apto."""
