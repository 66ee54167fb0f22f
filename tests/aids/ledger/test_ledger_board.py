"""The ledger on a board without what its income reads: the forecast names the missing board data
and books nothing for it (never a confident 0)."""

from __future__ import annotations

import pytest

from assistant.campaign import Campaign
from rulebooks import Quotes

GW = Quotes("globalwar")
APTO = Quotes("apto")


@pytest.fixture
def globalwar(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="globalwar")
    yield c
    c.close()


@GW.says("The number of PPs available to a Major Power is equal to the number of home country Industrial Centers "
         "currently operating under friendly control")
def test_globalwar_forecast_names_the_missing_industrial_hexes_and_books_no_production(globalwar):
    """[18.0.D] counts a Major Power's Industrial Hexes: with none entered, no Production line (0 PP
    would be a confident wrong answer), and the forecast says which board data is missing."""
    steps = [s for st in globalwar.ledger.forecast("axis") for s in st.steps]
    assert ("board: No Industrial Hex of Germany is entered yet: enter the Industrial Hexes in Board set-up "
            "([9.1.3]): the income that reads them is not computed") in steps
    lines = [ln for st in globalwar.ledger.forecast("axis") for ln in st.lines]
    assert not [ln for ln in lines if (ln.item or "") == "Production"]
    globalwar.board.adopt("industrial_hex")  # the map's German Industrial Center, W3020 [24.5]
    steps = [s for st in globalwar.ledger.forecast("axis") for s in st.steps]
    assert not [s for s in steps if "Industrial Hex of Germany" in s]
    assert [s for s in steps if "Industrial Hex of Italy" in s]


@APTO.says("+2 EPs")
def test_apto_forecast_names_the_missing_resource_hexes(tmp_path):
    c = Campaign.create(tmp_path / "a.campaign", game="apto")
    try:
        steps = [s for st in c.ledger.forecast("allies") for s in st.steps]
        assert any(s.startswith("board: No resource hex of US is entered yet") for s in steps), steps
        # the text names four Dutch oil hexes, not every resource hex the printed map holds: still asked
        assert any(s.startswith("board: No resource hex of Dutch is entered yet") for s in steps), steps
        c.board.enter("resource", ["W 1615"])
        steps = [s for st in c.ledger.forecast("allies") for s in st.steps]
        assert not any("resource hex of Dutch" in s for s in steps) and any("of US" in s for s in steps)
    finally:
        c.close()


test_quotes_in_rulebook_globalwar = GW.check()
test_quotes_in_rulebook_apto = APTO.check()
