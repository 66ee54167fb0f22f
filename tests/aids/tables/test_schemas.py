"""The schemas of the unprinted tables: one for every table an aid reads, the
template header matching it, and the cells the READMEs and rulebooks quote accepted; bad cells
named by line, column and value."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assistant.campaign.errors import CampaignError
from assistant.campaign.tableschema import check_csv, schema_of, schemas
from assistant.maps import list_games
from rulebooks import Quotes, text

ROOT = Path(__file__).resolve().parents[3]
GAMES = list_games()
GLOBALWAR = Quotes("globalwar")


def tables_read_by_rules(game: str) -> set[str]:
    """Every table name the game's rules read from ``world.tables`` (as literals or module constants)."""
    names = set()
    for p in (ROOT / "assistant" / "rules" / game).glob("*.py"):
        text = p.read_text()
        names |= set(re.findall(r'tables(?:\.get)?[\[(]\s*"([a-z_]+)"', text))
        consts = dict(re.findall(r'^([A-Z_]+)\s*=\s*"([a-z_]+)"', text, re.M))
        for const in re.findall(r"tables(?:\.get)?[\[(]\s*(?:\w+\.)?([A-Z_]+)", text):
            if const in consts:
                names.add(consts[const])
        names |= {v for k, v in consts.items() if k in ("TABLE", "LRB_RADIUS", "AD_LRB_CRT", "LRB_CRT", "MULTIPLES",
                                                        "COSTS", "CP_TABLE", "PP_MULTIPLE_TABLE", "COSTS_TABLE",
                                                        "INCOME_TABLE")}
    return names


@pytest.mark.parametrize("game", GAMES)
def test_every_template_has_a_schema_and_its_header_matches(game):
    d = ROOT / "data" / "games" / game / "templates"
    templates = {p.stem for p in d.glob("*.csv")}
    assert templates and templates == set(schemas(game))
    for name, s in schemas(game).items():
        header = (d / f"{name}.csv").read_text().splitlines()[0].split(",")
        assert header[: len(s.columns)] == [c.name for c in s.columns]
        assert s.rule and s.used_by and all((ROOT / u).exists() for u in s.used_by)
        assert f"{name}.csv" in (d / "README.md").read_text()


@pytest.mark.parametrize("game", GAMES)
def test_every_unprinted_table_an_aid_reads_has_a_schema(game):
    read = tables_read_by_rules(game) - {"ground_mp"}  # witp's terrain MP is a map layer table, not on a chart
    assert read, "the scan found no table names: the test would pass vacuously"
    assert read <= set(schemas(game)), read - set(schemas(game))


def test_the_cells_the_rulebook_reveals_pass():
    # 24.5.A "Under the +4 column a die roll of 4 gives 1/A"; 24.5.B "A die roll of 3 means ... 8 fewer PPs"
    assert check_csv("globalwar", "ad_lrb_crt", "differential,die,ad_destroyed,lrb_destroyed,lrb_aborted\n+4,4,1,0,1\n").rows
    assert check_csv("globalwar", "lrb_crt", "differential,die,pp_lost\n+6,3,8\n+12..,6,20\n..-3,1,0\n").rows
    # the [18.2.2] example as a row the player may enter: Mech 3 PP, built on Turn 2, appears on Turn 6
    assert check_csv("globalwar", "production_costs", "type,build_cost,build_turns,rebuild_cost,rebuild_turns,"
                                                      "undeplete_cost,undeplete_turns\nMech,3,4,,,,\n").rows
    # apto [4.15]: the western area off the W map is 10
    assert check_csv("apto", "large_sea_areas", "area,mp,border\nWestern,10,W 2000;W 2100\n").rows
    assert check_csv("apto", "bombing_table", "column,roll,result\n17-24,7,3*\n120+,2,-*\n2-5,12,-\n").rows


@pytest.mark.parametrize("csv, named", [
    ("column,roll,result\n17-24,13,3\n", "line 2 column roll: '13' is above 12"),        # 2d6 [2.5]
    ("column,roll,result\n17 to 24,7,3\n", "line 2 column column: '17 to 24'"),
    ("column,roll,result\n17-24,7,3\n17-24,7,4\n", "line 3: key"),
    ("column,roll,result\n17-24,7\n", "line 2: 2 cells for 3 columns"),
    ("column,roll,reslt\n17-24,7,3\n", "line 1: header"),
])
def test_a_bad_apto_bombing_row_names_its_line_and_value(csv, named):
    with pytest.raises(CampaignError, match=re.escape(named)):
        check_csv("apto", "bombing_table", csv)


def test_globalwar_die_is_one_d6_and_nations_are_the_major_powers():
    with pytest.raises(CampaignError, match=r"line 2 column die: '7' is above 6"):
        check_csv("globalwar", "lrb_crt", "differential,die,pp_lost\n+6,7,8\n")
    with pytest.raises(CampaignError, match=r"line 3 column nation: 'prussia' is not one of"):
        check_csv("globalwar", "production_multiples", "turn,nation,multiple\n1,germany,3\n1,prussia,2\n")


APAT = "dr,0,1-12,13-24,25-36,37-48,49-60,61+\n"


def test_apat_percentages_and_bands_9_0():
    ok = check_csv("witp", "air_point_availability", APAT + "2,50,40,30,20,10,5,0\n3,60%,50,40,30,20,10,5\n")
    assert ok.rows[1][1] == "60%"
    with pytest.raises(CampaignError, match=r"line 2 column 0: '101' is above 100"):
        check_csv("witp", "air_point_availability", APAT + "2,101,40,30,20,10,5,0\n")
    with pytest.raises(CampaignError, match=r"line 1: column 'far' is not a band"):
        check_csv("witp", "air_point_availability", "dr,0,far\n2,50,40\n")


def test_apat_monotonic_by_distance_and_roll_9_0():
    # [9.0]: a shift past 61+ is a -1 DRM: further right reads as a lower roll
    with pytest.raises(CampaignError, match=r"line 2: column 1-12 50 after column 0 40 \(nonincreasing \[9.0\]\)"):
        check_csv("witp", "air_point_availability", APAT + "2,40,50,30,20,10,5,0\n")
    with pytest.raises(CampaignError, match=r"line 3: column 0 40 at dr 3 against 50 at dr 2"):
        check_csv("witp", "air_point_availability", APAT + "2,50,40,30,20,10,5,0\n3,40,40,30,20,10,5,0\n")


def test_pp_multiple_range_53_1_and_ordered_bands():
    # [53.1] "1.1 the highest to 0.6 the lowest"
    assert check_csv("witp", "japanese_pp_multiple", "msp_min,msp_max,multiple\n0,10,0.6\n11,,1.1\n").rows
    with pytest.raises(CampaignError, match=r"line 2 column multiple: '1.2' is above 1.1"):
        check_csv("witp", "japanese_pp_multiple", "msp_min,msp_max,multiple\n0,10,1.2\n")
    with pytest.raises(CampaignError, match=r"line 2: msp_min 11 is above msp_max 10"):
        check_csv("witp", "japanese_pp_multiple", "msp_min,msp_max,multiple\n11,10,0.9\n")
    with pytest.raises(CampaignError, match=r"'nan' is not a number"):
        check_csv("witp", "japanese_pp_multiple", "msp_min,msp_max,multiple\n0,10,nan\n")


@pytest.mark.parametrize("game", GAMES)
def test_the_rule_numbers_cited_are_in_the_rulebooks(game):
    book = text(game)
    for s in schemas(game).values():
        number = re.match(r"[\d.]+\d", s.rule).group(0)  # 17.1.3.A: lettered paragraph A of 17.1.3
        assert re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", book), (game, s.name, s.rule)


@GLOBALWAR.says("Range of LRBs varies from turn to turn")
def test_lrb_radius_is_per_turn_as_17_1_3_A_says():
    assert schema_of("globalwar", "lrb_radius").rule == "17.1.3.A"


test_quotes_in_rulebook = GLOBALWAR.check()
