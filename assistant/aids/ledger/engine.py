"""The ledger's engine: the book of a campaign, its statements, a forecast, and a DataFrame.

``book_of(state)`` gathers the recorded entries (the ``ledger`` slice) and the lines other aids
hand over (``assistant.campaign.handover.LEDGER_LINES``: e.g. the strike plotter's losses, booked to
the side's main account in the strike's turn); with no such aid installed there are none to book.
``statements_of`` folds them per side, account and turn; ``frame`` is the
whole history as a pandas DataFrame; ``forecast`` is next turn's statement as the rules compute
it (income, then the close) without recording anything. ``LedgerView`` is ``campaign.ledger``.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional

from ...campaign.errors import CampaignError
from ...campaign.handover import LEDGER_LINES, provided
from ...campaign.mapfix import corrections_of
from ...campaign.world import settings_of, world_of
from ...rules.ledger import Book, Economy, Entry, LedgerContext, NoEconomy, Statement, economy_for, statements
from .events import ledger_entries

COLUMNS = ["turn", "turn_label", "side", "account", "kind", "amount", "item", "rule", "note", "entry",
           "opening", "closing"]


def economy(game: str) -> Economy:
    try:
        return economy_for(game)
    except NoEconomy as e:
        raise CampaignError(str(e)) from None


def labels_of(state) -> dict[int, str]:
    cal = state.calendar
    return {i: cal.turn(i, 0).label for i in range(state.turn.index + 2)}


def book_of(state) -> Book:
    """Every ledger entry of ``state`` and the lines other aids hand over, in recorded order."""
    eco = economy(state.game)
    entries = [Entry.from_json(e) for e in ledger_entries(state)]
    for line in provided(LEDGER_LINES, state):
        accounts = eco.accounts(line.side) if line.side else ()
        entries.append(Entry(side=line.side, turn=line.turn, kind=line.kind, amount=line.amount,
                             account=line.account or (accounts[0] if accounts else "?"),
                             item=line.item or line.source, note=line.note, rule=line.rule,
                             data={"source": line.source}, id=line.id, seq=line.seq))
    entries.sort(key=lambda e: e.seq)
    return Book(tuple(entries), labels_of(state))


def context_of(state, graph, tables=None, turn: Optional[int] = None) -> LedgerContext:
    t = state.calendar.turn(turn, 0) if turn is not None else state.turn
    return LedgerContext(world=world_of(state, graph, tables=tables), turn=t.index, turn_label=t.label,
                         turn_kind=t.kind, year=t.year, period=t.period, labels=labels_of(state))


def accounts_of(state, sides: Optional[Iterable[str]] = None) -> dict[str, tuple[str, ...]]:
    eco = economy(state.game)
    return {s.id: tuple(eco.accounts(s.id)) for s in state.sides if sides is None or s.id in set(sides)}


def statements_of(state, sides: Optional[Iterable[str]] = None, turns: Optional[Iterable[int]] = None,
                  book: Optional[Book] = None) -> list[Statement]:
    """The statements of ``sides`` (all) for ``turns`` (every turn with an entry, and the current one)."""
    book = book or book_of(state)
    acc = accounts_of(state, sides)
    if turns is None:
        turns = sorted(set(book.turns()) | {state.turn.index})
    return _noted(state, statements(book, list(acc), acc, turns))


def _noted(state, sts: list[Statement]) -> list[Statement]:
    """Each statement with the working its game's rules give it (``statement_notes``: e.g. apto's
    EP deficit [8.1], [8.4]), where the rules have any."""
    notes = getattr(economy(state.game), "statement_notes", None)
    if notes is not None:
        settings = settings_of(state)
        for st in sts:
            st.steps += notes(st, settings)
    return sts


def frame(state, book: Optional[Book] = None):
    """Every line of every statement as a pandas DataFrame (one row per line; a turn without lines
    gives one row with kind None, so balances show every turn)."""
    import pandas as pd

    rows: list[dict[str, Any]] = []
    for st in statements_of(state, book=book):
        base = {"turn": st.turn, "turn_label": st.turn_label, "side": st.side, "account": st.account,
                "opening": st.opening, "closing": st.closing}
        if not st.lines:
            rows.append({**base, "kind": None, "amount": 0, "item": None, "rule": None, "note": None, "entry": None})
        for line in st.lines:
            rows.append({**base, "kind": line.kind, "amount": line.amount, "item": line.item, "rule": line.rule,
                         "note": line.note, "entry": line.entry})
    return pd.DataFrame(rows, columns=COLUMNS)


def forecast(state, graph, side: str, tables=None) -> list[Statement]:
    """``side``'s statements for the turn in force as the rules compute them: the recorded entries,
    the income the rules fix (not yet recorded) and the close. Nothing is recorded."""
    eco = economy(state.game)
    ctx = context_of(state, graph, tables)
    book = book_of(state)
    recorded = {(e.item or "").lower() for e in book.entries if e.kind == "income" and e.side == side
                and e.turn == ctx.turn}  # a line the player recorded is not forecast again
    planned = [e for e in eco.income(book, side, ctx) if (e.item or "").lower() not in recorded]
    for e in planned:
        book = book.with_entry(e)
    for e in eco.close_turn(book, side, ctx):
        book = book.with_entry(e)
    acc = accounts_of(state, [side])
    out = _noted(state, statements(book, [side], acc, [ctx.turn]))
    for st in out:
        st.steps.append("forecast: income the rules compute and the turn's close, not recorded")
    return out


class LedgerView:
    """``campaign.ledger``: the production ledger of an open campaign."""

    def __init__(self, campaign):
        self.campaign = campaign

    def book(self) -> Book:
        return book_of(self.campaign.state)

    def statements(self, side: Optional[str] = None, turn: Optional[int] = None) -> list[Statement]:
        return statements_of(self.campaign.state, None if side is None else [side],
                             None if turn is None else [turn])

    def frame(self):
        return frame(self.campaign.state)

    def forecast(self, side: str, tables=None) -> list[Statement]:
        return forecast(self.campaign.state, self.campaign.graph(), side, tables)

    def queue(self, side: Optional[str] = None):
        """The build queue: entries with an arrival turn, by arrival (``views.build_queue``)."""
        from .views import build_queue

        return build_queue(self.campaign.state, side)

    def add(self, side: str, kind: str, amount: Any = None, **kw):
        from .commands import AddEntry

        return self.campaign.execute(AddEntry(side=side, kind=kind, amount=amount, **kw))

    def close_turn(self, side: str, tables=None):
        from .commands import CloseTurn

        return self.campaign.execute(CloseTurn(side=side, tables=tables))


def graph_of(state, ctx_map):
    """The map graph a command sees (the state's corrections on the campaign's map)."""
    return ctx_map.graph(corrections_of(state))
