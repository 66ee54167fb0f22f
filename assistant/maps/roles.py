"""Hexes the rulebook gives a role to (``data/games/<game>/rulebook_hexes.csv``), and the surface
each role requires: a port or an island fort holds land and sea, a naval set-up
hex holds sea, a land unit's hex holds land. Where the land mask disagrees, the text wins
(``source=rulebook`` in the derived map).

Columns: ``hex`` (as printed), ``role``, ``surface`` (one of ``SURFACES``), ``rule``, ``place``,
``quote`` (the text giving the role), ``note`` (why, and errata whose hex is not trusted: those
require ``any``).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..paths import game_dir

SURFACES: dict[str, frozenset[str]] = {
    "coastal": frozenset({"coastal"}),
    "land": frozenset({"land"}),
    "sea": frozenset({"sea"}),
    "land_or_coastal": frozenset({"land", "coastal"}),
    "sea_or_coastal": frozenset({"sea", "coastal"}),
    "any": frozenset({"sea", "land", "coastal"}),
}
COLUMNS = ["hex", "role", "surface", "rule", "place", "quote", "note"]


def roles_path(game: str) -> Path:
    return game_dir(game) / "rulebook_hexes.csv"


def load_roles(game: str) -> pd.DataFrame:
    """The game's rulebook hexes (empty if it has none). Raises ValueError naming a bad surface."""
    p = roles_path(game)
    if not p.is_file():
        return pd.DataFrame(columns=COLUMNS)
    df = pd.read_csv(p, dtype=str, keep_default_na=False)
    bad = sorted(set(df["surface"]) - set(SURFACES))
    if bad:
        raise ValueError(f"{p.name}: unknown surface {bad[0]!r} (known: {', '.join(SURFACES)})")
    return df


def settle(derived: str, allowed: frozenset[str]) -> str:
    """The surface a hex gets when the text allows only ``allowed``: unchanged if the land mask
    agrees, else the one allowed surface, or coastal (the one surface every two-way role allows:
    a hex that must hold land, or sea, and was found all the other)."""
    if derived in allowed:
        return derived
    return next(iter(allowed)) if len(allowed) == 1 else "coastal"
