"""A map's topology (``graph.Topology``: canonical labels, the base hex attributes, the hexsides and
their features) kept on disk per map version, so a one-shot command (``campaign trace``) reads it
instead of working it out again from the grid's geometry and the derived tables.

The file is named by a key over everything the topology is computed from: the placed grid (a
campaign's pinned geometry), the calibration model, every file of the game's data folder (size and
modification time) and the source of the modules that compute it. Anything changed gives a new
key, so a stale topology is never read. The file holds plain values only (``marshal``: no code can
be loaded from it); a missing, unreadable or damaged file is worked out again and rewritten, and a
cache that cannot be written costs only speed. The cache sits beside the board pictures
(``$CAMPAIGN_ASSISTANT_HOME/cache``, else ``$XDG_CACHE_HOME/campaign-assistant``).
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Optional

from ..paths import game_dir

if TYPE_CHECKING:
    from .gamemap import GameMap
    from .graph import Topology

FORMAT = 1  # raise when the file's layout changes
_HERE = Path(__file__).resolve().parent
# The modules whose code decides the topology: a change to any of them is a new key.
SOURCES = tuple(_HERE / name for name in ("graph.py", "territory.py", "landlinks.py", "hexsides.py", "gamemap.py",
                                          "attrs.py")) + tuple((_HERE.parent / "hexes").glob("*.py"))


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


def _read(path: Path) -> Optional["Topology"]:
    from .graph import Topology

    try:
        labels, nodes, edges, rulebook, derived = marshal.loads(path.read_bytes())
        return Topology(labels=tuple(labels), nodes={lab: MappingProxyType(nodes[lab]) for lab in labels},
                        edges=tuple(map(tuple, edges)), rulebook_hexsides=rulebook, derived_hexsides=derived)
    except (OSError, EOFError, ValueError, TypeError, KeyError):  # absent or damaged: work it out again
        return None


def _write(path: Path, topo: "Topology") -> None:
    try:
        data = marshal.dumps((list(topo.labels), {lab: dict(a) for lab, a in topo.nodes.items()}, list(topo.edges),
                              {k: dict(v) for k, v in topo.rulebook_hexsides.items()},
                              {k: dict(v) for k, v in topo.derived_hexsides.items()}))
    except ValueError:  # a value marshal cannot hold: no cache, only speed lost
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
    except OSError:
        pass  # a read-only cache only costs speed
