"""apto's computed income adjustments [8.2] on a hand-built map whose every hex is counted by
hand: colony resource hexes (+2, in supply, not in uninhibited enemy ZOC), enemy resource hexes
captured (+2, in supply), Japan's oil hexes (Palembang +15; setting ``ledger_oil_bonus`` both
readings) and conquest debits (-2 resource, -4 city)."""

from __future__ import annotations

import networkx as nx
import pytest

from apto_ledgerkit import book, ctx
from aptokit import piece, world
from assistant.rules.apto.economy import RULES
from assistant.rules.apto.economy_colonies import adjustments
from rulebooks import Quotes

RULEBOOK = Quotes("apto")

SPRING = 0


def land(g, name, **attrs):
    g.add_node(name, surface="land", **attrs)


def a_map(always_supplied: bool = False):
    """J0 (Japanese home city, a source) - J1 - W 1912 (Palembang, Dutch colony resource, Japanese)
    - X1 (Dutch, Allied) - X2 (Dutch colony resource, Japanese, cut off by X1); J1 - C1 (UK colony
    resource, Japanese); J0 - J2 (Japanese home city/resource, Allied-held), J0 - J3 (Japanese home
    resource, Allied-held); M0 (a UK home city, a source) - M1 (UK colony resource) and M0 - M2 (UK
    colony resource) - Z (Japanese-held, a Japanese land unit: its ZOC reaches M2)."""
    g = nx.Graph()
    land(g, "J0", country="japan", home_of="japan", city="yes")
    land(g, "J1", country="japan")
    land(g, "W 1912", country="dutch", colony_of="dutch", resource="yes")
    land(g, "X1", country="dutch")
    land(g, "X2", country="dutch", colony_of="dutch", resource="yes")
    land(g, "C1", country="uk", colony_of="uk", resource="yes")
    land(g, "J2", country="japan", home_of="japan", city="yes", resource="yes")
    land(g, "J3", country="japan", home_of="japan", resource="yes")
    land(g, "M0", country="uk", home_of="uk", city="yes")
    land(g, "M1", country="uk", colony_of="uk", resource="yes")
    land(g, "M2", country="uk", colony_of="uk", resource="yes")
    land(g, "Z", country="uk")
    g.add_edges_from([("J0", "J1"), ("J1", "W 1912"), ("W 1912", "X1"), ("X1", "X2"), ("J1", "C1"),
                      ("J0", "J2"), ("J0", "J3"), ("M0", "M1"), ("M0", "M2"), ("M2", "Z")])
    if always_supplied:  # [7.0] hexes always in supply, whatever the line
        g.nodes["M2"]["always_in_supply"] = "yes"
        land(g, "M3", country="uk", colony_of="uk", resource="yes", always_in_supply="yes")
    control = {"W 1912": "japan", "X2": "japan", "C1": "japan", "J2": "allies", "J3": "allies", "Z": "japan"}
    return world(g, [piece("ija", "japan", "Land unit", "Z")], control=control)


def by_item(adjs, nation):
    return {a.item: (a.amount, a.hexes) for a in adjs if a.nation == nation}


@RULEBOOK.says("Japan will gain +15 EPs for the Palembang resource hex, if captured by Japanese land units, if in supply.")
@RULEBOOK.says("Japan will cede -4 EPs per each friendly home city and/or city/resource hex captured by enemy land units.")
def test_8_2_japan_captures_oil_and_loses_home_hexes():
    w = a_map()
    j = by_item(adjustments(w, "japan", ("japan",)), "japan")
    assert j == {"Captured resource hexes": (2, ("C1",)),      # X2 is out of supply: not counted
                 "Oil hexes": (15, ("W 1912",)),
                 "Conquest debit": (-6, ("J2", "J3"))}         # -4 city/resource, -2 resource
    extra = by_item(adjustments(w, "japan", ("japan",), oil="extra"), "japan")
    assert extra["Captured resource hexes"] == (4, ("W 1912", "C1")) and extra["Oil hexes"] == (15, ("W 1912",))
    with pytest.raises(ValueError, match="'both'"):
        adjustments(w, "japan", ("japan",), oil="both")


@RULEBOOK.says("add +2 EPs for each colony's resource hex currently controlled by that nation (if currently in supply, "
               "and not within any enemy land unit's uninhibited Zone of Control)")
def test_8_2_colony_resource_hexes_in_supply_and_free_of_enemy_zoc():
    w = a_map()
    uk = by_item(adjustments(w, "allies", ("us", "uk", "australia", "china", "ussr")), "uk")
    assert uk == {"Colony resource hexes": (2, ("M1",))}  # M2 is in the Japanese unit's ZOC
    # a UK land unit in M2 inhibits that ZOC [5.13]: M2 counts too
    w2 = w.with_changes(add=[piece("ind", "allies", "Land unit", "M2", "uk")])
    uk2 = by_item(adjustments(w2, "allies", ("us", "uk", "australia", "china", "ussr")), "uk")
    assert uk2 == {"Colony resource hexes": (4, ("M1", "M2"))}


def test_8_2_zoc_excludes_a_colony_hex_even_when_it_is_in_supply():
    # M2 always in supply (hex attribute, [7.0]): the tracer supplies it despite the ZOC, [8.2] does not count it;
    # M3, always in supply, cut off from every source and free of enemy ZOC, counts.
    w = a_map(always_supplied=True)
    uk = by_item(adjustments(w, "allies", ("us", "uk", "australia", "china", "ussr")), "uk")
    assert uk == {"Colony resource hexes": (4, ("M1", "M3"))}


def test_income_entries_and_the_calculated_income_they_make():
    w = a_map()
    table_x = [{"nation": "japan", "year": "1942", "income": "77"}]
    es = RULES.income(book(), "japan", ctx(SPRING, tables={"ep_incomes": table_x}, world=w))
    assert [(e.kind, e.item, e.amount) for e in es] == [
        ("income", "Seasonal income", 77), ("income", "Captured resource hexes", 2), ("income", "Oil hexes", 15),
        ("adjust", "Conquest debit", -6)]
    assert all(e.rule.endswith("[8.2]") for e in es)
    b = book(*es)
    assert b.balance("japan", "EP") == 77 + 2 + 15 - 6
    from assistant.rules.apto.economy import season_income
    assert season_income(b, "japan", "EP", SPRING) == 88


test_quotes_in_rulebook = RULEBOOK.check()
