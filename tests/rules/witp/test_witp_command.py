"""witp HQ status on small hand-built maps, in the rulebook's words: an HQ left with enemy ground
units and no friendly ground unit is Involuntarily Disbanded [29.0]; a unit an HQ may not link is
refused under the rule of that HQ (Australian M.D. [29.2.10], Dutch [29.2.11], US [29.2.8])."""

from __future__ import annotations

from rulebooks import Quotes
from witpkit import h, piece, row, setattrs, trace, trace_all, world

RULEBOOK = Quotes("witp")

DISBANDED = ("If a HQ occupies a hex in which enemy ground units are located, but no friendly ground units are "
             "present (either as a result of combat or any other circumstance), the HQ is Involuntarily Disbanded "
             "and removed to the Availability Box.")
MD_HQ = "Australian Military District HQ's may activate/control/link only Australian units."
KNIL = "The KNIL Army HQ may activate/control/link only Dutch ground units."

UCS_A = piece("ucs", "allies", "Mapedge Holding Area", h(0, 0), area="USA West Coast 1")


def sea_row(n, port_at):
    g = row(n)
    setattrs(g, [h(0, 0), h(port_at, 0)], surface="coastal")
    setattrs(g, [h(port_at, 0)], port="major")
    return g


def hq_world(*others):
    g = sea_row(10, 9)
    setattrs(g, [h(8, 0)], surface="coastal")
    return world(g, [UCS_A, piece("hq", "allies", "HQ", h(9, 0), hq_type="combined", sea_radius=4),
                     piece("u", "allies", "infantry division", h(8, 0)), *others])


@RULEBOOK.says(DISBANDED)
def test_29_0_an_hq_with_enemy_ground_units_and_no_friendly_one_is_involuntarily_disbanded():
    ts = trace_all(hq_world(piece("jp", "japan", "infantry division", h(9, 0))), "allies")
    t = ts["hq"]
    assert t.status == "isolated" and not t.supplied
    (r,) = [r for r in t.reasons if "Involuntarily Disbanded" in r.text]
    assert r.rule == "[29.0]" and "jp" in r.text and h(9, 0) in r.text and "\n" not in r.text
    assert not ts["u"].supplied  # its only HQ is gone
    # a friendly ground unit in the hex keeps it
    w = hq_world(piece("jp", "japan", "infantry division", h(9, 0)),
                 piece("mar", "allies", "infantry division", h(9, 0)))
    t = trace(w, "hq")
    assert t.status == "linked" and not any("Disbanded" in r.text for r in t.reasons)
    # enemy ships or aircraft in the hex are no ground units
    t2 = trace(hq_world(piece("cv", "japan", "ship", h(9, 0))), "hq")
    assert not any("Disbanded" in r.text for r in t2.reasons)


@RULEBOOK.says(MD_HQ)
def test_29_2_10_a_us_unit_refused_by_an_australian_md_hq_cites_29_2_10():
    g = sea_row(10, 9)
    setattrs(g, [h(7, 0)], surface="coastal")
    w = world(g, [UCS_A, piece("md", "allies", "HQ", h(9, 0), nation="australia", hq_type="army",
                               sea_radius=4, nations="australia"),
                  piece("aus", "allies", "infantry division", h(7, 0), nation="australia"),
                  piece("us", "allies", "infantry division", h(7, 0), nation="us")])
    ts = trace_all(w, "allies")
    assert ts["aus"].supplied and not ts["us"].supplied
    (r,) = [r for r in ts["us"].reasons if "md" in r.text]
    assert r.rule == "[29.2.10]" and "australia" in r.text


@RULEBOOK.says(KNIL)
def test_29_2_11_a_cw_unit_refused_by_the_knil_hq_cites_29_2_11_and_a_us_hq_29_2_8():
    g = sea_row(10, 9)
    setattrs(g, [h(7, 0)], surface="coastal")
    w = world(g, [UCS_A, piece("knil", "allies", "HQ", h(9, 0), nation="dutch", hq_type="army",
                               sea_radius=4, nations="dutch"),
                  piece("br", "allies", "infantry division", h(7, 0), nation="britain")])
    (r,) = [r for r in trace(w, "br").reasons if "knil" in r.text]
    assert r.rule == "[29.2.11]"
    w = world(g, [UCS_A, piece("usa", "allies", "HQ", h(9, 0), nation="us", hq_type="army",
                               sea_radius=4, nations="us, australia"),
                  piece("br", "allies", "infantry division", h(7, 0), nation="britain")])
    (r,) = [r for r in trace(w, "br").reasons if "usa" in r.text]
    assert r.rule == "[29.2.8]"


test_quotes_in_rulebook = RULEBOOK.check()
