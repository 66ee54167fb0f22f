"""Two writers on one ledger. A one-shot command (``campaign ledger FILE add``) showed the player
nothing, so it is checked on the campaign as it is when it writes and applied if the rules still
allow it: against a page writing entries at about four a second, every command-line entry is
recorded and every entry the page was told was recorded is there. Where the rules no longer allow
it at write time, the command's own refusal is given (exit 2, or 1 for a rule of the ledger) and
nothing is written; only a command whose target is taken from the state (undo's last command, the
turn a close-turn closes) meets a conflict, exit 3. A page, which showed its view, still reports
"changed since you looked".

These run the real witp economy (no stand-in): building an entry there reads the hex graph, which
is what made the window between opening and writing wide enough to lose nearly every entry."""

from __future__ import annotations

import subprocess
import threading

import pytest

from assistant.aids.ledger.commands import AddEntry
from assistant.aids.ledger.engine import book_of
from assistant.campaign import Campaign, StaleViewError
from assistant.cli.common import EXIT_BAD_INPUT, EXIT_CONFLICT
from campaignkit import PY, REPO, subprocess_env
from clikit import run_cli


@pytest.fixture
def path(tmp_path):
    p = tmp_path / "g.campaign"
    Campaign.create(p, game="witp", scenario="guadalcanal-1942").close()
    return p


def items(path) -> list[str]:
    with Campaign.open(path, readonly=True) as c:
        return [e.item for e in book_of(c.state).entries]


def add(path, item: str, *extra: str):
    return run_cli("ledger", path, "add", "--side", "allies", "--kind", "income", "--amount", "1", "--item", item,
                   *extra)


@pytest.mark.slow
def test_every_cli_entry_is_applied_while_a_page_writes_four_a_second(path):
    """The player's case: each ``campaign ledger FILE add`` a process of its own (opening, reading the
    hex graph, checking the entry take it seconds), a page recording an entry every quarter second
    all along. Before, 13 of 14 such commands were refused "changed since you looked"."""
    stop, acked, conflicts = threading.Event(), [], []

    def page() -> None:  # a ledger page: polls its view, records on it, is told of a conflict
        with Campaign.open(path) as c:
            n = 0
            while not stop.is_set():
                c.poll()
                try:
                    rec = c.execute(AddEntry(side="japan", kind="income", amount=1, item=f"page {n}"))
                    acked.append(rec.body.entries[0]["item"])
                    n += 1
                except StaleViewError:
                    conflicts.append(n)
                stop.wait(0.25)

    writer = threading.Thread(target=page, daemon=True)
    writer.start()
    try:
        results = [subprocess.run([PY, "-m", "assistant.cli", "ledger", str(path), "add", "--side", "allies",
                                   "--kind", "income", "--amount", "1", "--item", f"cli {i}"],
                                  cwd=REPO, env=subprocess_env(), capture_output=True, text=True, timeout=120)
                   for i in range(14)]
    finally:
        stop.set()
        writer.join(30)
    assert [r.stderr for r in results if r.returncode] == []
    kept = items(path)
    assert sorted(i for i in kept if i.startswith("cli")) == sorted(f"cli {i}" for i in range(14))  # none lost, none twice
    assert [i for i in kept if i.startswith("page")] == acked  # every entry the page was told of, in order
    cli_at = [n for n, i in enumerate(kept) if i.startswith("cli")]
    between = [i for i in kept[cli_at[0]:cli_at[-1]] if i.startswith("page")]
    assert len(between) >= 14, f"the page wrote only {len(between)} entries while the commands ran"


@pytest.fixture
def writes_between(monkeypatch):
    """Make ``Campaign.open(..., one_shot=True)`` (the command line's) run ``between(path)`` on
    another connection right after it opens: another writer's events land between the command's
    open and its write, every time."""
    hooks = []
    real = Campaign.open.__func__

    def open_(cls, path, **kw):
        c = real(cls, path, **kw)
        if kw.get("one_shot"):
            for h in hooks:
                h(path)
        return c

    monkeypatch.setattr(Campaign, "open", classmethod(open_))
    return hooks.append


def test_a_page_entry_between_open_and_write_is_kept_and_the_cli_entry_follows_it(path, writes_between):
    def page(p):
        with Campaign.open(p) as c:
            c.execute(AddEntry(side="japan", kind="income", amount=3, item="from the page"))

    writes_between(page)
    r = add(path, "from the command line")
    assert r.returncode == 0, r.stderr
    assert items(path) == ["from the page", "from the command line"]


def test_a_unit_removed_between_open_and_write_is_the_commands_own_refusal(path, writes_between):
    def remove(p):
        with Campaign.open(p) as c:
            c.remove_unit("1st-marine-division")

    writes_between(remove)
    with Campaign.open(path, readonly=True) as c:
        before = [e.seq for e in c.events()]
    r = run_cli("move", path, "1st-marine-division", "E2519")
    assert r.returncode == EXIT_BAD_INPUT and "1st-marine-division" in r.stderr, r.stderr
    assert "changed since you looked" not in r.stderr and r.stderr.count("\n") == 1
    with Campaign.open(path, readonly=True) as c:
        assert len(c.events()) == len(before) + 1  # the other writer's removal, nothing of the move
        assert "1st-marine-division" not in c.state.units


def test_a_spend_the_rules_no_longer_allow_at_write_time_exits_1_and_writes_nothing(path, writes_between):
    r = run_cli("ledger", path, "add", "--side", "allies", "--kind", "income", "--amount", "10")
    assert r.returncode == 0, r.stderr

    def spend(p):  # the other window spends what the command line means to spend
        with Campaign.open(p) as c:
            c.execute(AddEntry(side="allies", kind="spend", amount=8, item="the other window's"))

    writes_between(spend)
    r = run_cli("ledger", path, "add", "--side", "allies", "--kind", "spend", "--amount", "8")
    assert r.returncode == 1 and "refused:" in r.stdout, (r.stdout, r.stderr)
    assert [i for i in items(path) if i] == ["the other window's"]


def test_undo_meets_a_conflict_when_another_writer_appended_exit_3(path, writes_between):
    assert add(path, "mine").returncode == 0

    def note(p):
        with Campaign.open(p) as c:
            c.add_note("the other window's note")

    writes_between(note)
    with Campaign.open(path, readonly=True) as c:
        last = c.state.undo_stack[-1]
    r = run_cli("undo", path)
    assert r.returncode == EXIT_CONFLICT, r.stderr
    assert r.stderr.startswith("error: not applied: another writer changed the campaign while this command ran")
    assert f"the last command is now #{last + 1}, not #{last}" in r.stderr
    with Campaign.open(path, readonly=True) as c:
        assert c.state.undo_stack[-1] == last + 1 and items(path) == ["mine"]  # nothing undone


def test_a_page_still_reports_the_conflict_with_the_view_it_saw(path):
    with Campaign.open(path) as page, Campaign.open(path) as other:
        other.execute(AddEntry(side="allies", kind="income", amount=5, item="other"))
        with pytest.raises(StaleViewError, match="changed since you looked.*the ledger has changed"):
            page.execute(AddEntry(side="allies", kind="income", amount=1, item="page"))
    assert items(path) == ["other"]


def test_close_turn_meets_a_conflict_when_another_writer_moved_the_turn_exit_3(path, writes_between):
    def advance(p):
        with Campaign.open(p) as c:
            c.advance()

    writes_between(advance)
    r = run_cli("ledger", path, "close-turn", "--side", "allies")
    assert r.returncode == EXIT_CONFLICT and "the turn is now" in r.stderr, r.stderr
    assert items(path) == []  # the new turn was not closed in the old one's stead


def test_the_exit_statuses_are_listed_in_help():
    r = run_cli("--help")
    assert r.returncode == 0
    listed = r.stdout.split("exit status:")[1]
    assert f"\n  {EXIT_BAD_INPUT}  bad input" in listed and f"\n  {EXIT_CONFLICT}  conflict" in listed
