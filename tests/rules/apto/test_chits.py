"""Supply chits [7.7], [7.11]: a Sea Supply chit supplies 4 units a month, an Air Supply chit 1;
attackers consume, defenders do not, fractional-strength units never do; assigned by max-flow."""

from __future__ import annotations

import pytest

from aptokit import piece, strip, trace, world
from rulebooks import Quotes

RULEBOOK = Quotes("apto")


def chit_line(n=4):
    """n land hexes of Japan, no home source: only chits supply."""
    return strip(n, country="japan")


def attackers(k, hex_="H002", **attrs):
    return [piece(f"a{i}", "japan", "Land unit", hex_, strength=3, posture="attacking", **attrs) for i in range(1, k + 1)]


@RULEBOOK.says("For example, if there is only one available Sea Supply chit (which can supply four units) in a "
               "particular locale, then only four land units may conduct an attack without incurring out-of-supply "
               "penalties. If more than four land units participate in that attack, the attack must then suffer "
               "out-of-supply penalties.")
def test_7_7_one_sea_supply_chit_supplies_four_attackers_the_fifth_is_out_of_supply():
    w = world(chit_line(), [piece("c", "japan", "Sea Supply chit", "H000")] + attackers(5))
    t = trace(w, "japan")
    assert [t[f"a{i}"].status for i in range(1, 6)] == ["supplied (chit)"] * 4 + ["out of supply"]
    assert t["a1"].path == ["H002", "H001", "H000"] and t["a1"].source["unit"] == "c"
    assert t["a5"].reasons[0].rule == "[7.11]" and "at capacity" in t["a5"].reasons[0].text
    assert t["c"].status == "source" and t["c"].extra["used"] == 4 and t["c"].extra["capacity"] == 4


@RULEBOOK.says("When defending against an enemy attack, any and all units that can trace a line of supply to any "
               "supply chit (even if only one chit) are considered to be automatically in supply")
def test_7_7_defenders_do_not_consume():
    ps = [piece("c", "japan", "Sea Supply chit", "H000")] + attackers(4)
    ps += [piece(f"d{i}", "japan", "Land unit", "H003", strength=2, posture="defending") for i in range(1, 4)]
    t = trace(world(chit_line(), ps), "japan")
    assert all(t[u].supplied for u in ("a1", "a2", "a3", "a4", "d1", "d2", "d3"))
    assert t["c"].extra["used"] == 4 and t["d1"].extra["consumes"] is False


@RULEBOOK.says("Any combat unit with a fractional (or no) combat strength rating (e.g., 1/2) never consumes supply")
def test_7_7_fractional_strength_never_consumes():
    ps = [piece("c", "japan", "Air Supply chit", "H000"),
          piece("half", "japan", "Land unit", "H001", strength="1/2", posture="attacking"),
          piece("hq", "japan", "HQ", "H001"),
          piece("full", "japan", "Land unit", "H001", strength=1, posture="attacking")]
    t = trace(world(chit_line(), ps), "japan")
    assert t["half"].supplied and t["hq"].supplied and t["full"].supplied
    assert t["c"].extra["used"] == 1
    # with the chit's one unit already spent this month, the fractional unit finds no capacity [7.11]
    ps[0] = piece("c", "japan", "Air Supply chit", "H000", used=1)
    t = trace(world(chit_line(), ps), "japan")
    assert not t["half"].supplied and not t["full"].supplied


@RULEBOOK.says("A unit may only trace a line of supply to a supply chit if that supply chit's entire supply capacity is "
               "not maintaining other units at that moment.")
def test_7_11_used_capacity_this_month_counts():
    w = world(chit_line(), [piece("c", "japan", "Sea Supply chit", "H000", used=3)] + attackers(2))
    t = trace(w, "japan")
    assert t["a1"].supplied and not t["a2"].supplied


def test_max_flow_capacity_reachable_counts_not_the_total():
    """Counted by hand: A (Air, 1) at H003 and S (Sea, 4) at H004 with the hexside H003|H004
    impassable. e1 (H003), w1 (H001), w2 (H000) reach A only: 1 of the 3 is supplied although 5
    units of capacity lie on the map; the first in order (e1) is the one."""
    g = strip(6, country="japan")
    g.edges["H003", "H004"]["impassable"] = True
    ps = [piece("A", "japan", "Air Supply chit", "H003"), piece("S", "japan", "Sea Supply chit", "H004"),
          piece("e1", "japan", "Land unit", "H003", strength=2),
          piece("w1", "japan", "Land unit", "H001", strength=2),
          piece("w2", "japan", "Land unit", "H000", strength=2)]
    t = trace(world(g, ps), "japan")
    assert [t[u].supplied for u in ("e1", "w1", "w2")] == [True, False, False]
    assert t["S"].extra["used"] == 0 and t["A"].extra["used"] == 1


def test_max_flow_reassigns_an_earlier_unit():
    """A (Air, 1) at H000 and S (Sea, 4, 3 already used) at H004 on a 5-hex strip, H000|H001
    impassable: u1, u2 in H000 reach A only, u3 reaches S: 2 of 3 (u1 first in order)."""
    g = strip(5, country="japan")
    g.edges["H000", "H001"]["impassable"] = True  # u2 (H000) is cut from everything but A's hex
    ps = [piece("A", "japan", "Air Supply chit", "H000"), piece("S", "japan", "Sea Supply chit", "H004", used=3),
          piece("u1", "japan", "Land unit", "H000", strength=2),
          piece("u2", "japan", "Land unit", "H000", strength=2),
          piece("u3", "japan", "Land unit", "H002", strength=2)]
    # u1, u2 at H000 reach A only (H000|H001 impassable); u3 reaches S (1 left). So 2 of 3.
    t = trace(world(g, ps), "japan")
    assert [t[u].supplied for u in ("u1", "u2", "u3")] == [True, False, True]
    # The greedy trap: A now sits in the jungle hex H001 (a line may end there, not pass through
    # [7.7]). u1 in H001 reaches A and S; u2 in H000 reaches A only (its way to S would pass
    # through H001). u1 comes first: taking A would leave u2 out; max-flow gives u1 S, u2 A.
    g2 = strip(5, country="japan")
    g2.nodes["H001"]["terrain"] = "jungle"
    ps2 = [piece("A", "japan", "Air Supply chit", "H001"), piece("S", "japan", "Sea Supply chit", "H004", used=3),
           piece("u1", "japan", "Land unit", "H001", strength=2),
           piece("u2", "japan", "Land unit", "H000", strength=2)]
    t = trace(world(g2, ps2), "japan")
    assert t["u1"].supplied and t["u2"].supplied
    assert (t["u1"].extra["chit"], t["u2"].extra["chit"]) == ("S", "A")
    assert t["u2"].path == ["H000", "H001"] and t["u1"].path == ["H001", "H002", "H003", "H004"]


@RULEBOOK.says("Each Sea Supply chit can provide supply to a maximum of four air and/or land units per monthly game-turn")
@RULEBOOK.says("Each Air Supply chit can provide supply to a maximum of one air and/or land unit per monthly game-turn")
@pytest.mark.parametrize("kind, cap", [("Sea Supply chit", 4), ("Air Supply chit", 1)])
def test_7_7_capacities(kind, cap):
    w = world(chit_line(), [piece("c", "japan", kind, "H000")] + attackers(6))
    t = trace(w, "japan")
    assert sum(t[f"a{i}"].supplied for i in range(1, 7)) == cap


def test_a_permanent_source_spares_the_chit():
    g = chit_line()
    g.nodes["H003"].update(home_of="japan", city="yes")
    w = world(g, [piece("c", "japan", "Sea Supply chit", "H000")] + attackers(5))
    t = trace(w, "japan")
    assert all(t[f"a{i}"].status == "supplied" for i in range(1, 6)) and t["c"].extra["used"] == 0


def test_bad_chit_values_are_one_line_errors():
    w = world(chit_line(), [piece("c", "japan", "Sea Supply chit", "H000", used="many")] + attackers(1))
    with pytest.raises(ValueError, match="used 'many' is not a whole number"):
        trace(w, "japan")


test_quotes_in_rulebook = RULEBOOK.check()


@RULEBOOK.says("For example, if there is only one available Sea Supply chit (which can supply four units) in a "
               "particular locale, then only four land units may conduct an attack without incurring out-of-supply "
               "penalties.")
def test_7_7_one_unit_traced_alone_shares_the_chit_as_side_wide():
    """A chit's capacity is shared by every unit of the side: the fifth attacker traced on its own is
    out of supply as in the side-wide trace."""
    w = world(chit_line(), [piece("c", "japan", "Sea Supply chit", "H000")] + attackers(5))
    side = trace(w, "japan")
    for u in ("a1", "a5", "c"):
        (alone,) = trace(w, "japan", [u]).values()
        assert (alone.status, alone.supplied, alone.extra.get("used")) == \
            (side[u].status, side[u].supplied, side[u].extra.get("used"))
    assert trace(w, "japan", ["a5"])["a5"].status == "out of supply"


@pytest.mark.parametrize("seed", range(40))
def test_7_7_the_grown_matching_keeps_the_units_a_max_flow_per_unit_keeps(seed):
    """[7.7]: units are kept in the order given while the flow can still grow with them. One
    augmenting-path search per unit must keep exactly the units (and leave the same network, so
    the same chits) as a max-flow recomputed from scratch for every unit."""
    import random

    from assistant.rules.apto.chits import ChitNeed, _greedy, _grown, chit_network

    rng = random.Random(seed)
    chits = [f"c{i}" for i in range(rng.randint(1, 6))]
    remaining = {c: rng.choice((0, 1, 1, 2, 4)) for c in chits}
    needs = [ChitNeed(f"u{i}", tuple(rng.sample(chits, rng.randint(0, len(chits)))), rng.random() < 0.8)
             for i in range(rng.randint(1, 25))]

    slow, fast = chit_network(remaining), chit_network(remaining)
    assert _grown(fast, needs, remaining) == _greedy(slow, needs, remaining)
    assert list(fast.nodes) == list(slow.nodes) and list(fast.edges) == list(slow.edges)
