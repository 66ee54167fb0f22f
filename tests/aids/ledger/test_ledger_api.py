"""``campaign.ledger`` from Python: the examples in its docstrings run as tests on a fresh demo
campaign (witp, Guadalcanal, the real economy), and every method reads sides by id or name and
turns by label or index, refusing a bad one in one line that names the argument and what it may be."""

from __future__ import annotations

import doctest
from pathlib import Path

import pandas as pd
import pytest

from assistant.aids.ledger import engine
from assistant.aids.ledger.tables import LINE_COLUMNS, STATEMENT_COLUMNS
from assistant.campaign import Campaign, CampaignError
from assistant.campaign.exporttables import typed_frame


@pytest.fixture
def demo(tmp_path):
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    yield c
    c.close()


def _examples():
    finder = doctest.DocTestFinder()
    return [t for t in finder.find(engine.LedgerView, "LedgerView", globs={}) if t.examples]


@pytest.mark.parametrize("test", _examples(), ids=lambda t: t.name)
def test_docstring_examples_run_on_the_demo(demo, test):
    test.globs = {"campaign": demo}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
    assert demo.ledger.book().entries == ()  # each example undoes what it records


def test_every_public_method_has_an_example():
    names = {t.name.rsplit(".", 1)[-1] for t in _examples()}
    public = {n for n in dir(engine.LedgerView) if not n.startswith("_")}
    assert public <= names | {"lines"}, public - names  # lines is frame
    assert engine.LedgerView.lines is engine.LedgerView.frame


def _dtypes(columns):
    return [str(typed_frame(columns, []).dtypes[c.name]) for c in columns]


def test_the_tables_are_typed_alike_empty_or_not_and_are_what_export_writes(demo, tmp_path):
    for name, columns in (("ledger_lines", LINE_COLUMNS), ("ledger_statements", STATEMENT_COLUMNS)):
        assert [str(t) for t in demo.table(name).dtypes] == _dtypes(columns)
    assert len(demo.table("ledger_lines")) == 0  # no filler row for a turn without lines
    demo.ledger.add("allies", "income", 40, note="=1+1")
    demo.ledger.close_turn("japan")
    lines = demo.table("ledger_lines")
    assert [str(t) for t in lines.dtypes] == _dtypes(LINE_COLUMNS)
    pd.testing.assert_frame_equal(lines, demo.ledger.frame())
    assert lines[["side", "kind", "amount", "source"]].values.tolist() == [
        ["japan", "adjust", 0.0, "close"], ["allies", "income", 40.0, "entry"]]
    assert lines["date"].tolist() == [pd.Timestamp("1942-08-06")] * 2 and lines["turn_label"].tolist() == ["G/T 4/8/42"] * 2
    pd.testing.assert_frame_equal(demo.table("ledger_statements"), demo.ledger.statements_frame())
    demo.export(tmp_path / "out", "csv")
    from assistant.campaign.csvout import frame_csv

    assert (tmp_path / "out" / "g-ledger_lines.csv").read_text() == frame_csv(lines)


def test_statements_table_runs_from_the_campaigns_first_turn_to_the_current_one(demo):
    first = demo.state.turn.index
    demo.advance("turn")
    demo.advance("turn")
    demo.ledger.add("japan", "income", 6)  # the first line is in the third turn
    st = demo.table("ledger_statements")
    accounts = len(engine.accounts_of(demo.state)["japan"]) + len(engine.accounts_of(demo.state)["allies"])
    assert sorted(set(st["turn"])) == [first, first + 1, first + 2] and len(st) == 3 * accounts
    assert (st[st.turn < first + 2]["lines"] == 0).all()
    assert demo.table("ledger_statements", turns=first + 1)["turn"].unique().tolist() == [first + 1]
    label = demo.state.calendar.turn(first + 2).label
    assert sorted(set(demo.ledger.statements_frame(turns=[first, label])["turn"])) == [first, first + 2]


def test_lines_another_aid_hands_over_are_rows_with_their_source(demo, monkeypatch):
    from assistant.campaign.handover import LEDGER_LINES, PROVIDERS, LedgerLine

    line = LedgerLine(id=-101, seq=demo.state.last_seq, turn=demo.state.turn.index, source="strike 1",
                      side="japan", amount=8, rule="[56.4.3]", note="port attack")
    monkeypatch.setitem(PROVIDERS, LEDGER_LINES, {**PROVIDERS.get(LEDGER_LINES, {}), "stand-in": lambda state: [line]})
    df = demo.ledger.frame(side="japan")
    assert df[["kind", "amount", "entry", "seq", "source", "rule"]].values.tolist() == [
        ["loss", -8.0, -101, demo.state.last_seq, "strike 1", "[56.4.3]"]]


@pytest.mark.parametrize("turn", ["G/T 4/8/42", "4/8/42", 44, "44"])
def test_a_turn_is_read_in_every_form_the_game_prints(demo, turn):
    demo.ledger.add("allies", "income", 5)
    assert [e.amount for e in demo.ledger.log(side="allies", turn=turn)] == [5]
    assert len(demo.ledger.frame(turns=turn)) == 1
    assert {st.turn for st in demo.ledger.statements(turn=turn)} == {44}


@pytest.mark.parametrize("call, named", [
    (lambda L: L.statements(side="nobody"), "side 'nobody' is not a side of witp (sides: japan, allies)"),
    (lambda L: L.frame(side="nobody"), "side 'nobody' is not a side of witp"),
    (lambda L: L.statements_frame(side=3), "side 3 is not a side of witp"),
    (lambda L: L.log(side="nobody"), "side 'nobody'"),
    (lambda L: L.forecast("nobody"), "side 'nobody'"),
    (lambda L: L.items("nobody"), "side 'nobody'"),
    (lambda L: L.queue("nobody"), "side 'nobody'"),
    (lambda L: L.add("nobody", "income", 3), "side 'nobody'"),
    (lambda L: L.close_turn("nobody"), "side 'nobody'"),
    (lambda L: L.add("allies", "income", "lots"), "amount"),
    (lambda L: L.statements(turn="Smarch 99"), "turn "),
    (lambda L: L.statements(turn=3.5), "turn must be a turn label (as 'G/T 4/8/42') or a calendar index"),
    (lambda L: L.statements(turn=40), "turn 40 is not a turn of this campaign: its only turn is G/T 4/8/42 "
                                      "(calendar index 44)"),
    (lambda L: L.frame(turns=[44, "G/T 4/9/42"]), "turns 'G/T 4/9/42' is not a turn of this campaign"),
    (lambda L: L.log(turn=None, side=["allies"]), "side ['allies'] is not a side of witp"),
])
def test_a_bad_argument_is_one_line_naming_it_and_what_it_may_be(demo, call, named):
    before = demo.state.last_seq
    with pytest.raises(CampaignError) as e:
        call(demo.ledger)
    assert named in str(e.value) and "\n" not in str(e.value)
    assert demo.state.last_seq == before


def test_side_names_are_read_as_ids_and_undo_withdraws_an_entry(demo):
    demo.ledger.add("Allies", "income", 7)
    assert demo.ledger.frame()["side"].tolist() == ["allies"]
    assert demo.ledger.statements(side="ALLIES")[0].closing == 7
    demo.undo()
    assert len(demo.ledger.frame()) == 0 and demo.ledger.statements(side="allies")[0].closing == 0


def test_ledger_is_in_dir_of_a_campaign(demo):
    assert "ledger" in dir(demo) and repr(demo.ledger) == f"<ledger of {demo.path}>"


DOC = Path(__file__).resolve().parents[3] / "docs" / "python.md"


@pytest.mark.parametrize("heading", ["## campaign.ledger",
                                     pytest.param("## campaign.strikes", marks=pytest.mark.needs_aid("strike"))])
def test_python_md_sections_run_on_the_demo(demo, heading):
    """The page's sections on the ledger and the strikes, run as doctests on a fresh demo."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index(heading):]
    section = section[:section.find("\n## ", 1)] if "\n## " in section[1:] else section
    test = doctest.DocTestParser().get_doctest(section, {"campaign": demo}, heading, str(DOC), 0)
    assert len(test.examples) >= 8
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
