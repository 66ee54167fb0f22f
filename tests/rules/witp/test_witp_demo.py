"""The witp tracer on the real map with the Guadalcanal demo: the kinds the demo uses
have their roles, the sample sources link the HQs, and what the text lacks is asked, not invented."""

import pytest

from assistant.aids.supply.engine import trace_side, world_of
from assistant.campaign import Campaign
from assistant.rules.kinds import find_kind


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    with Campaign.create(tmp_path_factory.mktemp("w") / "g.campaign", game="witp",
                         scenario="guadalcanal-1942") as c:
        w = world_of(c.state, c.graph())
        yield w, {s: {t.unit: t for t in trace_side(w, s).items} for s in ("allies", "japan")}


@pytest.mark.parametrize("kind, role", [("marine division", "combat"), ("construction units", "combat"),
                                        ("HQ", "hq"), ("infantry division", "combat"),
                                        ("marine defense battalion", "combat"), ("carrier task force", "naval"),
                                        ("base force", "combat"), ("Supply Base", "supply_base"),
                                        ("Ultimate Command Source", "ucs"), ("Mapedge Holding Area", "ucs"),
                                        ("OSB", "osb"), ("Air Points", "air"), ("MSU", "merchant_ships"),
                                        ("Tokyo Express end", "emergency_link")])
def test_kinds_have_their_roles(kind, role):
    assert find_kind("witp", kind).role == role


def test_every_demo_unit_is_traced_linked_or_isolated(demo):
    w, traces = demo
    for side, ts in traces.items():
        assert set(ts) == {p.id for p in w.of_side(side)}
        for t in ts.values():
            assert t.status in ("linked", "isolated") and t.supplied == (t.status == "linked")
            for a, b in zip(t.path, t.path[1:]):
                assert w.graph.has_edge(a, b), (t.unit, a, b)
    # the one right status of each: 7th-defense-battalion is 39 sea hexes from us-poa-hq (radius 30)
    # [29.6]; Japan's only HQ (Combined Fleet, Kure) has no Sea Command Radius entered [29.1], so only
    # the pieces in its own hex are linked [29.0]
    isolated = {s: {u for u, t in ts.items() if t.status == "isolated"} for s, ts in traces.items()}
    assert isolated == {"allies": {"7th-defense-battalion"},
                        "japan": {"ijn-construction-units", "6th-base-force", "kwajalein-g4m"}}


def test_29_0_hq_links_by_sea_to_the_sample_ucs(demo):
    _, traces = demo
    t = traces["allies"]["us-sw-pacific-hq"]
    # the sample Allied mapedge area stands at map F's east edge, F4042 [28.10.1]
    assert t.status == "linked" and t.path[0] == "E1737" and t.path[-1] == "F4042"
    assert t.length == len(t.path) - 1 > 10


def test_29_6_the_marines_are_linked_by_the_sample_sea_radius(demo):
    """The demo HQs carry sample Sea Command Radii (30, labelled samples in the scenario): the 1st
    Marine Division on Guadalcanal is within the SW Pacific HQ's radius [29.6]; the 7th Defense
    Battalion on Samoa is beyond both HQs' radii."""
    _, traces = demo
    t = traces["allies"]["1st-marine-division"]
    assert t.status == "linked" and t.source["hex"] == "E1737" and t.length <= t.limit == 30
    far = traces["allies"]["7th-defense-battalion"]
    assert far.status == "isolated" and any(r.rule == "[29.6]" and "out of range" in r.text for r in far.reasons)


def test_29_0_units_in_a_linked_hqs_hex_are_linked(demo):
    _, traces = demo
    t = traces["japan"]["kido-butai"]
    assert t.status == "linked" and t.source == {"unit": "combined-fleet-hq", "hex": "B3327"}


def test_what_the_text_lacks_is_a_player_question(tmp_path):
    """Without the counters' radii (the demo's are samples) the tracer asks, never invents."""
    with Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942") as c:
        for hq in ("us-sw-pacific-hq", "us-poa-hq"):
            c.update_unit(hq, sea_radius=None)
        w = world_of(c.state, c.graph())
        t = {t.unit: t for t in trace_side(w, "allies").items}["1st-marine-division"]
        hq = {t.unit: t for t in trace_side(w, "allies").items}["us-sw-pacific-hq"]
    assert any("player question [29.1]" in s for s in hq.steps)  # the radius is the counter's
    assert t.status == "isolated"
    # Guadalcanal is an island: land crosses no hexside to the HQs' hexes (maps/landlinks.py), so
    # the overland answer is definite -- no ground MP is asked for a walk across the sea
    assert any(r.rule == "[29.7]" and "no overland path at all" in r.text for r in t.reasons)
    assert any(r.rule == "[29.1]" for r in t.reasons)


def test_bases_carry_y_x_tsd_category_in_json(demo):
    _, traces = demo
    j = traces["allies"]["pearl-harbor-supply-base"].to_json()
    # y: Pearl Harbor F3342 to the mapedge area at F4042, 7 hexes [32.1.1]; x: its own supply base
    assert (j["y"], j["x"], j["tsd"], j["category"]) == (7, 0, 0, None)
