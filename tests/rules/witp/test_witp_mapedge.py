"""Placement checked against the board: [28.10.1] "Any Allied mapedge area appearing on map sections
A, C, E, F, or G is an Allied Ultimate Command Source", and TFs leave the map "from any hex of a
Mapedge Area" [46.1]. An Allied UCS piece (a Mapedge Holding Area) placed or moved off the map's
edge of those sections is refused in one line citing the rule, and the command rules do not use
one that stands there (a Reason instead); the Tokyo Express "end" marker goes "in any coastal hex"
[31.1.1]. All on the shipped witp map."""

from __future__ import annotations

from dataclasses import replace

import pytest

from assistant.campaign import Campaign
from assistant.campaign.errors import CampaignError
from assistant.campaign.orders import OrdersError, give_orders
from assistant.campaign.world import world_of
from assistant.rules.supply import Piece, rules_for
from assistant.rules.witp import placement
from rulebooks import Quotes

WITP = Quotes("witp")
EDGE_F = "F4042"     # map F's east edge, on Pearl Harbor's hexrow: four neighbours on the map
MID_OCEAN = "E3901"  # where E, F and G overlap: six neighbours, mid-ocean
EDGE_B = "B0101"     # the map's corner, on map B only (not one of A, C, E, F, G)


@pytest.fixture
def camp(tmp_path):
    with Campaign.create(tmp_path / "w.campaign", "witp") as c:
        yield c


def place_ucs(c, hex_, id="ucs"):
    return c.place_unit("allies", "Mapedge Holding Area", hex_, nation="us", category="installation", id=id,
                        attrs={"area": "USA West Coast 1"})


@WITP.says("Allied. Any Allied mapedge area appearing on map sections A, C, E, F, or G is an Allied Ultimate "
           "Command Source.",
           "Allied TF's (ships) may exit the map from any of the 10 Mapedge Areas (e.g., \"African Coast 5\") that "
           "appear on Map sections A, C, E, F & G.")
def test_a_mapedge_area_mid_ocean_is_refused_in_one_line_citing_28_10_1(camp):
    for hex_ in (MID_OCEAN, "F3342", EDGE_B):
        with pytest.raises(CampaignError) as e:
            place_ucs(camp, hex_)
        msg = str(e.value)
        assert "\n" not in msg and "[28.10.1]" in msg and f"at {hex_} is not on the map's edge" in msg, msg
    assert not camp.state.units  # nothing recorded


def test_a_mapedge_area_at_the_edge_of_map_f_is_placed_and_moved_along_it_only(camp):
    place_ucs(camp, EDGE_F)
    assert camp.state.units["ucs"].hex == EDGE_F
    camp.move_unit("ucs", "F4043")  # along the same edge
    with pytest.raises(CampaignError, match=r"\[28\.10\.1\]"):
        camp.move_unit("ucs", MID_OCEAN)
    assert camp.state.units["ucs"].hex == "F4043"


def test_an_orders_line_is_refused_by_number(camp):
    with pytest.raises(OrdersError) as e:
        give_orders(camp, f"place 'Mapedge Holding Area' at {MID_OCEAN} side allies nation us installation")
    ((line, why),) = e.value.failures
    assert line == 1 and "[28.10.1]" in why


def test_a_japanese_ucs_is_not_held_to_the_map_edge(camp):
    """[28.10.1] the Japanese UCS is a Homeland Resource hex: Kure B3327, inland of any edge."""
    camp.place_unit("japan", "Ultimate Command Source", "B3327", category="installation", id="kure")
    assert camp.state.units["kure"].hex == "B3327"


def test_the_edge_is_a_neighbour_off_the_map_on_sections_a_c_e_f_g():
    assert placement.on_allied_mapedge(["F4042"], 4)
    assert placement.on_allied_mapedge(["D3904", "F0103"], 5)     # Attu: map D on top, map F under it
    assert not placement.on_allied_mapedge(["E3901", "F0152", "G0101"], 6)
    assert not placement.on_allied_mapedge(["B0101"], 2) and not placement.on_allied_mapedge(["D2001"], 4)


def hq_world(camp, ucs_hex):
    """The campaign's World with an HQ at Pearl Harbor F3342 (a major port) and an Allied UCS piece
    at ``ucs_hex``, as a campaign written before this check (or an import) may hold it."""
    camp.place_unit("allies", "HQ", "F3342", nation="us", id="poa", attrs={"hq_type": "combined", "sea_radius": 20})
    camp.set_hex("F3342", port="major")
    w = world_of(camp.state, camp.graph())
    ucs = Piece(id="ucs", side="allies", kind="Mapedge Holding Area", role="ucs", hex=ucs_hex, nation="us",
                category="installation", attrs={"area": "USA West Coast 1"})
    return replace(w, pieces=w.pieces + (ucs,), control=w.control.with_pieces(w.pieces + (ucs,)))


def trace(w, unit):
    return rules_for("witp").trace(w, "allies", [w.piece(unit)])[0]


def test_the_command_rules_use_no_mapedge_area_off_the_edge_and_say_why(camp):
    """[28.10.1]: the HQ at Pearl Harbor whose only Allied UCS stands mid-ocean is not linked, and
    the reason cites the rule; the piece's own trace says it is no UCS; at the map's edge it links."""
    w = hq_world(camp, MID_OCEAN)
    t = trace(w, "poa")
    assert not t.supplied
    why = [r for r in t.reasons if r.rule == "[28.10.1]"]
    assert any("no friendly Ultimate Command Source" in r.text for r in why)
    assert any(f"ucs (Mapedge Holding Area) at {MID_OCEAN} is not on the map's edge" in r.text for r in why), t.reasons
    u = trace(w, "ucs")
    assert not u.supplied and any("is not on the map's edge" in r.text for r in u.reasons)


def test_at_the_map_edge_the_same_hq_is_linked_by_sea(tmp_path):
    with Campaign.create(tmp_path / "e.campaign", "witp") as c:
        t = trace(hq_world(c, EDGE_F), "poa")
        assert t.supplied and t.path[0] == "F3342" and t.path[-1] == EDGE_F, (t.reasons, t.path)


def test_a_mapedge_area_hex_attribute_off_the_edge_is_no_ucs(camp):
    """The hex attribute mapedge_area reads the same: mid-ocean it is no UCS, at the edge it is."""
    camp.place_unit("allies", "HQ", "F3342", nation="us", id="poa", attrs={"hq_type": "combined", "sea_radius": 20})
    camp.set_hex("F3342", port="major")
    camp.set_hex(MID_OCEAN, mapedge_area="USA West Coast 1")
    t = trace(world_of(camp.state, camp.graph()), "poa")
    assert not t.supplied and any(f"mapedge area USA West Coast 1 at {MID_OCEAN}" in r.text for r in t.reasons)
    camp.set_hex(EDGE_F, mapedge_area="USA West Coast 1")
    t = trace(world_of(camp.state, camp.graph()), "poa")
    assert t.supplied and t.path[-1] == EDGE_F


@WITP.says("places the \"end\" marker in any coastal hex within 13 (strategic map) sea hexes of the \"start\" marker")
def test_31_1_1_the_tokyo_express_end_goes_in_a_coastal_hex(camp):
    sea = next(h for h, (surface, _) in camp.map.surfaces.items() if surface == "sea")
    with pytest.raises(CampaignError, match=r"not a coastal hex.*\[31\.1\.1\]"):
        camp.place_unit("japan", "Tokyo Express end", sea, category="installation", attrs={"set": "A"})
    camp.place_unit("japan", "Tokyo Express end", "E2418", category="installation", attrs={"set": "A"}, id="te")
    assert camp.state.units["te"].hex == "E2418"  # Guadalcanal: coastal


test_quotes_in_rulebook_witp = WITP.check()
