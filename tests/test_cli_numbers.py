"""Every number a command reads from its line or an imported file is read by
``assistant.numbertext``: other scripts' digits (``٣``, ``１２``), exponents, ``1_000`` and the like
are refused in one line naming the value, exit 2, and nothing is written (the campaign's events are
the same before and after). The ledger's amount has its own file (tests/aids/ledger); here: odds
``--strength``, a whole-number table column (import and the editor page), a map import's
``ground_mp``, dice ``--values``, ``--seed``, ``--since``, the ledger's ``--turn`` and ``--data``,
``hex locate``'s degrees."""

from __future__ import annotations

import pytest

from assistant.aids.tables import tables_of
from assistant.aids.tables.widget import TableEditor
from assistant.campaign import Campaign
from clikit import event_rows, run

HOSTILE = ["\u0663", "\uff11\uff12", "1_0", "1e3", "0x10", "nan", "1e100000000"]
PYTHONISMS = ("Traceback", "invalid literal", "Exceeds the limit", "ValueError", "invalid int value")


events = event_rows


def refused(code, out, err, *words):
    assert code == 2 and out == "", (code, out, err)
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert all(w in err for w in words), err
    assert not any(p in err for p in PYTHONISMS), err


@pytest.fixture(scope="module")
def witp(tmp_path_factory):
    path = tmp_path_factory.mktemp("witp") / "w.campaign"
    Campaign.create(path, game="witp", scenario="guadalcanal-1942").close()
    return path


@pytest.fixture(scope="module")
def gw(tmp_path_factory):
    path = tmp_path_factory.mktemp("gw") / "gw.campaign"
    Campaign.create(path, game="globalwar").close()
    return path


@pytest.mark.parametrize("value", HOSTILE + ["100", "-1"], ids=repr)
def test_odds_strength(capsys, value):
    refused(*run(capsys, "odds", "apto", "air-attack", "--strength", value), f"strength '{value}'",
            "a whole number from 0 to 99")


def test_odds_strength_reads_a_plain_number(capsys):
    code, out, err = run(capsys, "odds", "apto", "air-attack", "--strength", " 5 ")
    assert code == 0 and "target number 5" in out, err


@pytest.mark.parametrize("value", HOSTILE, ids=repr)
def test_a_whole_number_table_column_on_import(capsys, gw, tmp_path, value):
    csv = tmp_path / "t.csv"
    csv.write_text(f"turn,nation,radius\n1,,{value}\n", encoding="utf-8")
    before = events(gw)
    refused(*run(capsys, "table", "import", gw, "lrb_radius", csv), "line 2 column radius", f"'{value}'",
            "is not a whole number")
    assert events(gw) == before


@pytest.mark.parametrize("value", ["\u0663", "\uff11\uff12"], ids=repr)
def test_a_numeric_pattern_column_takes_only_the_digits_0_9(capsys, gw, tmp_path, value):
    """A text column written as digits (a differential like +4) is matched by its pattern in ASCII."""
    csv = tmp_path / "t.csv"
    csv.write_text(f"differential,die,pp_lost\n+{value},3,8\n", encoding="utf-8")
    before = events(gw)
    refused(*run(capsys, "table", "import", gw, "lrb_crt", csv), "line 2 column differential", f"'+{value}'")
    assert events(gw) == before


def test_the_table_editor_page_refuses_other_scripts_digits(gw):
    with Campaign.open(gw) as c:
        before = c.state.last_seq
        ed = TableEditor(c)
        ed.picker.value = "lrb_crt"
        for cell, v in zip(ed.cells[0], ["+6", "\u0663", "8"]):
            cell.value = v
        ed.save.click()
        assert "line 2 column die: &#x27;\u0663&#x27; is not a whole number: use the digits 0-9" in ed.status.value
        assert c.state.last_seq == before and "lrb_crt" not in tables_of(c.state)
        assert not any(p in ed.status.value for p in PYTHONISMS)


@pytest.mark.parametrize("value", HOSTILE, ids=repr)
def test_map_import_ground_mp(capsys, witp, tmp_path, value):
    csv = tmp_path / "m.csv"
    csv.write_text(f"hex,hex_b,attribute,value\nE2418,,ground_mp,{value}\n", encoding="utf-8")
    before = events(witp)
    refused(*run(capsys, "map", "import", witp, csv), "line 2", "ground_mp", f"'{value}'")
    assert events(witp) == before


def test_map_import_names_the_digits_rule(capsys, witp, tmp_path):
    csv = tmp_path / "m.csv"
    csv.write_text("hex,hex_b,attribute,value\nE2418,,ground_mp,\u0663\n", encoding="utf-8")
    assert "written with the digits 0-9" in run(capsys, "map", "import", witp, csv)[2]


@pytest.mark.parametrize("value", HOSTILE, ids=repr)
def test_dice_values_and_seed(capsys, witp, value):
    before = events(witp)
    refused(*run(capsys, "roll", witp, "1d6", "--values", value), "--values", f"die value '{value}'")
    refused(*run(capsys, "roll", witp, "1d6", "--seed", value), "--seed", f"seed '{value}'")
    assert events(witp) == before


@pytest.mark.parametrize("value", HOSTILE, ids=repr)
def test_log_since(capsys, witp, value):
    refused(*run(capsys, "log", witp, "--since", value), "--since", f"event number '{value}'")


@pytest.mark.parametrize("value", ["\u0663", "\uff11\uff12", "-5", "99999999999"], ids=repr)
def test_ledger_turn(capsys, witp, value):
    refused(*run(capsys, "ledger", witp, "--turn", value), f"--turn '{value}'")


@pytest.mark.parametrize("value", ["\u0663", "\uff11\uff12"], ids=repr)
def test_ledger_data_is_not_kept_as_text_that_reads_as_a_number(capsys, witp, value):
    before = events(witp)
    refused(*run(capsys, "ledger", witp, "add", "--side", "allies", "--kind", "adjust", "--amount", "0",
                 "--data", f"em={value}"), f"em '{value}'", "use the digits 0-9")
    assert events(witp) == before


@pytest.mark.parametrize("value", HOSTILE + ["91", "-90.5"], ids=repr)
def test_hex_locate_degrees(capsys, value):
    refused(*run(capsys, "hex", "locate", "witp", value, "160"), f"latitude '{value}'", "from -90 to 90")


def test_a_whole_number_hexside_feature_takes_only_the_digits_0_9():
    """No game declares one yet; one declared later reads its numbers as every other field does."""
    from assistant.maps.hexsides import Feature, HexsideError

    f = Feature("ferry_cost", "int", "[0.0]")
    assert f.coerce(" 3 ") == 3 and f.coerce(3) == 3
    for bad in ("\u0663", "1_0", "1e3", "9" * 5000, True):
        with pytest.raises(HexsideError, match="takes a whole number"):
            f.coerce(bad)
