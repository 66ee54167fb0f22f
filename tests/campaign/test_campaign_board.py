"""The board the rules read: each game's kinds of board data (board.toml), the hexes the rulebook
text names with them (board.csv) on the shipped map, the report of what is missing, and entering
more in one step (Board set-up from Python and the command line)."""

from __future__ import annotations

import json

import pytest

from assistant.campaign import Campaign, CampaignError
from assistant.maps import list_games, load_map
from assistant.maps.attrs import hex_attributes
from assistant.maps.board import board_kinds, board_rows
from assistant.rules import board as rb
from assistant.rules.kinds import ROLES, load_kinds
from clikit import run_cli
from rulebooks import assert_says


@pytest.mark.parametrize("game", list_games())
def test_every_kind_names_what_the_game_declares(game):
    """A kind's attributes are hex attributes of the game, its roles kinds' roles, its aids real."""
    declared = hex_attributes(game)
    kinds = board_kinds(game)
    assert kinds, f"{game} declares no board data its rules read"
    for kid, k in kinds.items():
        assert k.attrs or k.roles or k.pieces or k.table, kid
        assert {x.lower() for x in k.pieces} <= {x.lower() for x in load_kinds(game)}, (kid, k.pieces)
        assert set(k.attrs) <= set(declared), (kid, set(k.attrs) - set(declared))
        assert set(k.roles) <= set(ROLES), (kid, k.roles)
        assert k.rule.startswith("[") and k.quote and k.cannot and k.enter, kid
        assert set(k.aids) <= {"supply", "strike", "ledger"}, kid


@pytest.mark.parametrize("game", [g for g in list_games() if board_rows(g)])
def test_every_row_the_text_names_is_on_the_shipped_map(game):
    """board.csv's attributes are on the shipped map's graph, over the derived map and territories."""
    gm = load_map(game)
    g = gm.graph()
    for r in board_rows(game):
        label = gm.grid.label(gm.grid.parse(r.hex))
        node = g.nodes[label]
        for k, v in r.attrs.items():
            assert node.get(k) == v, (r.hex, k, node.get(k), v)
        assert r.rule and r.quote, r.hex


ROWS = [(g, r) for g in list_games() for r in board_rows(g)]


@pytest.mark.parametrize("game, row", ROWS, ids=[f"{g}-{r.hex}-{r.kind}" for g, r in ROWS])
def test_rulebook_every_rows_quote_is_the_rulebooks_own_words(game, row):
    """Each row of the inventory quotes its rule as the rulebook prints it."""
    assert_says(game, row.quote)


def test_a_row_of_an_undeclared_kind_is_refused_naming_the_row(tmp_path, monkeypatch):
    from assistant.maps import board

    (tmp_path / "board.toml").write_text((board.kinds_path("globalwar")).read_text())
    (tmp_path / "board.csv").write_text("hex,kind,place,attrs,rule,quote,note\nW2901,oil,x,communications=yes,[1],q,\n")
    monkeypatch.setattr(board, "game_dir", lambda game: tmp_path)
    board.board_kinds.cache_clear()
    board.board_rows.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"board.csv row 1 \(W2901\): kind 'oil' is not declared"):
            board.board_rows("globalwar")
        (tmp_path / "board.csv").write_text("hex,kind,place,attrs,rule,quote,note\n"
                                            "W2901,communications,x,communications=perhaps,[1],q,\n")
        board.board_rows.cache_clear()
        with pytest.raises(ValueError, match="W2901.*perhaps"):
            board.board_rows("globalwar")
    finally:
        board.board_kinds.cache_clear()
        board.board_rows.cache_clear()


@pytest.fixture
def globalwar(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="globalwar")
    yield c
    c.close()


def test_a_new_board_says_what_is_missing_and_for_whom(globalwar):
    """[9.1.3] reads Industrial Hexes, which the text does not place: each Major Power lacks them."""
    report = globalwar.board.report()
    ih = report.status("industrial_hex")
    assert not ih.complete and not report.complete
    assert {g.nation for g in ih.gaps} == {"germany", "italy", "japan", "commonwealth", "france", "ussr", "us"}
    assert "No Industrial Hex of Germany is entered yet: enter the Industrial Hexes in Board set-up" in [
        g.text for g in ih.gaps]
    # the map's own label, "the Industrial Center in W3020" [24.5], is offered for adoption
    assert ih.adoptable == (("W3020", "German Industrial Center"),)
    comms = report.status("communications")
    assert [e.hex for e in comms.named][:2] == ["W3001", "W3002"] and len(comms.named) == 10
    assert comms.entered == () and [g.text for g in comms.gaps] == [
        "No Communications Area hex is entered yet: enter the Communications Area hexes in Board set-up"]
    assert "the board is incomplete: enter Industrial Hexes (7 nations)" in report.summary()


def test_adopting_the_labelled_place_fills_that_nations_gap_in_one_undoable_step(globalwar):
    before = globalwar.state.last_seq
    rec = globalwar.board.adopt("industrial_hex")
    assert rec.seq == before + 1
    (u,) = [u for u in globalwar.state.units.values() if u.hex == "W3020"]
    assert (u.kind, u.nation, u.side) == ("Industrial Hex", "germany", "axis")
    ih = globalwar.board.report().status("industrial_hex")
    assert "germany" not in {g.nation for g in ih.gaps} and [e.hex for e in ih.entered] == ["W3020"]
    assert ih.adoptable == ()
    globalwar.undo()
    assert "germany" in {g.nation for g in globalwar.board.report().status("industrial_hex").gaps}


def test_marking_hexes_by_label_and_place_is_one_step_and_clear_takes_them_off(globalwar):
    globalwar.board.enter("communications", ["W3012", "W 3013"])
    comms = globalwar.board.report().status("communications")
    assert [e.hex for e in comms.entered] == ["W3012", "W3013"] and comms.complete
    assert globalwar.state.map_corrections["W3012"]["communications"] is True
    globalwar.board.enter("communications", "W3012", clear=True)
    assert [e.hex for e in globalwar.board.report().status("communications").entered] == ["W3013"]


@pytest.mark.parametrize("kind, hexes, message", [
    ("oil", ["W3012"], "'oil' is not a kind of board data of globalwar (kinds: industrial_hex, supply_center"),
    ("communications", [], "name the hexes to mark as Communications Area hexes"),
    ("communications", ["Nowhere"], "“Nowhere” is neither a hex nor a place on the Global War map"),
    ("communications", ["W9999"], "W9999 is off the Global War map"),
])
def test_bad_board_input_is_one_line_naming_it_and_records_nothing(globalwar, kind, hexes, message):
    before = globalwar.state.last_seq
    with pytest.raises(CampaignError) as e:
        globalwar.board.enter(kind, hexes)
    assert message in str(e.value) and "\n" not in str(e.value)
    assert globalwar.state.last_seq == before


def test_the_rules_see_the_gap_and_lose_it_once_entered(globalwar):
    """rules.board.gap: None once the player has entered one beyond the text's hexes."""
    from assistant.campaign.world import world_of

    world = world_of(globalwar.state, globalwar.graph())
    assert rb.gap(world, "communications").text.startswith("No Communications Area hex is entered yet")
    assert rb.gap(world, "industrial_hex", "finland") is None  # not a country the text gives Industrial Hexes
    assert rb.gap(world, "industrial_hex", "germany").reason().rule == "[9.1.3]"
    globalwar.board.enter("communications", ["W3012"])
    world = world_of(globalwar.state, globalwar.graph())
    assert rb.gap(world, "communications") is None


def test_campaign_board_prints_the_report_and_marks_hexes(tmp_path):
    home = tmp_path / "home"
    f = tmp_path / "g.campaign"
    assert run_cli("new", str(f), "--game", "globalwar", home=home).returncode == 0
    r = run_cli("board", str(f), home=home)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("the board is incomplete: enter Industrial Hexes (7 nations)")
    assert "the map labels: German Industrial Center (W3020)" in r.stdout
    r = run_cli("board", str(f), "--kind", "industrial_hex", "--adopt", home=home)
    assert r.returncode == 0 and "placed industrial-hex-1 (germany Industrial Hex) at W3020" in r.stdout
    r = run_cli("board", str(f), "--kind", "communications", "--hex", "W3012", "W3013", home=home)
    assert r.returncode == 0 and "map W3012: communications=yes" in r.stdout
    data = json.loads(run_cli("board", str(f), "--json", home=home).stdout)
    comms = next(k for k in data["kinds"] if k["kind"] == "communications")
    assert comms["complete"] and [e["hex"] for e in comms["entered"]] == ["W3012", "W3013"]
    assert len(comms["named"]) == 10 and comms["named"][0]["rule"] == "[3.1.4];[9.2.1]"


@pytest.mark.parametrize("args, message", [
    (["--hex", "W3012"], "name the kind of board data to mark (--kind)"),
    (["--kind", "communications"], "give the hexes to mark (--hex) or --adopt, not both or neither"),
    (["--kind", "communications", "--adopt", "--hex", "W3012"], "not both or neither"),
    (["--kind", "communications", "--hex", "Q1"], "“Q1” is neither a hex nor a place on the Global War map"),
])
def test_campaign_board_refuses_bad_input_in_one_line(tmp_path, args, message):
    home = tmp_path / "home"
    f = tmp_path / "g.campaign"
    assert run_cli("new", str(f), "--game", "globalwar", home=home).returncode == 0
    r = run_cli("board", str(f), *args, home=home)
    assert r.returncode == 2 and message in r.stderr and r.stderr.count("\n") == 1


def test_the_readmes_board_figures_are_the_inventorys():
    """README's table of what each shipped map holds cannot drift from board.csv and board.toml."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    table = text.split("<!-- board-counts:", 1)[1].split("\n\n", 1)[0]
    rows = {r.split("|")[1].strip(): r.split("|")[2:4] for r in table.splitlines() if r.startswith("| ")}
    for game in list_games():
        held, kinds = rows[game]
        n, hexes = len(board_rows(game)), len({r.hex for r in board_rows(game)})
        assert held.strip().startswith(f"{n}: " if n == hexes else f"{n} rows, {hexes} hexes:"), (game, held)
        assert kinds.strip() == str(len(board_kinds(game))), (game, kinds)


def test_a_hex_the_text_names_is_never_the_players_entry_of_another_kind(tmp_path):
    """apto's oil hexes are resource hexes the text names ([9.0], [11.42]): they are not home cities
    or resource hexes the player entered for [7.0], though the same attribute marks both; a piece the
    player places on a text-named hex is the player's (Global War's W2905, an errata hex)."""
    with Campaign.create(tmp_path / "a.campaign", game="apto") as c:
        home = c.board.report().status("home_source")
        assert home.entered == () and len(home.gaps) == 5
    with Campaign.create(tmp_path / "g.campaign", game="globalwar") as c:
        c.board.enter("industrial_hex", ["W2905"], nation="commonwealth")
        assert [e.hex for e in c.board.report().status("industrial_hex").entered] == ["W2905"]
