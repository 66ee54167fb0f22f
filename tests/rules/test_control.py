"""Hex control: the documented default order, and an explicit setting wins."""

from __future__ import annotations

import networkx as nx

from assistant.rules.control import Control
from assistant.rules.supply import Piece

NATIONS = {"japan": "japan", "us": "allies", "australia": "allies"}


def graph() -> nx.Graph:
    g = nx.Graph()
    g.add_node("h1", surface="land", country="japan")          # Japanese territory
    g.add_node("h2", surface="land", country="australia", region="New Guinea")
    g.add_node("h3", surface="land")                            # no country
    g.add_node("h4", surface="sea")
    g.add_node("h5", surface="land", region="Burma")            # a region nobody set
    return g


def unit(side, hex_, i=[0]):
    i[0] += 1
    return Piece(id=f"u{i[0]}", side=side, kind="infantry", role="combat", hex=hex_)


def test_defaults_in_order():
    c = Control.build(graph(), NATIONS, pieces=[unit("allies", "h3"), unit("japan", "h4"), unit("allies", "h4")])
    assert c.resolve("h1") == ("japan", "territory")        # a nation's own territory is its side's
    assert c.resolve("h2") == ("allies", "territory")
    assert c.resolve("h3") == ("allies", "units")           # only one side's units there
    assert c.resolve("h4") == (None, "none")                # both sides' units: nobody by default
    assert c.resolve("h5") == (None, "none")


def test_player_settings_win_hex_over_region_over_territory():
    c = Control.build(graph(), NATIONS, hexes={"h1": "allies"}, regions={"New Guinea": "japan", "Burma": "japan"},
                      pieces=[unit("allies", "h2")])
    assert c.resolve("h1") == ("allies", "hex")             # captured: set per hex
    assert c.resolve("h2") == ("japan", "region")           # set per region beats territory and units
    assert c.resolve("h5") == ("japan", "region")
    assert c.friendly("h2", "japan") and not c.friendly("h2", "allies")
    assert c.friendly("h2", "allies", partners=["japan"])


def test_a_what_if_unit_changes_the_units_default_only():
    c = Control.build(graph(), NATIONS, pieces=[unit("allies", "h3")])
    assert c.owner("h3") == "allies"
    c2 = c.with_pieces([unit("allies", "h3"), unit("japan", "h3")])
    assert c2.owner("h3") is None and c.owner("h3") == "allies"
