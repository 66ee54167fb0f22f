"""``campaign games``, ``campaign hex ...`` and ``campaign map info|derive|geojson``."""

from __future__ import annotations

import re
import sys
from collections import Counter

from ..numbertext import NumberField
from ..words import counted
from .common import CliError, add_json, command_errors, emit, game_name, guard, opened

#: A point on the globe as typed, in degrees (decimals, no exponent; the digits 0-9).
LATITUDE = NumberField("latitude", -90, 90, step=None)
LONGITUDE = NumberField("longitude", -180, 180, step=None)


def _degrees(field: NumberField):
    read = field.argtype()

    def conv(text: str) -> float:
        return float(read(text))
    conv.__name__ = field.what
    return conv

# The top-level commands, read by the CLI without importing this module (see ``assistant.cli``).
COMMANDS = {
    "games": "list the games",
    "hex": "hex geometry: distance, neighbors, where, locate",
    "map": "map information, derivation and GeoJSON for GIS",
}


def _hex_errors():
    from ..hexes import HexError
    from ..maps.gamespec import UnknownGame
    from ..tomldata import DataFileError

    return (HexError, UnknownGame, DataFileError)


_errors = guard(_hex_errors)


def _map(game: str, model: str | None = None):
    """The game's map (imported here: ``campaign games`` and ``--help`` need no map)."""
    from ..maps.gamemap import load_map

    return load_map(game, model)


def register(sub) -> None:
    p = sub.add_parser("games", help=COMMANDS["games"])
    add_json(p)
    p.set_defaults(func=cmd_games)

    hexp = sub.add_parser("hex", help=COMMANDS["hex"])
    hs = hexp.add_subparsers(dest="hex_command", metavar="HEXCOMMAND", required=True)
    p = hs.add_parser("distance", help="hexes from A to B counted across the map (and one shortest path)")
    p.add_argument("game", type=game_name), p.add_argument("a"), p.add_argument("b")
    add_json(p)
    p.set_defaults(func=cmd_distance)
    p = hs.add_parser("neighbors", help="the hexes adjacent to HEX")
    p.add_argument("game", type=game_name), p.add_argument("hex")
    add_json(p)
    p.set_defaults(func=cmd_neighbors)
    p = hs.add_parser("where", help="where a hex is on the globe, its surface and named place")
    p.add_argument("game", type=game_name), p.add_argument("hex")
    add_json(p)
    p.set_defaults(func=cmd_where)
    p = hs.add_parser("locate", help="the hex at a latitude/longitude")
    p.add_argument("game", type=game_name), p.add_argument("lat", type=_degrees(LATITUDE)), p.add_argument("lon", type=_degrees(LONGITUDE))
    add_json(p)
    p.set_defaults(func=cmd_locate)

    mapp = sub.add_parser("map", help=COMMANDS["map"])
    map_subparsers = mapp.add_subparsers(dest="map_command", metavar="MAPCOMMAND", required=True)
    p = map_subparsers.add_parser("info", help="sections, hex counts, calibration residuals")
    p.add_argument("game", type=game_name)
    p.add_argument("--model", help="grid model (globalwar: straight_rows | straight_columns)")
    add_json(p)
    p.set_defaults(func=cmd_map_info)
    p = map_subparsers.add_parser("derive", help="recompute calibration and the derived base map")
    p.add_argument("game", type=game_name)
    add_json(p)
    p.set_defaults(func=cmd_map_derive)
    p = map_subparsers.add_parser("geojson", help="every hex's outline as a lon/lat polygon (GeoJSON, for GIS); "
                                  "with --campaign its control and units")
    p.add_argument("game", type=game_name)
    p.add_argument("--campaign", metavar="FILE", help="a campaign file of GAME: its corrections, control and units")
    p.add_argument("--out", metavar="FILE", help="write the GeoJSON to FILE (replaced whole) instead of printing it")
    add_json(p)
    p.set_defaults(func=command_errors(cmd_map_geojson))


@_errors
def cmd_games(args):
    from ..maps.gamelist import game_summaries  # no spec loaded: a listing answers at once

    games = game_summaries()
    emit(args, {"games": games},
         lambda d: "\n".join(f"{g['id']:<10} {g['title']}  (sections {' '.join(g['sections'])})" for g in d["games"]))


@_errors
def cmd_distance(args):
    gm = _map(args.game)
    a, b = gm.parse(args.a), gm.parse(args.b)
    # THE metric: hexes counted across the map, the same as the ruler's and the graph's.
    d = gm.grid.distance(a, b)
    path = [gm.grid.label(h) for h in gm.grid.line(a, b)]
    emit(args, {"game": args.game, "from": gm.grid.label(a), "to": gm.grid.label(b),
                "distance": d, "path": path}, str(d))


@_errors
def cmd_neighbors(args):
    gm = _map(args.game)
    h = gm.parse(args.hex)
    labels = [gm.grid.label(n) for n in gm.grid.neighbors(h)]
    emit(args, {"hex": gm.grid.label(h), "neighbors": labels}, " ".join(labels))


def _where_dict(gm, label):
    info = gm.where(label)
    return {"hex": info.hex, "labels": info.labels, "section": info.section, "lat": info.lat,
            "lon": info.lon, "surface": info.surface, "place": info.place, "source": info.source,
            "notes": list(info.notes)}


def _where_text(d):
    pos = f"{d['lat']:.2f}, {d['lon']:.2f}" if d["lat"] is not None else "not placed on the globe"
    also = f" (also {' '.join(d['labels'][1:])})" if len(d["labels"]) > 1 else ""
    return (f"{d['hex']}{also}: {pos}; surface {d['surface'] or 'unknown'}"
            f"{'; ' + d['place'] if d['place'] else ''}"
            + "".join(f"\n  note: {n}" for n in d.get("notes", [])))


@_errors
def cmd_where(args):
    gm = _map(args.game)
    d = _where_dict(gm, args.hex)
    emit(args, d, _where_text)


@_errors
def cmd_locate(args):
    gm = _map(args.game)
    h = gm.locate(args.lat, args.lon)
    d = _where_dict(gm, gm.grid.label(h))
    d["query"] = {"lat": args.lat, "lon": args.lon}
    emit(args, d, _where_text)


def map_info(game: str, model: str | None = None) -> dict:
    gm = _map(game, model)
    counts = Counter(gm.grid.section_of(h) for h in gm.grid.all_hexes)
    cal = gm.calibration
    fit = cal.models.get(gm.model) if cal else None
    fits = {f.section: f for f in fit.sections} if fit else {}
    sections = []
    for s in gm.grid_spec.sections:
        f = fits.get(s.id)
        sections.append({
            "section": s.id, "name": s.name, "hexes": counts.get(s.id, 0),
            "cols": list(s.cols), "rows": list(s.rows),
            "anchors": f.anchors if f else 0, "rms": f.rms if f else None, "max": f.max if f else None,
            "method": f.method if f else "uncalibrated", "offset": list(s.offset),
            "offset_basis": _counted_again(f.offset_basis) if f else "",
            "suspects": [r.model_dump() for r in f.suspects] if f else [],
            "note": _counted_again(f.note) if f else "",
        })
    return {
        "game": game, "model": gm.model, "hexes": len(gm.grid.all_hexes),
        "projection": fit.projection if fit else None,
        "wrap": list(gm.grid_spec.wrap) if gm.grid_spec.wrap else None,
        "rms": fit.rms if fit else None,
        "models": {k: {"rms": v.rms, "projection": v.projection, "fixtures_failed": v.fixtures_failed}
                   for k, v in (cal.models.items() if cal else [])},
        "chosen_model": cal.model if cal else None,
        "fixtures_failed": fit.fixtures_failed if fit else [],
        "sections": sections,
    }


# The shipped calibrations (derived/calibration.json, part of each map's version) were written when
# the fit said "2 anchor(s)" and "moved 1 hex": their counts are said again as the fit says them now.
_STORED_COUNTS = re.compile(r"\b(\d+) (anchor)\(s\)|\b(moved )(\d+) (hex)\b(?!es)")


def _counted_again(text: str) -> str:
    def said(m):
        return (counted(int(m[1]), m[2]) if m[1] is not None else m[3] + counted(int(m[4]), m[5]))

    return _STORED_COUNTS.sub(said, text or "")


def _map_info_text(d) -> str:
    lines = [f"{d['game']}: {d['hexes']} hexes, grid model {d['model']}"
             + (f", projection {d['projection']}, overall rms {d['rms']} hexes" if d["rms"] is not None else ", NOT calibrated")]
    if d["wrap"]:
        lines.append(f"east-west wrap: lattice vector {tuple(d['wrap'])}")
    if len(d["models"]) > 1:
        lines.append("models: " + "; ".join(f"{k} rms {v['rms']}" for k, v in d["models"].items())
                     + f" -> default {d['chosen_model']} (better fit)")
    lines.append(f"{'sec':<4}{'hexes':>6}{'anchors':>8}{'rms':>7}{'max':>7}  fit / placement")
    for s in d["sections"]:
        rms = "-" if s["rms"] is None else f"{s['rms']:.2f}"
        mx = "-" if s["max"] is None else f"{s['max']:.2f}"
        lines.append(f"{s['section']:<4}{s['hexes']:>6}{s['anchors']:>8}{rms:>7}{mx:>7}  "
                     f"{s['method']}; offset {tuple(s['offset'])}: {s['offset_basis']}")
        for r in s["suspects"]:
            lines.append(f"      suspect (residual > 2 hexes): {r['name']} {r['hex']} off by {r['residual']:.1f}")
        if s["note"]:
            lines.append(f"      note: {s['note']}")
    if d["fixtures_failed"]:
        lines.append("rulebook fixtures NOT met: " + ", ".join(d["fixtures_failed"]))
    return "\n".join(lines)


@_errors
def cmd_map_info(args):
    emit(args, map_info(args.game, args.model), _map_info_text)


@_errors
def cmd_map_derive(args):
    from tqdm import tqdm

    from ..maps import gamemap
    from ..maps.calibration import calibrate
    from ..maps.derive import derive_hexes, write_hexes
    from ..maps.gamemap import GameMap, load_gazetteer, write_calibration
    from ..maps.gamespec import load_game_spec
    from ..maps.landlinks import derive_overland, write_overland

    spec = load_game_spec(args.game)
    print(f"calibrating {args.game} from its gazetteer ...", file=sys.stderr)
    cal = calibrate(spec, load_gazetteer(args.game), progress=lambda m: print("  " + m, file=sys.stderr))
    cal_path = write_calibration(cal)
    gm = GameMap(spec)
    with tqdm(total=len(gm.grid.all_hexes), desc="hexes", unit="hex", file=sys.stderr) as bar:
        last = [0]

        def step(done):
            bar.update(done - last[0])
            last[0] = done

        df = derive_hexes(gm, progress=step)
    hex_path = write_hexes(df, args.game)
    sides = derive_overland(gm, df)
    write_overland(sides, args.game)
    gamemap.load_map.cache_clear()
    counts = df["surface"].value_counts().to_dict()
    emit(args, {"game": args.game, "model": cal.model, "calibration": str(cal_path),
                "hexes_file": str(hex_path), "hexes": len(df), "surface": counts,
                "hexsides_no_land_across": int((~sides["overland"]).sum())},
         lambda d: f"{d['game']}: {d['hexes']} hexes derived ({', '.join(f'{k} {v}' for k, v in d['surface'].items())}); "
                   f"model {d['model']}; wrote {d['calibration']} and {d['hexes_file']}")


def cmd_map_geojson(args):
    """The map's GeoJSON (``campaign.geomap.map_geojson``) on stdout, or written to ``--out``
    whole or not at all (``export.atomic_write``)."""
    import json
    from pathlib import Path

    from ..campaign.geomap import map_geojson

    out = Path(args.out) if args.out else None
    if out is not None:
        if out.exists() and not out.is_file():  # a folder, a device (/dev/null), a pipe: never replaced
            raise CliError(f"--out {out}: " + ("is a directory" if out.is_dir() else "is not a regular file"))
        if not out.parent.is_dir():
            raise CliError(f"--out {out}: no directory {out.parent}")
    if args.campaign:
        with opened(args.campaign, readonly=True) as c:
            data = map_geojson(args.game, c)
    else:
        data = map_geojson(args.game)
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    if out is None:
        sys.stdout.write(text + "\n")
        return
    from ..campaign.export import atomic_write

    try:
        atomic_write(out, lambda p: p.write_text(text + "\n", encoding="utf-8"))
    except OSError as e:
        raise CliError(f"--out {out}: cannot write ({e.strerror or e})") from None
    emit(args, {"out": str(out), "game": args.game, "features": len(data["features"])},
         lambda d: f"wrote {d['features']} hexes of {d['game']} to {d['out']}")
