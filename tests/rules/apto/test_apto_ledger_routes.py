"""apto lend-lease routes [8.3], [2.12] decided on hand-built maps with the supply tracer: the
Vladivostok Route (captured, blockaded, destroyed; another Soviet port), a port in Australia with an
overland line to an Australian home city, and a land path from the India Box to a Chinese home
city unobstructed by enemy land units. Where the map cannot tell, a named question."""

from __future__ import annotations

import networkx as nx

from apto_ledgerkit import book, ctx, entry, errors
from aptokit import piece, world
from assistant.rules.apto import economy_routes as routes
from assistant.rules.apto.economy import RULES
from rulebooks import Quotes

RULEBOOK = Quotes("apto")

SPRING = 0


def land(g, name, **attrs):
    g.add_node(name, surface="land", **attrs)


def levels(fs):
    return [f.level for f in fs]


def soviet_map(control=None, pieces=(), destroyed=False, other_port=False):
    g = nx.Graph()
    land(g, "W 5128", country="ussr", home_of="ussr", city="yes", port="yes",
         **({"port_destroyed": "yes"} if destroyed else {}))
    land(g, "S1", country="ussr")
    g.add_edge("W 5128", "S1")
    if other_port:
        land(g, "S2", country="ussr", port="yes")
        g.add_edge("S1", "S2")
    return world(g, pieces, control=control or {})


@RULEBOOK.says("the \"Vladivostok Route\" will be considered closed if Vladivostok (W 5128) becomes captured by Japan, "
               "\"isolated\" (see [7.8]), blockaded (by any enemy naval unit with a gunnery or torpedo rating of at least "
               "\"0\"), or if the port there is destroyed")
def test_8_3_vladivostok_route_closed_when_captured_blockaded_or_destroyed():
    assert levels(routes.vladivostok(soviet_map())) == ["info"]
    fs = routes.vladivostok(soviet_map(control={"W 5128": "japan"}))
    assert levels(fs) == ["error"] and "captured by Japan" in fs[0].text
    ship = piece("kongo", "japan", "Naval unit", "W 5128", gunnery=0)
    fs = routes.vladivostok(soviet_map(pieces=[ship]))
    assert levels(fs) == ["error"] and "blockaded by kongo" in fs[0].text
    sub = piece("i1", "japan", "Naval unit", "W 5128", torpedo=0, gunnery=-1)  # a torpedo rating of 0 blockades
    assert levels(routes.vladivostok(soviet_map(pieces=[sub]))) == ["error"]
    assert levels(routes.vladivostok(soviet_map(destroyed=True))) == ["error"]
    # "unless the Soviet Union presently controls any other functional, supplied port": the player confirms
    fs = routes.vladivostok(soviet_map(destroyed=True, other_port=True))
    assert levels(fs) == ["question"] and "S2" in fs[0].text
    # not on the map at all: a question
    assert levels(routes.vladivostok(world(nx.Graph()))) == ["question"]


def ll(sender, to, amount):
    return entry("allies", SPRING, "transfer", amount, account=f"EP:{sender}", to_account=f"EP:{to}", item="Lend-lease")


def test_8_3_a_closed_route_refuses_the_transfer():
    w = soviet_map(control={"W 5128": "japan"})
    b = book(entry("allies", SPRING, "income", 40, item="Seasonal income"))
    assert any("Vladivostok Route is closed" in x for x in errors(RULES.check(b, ll("us", "ussr", 5), ctx(SPRING, world=w))))
    assert errors(RULES.check(b, ll("us", "ussr", 5), ctx(SPRING, world=soviet_map()))) == []


def australia_map(control=None, destroyed=False):
    g = nx.Graph()
    land(g, "A0", country="australia", home_of="australia", city="yes")
    land(g, "A1", country="australia")
    land(g, "A2", country="australia", port="yes", **({"port_destroyed": "yes"} if destroyed else {}))
    g.add_edges_from([("A0", "A1"), ("A1", "A2")])
    return world(g, control=control or {})


@RULEBOOK.says("The US may automatically send lend-lease EPs to Australia if any Western Ally nation presently controls a "
               "functional, supplied (non-isolated) port within Australia with an uninhibited overland line of supply to "
               "any Australian home city.")
def test_8_3_lend_lease_to_australia_needs_a_supplied_port():
    fs = routes.australia(australia_map())
    assert levels(fs) == ["info"] and "A2" in fs[0].text and "A0" in fs[0].text
    assert levels(routes.australia(australia_map(destroyed=True))) == ["error"]
    assert levels(routes.australia(australia_map(control={"A2": "japan"}))) == ["error"]
    assert levels(routes.australia(australia_map(control={"A1": "japan"}))) == ["error"]  # the line is cut
    assert levels(routes.australia(world(nx.Graph()))) == ["question"]


def china_map(blocker=False):
    g = nx.Graph()
    land(g, "IB", india_box="yes", country="uk")
    land(g, "L1", country="china")
    land(g, "C0", country="china", home_of="china", city="yes")
    g.add_edges_from([("IB", "L1"), ("L1", "C0")])
    return world(g, [piece("ija", "japan", "Land unit", "L1")] if blocker else [],
                 control={"L1": "allies"} if blocker else {})


@RULEBOOK.says("provided that there is path (of any terrain) of land hexes (unobstructed by enemy land units) from the "
               "India Box (or from the \"India\" map, if in play) to any (non-isolated) Chinese-controlled Chinese home city")
def test_8_3_lend_lease_to_china_needs_a_land_path_from_the_india_box():
    fs = routes.china(china_map())
    assert levels(fs) == ["info"] and "C0" in fs[0].text
    assert levels(routes.china(china_map(blocker=True))) == ["error"]
    assert levels(routes.china(world(nx.Graph()))) == ["question"]


test_quotes_in_rulebook = RULEBOOK.check()
