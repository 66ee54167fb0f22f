"""A strike the rules cannot resolve is not recorded: Resolve (the CLI's ``campaign strike ...
--resolve`` and the page's Resolve buttons) says what the player must enter, the printed table by
its name on the Rule tables page or the option, in the words of the surface that asks (flags in
the CLI, none on the page), and writes no event."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from assistant.aids.strike import engine
from assistant.aids.strike.commands import resolve_strike
from assistant.aids.strike.events import strike_log
from assistant.aids.strike.widget import StrikeWidget
from assistant.campaign import Campaign, CampaignError
from assistant.cli import main
from assistant.ui.kit import attach
from strikekit import strike_page

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "campaign"))
from campaignkit import file_fingerprint  # noqa: E402

B29 = {"type": "B", "strength": 20, "quality": 4, "range": 20, "heavy": "yes"}


@pytest.fixture
def apto(tmp_path):
    c = Campaign.create(tmp_path / "a.campaign", game="apto")
    c.place_unit("allies", "Air unit", "W 4430", name="B-29", nation="us", id="b29", attrs=B29)
    yield c
    c.close()


@pytest.fixture
def witp(guadalcanal):
    c = guadalcanal
    c.place_unit("allies", "Airfield", "E2317", category="installation", attrs={"level": 3}, id="af")
    c.place_unit("allies", "Air Points", "E2317", name="B-17", id="b17",
                 attrs={"ap_type": "B", "count": 4, "normal_range": 60, "extended_range": 90})
    return c


def _cli(c, capsys, *args):
    path = c.path
    c.close()
    before = file_fingerprint(path)
    code = main(["strike", str(path), *args, "--resolve"])
    err = capsys.readouterr().err
    assert file_fingerprint(path) == before  # no event
    return code, err


def test_2_5_strategic_bombing_without_the_bombing_table_names_it_and_records_nothing(apto, capsys):
    """apto [2.5]: the result of a strategic bombing is read off the Bombing Table, which the
    rulebook references but does not print; without it (or the printed result entered) the
    strike cannot be resolved: the dice 2 5 are not recorded with no result."""
    p = engine.plan_of(apto.state, apto.map, side="allies", target="W 4428", units=["b29"],
                       mission="strategic_bombing")
    with pytest.raises(engine.StrikeNeeds) as e:
        resolve_strike(apto, p, dice=[2, 5])
    assert not strike_log(apto.state)
    page = e.value.text("page")
    assert "the Bombing Table (bombing_table) on the Rule tables page [2.5]" in page and "--" not in page
    assert "in Options as result=" in page
    code, err = _cli(apto, capsys, "--target", "W 4428", "--unit", "b29", "--mission", "strategic_bombing",
                     "--dice", "2,5")
    assert code == 2 and "--table bombing_table=CSV" in err and "--option result=" in err
    assert "nothing recorded" in err


def test_2_5_the_page_names_the_table_before_and_at_resolve(apto):
    v = strike_page(apto, "allies", "W 4428", ("b29",), "strategic_bombing")
    assert v.assess() is not None
    assert "Rule tables page" in v.dice_note.value and "--" not in v.dice_note.value
    assert v.resolve("2,5") is None
    assert "bombing_table" in v.problem and "Rule tables page" in v.problem and "--" not in v.problem
    assert not strike_log(apto.state)


def test_56_4_3_port_mining_without_the_port_size_asks_for_it(witp, capsys):
    """witp [56.4.3] port mining: the MSP loss depends on whether the port is major or minor;
    without it Resolve names the option (port=major|minor), never "port None"."""
    p = engine.plan_of(witp.state, witp.map, side="allies", target="E2118", units=["b17"], mission="port_mining")
    with pytest.raises(engine.StrikeNeeds) as e:
        resolve_strike(witp, p, dice=[4])
    assert "None" not in str(e.value) and "in Options as port=major|minor [56.4.3]" in e.value.text("page")
    assert not strike_log(witp.state)
    code, err = _cli(witp, capsys, "--target", "E2118", "--unit", "b17", "--mission", "port_mining", "--dice", "4")
    assert code == 2 and "--option port=major|minor [56.4.3]" in err and "None" not in err


def test_witp_bombardment_is_not_recorded_as_nothing_to_resolve(witp, capsys):
    """witp: the rules here resolve the Bombardment of Ports & Airbases result the player reads
    off the printed table [11.5] and the APs lost [6.3]; a bombardment with neither is refused
    naming both, and nothing is recorded."""
    witp.place_unit("japan", "Airfield", "E2118", category="installation", attrs={"level": 2}, id="jaf")
    p = engine.plan_of(witp.state, witp.map, side="allies", target="E2118", units=["b17"], mission="bombardment",
                       options={"supply_category": "A"})  # fully supplied: no Air Point Availability roll [32.2.2]
    with pytest.raises(CampaignError, match="damage_result") as e:
        resolve_strike(witp, p, dice=[])
    assert "Bombardment of Ports & Airbases Table" in str(e.value) and "eliminated.b17" in str(e.value)
    assert not strike_log(witp.state)
    ok = engine.plan_of(witp.state, witp.map, side="allies", target="E2118", units=["b17"], mission="bombardment",
                        options={"damage_result": "S", "supply_category": "A"})
    assert resolve_strike(witp, ok, dice=[]) is not None and len(strike_log(witp.state)) == 1
    code, err = _cli(witp, capsys, "--target", "E2118", "--unit", "b17", "--mission", "bombardment",
                     "--option", "supply_category=A")
    assert code == 2 and "--option damage_result=S|D1|D2|D3|D4 [11.5]" in err


def test_the_pages_findings_name_no_cli_flags(witp):
    """The page has no CLI: the witp findings that ask for the Air Point Availability Table [9.0],
    the altitude [5.2] and the naval strike's target [5.1.6] name what to enter, not a flag."""
    v = attach(StrikeWidget, witp, interval=60).view
    v.side.value = "allies"
    v.choose_target("E2118")
    v.launch.value = ("b17",)
    v.mission.value = "naval"
    assert v.assess() is not None, v.problem
    text = v.findings.value
    assert "[9.0]" in text and "[5.2]" in text and "[5.1.6]" in text
    assert "--" not in text
