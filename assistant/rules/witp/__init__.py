"""Rules of witp."""
