"""The map's topology kept on disk per map version (assistant/maps/topocache.py): read back equal to
what is worked out, never read when anything it comes from changed, and a damaged or unwritable
cache costs only speed."""

from __future__ import annotations

import marshal
import shutil
from types import MappingProxyType

import pytest

from assistant.maps import graph, netarrays, topocache
from assistant.maps.gamemap import GameMap
from assistant.maps.gamespec import list_games, load_game_spec


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("CAMPAIGN_ASSISTANT_HOME", str(tmp_path))
    return tmp_path


def fresh(game: str) -> GameMap:
    return GameMap(load_game_spec(game))


def same(a, b) -> bool:
    """Two topologies hold the same values (numpy arrays compared by value), and give the same
    search arrays."""
    from dataclasses import fields

    from assistant.maps.topocache import _encode

    arrays = [(x.arrays.labels, x.arrays.tail.tolist(), x.arrays.head.tolist(), x.arrays.indptr.tolist()) for x in (a, b)]
    return all(_encode(getattr(a, f.name)) == _encode(getattr(b, f.name)) for f in fields(a) if f.compare) \
        and arrays[0] == arrays[1]


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


def test_the_search_arrays_are_read_with_the_topology_not_sorted_again(home, monkeypatch):
    """The file keeps the search arrays' hexsides: a second process reads them (no numbering and
    sorting of every hexside), and they are the arrays worked out from the map, read-only."""
    worked = graph.topology(fresh("witp")).arrays
    fresh("witp").topology  # written, with its arrays
    calls = []
    real = netarrays._directed
    monkeypatch.setattr(netarrays, "_directed", lambda *a: calls.append(1) or real(*a))
    read = fresh("witp").topology.arrays
    assert calls == []
    assert read.labels == worked.labels and read.n_edges == worked.n_edges == 2 * 41_493
    for name in ("tail", "head", "indptr"):
        assert getattr(read, name).tolist() == getattr(worked, name).tolist()
        assert not getattr(read, name).flags.writeable
    side = next(iter(worked._sides))
    assert read.side_positions([side])[1].tolist() == [True]
    assert read.feature("overland")[0].tolist() == worked.feature("overland")[0].tolist()


@pytest.mark.parametrize("damage", ["unsorted", "out of range", "one way only", "not arrays"])
def test_damaged_search_arrays_in_the_file_are_worked_out_again(damage):
    """A kept (tail, head) that is not these edges' is not used: the arrays are worked out."""
    import numpy as np

    topo = graph.topology(fresh("globalwar"))
    good = topo.arrays
    tail, head = good.tail.copy(), good.head.copy()
    if damage == "unsorted":
        tail, head = tail[::-1], head[::-1]
    elif damage == "out of range":
        head[0] = good.n
    elif damage == "one way only":
        keep = tail < head
        tail, head = tail[keep], head[keep]
    csr = ("x", "y") if damage == "not arrays" else (tail, head)
    arrays = netarrays.MapArrays(topo.labels, topo.nodes, topo.edges, topo.base_sides(), columns=topo.columns,
                                 csr=csr)
    assert np.array_equal(arrays.tail, good.tail) and np.array_equal(arrays.head, good.head)


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
    value["flats"] = {"A": MappingProxyType({"surface": "land"}), "B": MappingProxyType({})}
    value["proxy of flats"] = MappingProxyType(dict(value["flats"]))
    value["ints"] = np.arange(5, dtype=np.int64) * 3
    back = _decode(marshal.loads(marshal.dumps(_encode(value))))
    assert type(back["flats"]) is dict and back["flats"] == value["flats"]
    assert all(type(x) is MappingProxyType for x in back["flats"].values())
    assert type(back["proxy of flats"]) is MappingProxyType and back["proxy of flats"] == value["flats"]
    assert back["ints"].dtype == np.int64 and back["ints"].tolist() == [0, 3, 6, 9, 12]
    back["ints"][0] = 1  # an array of its own, as it was (not a view of the file's bytes)
    assert back["nodes"] == value["nodes"] and isinstance(back["nodes"]["B"]["nested"], MappingProxyType)
    assert isinstance(back["nodes"]["A"], MappingProxyType)
    assert back["edges"] == value["edges"] and type(back["edges"]) is tuple
    assert back["mixed"] == value["mixed"]
    assert back["columns"]["surface"].dtype == object and back["columns"]["surface"].tolist() == ["land", None, 2.5]
    assert back["columns"]["q"].dtype == np.int32 and back["columns"]["q"].tolist() == [0, 1, 2]
    assert back["columns"]["odd"].tolist() == [("a", 1), {"k": 1}]
    assert isinstance(back["columns"]["odd"][1], MappingProxyType)
