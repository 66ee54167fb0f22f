"""The map's topology kept on disk per map version (assistant/maps/topocache.py): read back equal to
what is worked out, never read when anything it comes from changed, and a damaged or unwritable
cache costs only speed."""

from __future__ import annotations

import marshal
import shutil
from types import MappingProxyType

import pytest

from assistant.maps import graph, topocache
from assistant.maps.gamemap import GameMap
from assistant.maps.gamespec import list_games, load_game_spec


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("CAMPAIGN_ASSISTANT_HOME", str(tmp_path))
    return tmp_path


def fresh(game: str) -> GameMap:
    return GameMap(load_game_spec(game))


def same(a, b) -> bool:
    """Two topologies hold the same values (numpy arrays compared by value)."""
    from dataclasses import fields

    from assistant.maps.topocache import _encode

    return all(_encode(getattr(a, f.name)) == _encode(getattr(b, f.name)) for f in fields(a))


@pytest.mark.parametrize("game", list_games())
def test_the_cached_topology_is_the_one_worked_out(home, game, monkeypatch):
    worked = graph.topology(fresh(game))
    first = fresh(game).topology  # works it out and writes it
    assert topocache.cache_path(fresh(game)).is_file()

    def no_work(gm):
        raise AssertionError("worked out again: the cache was not read")

    monkeypatch.setattr(graph, "topology", no_work)
    again = fresh(game).topology
    assert same(again, first) and same(first, worked)
    assert [type(v) for v in again.nodes[again.labels[0]].values()] == \
        [type(v) for v in worked.nodes[worked.labels[0]].values()]
    with pytest.raises(TypeError):
        again.nodes[again.labels[0]]["surface"] = "sea"  # read-only, as a worked-out one


def test_a_changed_data_file_or_geometry_is_a_new_key(home, tmp_path, monkeypatch):
    gm = fresh("globalwar")
    folder = tmp_path / "games" / "globalwar"
    shutil.copytree(topocache.game_dir("globalwar"), folder)
    monkeypatch.setattr(topocache, "game_dir", lambda game: folder)
    copied = topocache.cache_key(gm)
    assert topocache.cache_key(gm) == copied
    with open(folder / "hexsides.csv", "a", encoding="utf-8") as f:
        f.write("\n")
    assert topocache.cache_key(gm) != copied
    other = GameMap.from_grid_spec(gm.spec, gm.grid_spec.model_copy(update={"wrap": None}), gm.model)
    assert topocache.cache_key(other) != topocache.cache_key(gm)


def test_a_damaged_cache_file_is_worked_out_again_and_rewritten(home):
    topo = fresh("globalwar").topology
    path = topocache.cache_path(fresh("globalwar"))
    path.write_bytes(b"\x00 not a topology")
    assert same(fresh("globalwar").topology, topo)
    assert path.read_bytes() != b"\x00 not a topology"


def test_an_unwritable_cache_costs_only_speed(home, monkeypatch):
    (home / "cache").write_text("a file where the cache folder would be")
    assert same(fresh("globalwar").topology, graph.topology(fresh("globalwar")))


def test_what_a_topology_may_hold_is_read_back_as_it_was():
    """Read-only mappings (nested or flat), tuples and lists, numpy arrays of values or objects."""
    import numpy as np

    from assistant.maps.topocache import _decode, _encode

    cols = np.empty(3, dtype=object)
    cols[:] = ["land", None, 2.5]
    odd = np.empty(2, dtype=object)
    odd[:] = [("a", 1), MappingProxyType({"k": 1})]
    value = {"nodes": {"A": MappingProxyType({"surface": "land", "q": 1}),
                       "B": MappingProxyType({"nested": MappingProxyType({"x": (1, 2)})})},
             "edges": (("A", "B"), ("B", "C")), "mixed": [("A", {"k": 1})],
             "columns": {"surface": cols, "q": np.arange(3, dtype=np.int32), "odd": odd}}
    back = _decode(marshal.loads(marshal.dumps(_encode(value))))
    assert back["nodes"] == value["nodes"] and isinstance(back["nodes"]["B"]["nested"], MappingProxyType)
    assert isinstance(back["nodes"]["A"], MappingProxyType)
    assert back["edges"] == value["edges"] and type(back["edges"]) is tuple
    assert back["mixed"] == value["mixed"]
    assert back["columns"]["surface"].dtype == object and back["columns"]["surface"].tolist() == ["land", None, 2.5]
    assert back["columns"]["q"].dtype == np.int32 and back["columns"]["q"].tolist() == [0, 1, 2]
    assert back["columns"]["odd"].tolist() == [("a", 1), {"k": 1}]
    assert isinstance(back["columns"]["odd"][1], MappingProxyType)
