"""A map's topology (``graph.Topology``: canonical labels, the base hex attributes, the hexsides and
their features) kept on disk per map version, so a one-shot command (``campaign trace``) reads it
instead of working it out again from the grid's geometry and the derived tables. The file also
keeps the map's search arrays' hexsides (``netarrays.MapArrays``: every hexside numbered and
sorted both ways, as bytes), so the first search of a process does not sort them again.

The file is named by a key over everything the topology is computed from: the placed grid (a
campaign's pinned geometry), the calibration model, every file of the game's data folder (size and
modification time) and the source of the modules that compute it. Anything changed gives a new
key, so a stale topology is never read. The file holds plain values only (``marshal``: no code can
be loaded from it); a missing, unreadable or damaged file is worked out again and rewritten, and a
cache that cannot be written costs only speed. The cache sits beside the board pictures
(``$CAMPAIGN_ASSISTANT_HOME/cache``, else ``$XDG_CACHE_HOME/campaign-assistant``).
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import json
import marshal
import os
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Optional

from ..paths import game_dir, write_cache_file

if TYPE_CHECKING:
    from .gamemap import GameMap
    from .graph import Topology

FORMAT = 2  # raise when the file's layout changes
_HERE = Path(__file__).resolve().parent
# The modules whose code decides the topology: a change to any of them is a new key.
SOURCES = tuple(_HERE / name for name in ("topocache.py", "graph.py", "territory.py", "board.py", "landlinks.py", "hexsides.py", "gamemap.py",
                                          "attrs.py", "netarrays.py")) + tuple((_HERE.parent / "hexes").glob("*.py"))


def cache_dir() -> Path:
    """Rebuildable files, as ``assistant.ui.userdirs.user_cache_dir`` places them."""
    home = os.environ.get("CAMPAIGN_ASSISTANT_HOME", "").strip()
    if home:
        return Path(home).expanduser() / "cache"
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(base) / "campaign-assistant"


def cache_key(gm: "GameMap") -> str:
    h = hashlib.sha256(f"topology {FORMAT} {gm.game} {gm.model}\n".encode())
    h.update(json.dumps(gm.grid_spec.model_dump(mode="json"), sort_keys=True).encode())
    folder = game_dir(gm.game)
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    for p in [*files, *SOURCES]:
        st = p.stat()
        h.update(f"\n{p.name}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()[:20]


def cache_path(gm: "GameMap") -> Path:
    return cache_dir() / "topology" / f"{gm.game}-{cache_key(gm)}.marshal"


def cached_topology(gm: "GameMap") -> "Topology":
    """``graph.topology(gm)``, read from the cache when it holds this map version's."""
    from .graph import topology

    try:
        path = cache_path(gm)
    except OSError:  # the data folder unreadable: work it out
        return topology(gm)
    topo = _read(path)
    if topo is None:
        topo = topology(gm)
        _write(path, topo)
    return topo


def _fields(topo: "Topology") -> dict[str, Any]:
    """What the file holds: the topology, and its search arrays' (tail, head) (netarrays.py; built
    here if they were not yet), so a reader skips numbering and sorting every hexside."""
    out = {f.name: getattr(topo, f.name) for f in dataclasses.fields(topo)}
    arrays = topo.arrays
    out["csr"] = (arrays.tail, arrays.head)
    return out


def _read(path: Path) -> Optional["Topology"]:
    from .graph import Topology

    was = gc.isenabled()
    gc.disable()  # some 300,000 new containers, no cycles: a collection midway would walk them all
    try:
        fields = marshal.loads(path.read_bytes())
        rows = fields.pop("nodes")
        out = {name: _decode(value) for name, value in fields.items()}
        out["nodes"] = _decode_rows(rows, out["labels"], out["columns"]) if rows[0] == _ROWS else _decode(rows)
        return Topology(**out)
    except (OSError, EOFError, ValueError, TypeError, KeyError, IndexError):  # absent or damaged: work it out again
        return None
    finally:
        if was:
            gc.enable()


def _write(path: Path, topo: "Topology") -> None:
    try:
        data = marshal.dumps({name: _encode_rows(value) if name == "nodes" else _encode(value)
                              for name, value in _fields(topo).items()})
    except (ValueError, TypeError):  # a value marshal cannot hold: no cache, only speed lost
        return
    write_cache_file(path, data)


# Plain values as marshal holds them; a read-only mapping and a numpy array say what they were.
_PROXY, _FLAT, _FLATS, _ARRAY, _SEQ, _RAW, _ROWS = ("\x00proxy", "\x00flat", "\x00flats", "\x00array", "\x00seq",
                                                   "\x00raw", "\x00rows")
_PLAIN = (str, int, float, bool, type(None))


def _encode_rows(nodes: Any) -> Any:
    """The hexes' attributes: where each is a row of the columns (``graph.HexAttrs``), only which
    attributes each hex carries (its row is its place in ``labels``); read back as rows without a
    dict per hex ever made."""
    from .graph import HexAttrs

    if not all(type(a) is HexAttrs for a in nodes.values()):
        return _encode(nodes)
    sets: dict[tuple[str, ...], int] = {}
    per = [(lab, sets.setdefault(tuple(a), len(sets))) for lab, a in nodes.items()]
    return (_ROWS, [list(k) for k in sets], per)


def _decode_rows(v: Any, labels: Any, columns: Any) -> Any:
    from .graph import HexAttrs

    index = {lab: i for i, lab in enumerate(labels)}
    shared = [{k: columns[k] for k in keys} for keys in v[1]]
    return {lab: HexAttrs(shared[j], index[lab]) for lab, j in v[2]}


def _native(v: Any) -> bool:
    """Plain values, and dicts, lists and tuples of them: marshal gives them back as they were."""
    if isinstance(v, _PLAIN):
        return True
    if type(v) is dict:
        return all(type(k) is str and _native(x) for k, x in v.items())
    if type(v) in (list, tuple):
        return all(_native(x) for x in v)
    return False


def _flats(v: Any) -> bool:
    """A mapping of read-only mappings of plain values, under text keys (the hexes' attributes)."""
    return all(type(k) is str and type(x) is MappingProxyType and all(isinstance(y, _PLAIN) for y in x.values())
               for k, x in v.items())


def _encode(v: Any) -> Any:
    if type(v) in (dict, list, tuple) and _native(v):  # e.g. the hexsides' features: read back at once
        return (_RAW, v)
    if type(v) is dict and v and _flats(v):  # every hex's attributes: read back at once
        return (_FLATS, False, {k: dict(x) for k, x in v.items()})
    if isinstance(v, MappingProxyType) or type(v).__name__ == "HexAttrs":  # graph.HexAttrs: a read-only row
        if all(isinstance(x, _PLAIN) for x in v.values()):  # a hex's attributes: read back at once
            return (_FLAT, dict(v))
        if _flats(v):
            return (_FLATS, True, {k: dict(x) for k, x in v.items()})
        return (_PROXY, {k: _encode(x) for k, x in v.items()})
    if isinstance(v, dict):
        return {k: _encode(x) for k, x in v.items()}
    if isinstance(v, (tuple, list)):
        if all(isinstance(x, _PLAIN) or type(x) is tuple and all(isinstance(y, _PLAIN) for y in x) for x in v):
            return (_SEQ, type(v) is tuple, list(v))  # labels, hexsides: read back at once
        return type(v)(_encode(x) for x in v)
    if type(v).__module__ == "numpy" and hasattr(v, "tolist") and hasattr(v, "dtype"):
        if v.dtype.hasobject:
            items = v.tolist()
            if all(isinstance(x, _PLAIN) for x in items):  # a column of hex values: read back at once
                return (_ARRAY, "O", items)
            return (_ARRAY, "O*", [_encode(x) for x in items])
        if v.ndim == 1:  # e.g. the search arrays' hexsides: their bytes
            return (_ARRAY, v.dtype.str, v.tobytes())
        return (_ARRAY, v.dtype.str, v.tolist())
    return v


def _decode(v: Any) -> Any:
    if isinstance(v, tuple) and len(v) in (2, 3) and v[0] in (_PROXY, _FLAT, _FLATS, _ARRAY, _SEQ, _RAW):
        if v[0] == _RAW:
            return v[1]
        if v[0] == _SEQ:
            return tuple(v[2]) if v[1] else v[2]
        if v[0] == _FLAT:
            return MappingProxyType(v[1])
        if v[0] == _FLATS:
            flats = {k: MappingProxyType(x) for k, x in v[2].items()}
            return MappingProxyType(flats) if v[1] else flats
        if v[0] == _PROXY:
            return MappingProxyType({k: _decode(x) for k, x in v[1].items()})
        import numpy as np

        if v[1] in ("O", "O*"):
            out = np.empty(len(v[2]), dtype=object)
            out[:] = v[2] if v[1] == "O" else [_decode(x) for x in v[2]]
            return out
        if isinstance(v[2], bytes):
            return np.frombuffer(v[2], dtype=v[1]).copy()
        return np.array(v[2], dtype=v[1])
    if isinstance(v, dict):
        return {k: _decode(x) for k, x in v.items()}
    if isinstance(v, (tuple, list)):
        return type(v)(_decode(x) for x in v)
    return v
