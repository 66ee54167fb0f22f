"""Turn calendars as data: labels, order, phases and the ambiguous readings (as settings)."""

import pytest

from assistant.campaign import CampaignError
from assistant.campaign.gamedata import load_calendar, resolve_settings


def cal(game, **chosen):
    return load_calendar(game, resolve_settings(game, chosen))


def labels(c, n, start=0):
    return [c.turn(i).label for i in range(start, start + n)]


# ----- witp ------------------------------------------------------------------------------------
def test_witp_campaign_opens_with_strategic_cycle_0_13_41_rule_42_1_1():
    assert cal("witp").turn(0).label == "Strategic G/T 0/13/41"


def test_witp_four_operational_turns_then_strategic_rule_3_1_I_and_50_0_and_year_of_13_cycles_rule_2_4():
    assert labels(cal("witp"), 7) == ["Strategic G/T 0/13/41", "G/T 1/13/41", "G/T 2/13/41", "G/T 3/13/41",
                                      "G/T 4/13/41", "Strategic G/T 0/1/42", "G/T 1/1/42"]
    c = cal("witp")
    assert c.turn(5).year == 1942 and c.turn(5).period == "1"
    # 13 cycles x 5 turns later is the same place a year on
    assert c.turn(5 + 65).label == "Strategic G/T 0/1/43"


def test_witp_rulebook_notation_examples_exist_rule_29_2_3_and_23_11_5():
    """The rulebook's turn names land where a hand count puts them: turn 0 is Strategic G/T 0/13/41
    [42.1.1]; each cycle is a Strategic turn then four operational ones [3.1 I], [50.0], so 5 turns
    per cycle and 13 cycles a year [2.4]. 1942 starts at 5; G/T 2/3/42 = 5 + 2 cycles x 5 + 2 = 17.
    1943 starts at 5 + 65 = 70; Strategic G/T 0/11/43 = 70 + 10 x 5 = 120."""
    c = cal("witp")
    assert c.find("G/T 2/3/42") == 5 + 2 * 5 + 2 == 17
    assert c.find("strategic g/t 0/11/43") == 70 + 10 * 5 == 120
    assert c.turn(120).kind == "strategic" and c.turn(17).kind == "operational"
    assert [c.turn(i).kind for i in range(15, 20)] == ["strategic"] + ["operational"] * 4


def test_witp_operational_phases_are_the_sequence_outline_rule_3_1():
    t = cal("witp").turn(1)
    assert t.kind == "operational" and t.phase.name == "Weather Phase" and t.phase.rule == "[3.1 A]"
    names = [p.name for p in cal("witp").phases_of(1)]
    assert names[-2:] == ["Ground Phase", "End of the Game Turn"] and len(names) == 9


def test_witp_strategic_phases_rule_50_0():
    names = [(p.id, p.name) for p in cal("witp").phases_of(0)]
    assert names[0] == ("A", "Merchant Shipping Phase") and names[-1] == ("J", "End of the Strategic Turn")
    assert len(names) == 10


def test_witp_reading_closes_cycle_puts_strategic_turn_after_gt_4_rule_50_0():
    c = cal("witp", strategic_turn_position="closes_cycle")
    assert labels(c, 6) == ["G/T 1/13/41", "G/T 2/13/41", "G/T 3/13/41", "G/T 4/13/41",
                            "Strategic G/T 0/13/41", "G/T 1/1/42"]
    assert c.reading == {"strategic_turn_position": "closes_cycle"}


def test_witp_default_reading_is_opens_cycle():
    assert cal("witp").reading == {"strategic_turn_position": "opens_cycle"}


def test_unknown_reading_is_refused():
    with pytest.raises(CampaignError, match="not one of"):
        resolve_settings("witp", {"strategic_turn_position": "sometimes"})
    with pytest.raises(CampaignError, match="unknown setting"):
        resolve_settings("witp", {"no_such_setting": 1})


# ----- apto ------------------------------------------------------------------------------------
def test_apto_campaign_starts_july_1937_rule_9_1():
    assert labels(cal("apto"), 4) == ["July 1937", "August 1937", "September 1937", "Autumn Seasonal Turn 1937"]


def test_apto_seasonal_turn_between_seasons_and_year_advances_at_winter_end_of_turn_step():
    c = cal("apto")
    i = c.find("December 1937")
    assert i == 6  # hand count [9.1]: July, August, September 1937, Autumn Seasonal, October, November
    assert labels(c, 3, i) == ["December 1937", "Winter Seasonal Turn 1938", "January 1938"]
    # "the last monthly game-turn before any Seasonal Turn (i.e., March, June, September or December)" [11.12]
    for m, s in [("March", "Spring"), ("June", "Summer"), ("September", "Autumn"), ("December", "Winter")]:
        j = c.find(f"{m} 1942")
        assert c.turn(j + 1).label.startswith(f"{s} Seasonal Turn")


def test_apto_phases_monthly_and_seasonal_sequence_of_play():
    c = cal("apto")
    assert [p.name for p in c.phases_of(0)] == ["Weather Phase", "Strategic Warfare Phase", "Naval and Air Phase",
                                                "Offensive Phase", "Movement Phase", "End Phase"]
    seasonal = c.find("Winter Seasonal Turn 1942")
    assert [p.id for p in c.phases_of(seasonal)] == ["minor_partner_activation", "economic_income", "construction"]


def test_apto_reading_summer_seasonal_1937_rule_8_13():
    assert cal("apto", campaign_start="summer_seasonal_1937").turn(0).label == "Summer Seasonal Turn 1937"


# ----- globalwar -------------------------------------------------------------------------------
def test_globalwar_default_turn1_is_fall_1939_as_italys_entry_window_implies():
    c = cal("globalwar")
    assert c.turn(0).label == "Turn 1 (Fall 1939)"
    # Italy may be brought in on Turns 3-10 [11.3.2.A] = Spring 1940 to Winter 1942 [19.2.1]
    assert c.turn(2).label == "Turn 3 (Spring 1940)"
    assert c.turn(9).label == "Turn 10 (Winter 1942)"
    # HWM scenario starts on Turn 12 [22.4.A]; the game ends after Turn 23 [22.3.A]
    assert c.turn(11).label == "Turn 12 (Summer 1942)"
    assert c.turn(22).label == "Turn 23 (Spring 1945)"


def test_globalwar_game_ends_after_turn_23_rule_22_3_A():
    c = cal("globalwar")
    with pytest.raises(CampaignError, match="last turn"):
        c.step(22, 0, "turn")
    assert c.step(21, 0, "turn") == (22, 0)


def test_globalwar_sequence_of_play_rule_4_2():
    ph = cal("globalwar").phases_of(0)
    assert len(ph) == 20 and ph[0].rule == "[4.2.1];[18.10]" and ph[-1].name == "Turn Record Phase"
    assert [p.id for p in ph[1:7]] == ["N1", "N2", "N3", "N4", "N5", "N6"]


def test_globalwar_turn1_setting_moves_the_calendar():
    c = cal("globalwar", turn1_season="Winter 1940")
    assert c.turn(0).label == "Turn 1 (Winter 1940)" and c.turn(1).label == "Turn 2 (Spring 1940)"
    with pytest.raises(CampaignError, match="turn1_season"):
        cal("globalwar", turn1_season="Monsoon 1940")


# ----- stepping ----------------------------------------------------------------------------------
def test_phase_steps_roll_into_the_next_turn():
    c = cal("witp")
    assert c.step(1, 0, "phase") == (1, 1)
    assert c.step(1, 8, "phase") == (2, 0)  # after End of the Game Turn [3.1 I]
    assert c.step(1, 4, "turn") == (2, 0)
    with pytest.raises(CampaignError, match="'turn' or 'phase'"):
        c.step(1, 0, "week")


def test_unknown_label_is_refused():
    with pytest.raises(CampaignError, match="is not a turn"):
        cal("witp").find("G/T 9/9/42")


# ----- where an entry is next allowed -----------------------------------------------------------
def test_next_turn_where_finds_the_next_strategic_turn_rule_50_0():
    from assistant.campaign.calendar import next_turn_where, steps_to

    c = cal("witp")
    t = next_turn_where(c, 1, 3, lambda t: t.kind == "strategic")
    assert (t.index, t.phase_index, t.label) == (5, 0, "Strategic G/T 0/1/42")
    assert steps_to(c, 1, 3, t.index, t.phase_index) == ("turn",) * 4
    # a phase of the current turn that is still ahead is found in this turn
    t = next_turn_where(c, 1, 0, lambda t: t.phase is not None and t.phase.name == "Ground Phase")
    assert (t.index, t.phase.name) == (1, "Ground Phase")
    assert steps_to(c, 1, 0, 1, t.phase_index) == ("phase",) * t.phase_index
    # one already passed is next turn's
    t2 = next_turn_where(c, 1, 8, lambda t: t.phase is not None and t.phase.name == "Ground Phase")
    assert t2.index == 2 and steps_to(c, 1, 8, 2, t2.phase_index) == ("turn",) + ("phase",) * t2.phase_index


def test_next_turn_where_stops_at_the_games_last_turn_rule_22_3_A():
    from assistant.campaign.calendar import next_turn_where, steps_to

    c = cal("globalwar")
    assert c.last_turn is not None
    assert next_turn_where(c, c.last_turn - 1, 0, lambda t: t.index >= c.last_turn) is None
    assert next_turn_where(c, 0, 0, lambda t: False) is None
    with pytest.raises(CampaignError, match="only goes forward"):
        steps_to(c, 3, 0, 2, 0)
