"""No page names a file: a table the player must enter is named with a link to the Rule tables page,
the map's data in words, never ``templates/lrb_radius.csv`` (the CLI may name the template file).

The pages are driven as test_page_words drives them (every game, a corpus of ordinary and bad
input) and every text they show is scanned for a file path.
"""

from __future__ import annotations

import re

import pytest

from test_page_words import DRIVERS, GAMES, Seen, campaign_of

pytestmark = pytest.mark.timeout(900)

FILE_PATH = re.compile(r"templates/|\.csv\b|\.csv\.gz\b")
PAGES = {name: DRIVERS[name] for name in ("strike", "supply", "ledger", "campaign", "map editor", "tables", "oob",
                                          "board")
         if name in DRIVERS}


def test_the_scan_finds_a_file_path():
    for text in ("enter table lrb_radius (templates/lrb_radius.csv)", "derived/hexsides.csv.gz",
                 "hex control reads it (territories.csv)"):
        assert FILE_PATH.search(text), text
    for text in ("enter table lrb_radius on the Rule tables page", "paste CSV here (header first)"):
        assert not FILE_PATH.search(text), text


@pytest.mark.parametrize("game,scenario", GAMES, ids=[f"{g}-{s or 'new'}" for g, s in GAMES])
def test_no_page_names_a_file(tmp_path, game, scenario):
    seen = Seen()
    c = campaign_of(tmp_path, game, scenario, seen)
    try:
        for name, drive in PAGES.items():
            drive(c, seen, f"{game} {name}")
    finally:
        c.close()
    assert len(seen.texts) > 50
    named = [f"{where}: {text[:300]}" for text, where in seen.texts.items() if FILE_PATH.search(text)]
    assert named == [], f"{len(named)} text(s) name a file:\n" + "\n".join(named)


def test_the_ledgers_item_notes_name_no_file(tmp_path):
    """apto's Seasonal income [8.1], [8.2] is read off Table X: its note on the ledger page said
    "Table X (template ep_incomes.csv)", a file, where the player enters the table on a page."""
    from assistant.aids.ledger.widget import LedgerWidget
    from assistant.campaign import Campaign
    from assistant.ui.kit import attach

    with Campaign.create(tmp_path / "a.campaign", game="apto") as c:
        while c.state.turn.kind != "seasonal":
            c.advance()
        v = attach(LedgerWidget, c, interval=60).view
        v.side.value = "japan"
        v.item.value = "Seasonal income"
        assert "Table X" in v.price_note.value
        assert not FILE_PATH.search(v.price_note.value), v.price_note.value
        assert "Rule tables page" in v.price_note.value
