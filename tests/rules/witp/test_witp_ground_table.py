"""The Ground Movement Table [29.7] the player enters (template ground_mp): a
hex's terrain row gives its ground MP, a hex's own ground_mp wins, and the witp rules read it
once the table is imported into the campaign."""

from __future__ import annotations

import math

import pytest

from assistant.campaign import Campaign
from assistant.campaign.world import world_of
from assistant.cli import main
from assistant.rules.hexnet import HexNet
from assistant.rules.witp import layers as L


def test_rows_and_a_hexs_own_value():
    import networkx as nx

    g = nx.path_graph(["a", "b", "c"])
    nx.set_node_attributes(g, {"a": {"terrain": "jungle"}, "b": {"terrain": "jungle", "ground_mp": 1}, "c": {}})
    mp = L.ground_mp(HexNet.of(g), [{"terrain": "jungle", "mp": "3"}])
    assert mp[0] == 3 and mp[1] == 1 and math.isnan(mp[2])
    with pytest.raises(ValueError, match="row 1"):
        L.mp_table([{"terrain": "jungle"}])


def test_an_imported_table_reaches_the_rules(tmp_path, capsys):
    path = tmp_path / "g.campaign"
    csv = tmp_path / "gm.csv"
    csv.write_text("terrain,mp\nclear,1\n")
    with Campaign.create(path, game="witp", scenario="guadalcanal-1942") as c:
        c.set_hex("E2418", terrain="clear")
        assert math.isnan(L.ground_mp(HexNet.of(c.graph()), world_of(c.state, c.graph()).tables.get("ground_mp"))
                          [HexNet.of(c.graph()).index["E2418"]])  # [29.7] not entered: unknown, never invented
    assert main(["table", "import", str(path), "ground_mp", str(csv)]) == 0
    with Campaign.open(path) as c:
        w = world_of(c.state, c.graph())
        assert w.tables["ground_mp"] == [{"terrain": "clear", "mp": "1"}]
        assert L.ground_mp(w.net, w.tables["ground_mp"])[w.net.index["E2418"]] == 1
