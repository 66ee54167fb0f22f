"""How the witp tracer searches: links come from clear searches (blocked hexes
masked out, stopped at the range); the penalised search that explains a cut link runs only when a
piece is not linked, once per layer for every such piece -- and both give the rulebook's answers
([29.1]/[29.6] sea radius, [29.8.1] air blocking), counted by hand on a row of hexes."""

import pytest

from assistant.rules.supply import rules_for
from assistant.rules.witp import command
from witpkit import h, piece, row, rules, setattrs, trace, trace_all, world

UCS = piece("ucs", "allies", "Mapedge Holding Area", h(0, 0), area="USA West Coast 1")


def radius_world(*extra):
    """30 sea hexes; the UCS at H0000, an HQ (Sea Command Radius 5) in the port H2900; ground
    units u1..u11 in the coastal hexes 1..11 hexes from it."""
    g = row(30)
    setattrs(g, [h(0, 0), h(29, 0)], surface="coastal")
    setattrs(g, [h(29, 0)], port="major")
    setattrs(g, [h(29 - k, 0) for k in range(1, 12)], surface="coastal")
    units = [piece(f"u{k}", "allies", "ground unit", h(29 - k, 0)) for k in range(1, 12)]
    hq = piece("hq", "allies", "HQ", h(29, 0), hq_type="combined", sea_radius=5)
    return world(g, [UCS, hq, *units, *extra])


@pytest.fixture
def penalised(monkeypatch):
    calls = []
    real = command.Links._penalised
    monkeypatch.setattr(command.Links, "_penalised",
                        lambda self, sources, land: calls.append("land" if land else "sea") or real(self, sources, land))
    return calls


def test_29_1_linked_units_need_no_penalised_search(penalised):
    t = trace(radius_world(), "u5")  # "a radius of 5 hexes" [29.1]: 5 sea hexes from the HQ
    assert t.status == "linked" and t.length == 5 and t.limit == 5
    assert penalised == []


def test_29_6_isolated_units_share_one_penalised_search_per_layer(penalised):
    ts = trace_all(radius_world(), "allies")
    assert [ts[f"u{k}"].status for k in range(1, 12)] == ["linked"] * 5 + ["isolated"] * 6
    assert penalised == []  # the status alone needs no diagnosis: it runs when a reason is read
    for k in range(6, 12):
        why = [r.text for r in ts[f"u{k}"].reasons if r.rule == "[29.6]"]
        assert why == [f"out of range: {h(29 - k, 0)} is {k} sea hexes from {h(29, 0)}, limit 5"], why
    assert penalised.count("sea") == 1  # one for the six isolated units, not one each


def test_29_8_1_a_blocked_hex_is_masked_for_the_link_and_named_by_the_diagnosis(penalised):
    # the HQ at H0100 next to the UCS; ground units at H0200..H0700 (1..6 hexes from the HQ);
    # an enemy combat AP at H0900 blocks every hex within 4 of it, H0500..H1300 [29.8.1]
    g = row(14)
    setattrs(g, [h(k, 0) for k in range(0, 8)], surface="coastal")
    setattrs(g, [h(1, 0)], port="major")
    units = [piece(f"u{k}", "allies", "ground unit", h(1 + k, 0)) for k in range(1, 7)]
    w = world(g, [UCS, piece("hq", "allies", "HQ", h(1, 0), hq_type="combined", sea_radius=5), *units,
                  piece("ap", "japan", "Air Points", h(9, 0), ap_type="B", normal_range=40)])
    ts = trace_all(w, "allies")
    assert [ts[f"u{k}"].status for k in range(1, 7)] == ["linked"] * 3 + ["isolated"] * 3
    for k in (4, 5):  # within the radius, but in the block
        assert "[29.8.1]" in rules(ts[f"u{k}"]) and h(1 + k, 0) in ts[f"u{k}"].reasons[0].text
        assert "[29.6]" not in rules(ts[f"u{k}"])
    assert {"[29.6]", "[29.8.1]"} <= set(rules(ts["u6"]))  # 6 hexes: out of range and blocked
    assert penalised.count("sea") == 1


def test_the_same_answers_with_and_without_a_penalised_search_first():
    """Linking does not depend on whether a diagnosis ran before (both searches are lazy)."""
    w = radius_world()
    first = [t.status for t in rules_for("witp").trace(w, "allies", [w.piece("u9"), w.piece("u3")])]
    again = [t.status for t in rules_for("witp").trace(w, "allies", [w.piece("u3"), w.piece("u9")])]
    assert first == ["isolated", "linked"] and again == ["linked", "isolated"]


def test_the_working_is_worked_out_when_read_and_is_the_same_in_any_order():
    """Status, source, length and limit come with the trace; path, reasons, steps and figures when
    first read (``DeferredTrace``) -- from the same searches, so the order of reading changes nothing."""
    w = radius_world()
    first, second = trace_all(w, "allies"), trace_all(w, "allies")
    assert not any(t.complete for t in first.values())
    assert first["u3"].supplied and first["u3"].length == 3 and first["u3"].source == {"unit": "hq", "hex": h(29, 0)}
    assert not first["u3"].complete
    assert first["u3"].path == [h(26, 0), h(27, 0), h(28, 0), h(29, 0)] and first["u3"].complete
    ahead = {k: first[k].to_json() for k in sorted(first)}
    behind = {k: second[k].to_json() for k in sorted(second, reverse=True)}
    assert ahead == behind
