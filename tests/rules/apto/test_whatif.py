"""The apto rules behind the engine: a hypothetical unit at a hex, a what-if enemy that cuts a line
with its ZOC, one trace per piece in the order given."""

from __future__ import annotations

from aptokit import piece, strip, world
from assistant.aids.supply.engine import WhatIf, trace_hex, trace_side, trace_units


def six():
    g = strip(6, country="japan")
    g.nodes["H000"].update(home_of="japan", city="yes")
    return g


def test_a_hypothetical_unit_at_a_hex():
    t = trace_hex(world(six()), "H005", "japan")
    assert t.supplied and t.hypothetical and t.unit is None and t.path[0] == "H005" and t.path[-1] == "H000"


def test_a_what_if_enemy_cuts_the_line_with_its_zoc_and_the_world_is_untouched():
    w = world(six(), [piece("inf", "japan", "Land unit", "H005")])
    assert trace_units(w, ["inf"])[0].supplied
    t = trace_units(w, ["inf"], WhatIf(with_enemy=(("H002", "allies"),)))[0]
    assert not t.supplied
    assert "H002 holds enemy land units (what-if-enemy-1) (apto [7.7] Line of Supply)" in [r.text for r in t.reasons]
    assert "what-if: an enemy unit of allies at H002" in t.steps
    assert trace_units(w, ["inf"])[0].supplied and len(w.pieces) == 1


def test_without_the_enemy_unit_on_the_line():
    """The enemy unit at H003 stands on the only line; --without takes it away for one trace."""
    w = world(six(), [piece("inf", "japan", "Land unit", "H005"), piece("us1", "allies", "Land unit", "H003", "us")])
    assert not trace_units(w, ["inf"])[0].supplied
    assert trace_units(w, ["inf"], WhatIf(without=("us1",)))[0].supplied


def test_side_report_one_trace_per_piece_in_order():
    ps = [piece("c", "japan", "Sea Supply chit", "H004"), piece("a", "japan", "Land unit", "H005"),
          piece("src", "japan", "Home supply source", "H000"), piece("dd", "japan", "Naval unit", "H001"),
          piece("air", "japan", "Air unit", "H002"), piece("hq", "japan", "HQ", "H003")]
    r = trace_side(world(six(), ps), "japan")
    assert [t.unit for t in r.items] == ["c", "a", "src", "dd", "air", "hq"]
    assert [t.status for t in r.items] == ["source", "supplied", "source", "out of supply", "supplied", "supplied"]
    assert r.items[3].reasons[0].rule == "[7.10]"
