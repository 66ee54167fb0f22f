"""witp production on the ledger, in the rulebook's words: the [52.4.2] air-block minimum (for
Japan through [53.7]) judged as the Production Phase closes, [53.7.1] "up to 4 sub points" as a
single ship (and the [60.6.1] conversion as one), and the [52.4.1] gearing limit in the campaign's
first Production Phase under both readings of the setting ``ledger_first_production_gearing``."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from assistant.rules.ledger import Book, Entry, LedgerContext
from assistant.rules.witp import economy_rates as R
from assistant.rules.witp.economy import RULES
from rulebooks import Quotes

RULEBOOK = Quotes("witp")


def label(i: int) -> str:
    """The witp calendar (opens_cycle): index 0 is Strategic G/T 0/13/41, then G/T 1-4, five a cycle."""
    c = 13 + i // 5
    year, c = 41 + (c - 1) // 13, (c - 1) % 13 + 1
    slot = i % 5
    return f"Strategic G/T 0/{c}/{year}" if slot == 0 else f"G/T {slot}/{c}/{year}"


LABELS = {i: label(i) for i in range(400)}


def index_of(lab: str) -> int:
    return next(i for i in range(400) if LABELS[i] == lab)


def ctx(turn: int, settings=None) -> LedgerContext:
    world = SimpleNamespace(settings=dict(settings or {}), tables={}, control=None)
    lab = LABELS[turn]
    return LedgerContext(world=world, turn=turn, turn_label=lab,
                         turn_kind="strategic" if lab.startswith("Strategic") else "operational", labels=LABELS)


def book(*entries: Entry) -> Book:
    return Book(tuple(Entry(**{**e.__dict__, "id": i + 1}) for i, e in enumerate(entries)), LABELS)


def E(side, turn, kind, amount, account, **kw) -> Entry:
    return Entry(side=side, turn=turn, kind=kind, amount=amount, account=account, **kw)


def level(findings, lvl, rule=None):
    return [f for f in findings if f.level == lvl and (rule is None or f.rule == rule)]


# ---- [52.4.2] at least 30 % (rounded up) of the PP received on air blocks ------------------------------

AIR_MINIMUM = ("At least 30% (rounded up) of the total PP's received (not accumulated) in a given cycle must be "
               "used to initiate the production of air blocks.")
JAPAN_AIR = "52.4.2: 1st Bullet (Air units) applies, with one exception—see 53.7.4"
ALL_PP_SPENT = "Otherwise, all PP's must be spent in the Production Phase in which they are received."
LIFTED = ("Commencing with cycle 0/1/44, US air block, and ship minimum & maximum limit restrictions (above) are "
          "permanently lifted.")


@RULEBOOK.says(AIR_MINIMUM, ALL_PP_SPENT)
def test_52_4_2_the_production_phase_closing_with_too_little_on_air_blocks_is_warned_with_its_numbers():
    """Judged as the Production Phase (the Strategic G/T) closes: only then is its spending final."""
    t = index_of("Strategic G/T 0/2/43")
    assert R.air_minimum(21) == 7  # 30 % of 21 = 6.3, rounded up
    short = book(E("allies", t, "income", 21, "PP"), E("allies", t, "spend", 6, "PP", item="P-38 block"),
                 E("allies", t, "spend", 10, "PP", item="infantry division"))
    (f,) = level(RULES.close_findings(short, "allies", ctx(t)), "warning")
    assert f.rule == "[52.4.2]" and "6" in f.text and "21" in f.text and "7" in f.text and "30%" in f.text
    assert "\n" not in f.text
    enough = book(E("allies", t, "income", 21, "PP"), E("allies", t, "spend", 7, "PP", item="P-38 block"),
                  E("allies", t, "spend", 10, "PP", item="infantry division"))
    fs = RULES.close_findings(enough, "allies", ctx(t))
    assert not level(fs, "warning") and not level(fs, "error") and level(fs, "info", "[52.4.2]")
    # an operational turn is no Production Phase: nothing judged
    assert RULES.close_findings(short, "allies", ctx(t + 1)) == []


@RULEBOOK.says(AIR_MINIMUM)
def test_52_4_2_the_close_of_a_campaigns_production_phase_says_it_from_python_and_the_cli(tmp_path, capsys):
    from assistant.campaign import Campaign
    from assistant.cli import main

    for side in ("allies", "japan"):
        with Campaign.create(tmp_path / f"{side}.campaign", game="witp") as c:  # Strategic G/T 0/13/41
            c.ledger.add(side, "income", 20, account="PP")
            c.ledger.add(side, "spend", 5, account="PP", item="P-40 block" if side == "allies" else "A6M block")
            if side == "allies":
                rec = c.ledger.close_turn(side)
                (f,) = [f for f in rec.body.findings if f.level == "warning"]
                assert f.rule == "[52.4.2]" and "5" in f.text and "20" in f.text and "= 6" in f.text
            path = c.path
    assert main(["ledger", str(path), "close-turn", "--side", "japan"]) == 0
    (line,) = [x for x in capsys.readouterr().err.splitlines() if "air blocks" in x]
    assert line.startswith("warning: [53.7] air blocks got 5 PP") and "= 6" in line


def test_52_4_2_each_pp_spend_shows_the_running_air_block_status():
    t = index_of("Strategic G/T 0/2/43")
    b = book(E("allies", t, "income", 21, "PP"), E("allies", t, "spend", 3, "PP", item="P-38 block"))
    fs = RULES.check(b, E("allies", t, "spend", 2, "PP", item="B-17 block"), ctx(t))
    (info,) = [f for f in level(fs, "info", "[52.4.2]") if "30%" in f.text]
    assert "5" in info.text and "7" in info.text and "21" in info.text


@RULEBOOK.says(JAPAN_AIR, LIFTED)
def test_53_7_japan_keeps_the_air_minimum_after_0_1_44_the_us_does_not():
    t = index_of("Strategic G/T 0/2/44")
    jb = book(E("japan", t, "income", 20, "PP"), E("japan", t, "spend", 5, "PP", item="A6M block"))
    (f,) = level(RULES.close_findings(jb, "japan", ctx(t)), "warning")
    assert f.rule == "[53.7]" and "6" in f.text and "20" in f.text
    ub = book(E("allies", t, "income", 20, "PP"), E("allies", t, "spend", 5, "PP", item="P-38 block"))
    assert RULES.close_findings(ub, "allies", ctx(t)) == []


def test_52_4_2_pp_received_not_recorded_is_a_question():
    t = index_of("Strategic G/T 0/2/43")
    b = book(E("allies", t - 5, "income", 10, "PP"), E("allies", t, "spend", 4, "PP", item="P-38 block"))
    (q,) = level(RULES.close_findings(b, "allies", ctx(t)), "question")
    assert q.rule == "[52.4.2]" and "received" in q.text and "4" in q.text
    # a side that keeps no PP in this ledger is not asked
    assert RULES.close_findings(book(E("allies", t, "income", 50, "CP")), "allies", ctx(t)) == []


# ---- [53.7.1] up to 4 sub points as a single ship ----------------------------------------------------

SUB_POINTS = 'For purposes of this rule, however, up to 4 sub points may be considered as a "single ship."'
ONE_SHIP = ("the Japanese player may not initiate the production of more than one ship in a single Production "
            "Phase.")


@RULEBOOK.says(ONE_SHIP, SUB_POINTS)
def test_53_7_1_up_to_4_sub_points_are_a_single_ship_5_are_not():
    t = index_of("Strategic G/T 0/2/43")
    # four SS initiated last phase: [52.4.1] allows five now, so only [53.7.1] decides
    b = book(E("japan", t - 5, "income", 100, "PP"), E("japan", t - 5, "spend", 8, "PP", item="4 SS"),
             E("japan", t, "income", 100, "PP"))
    assert not level(RULES.check(b, E("japan", t, "spend", 8, "PP", item="4 SS"), ctx(t)), "error")
    assert not level(RULES.check(b, E("japan", t, "spend", 2, "PP", item="SS"), ctx(t)), "error")
    (f,) = level(RULES.check(b, E("japan", t, "spend", 10, "PP", item="5 SS"), ctx(t)), "error")
    assert f.rule == "[53.7.1]"
    # the phase's sub points together: 2 + 2 is one ship, 2 + 3 is not
    b2 = b.with_entry(E("japan", t, "spend", 4, "PP", item="2 SS", id=9))
    assert not level(RULES.check(b2, E("japan", t, "spend", 4, "PP", item="2 SS"), ctx(t)), "error")
    assert level(RULES.check(b2, E("japan", t, "spend", 6, "PP", item="3 SS"), ctx(t)), "error", "[53.7.1]")
    # sub points are that one ship: no other ship beside them
    assert level(RULES.check(b2, E("japan", t, "spend", 10, "PP", item="CA"), ctx(t)), "error", "[53.7.1]")


CONVERSION = ("Each such conversion costs 2 PP's, and takes 7 cycles to complete. Each ship placed into production "
              "would be considered a naval unit, in regards to 53.7.1.")


@RULEBOOK.says(CONVERSION)
def test_60_6_1_the_ise_hyuga_conversion_is_the_phases_one_ship():
    t = index_of("Strategic G/T 0/8/42")
    b = book(E("japan", t, "income", 40, "PP"), E("japan", t, "spend", 10, "PP", item="CA"))
    conv = E("japan", t, "spend", 2, "PP", item="Ise/Hyuga hybrid carrier conversion")
    assert level(RULES.check(b, conv, ctx(t)), "error", "[53.7.1]")
    assert not level(RULES.check(book(E("japan", t, "income", 40, "PP")), conv, ctx(t)), "error")


# ---- [52.4.1] the campaign's first Production Phase: a reading, not a rule ---------------------------

GEARING = ("In any Production Phase, the US player may not initiate the production of more than one additional "
           "unit of any type than was initiated in the previous Production Phase.")


def test_the_first_production_phase_reading_is_a_documented_setting():
    from assistant.maps.gamespec import load_game_spec

    s = load_game_spec("witp").settings["ledger_first_production_gearing"]
    assert s.default == "ask" and set(s.choices) == {"ask", "zero"} == set(R.FIRST_PRODUCTION_READINGS)
    assert "[52.4.1]" in s.rule


@RULEBOOK.says(GEARING)
def test_52_4_1_first_production_phase_reading_zero_none_before_so_one_of_a_type():
    first = 0  # Strategic G/T 0/13/41: the calendar holds no Production Phase before it
    c = ctx(first, {"ledger_first_production_gearing": "zero"})
    b = book(E("allies", first, "income", 100, "PP"))
    (f,) = level(RULES.check(b, E("allies", first, "spend", 20, "PP", item="2 CV"), c), "error", "[52.4.1]")
    assert "at most 1 CV" in f.text and "zero" in f.text and "0 in the previous one" in f.text
    ok = RULES.check(b, E("allies", first, "spend", 10, "PP", item="CV"), c)
    assert not level(ok, "error") and not level(ok, "question")
    assert any("zero" in f.text for f in level(ok, "info", "[52.4.1]"))  # the reading is in the working


@RULEBOOK.says(GEARING)
def test_52_4_1_first_production_phase_reading_ask_the_player_gives_the_previous_phase():
    first = 0
    b = book(E("allies", first, "income", 100, "PP"))
    for c in (ctx(first), ctx(first, {"ledger_first_production_gearing": "ask"})):  # ask is the default
        fs = RULES.check(b, E("allies", first, "spend", 20, "PP", item="2 CV"), c)
        assert not level(fs, "error", "[52.4.1]")
        (q,) = level(fs, "question", "[52.4.1]")
        assert "previous=N" in q.text and "ask" in q.text
        # the player's figure for the phase before the campaign is then checked
        more = E("allies", first, "spend", 20, "PP", item="2 CV", data={"previous": 1})
        assert not level(RULES.check(b, more, c), "error") and not level(RULES.check(b, more, c), "question")
        fewer = E("allies", first, "spend", 20, "PP", item="2 CV", data={"previous": 0})
        (f,) = level(RULES.check(b, fewer, c), "error", "[52.4.1]")
        assert "at most 1 CV" in f.text
    # after the first phase the book decides, under either reading
    t = index_of("Strategic G/T 0/1/42")
    b2 = book(E("allies", t, "income", 100, "PP"))
    for reading in ("ask", "zero"):
        fs = RULES.check(b2, E("allies", t, "spend", 20, "PP", item="2 CV"),
                         ctx(t, {"ledger_first_production_gearing": reading}))
        assert level(fs, "error", "[52.4.1]") and not level(fs, "question", "[52.4.1]")


def test_a_bad_first_production_reading_is_named():
    b = book(E("allies", 0, "income", 100, "PP"))
    with pytest.raises(ValueError, match="ledger_first_production_gearing='none'"):
        RULES.check(b, E("allies", 0, "spend", 10, "PP", item="CV"), ctx(0, {"ledger_first_production_gearing": "none"}))


test_quotes_in_rulebook = RULEBOOK.check()
