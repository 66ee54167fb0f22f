"""The witp tracer on the real map with the Guadalcanal demo (issue 9): the kinds the demo uses
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


def test_29_0_hq_links_by_sea_to_the_sample_ucs(demo):
    _, traces = demo
    t = traces["allies"]["us-sw-pacific-hq"]
    assert t.status == "linked" and t.path[0] == "E1737" and t.path[-1] == "F3342"
    assert t.length == len(t.path) - 1 > 10
    assert any("player question [29.1]" in s for s in t.steps)  # the radius is the counter's


def test_29_0_units_in_a_linked_hqs_hex_are_linked(demo):
    _, traces = demo
    t = traces["japan"]["kido-butai"]
    assert t.status == "linked" and t.source == {"unit": "combined-fleet-hq", "hex": "B3327"}


def test_what_the_text_lacks_is_a_player_question(demo):
    _, traces = demo
    t = traces["allies"]["1st-marine-division"]
    assert t.status == "isolated"
    assert any(r.rule == "[29.7]" and "player question" in r.text for r in t.reasons)
    assert any(r.rule == "[29.1]" for r in t.reasons)


def test_bases_carry_y_x_tsd_category_in_json(demo):
    _, traces = demo
    j = traces["allies"]["pearl-harbor-supply-base"].to_json()
    assert (j["y"], j["x"], j["tsd"], j["category"]) == (0, 0, 0, None)
