"""A unit placed by type hears what the placement rules say of its hex, as ``campaign place`` does:
a Global War AD type placed on a hex of a country with no Industrial Hex entered [17.1.2.B] is
placed with the warning -- one stderr line from ``campaign oob place`` (exit 0), on the record
from Python, and under the Place button of the orders-of-battle page."""

from __future__ import annotations

import pytest

from assistant.aids.oob.commands import ImportTypes, PlaceByType
from assistant.aids.oob.widget import OobWidget
from assistant.campaign import Campaign
from clikit import run
from rulebooks import Quotes

RULEBOOK = Quotes("globalwar")
FRANCE = "W3019"  # a land hex of France: no Industrial Hex entered
SAID = f"{FRANCE} holds no Industrial Hex piece: an AD stands only on an Industrial Hex ([17.1.2.B]"


@pytest.fixture
def gw_file(tmp_path):
    with Campaign.create(tmp_path / "g.campaign", game="globalwar") as c:
        c.execute(ImportTypes(rows=[{"unit_type": "German AD", "kind": "AD", "nation": "germany", "attack": "4"}]))
        path = c.path
    return path


@RULEBOOK.says("ADs may never be placed on non-Industrial Hexes.")
def test_17_1_2_B_oob_place_prints_the_warning_on_stderr_and_python_has_it(gw_file, capsys):
    code, out, err = run(capsys, "oob", "place", gw_file, "--type", "German AD", "--hex", FRANCE)
    assert code == 0 and "placed" in out and FRANCE in out
    [line] = err.splitlines()
    assert line.startswith(f"warning: {SAID}") and "France" in line
    with Campaign.open(gw_file) as c:
        rec = c.execute(PlaceByType(type="German AD", hex=FRANCE))
        [f] = rec.body.findings
        assert (f.level, f.rule) == ("warning", "17.1.2.B") and f.text.startswith(SAID)


@RULEBOOK.says("ADs may never be placed on non-Industrial Hexes.")
def test_17_1_2_B_oob_page_shows_the_warning_under_place(gw_file, tmp_path):
    with Campaign.open(gw_file) as c:
        v = OobWidget(c, log_path=tmp_path / "log")
        v.place_type.value = "German AD"
        v.place_hex.value = FRANCE
        assert v.place() == c.state.last_seq
        assert "ca-oob-place-warning" in v.place_status.value and "warning: " + SAID in v.place_status.value


test_quotes_in_rulebook = RULEBOOK.check()
