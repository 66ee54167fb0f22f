"""Supply on island chains [10.42], on the real apto map (E section, the Solomons), with the hex
attributes the example needs set through the world's map corrections."""

from __future__ import annotations

import pytest

from aptokit import SIDES, defaults, piece
from assistant.maps.gamemap import load_map
from assistant.maps.graph import MapCorrections
from assistant.rules.control import Control
from assistant.rules.supply import SupplyWorld, rules_for
from rulebooks import Quotes

RULEBOOK = Quotes("apto")

EXAMPLE = ("EXAMPLE: An unsupplied Japanese 2-1 land unit presently occupies hex E 4725 on Guadalcanal, adjacent "
           "to a US 4-2 land unit in hex E 4624, and a US STP in hex E 4625.")


def solomons(extra=None):
    """The example's hexes: E 4725 (Guadalcanal) and E 4527 are island hexes, E 4624, E 4625 and
    E 4526 coastal (light blue) hexes [10.42]. E 4626 - coastal on the derived map (5% land), which
    would give a second route of the same length - is made dark-blue sea, as the example's route
    implies the printed map has it."""
    hexes = {"E 4725": {"island": "yes", "surface": "coastal"}, "E 4527": {"island": "yes", "surface": "coastal"},
             "E 4624": {"surface": "coastal"}, "E 4625": {"surface": "coastal"}, "E 4526": {"surface": "coastal"},
             "E 4626": {"surface": "sea"}}
    for h, a in (extra or {}).items():
        hexes.setdefault(h, {}).update(a)
    # The example is set after the Japanese landings on Guadalcanal: the Solomons' owner at the
    # start (UK: "Map Clarifications", Colonies) is not who holds them then. The example's hexes
    # are read as nobody's territory, as the example reads them (only the pieces decide).
    for a in hexes.values():
        a.update({"region": None, "country": None, "colony_of": None})
    # The board holds a Japanese home city (Tokyo, W 4533 "The Maps"), as a played board does, so the
    # tracer answers rather than asks for Japan's home sources [7.0]; it is far overseas from here.
    hexes["W 4533"] = {"city": "yes"}
    return load_map("apto").graph(MapCorrections(hexes=hexes))


def example_pieces(**swap):
    ps = {"jap": piece("jap", "japan", "Land unit", "E 4725", strength=2),
          "marine": piece("marine", "allies", "Land unit", "E 4624", "us", strength=4),
          "stp": piece("stp", "allies", "STP", "E 4625", "us"),
          "cw": piece("cw", "allies", "Coastwatcher", "E 4526", "australia"),
          "chit": piece("chit", "japan", "Sea Supply chit", "E 4527")}
    ps.update(swap)
    return [p for p in ps.values() if p is not None]


def world(g, pieces, settings=None):
    s = defaults()
    s.update(settings or {})
    nation_side = {n: side for side, ns in SIDES.items() for n in ns}
    return SupplyWorld(game="apto", graph=g, pieces=tuple(pieces),
                       control=Control.build(g, nation_side, pieces=pieces), settings=s, sides=SIDES)


def jap(w):
    return rules_for("apto").trace(w, "japan", [w.piece("jap")])[0]


def test_the_example_hexes_touch_on_the_real_map():
    g = solomons()
    for a, b in [("E 4725", "E 4624"), ("E 4725", "E 4625"), ("E 4625", "E 4526"), ("E 4526", "E 4527"),
                 ("E 4624", "E 4625")]:
        assert g.has_edge(a, b), (a, b)
    assert not g.has_edge("E 4725", "E 4526")


@RULEBOOK.says(EXAMPLE)
@RULEBOOK.says("The Japanese player cannot trace a line of supply into or through coastal hex E 4624 because of the "
               "US 4-2 Marine there, but he can trace a line of supply into and then through hex E 4625 (because the "
               "US STP there is not printed with any combat strength)")
def test_10_42_guadalcanal_example():
    t = jap(world(solomons(), example_pieces()))
    assert (t.supplied, t.status) == (True, "supplied (chit)")
    assert t.path == ["E 4725", "E 4625", "E 4526", "E 4527"] and t.length == 3
    assert t.source == {"unit": "chit", "hex": "E 4527", "name": "Sea Supply chit"}
    assert "island chain" in t.steps[-1]
    assert "E 4624" not in t.path


@RULEBOOK.says("never into or through any hex that is presently occupied by any supplied enemy air (non-aloft), land "
               "and/or naval unit with a printed combat strength number (even if only fractional) and/or a torpedo "
               "rating (but excluding General and/or Admiral chits)")
def test_10_42_only_printed_strength_or_torpedo_interrupts():
    """The same chain with the STP replaced by a warship with a torpedo rating, or the Coastwatcher
    by a 1/2 land unit (fractional still counts): the route E 4625 -> E 4526 is interrupted."""
    for swap in ({"stp": piece("stp", "allies", "Naval unit", "E 4625", "us", torpedo=1)},
                 {"cw": piece("cw", "allies", "Land unit", "E 4526", "australia", strength="1/2")},
                 {"stp": piece("stp", "allies", "Air unit", "E 4625", "us", strength=2)}):
        t = jap(world(solomons(), example_pieces(**swap)))
        assert not ({"E 4625", "E 4526"} <= set(t.path)), (swap, t.path)
    # not interrupting: an aloft air unit, an unsupplied unit, a General, an Admiral
    for swap in ({"stp": piece("stp", "allies", "Air unit", "E 4625", "us", strength=2, aloft="yes")},
                 {"cw": piece("cw", "allies", "Land unit", "E 4526", "australia", strength=1, out_of_supply="yes")},
                 {"cw": piece("cw", "allies", "General", "E 4526", "australia")},
                 {"stp": piece("stp", "allies", "Admiral", "E 4625", "us")}):
        t = jap(world(solomons(), example_pieces(**swap)))
        assert t.path == ["E 4725", "E 4625", "E 4526", "E 4527"], swap


@RULEBOOK.says("A line of supply may not ever be traced into or through any sea (dark blue) hex or sea depiction.")
def test_10_42_no_chain_through_a_dark_blue_sea_hex():
    t = jap(world(solomons({"E 4526": {"surface": "sea"}}), example_pieces(cw=None)))
    assert "E 4526" not in t.path


def test_10_42_only_from_an_island_hex():
    """Guadalcanal not marked as an island (a large land mass): no chain, and no land line either."""
    t = jap(world(solomons({"E 4725": {"island": "no"}}), example_pieces()))
    assert not t.supplied and t.status == "out of supply"


@pytest.mark.parametrize("reading", ["ignore", "blocks"])
def test_island_chain_and_enemy_zoc_both_readings(reading):
    """E 4625 is in the US 4-2's ZOC (E 4624 touches it). ignore: the example's route; blocks: not
    through E 4625."""
    t = jap(world(solomons(), example_pieces(), {"supply_island_chain_zoc": reading}))
    if reading == "ignore":
        assert t.path == ["E 4725", "E 4625", "E 4526", "E 4527"]
    else:
        assert "E 4625" not in t.path


def test_10_42_e_4624_is_blocked_by_the_us_4_2():
    """With E 4625 interrupted too (a US destroyer with a torpedo rating in place of the STP), the
    next route, E 4725 -> E 4624 -> E 4525 -> E 4526 -> E 4527 (all coastal on the map), is the one
    the example forbids "because of the US 4-2 Marine there": with the Marine the chain must find
    another way round; without it, that is the route."""
    dd = piece("stp", "allies", "Naval unit", "E 4625", "us", torpedo=2)
    t = jap(world(solomons(), example_pieces(stp=dd)))
    assert "E 4624" not in t.path and "E 4625" not in t.path
    t = jap(world(solomons(), example_pieces(stp=dd, marine=None)))
    assert t.path == ["E 4725", "E 4624", "E 4525", "E 4526", "E 4527"]


test_quotes_in_rulebook = RULEBOOK.check()
