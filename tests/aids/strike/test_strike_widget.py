"""The strike dashboard's view in plain Python (no kernel, no browser).

The view has no rules: these tests give the engine a small stand-in rules object (range in hexes
over the real witp map graph, counted here with networkx, independently of any game's air rules),
so what the page must show — every reaching unit with its range class, distance and path, the
findings with their rules, the odds, the interception exposure, the base's reach, the resolve step
recorded as an undoable event, the turn's strike log, the update from another writer, one-line
errors — is checked against answers computed here. The browser test runs the real witp rules.
"""

from __future__ import annotations

from fractions import Fraction

import networkx as nx
import pytest

from assistant.aids.strike import engine
from assistant.aids.strike import widget as W
from assistant.aids.strike.events import strike_log
from assistant.campaign import Campaign
from assistant.rules import strike as S
from assistant.rules.strike import Assessment, Finding, Resolution, StrikeItem
from assistant.ui.kit import attach

TARGET = "E2418"  # Henderson Field, Guadalcanal


def hex_dist(world, a: str, b: str) -> int:
    return nx.shortest_path_length(world.graph, a, b)


class StandInRules:
    """Range in hexes along the map graph: "normal" within ``normal_range``, else out of range
    (an error finding "[T 1]"). Assess adds a question "[T 2]", odds of one d6 (hit on 5-6) and
    the enemy air units within their ``normal_range`` of the route as interceptors. One 1d6
    resolves: a 1 or 2 loses one of ``count``. Optional ``range_map`` when ``with_map``."""

    game = "witp"
    missions = ("strike", "sweep")

    def __init__(self, with_map: bool = True):
        self.calls = 0
        if not with_map:
            self.range_map = None

    def _item(self, world, p, target) -> StrikeItem:
        path = nx.shortest_path(world.graph, p.hex, target)
        d = len(path) - 1
        r = int(p.attr("normal_range", 0))
        ok = d <= r
        return StrikeItem(unit=p.id, base=p.hex, distance=d, distance_unit="hexes",
                          range_class="normal" if ok else None, path=path,
                          findings=[] if ok else [Finding("error", "[T 1]", f"{d} hexes is beyond range {r}")])

    def reach(self, world, side, target, *, units=(), mission=None, altitude=None):
        self.calls += 1
        if mission == "sweep":
            raise ValueError(f"mission 'sweep' needs altitude High, not {altitude!r}")
        return [self._item(world, p, target) for p in world.of_side(side, "air") if not units or p.id in units]

    def assess(self, world, plan):
        items = [self._item(world, world.piece(u), plan.target) for launch in plan.launches for u in launch.units]
        route = {h for it in items for h in it.path}
        interceptors = []
        for e in world.of_enemy(plan.side, "air"):
            near = nx.single_source_shortest_path_length(world.graph, e.hex, cutoff=int(e.attr("normal_range", 0)))
            exposed = sorted(h for h in route if h in near)
            if exposed:
                interceptors.append({"unit": e.id, "hex": e.hex, "exposed": exposed})
        odds = {"hit": {"p": 1 / 3, "fraction": str(Fraction(1, 3))}, "miss": {"p": 2 / 3, "fraction": "2/3"}}
        return Assessment(plan=plan, items=items, odds=odds, extra={"interceptors": interceptors},
                          findings=[Finding("question", "[T 2]", "is the target hex in clouds?")])

    def dice_needed(self, world, plan):
        return ["1d6: stand-in loss roll [T 3]"]

    def resolve(self, world, plan, dice):
        uid = plan.launches[0].units[0]
        count = int(world.piece(uid).attr("count", 0))
        lost = dice[0] <= 2
        changes = [{"unit": uid, "set": {"count": count - 1}, "before": {"count": count}}] if lost else []
        return Resolution(plan=plan, dice=tuple(dice), outcome=["one AP lost" if lost else "no loss"], changes=changes)

    def range_map(self, world, side, base, *, units=(), mission=None, altitude=None):
        r = max(int(world.piece(u).attr("normal_range", 0)) for u in units)
        near = nx.single_source_shortest_path_length(world.graph, base, cutoff=r)
        return {h: ("normal" if d <= r // 2 else "extended") for h, d in near.items()}


@pytest.fixture
def rules(monkeypatch):
    r = StandInRules()
    monkeypatch.setattr(S, "rules_for", lambda game: r)
    monkeypatch.setattr(engine, "rules_for", lambda game: r)
    return r


def without_air(c):
    """The scenario without its own sample Air Points: the tests place the ones they count."""
    for u in list(c.state.units.values()):
        if u.kind == "Air Points":
            c.remove_unit(u.id)
    return c


@pytest.fixture
def camp(guadalcanal):
    c = without_air(guadalcanal)
    c.place_unit("allies", "Air Points", "E2317", name="1st MAW F4F", attrs={"normal_range": 6, "count": 4},
                 sample=True, id="maw-f4f")
    c.place_unit("allies", "Air Points", "G0626", name="Fiji B-17", attrs={"normal_range": 8, "count": 2},
                 id="fiji-b17")
    c.place_unit("japan", "Air Points", "E2118", name="Rabaul Zero", attrs={"normal_range": 4, "count": 5},
                 id="rabaul-zero")
    return c


def page(camp, **kw):
    p = attach(W.StrikeWidget, camp, interval=60, **kw)
    p.view.side.value = "allies"
    return p


def test_target_lists_every_reaching_unit_with_range_class_distance_and_path(rules, camp):
    v = page(camp).view
    v.map.select(TARGET)  # a click on the map, as the map reports it
    world = v.world()
    got = {it.unit: it for it in v.items}
    assert set(got) == {"maw-f4f", "fiji-b17"}  # the side's air units only
    d_near, d_far = hex_dist(world, "E2317", TARGET), hex_dist(world, "G0626", TARGET)
    assert d_near <= 6 < d_far
    assert got["maw-f4f"].distance == d_near and got["maw-f4f"].range_class == "normal"
    assert not got["fiji-b17"].legal
    html = v.reach_table.value
    assert "1st MAW F4F [sample]" in html and "Fiji B-17" in html  # the demo's sample values are labelled
    assert f"{d_near} hexes" in html and "ILLEGAL" in html and "[T 1]" in html
    assert f"Air units reaching {TARGET}: 1 of 2" in html
    # The reaching unit's path is drawn, from its base to the target; the out-of-range one is not.
    assert W.PATH in v.map.overlay_names and W.TARGET in v.map.overlay_names
    assert v.chosen.value == "0" and v.items[0].path[0] == "E2317" and v.items[0].path[-1] == TARGET
    assert v.map.overlays_in(W.PATHS) == []
    # Launch defaults to the units that reach.
    assert v.launch.value == ("maw-f4f",)


def test_assess_shows_findings_with_rules_odds_and_draws_exposure(rules, camp):
    v = page(camp).view
    v.choose_target(TARGET)
    a = v.assess()
    assert a is not None and v.problem is None
    f = v.findings.value
    assert "[T 2]" in f and "question" in f and "is the target hex in clouds?" in f
    assert "1/3" in v.odds.value and "0.333" in v.odds.value and "2/3" in v.odds.value
    # Exposure: the Japanese Zeros at E2118 reach the route within 4 hexes; marked and shaded.
    world = v.world()
    route = v.items[0].path
    near = nx.single_source_shortest_path_length(world.graph, "E2118", cutoff=4)
    exposed = {h for h in route if h in near}
    assert exposed and W.INTERCEPTORS in v.map.overlay_names and W.EXPOSED in v.map.overlay_names
    assert f"{len(exposed)} route hexes exposed" in f and "1 enemy base or CAP" in f and "(E2118)" in f
    assert "stand-in loss roll [T 3]" in v.dice_note.value


def test_resolve_with_entered_dice_is_logged_and_undone(rules, camp):
    p = page(camp)
    v = p.view
    v.choose_target(TARGET)
    v.assess()
    before = camp.state.last_seq
    v.dice.value, v.options.value, v.return_base.value = "2", "sneak=yes", "E2418"
    v.resolve_btn.click()
    assert camp.state.last_seq == before + 1 and v.problem is None
    assert (v.dice.value, v.options.value, v.return_base.value) == ("", "", "")  # nothing left to record twice
    assert camp.state.units["maw-f4f"].attrs["count"] == 3  # a 2 loses one AP (stand-in [T 3])
    assert "Strike 1 on E2418 recorded" in v.message.value and "one AP lost" in v.message.value
    assert "1 strike this turn" in v.log.value and "one AP lost" in v.log.value
    camp.undo()  # as the campaign dashboard's history does
    assert camp.state.units["maw-f4f"].attrs["count"] == 4
    assert "0 strikes this turn" in v.log.value and "0 in the campaign" in v.log.value
    p.close()


def test_roll_for_me_records_the_rolled_die(rules, camp):
    v = page(camp).view
    v.choose_target(TARGET)
    v.roll_btn.click()
    log = camp.state.aid("strike").strikes
    assert len(log) == 1 and len(log[0].resolution["dice"]) == 1 and 1 <= log[0].resolution["dice"][0] <= 6


@pytest.mark.parametrize("dice, words", [("7", "7"), ("x,2", "'x,2'"), ("2,3", "needs 1 dice"), ("", "enter the dice"),
                                         ("\u0663", "die value '\u0663' is not a whole number: use the digits 0-9")])
def test_bad_dice_are_one_line_and_change_nothing(rules, camp, dice, words):
    v = page(camp).view
    v.choose_target(TARGET)
    before = camp.state.last_seq
    v.dice.value = dice
    v.resolve_btn.click()
    assert camp.state.last_seq == before
    assert words in v.problem and "\n" not in v.problem
    assert "Cannot plot" in v.message.value and "Traceback" not in v.message.value
    assert v.errors.records == []  # refused input is the page's one line, not an error report


def test_bad_target_and_rules_refusal_are_one_line(rules, camp):
    v = page(camp).view
    assert v.choose_target("Z9999") == [] and "Z9999" in v.problem
    v.choose_target(TARGET)
    v.mission.value = "sweep"  # the stand-in refuses (a ValueError naming the value)
    assert v.problem == "mission 'sweep' needs altitude High, not None" and v.items == []
    v.mission.value = ""
    assert v.problem is None and len(v.items) == 2
    assert v.errors.records == []


def test_base_range_is_the_rules_range_map_as_one_choropleth(rules, camp):
    v = page(camp).view
    values = v.show_base_range("E2317")
    near = nx.single_source_shortest_path_length(v.world().graph, "E2317", cutoff=6)
    assert set(values) == set(near)
    legend = {e.key: e.count for e in v.map.choropleth_legend(W.RANGE)}
    assert legend == {"normal": sum(d <= 3 for d in near.values()), "extended": sum(d > 3 for d in near.values())}
    assert "Reach from E2317" in v.range_note.value
    assert v.show_base_range("A0101") is None and "No allies air unit at A0101" in v.range_note.value


def test_base_range_without_a_range_map_draws_hex_rings(monkeypatch, camp):
    r = StandInRules(with_map=False)
    monkeypatch.setattr(S, "rules_for", lambda game: r)
    monkeypatch.setattr(engine, "rules_for", lambda game: r)
    monkeypatch.setattr(W, "range_map_of", lambda game, rules: None)  # a game with no reach map
    v = page(camp).view
    v.choose_target(TARGET)  # the rules count in hexes
    rings = v.show_base_range("E2317")
    assert rings == {"normal_range": 6}
    assert v.map.overlays_in(W.RINGS) == [f"{W.RINGS}/0"] and W.RANGE not in v.map.overlay_names


def test_follows_a_change_made_by_another_writer(rules, camp):
    p = page(camp)
    v = p.view
    v.choose_target(TARGET)
    assert {it.unit for it in v.items if it.legal} == {"maw-f4f"}
    other = Campaign.open(camp.path)
    try:
        other.move_unit("fiji-b17", "E2219")  # within 8 hexes of the target now
    finally:
        other.close()
    p.poll()
    assert {it.unit for it in v.items if it.legal} == {"maw-f4f", "fiji-b17"}
    assert v.items[1].base == "E2219"


def test_no_air_rules_is_one_line(monkeypatch, camp):
    def none(game):
        raise S.NoAirRules(f"no air rules for {game!r}")

    monkeypatch.setattr(engine, "rules_for", none)
    v = page(camp).view
    v.choose_target(TARGET)
    assert v.problem == "no air rules for 'witp'"
    assert "Cannot plot" in v.message.value


def test_witp_reach_map_is_used_when_the_rules_object_has_none(monkeypatch, camp):
    """witp counts MP, not hexes [5.1.8]: its reach map (``rules.witp.airmap``) is one choropleth."""
    from assistant.rules.witp import airmap

    r = StandInRules(with_map=False)
    monkeypatch.setattr(S, "rules_for", lambda game: r)
    monkeypatch.setattr(engine, "rules_for", lambda game: r)
    v = page(camp).view
    camp.update_unit("maw-f4f", normal_range=30, extended_range=45)
    values = v.show_base_range("E2317")
    assert values == airmap.range_map(v.world(), "allies", "E2317", units=("maw-f4f",))
    assert {"normal", "extended"} <= set(values.values()) and W.RANGE in v.map.overlay_names
    assert v.map.overlays_in(W.RINGS) == []


def test_real_witp_rules_reach_exposure_and_mining_resolution(guadalcanal):
    """On the real witp air rules: MP distance [5.1.8], the enemy fighter that can intercept
    marked [6.1], strategic mining resolved with an entered die [56.4.2] and logged."""
    c = without_air(guadalcanal)
    c.place_unit("allies", "Airfield", "E2317", category="installation", attrs={"level": 3}, id="af")
    c.place_unit("allies", "Air Points", "E2317", name="B-17", sample=True, id="b17",
                 attrs={"ap_type": "B", "count": 4, "normal_range": 60, "extended_range": 90})
    c.place_unit("japan", "Air Points", "E2118", name="Zero", id="zero",
                 attrs={"ap_type": "FTR", "count": 5, "normal_range": 30})
    v = page(c).view
    v.choose_target("E2118")
    (item,) = v.items
    assert item.distance_unit == "MP" and f"{item.distance:g} MP" in v.reach_table.value
    assert item.range_class == "normal" and "B-17 [sample]" in v.reach_table.value
    v.mission.value = "mining"
    v.options.value = "resource_value=3"
    assert v.assess() is not None and v.problem is None
    # the B-17s' base traces supply category E: the Air Point Availability Table must be rolled
    # [32.2.2], [9.0]; without the table or its printed percentage the strike cannot be resolved
    assert "apat_percent" in v.dice_note.value and "Rule tables page" in v.dice_note.value
    v.options.value = "resource_value=3, apat_percent=75"
    assert v.assess() is not None and v.problem is None
    assert "[6.1]" in v.findings.value and "enemy fighter Zero at E2118" in v.findings.value  # by its name
    assert W.INTERCEPTORS in v.map.overlay_names and "(E2118)" in v.findings.value
    assert "[56.4.2]" in v.dice_note.value
    v.dice.value = "4"
    v.resolve_btn.click()
    assert v.problem is None, v.problem
    (logged,) = strike_log(c.state)
    assert logged.target == "E2118" and logged.resolution["dice"] == [4]
    assert "1 strike this turn" in v.log.value
    v.options.value = "resource_value"  # not key=value: one line naming it
    assert v.assess() is None and "'resource_value'" in v.problem


def test_reach_classes_coloured_near_to_far(rules, camp):
    v = page(camp).view
    v.show_base_range("E2317")
    legend = {e.key: e.colour.lower() for e in v.map.choropleth_legend(W.RANGE)}
    assert legend == {"normal": "#2e7d32", "extended": "#f9a825"}  # green near, amber farther
    assert v.range_note.value.index("normal") < v.range_note.value.index("extended")


def test_a_strike_transfer_asks_for_its_return_base_and_checks_it_on_the_page(guadalcanal):
    """[4.4.7] a strike transfer's launch -> target + target -> new base must be within 2 x normal
    range: the page asks for the return base by its own field, checks the hex and adds the legs."""
    c = without_air(guadalcanal)
    c.place_unit("allies", "Airfield", "E2317", category="installation", attrs={"level": 3}, id="af")
    c.place_unit("allies", "Airfield", "E2419", category="installation", attrs={"level": 3}, id="af2")
    c.place_unit("allies", "Air Points", "E2317", name="B-17", sample=True, id="b17",
                 attrs={"ap_type": "B", "count": 4, "normal_range": 60, "extended_range": 90})
    v = page(c).view
    v.choose_target("E2118")
    v.launch.value = ("b17",)
    v.mission.value = "strike_transfer"
    v.options.value = "apat_percent=75"
    assert v.assess() is not None
    assert "[4.4.7]" in v.findings.value and "which return base" in v.findings.value
    v.return_base.value = "E9999"
    assert v.assess() is None and "E9999" in v.problem and "\n" not in v.problem
    v.return_base.value = " e2419 "
    assert v.assess() is not None and v.problem is None
    assert "strike transfer" in v.findings.value and "2 x normal range = 120" in v.findings.value
    assert "which return base" not in v.findings.value


def test_a_launched_unit_is_never_offered_as_its_own_escort(rules, camp):
    v = page(camp).view
    v.choose_target("E2418")
    reaching = [u for _, u in v.launch.options]
    assert len(reaching) >= 2
    v.launch.value = (reaching[0],)
    assert reaching[0] not in [u for _, u in v.escorts.options]
    assert set(reaching[1:]) <= {u for _, u in v.escorts.options}
    v.escorts.value = (reaching[1],)
    v.launch.value = tuple(reaching[:2])  # the escort launched as well: no longer an escort
    assert reaching[1] not in [u for _, u in v.escorts.options] and v.escorts.value == ()


def test_altitude_is_a_choice_of_the_games_altitudes_and_absent_where_its_rules_name_none(guadalcanal, tmp_path):
    """witp's air rules fly at Low, Medium or High [5.2]: the page offers exactly those; apto's and
    globalwar's name no altitude, and their pages show none."""
    v = page(guadalcanal).view
    assert [label for label, _ in v.altitude.options] == ["-", "Low", "Medium", "High"]
    assert v.altitude.layout.display != "none"
    for game in ("apto", "globalwar"):
        with Campaign.create(tmp_path / f"{game}.campaign", game=game) as c:
            other = page(c).view
            assert [value for _, value in other.altitude.options] == [""] and other.altitude.layout.display == "none"


def test_a_hex_typed_in_the_hex_box_becomes_the_target_or_the_base(rules, camp):
    """A player reading E2418 and E2317 off the paper map types them: Enter is a click on that hex,
    so the hex is the target, or (click mode "base range") the base whose reach is drawn."""
    v = page(camp).view
    v.hex_field.value = TARGET  # Enter, click mode "target"
    assert v.target == TARGET and len(v.items) == 2 and TARGET in v.target_note.value
    assert tuple(v.map.map.center) == pytest.approx(v.map.latlng_of(TARGET))
    assert {it.unit for it in v.items if it.legal} <= set(v.launch.value)  # the plan's launchers follow
    v.click_mode.value = "range"
    v.hex_field.value = "E2317"  # the launching base, typed: its reach is drawn, the target stays
    assert v.range_base == "E2317" and "Reach from E2317" in v.range_note.value and W.RANGE in v.map.overlay_names
    assert v.target == TARGET
    v.click_mode.value = "target"
    v.hex_field.value = "Guadalcanal"  # a place of the witp gazetteer (three hexes: the first shown)
    assert v.target == v.map.selected and v.target in ("E2418", "E2519", "E2619")
    v.hex_field.value = "Z9999"  # names no hex: said under the field, the target stays
    assert "Z9999: the War in the Pacific (2nd ed.) map has no section Z" in v.hex_hint.value
    assert v.target in ("E2418", "E2519", "E2619") and v.errors.records == []


def test_night_is_offered_where_the_air_rules_read_it_and_missions_by_their_rules_names(guadalcanal, tmp_path):
    """witp's night air operations [14.0] and apto's Night Strategic Bombing [2.8] read a night
    mission: their pages offer Night, naming the rule; globalwar's air rules [17.0] name no night,
    and its page shows none and plans none. The Mission choice shows each mission as the rules name
    it, with its rule (witp's "Cover CAP [5.3.2]", never ``cover_cap``), and plans the mission's id."""
    v = page(guadalcanal).view
    assert v.night.layout.display != "none" and "[14.0]" in v.night.tooltip
    labels = dict((value, label) for label, value in v.mission.options)
    assert labels["cover_cap"] == "Cover CAP [5.3.2]" and labels["ms_escort"] == "MS Escort (Japanese) [57.1]"
    assert not [label for label in labels.values() if "_" in label]
    for game, night in (("apto", "[2.8]"), ("globalwar", None)):
        with Campaign.create(tmp_path / f"{game}.campaign", game=game) as c:
            other = page(c).view
            shown = other.night.layout.display != "none"
            assert shown == (night is not None), game
            if night:
                assert night in other.night.tooltip
            else:
                other.night.value = True
                other.refresh()
                assert other.night.value is False  # a hidden choice plans nothing
            assert not [label for label, _ in other.mission.options if "_" in label]
            # globalwar's LRB raids read no escorts, target unit or return base [17.3], [17.1.7.A]
            hidden = [x.layout.display == "none" for x in (other.escorts, other.target_unit, other.return_base)]
            assert hidden == [game == "globalwar"] * 3, game
    assert [x.layout.display for x in (v.escorts, v.target_unit, v.return_base)] == [None] * 3  # witp reads them
