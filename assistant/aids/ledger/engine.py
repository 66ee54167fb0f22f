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

from ...campaign import validate as v
from ...campaign.errors import CampaignError
from ...campaign.handover import LEDGER_LINES, provided
from ...campaign.mapfix import corrections_of
from ...campaign.world import settings_of, world_of
from ...maps.board import board_kinds
from ...rules.board import gaps as board_gaps
from ...rules.ledger import Book, Economy, Entry, LedgerContext, NoEconomy, Statement, economy_for, statements
from .events import ledger_entries


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


#: How far ahead a calendar refusal looks for the next turn it is allowed in: apto's War extension
#: is bought in the Summer 1945 Seasonal Turn only [11.5], eight years after the campaign opens.
YEARS_AHEAD = 10


def context_of(state, graph, tables=None, turn: Optional[int] = None) -> LedgerContext:
    t = state.calendar.turn(turn, 0) if turn is not None else state.turn
    return LedgerContext(world=world_of(state, graph, tables=tables), turn=t.index, turn_label=t.label,
                         turn_kind=t.kind, year=t.year, period=t.period, labels=labels_of(state),
                         where=finder(state, t.index, t.phase_index))


def finder(state, index: int, phase: int = 0):
    """The calendar search an economy's calendar refusal asks (``LedgerContext.where``): the first
    position after (``index``, ``phase``) where a predicate holds (``campaign.calendar.next_turn_where``)."""
    from ...campaign.calendar import next_turn_where

    cal = state.calendar
    return lambda predicate: next_turn_where(cal, index, phase, predicate, years=YEARS_AHEAD)


def timings_of(state, entry: Entry, ctx: LedgerContext) -> list:
    """The calendar timings of ``entry`` the turn in force does not meet (the economy's ``when``)."""
    when = getattr(economy(state.game), "when", None)
    return [t for t in (when(entry, ctx) if when is not None else ()) if not t.allows_now(ctx)]


def go_to(campaign, index: int, phase: int = 0) -> list:
    """Advance ``campaign`` to the calendar position (``index``, ``phase``) through its advance
    command, one event per step (whole turns, then phases: ``campaign.calendar.steps_to``), each
    undoable; returns the event records. Stops at the first step refused (another writer moved
    the turn): the steps taken stay recorded and the error is raised."""
    from ...campaign.calendar import steps_to

    now = campaign.state.turn
    steps = steps_to(campaign.state.calendar, now.index, now.phase_index, index, phase)
    return [campaign.advance(step) for step in steps]


def advance_commands(state, index: int, phase: int = 0, file: str = "FILE") -> str:
    """The CLI commands that take the campaign to (``index``, ``phase``): ``campaign advance FILE``
    so many times, then ``--phase`` so many times."""
    from ...campaign.calendar import steps_to

    steps = steps_to(state.calendar, state.turn.index, state.turn.phase_index, index, phase)
    turns, phases = steps.count("turn"), steps.count("phase")
    how = ([f"campaign advance {file}" + (f" ({turns} times)" if turns > 1 else "")] if turns else []) + \
          ([f"campaign advance {file} --phase" + (f" ({phases} times)" if phases > 1 else "")] if phases else [])
    return ", then ".join(how)


# ----- what other aids booked -----------------------------------------------------------------
def handed_over(book: Book, side: str, turns: Iterable[int]) -> list[Entry]:
    """The entries other aids booked for ``side`` in ``turns`` (the strike plotter's losses: a
    negative id and a ``source``), in recorded order."""
    want = set(turns)
    return [e for e in book.entries if e.id < 0 and "source" in e.data and e.side == side and e.turn in want]


def booked_note(state, side: str, kind: str, book: Optional[Book] = None) -> str:
    """What the strike plotter has already booked for ``side`` in the turn in force (apto: and in
    the season its Seasonal Turn nets: the economy's ``loss_turns``), and, for an income entry,
    which figure to type (the game's ``INCOME_FIGURE``: the production before the strikes, as the
    rules subtract the losses); "" when it booked nothing or the entry is neither income nor loss."""
    if kind not in ("income", "loss"):
        return ""
    eco = economy(state.game)
    book = book or book_of(state)
    now = state.turn
    spans = getattr(eco, "loss_turns", None)
    turns = tuple(spans(now.index, now.kind, book.labels)) if spans is not None else (now.index,)
    lines = handed_over(book, side, turns)
    if not lines:
        return ""
    from ...rules.ledger import account_name

    who = next((x.name for x in state.sides if x.id == side), side)
    where = now.label if turns == (now.index,) else f"{book.labels.get(turns[0], turns[0])} to {now.label}"
    parts = [f"{_n(e.amount)} {account_name(eco, e.account)} lost ({e.data['source']}"
             + (f", {e.item}" if e.item and e.item != e.data["source"] else "")
             + (f", {e.rule if e.rule.startswith('[') else '[' + e.rule + ']'}" if e.rule else "") + ")" for e in lines]
    booked = (f"The strike plotter has booked for {who} in {where}: " + "; ".join(parts)
              + ". They are in the ledger already: do not enter them again.")
    figure = getattr(eco, "INCOME_FIGURE", "") if kind == "income" else ""
    return f"{booked} {figure}".strip()


def _n(x: Any) -> Any:
    return int(x) if float(x).is_integer() else float(x)


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


def _source_of(e: Entry) -> str:
    """Where a book entry came from: the player's entry, a turn's close, or the aid that handed it over."""
    if "source" in e.data and e.id < 0:
        return str(e.data["source"])
    return "close" if e.data.get("close") else "entry"


def frame(state, book: Optional[Book] = None):
    """Every line of every statement as the typed table ``ledger_lines`` (``tables.LINE_COLUMNS``):
    one row per line, in statement order; a turn without lines has no row."""
    from ...campaign.exporttables import typed_frame
    from .tables import LINE_COLUMNS

    book = book or book_of(state)
    by_id = {e.id: e for e in book.entries}
    cal = state.calendar
    rows: list[dict[str, Any]] = []
    for st in statements_of(state, turns=book.turns(), book=book):
        if not st.lines:
            continue
        base = {"turn": st.turn, "turn_label": st.turn_label, "date": cal.first_day(st.turn), "side": st.side,
                "account": st.account}
        for line in st.lines:
            e = by_id.get(line.entry)
            rows.append({**base, "kind": line.kind, "amount": _float(line.amount), "item": line.item,
                         "rule": line.rule or None, "note": line.note, "entry": line.entry,
                         "seq": None if e is None else e.seq, "source": None if e is None else _source_of(e)})
    return typed_frame(LINE_COLUMNS, rows)


def statements_frame(state, book: Optional[Book] = None, first: Optional[int] = None,
                     turns: Optional[Iterable[int]] = None):
    """The typed table ``ledger_statements`` (``tables.STATEMENT_COLUMNS``): one row per side,
    account and turn of ``turns`` (default: every turn from ``first``, or the first with a line,
    to the current one or the last with a line), a turn without lines carrying its balance."""
    from ...campaign.exporttables import typed_frame
    from .tables import STATEMENT_COLUMNS

    book = book or book_of(state)
    if turns is None:
        have = book.turns() + [state.turn.index]
        lo = min(have) if first is None else min(first, min(have))
        turns = range(lo, max(have) + 1)
    cal = state.calendar
    rows = []
    for st in statements_of(state, turns=turns, book=book):
        t = totals(st)
        rows.append({"turn": st.turn, "turn_label": st.turn_label, "date": cal.first_day(st.turn), "side": st.side,
                     "account": st.account, "opening": _float(st.opening), **{k: _float(x) for k, x in t.items()},
                     "closing": _float(st.closing), "lines": len(st.lines)})
    return typed_frame(STATEMENT_COLUMNS, rows)


def totals(st: Statement) -> dict[str, Any]:
    """A statement's ``income`` (income lines, transfers and reserve received), ``spending`` (spend,
    transfers and reserve given, positive), ``losses`` (loss lines, positive) and ``adjustments``
    (adjust lines, signed): opening + income - spending - losses + adjustments = closing."""
    out: dict[str, Any] = {"income": 0, "spending": 0, "losses": 0, "adjustments": 0}
    for line in st.lines:
        a = line.amount
        if line.kind == "adjust":
            out["adjustments"] += a
        elif line.kind == "loss":
            out["losses"] -= a
        elif a >= 0 and line.kind in ("income", "transfer", "reserve"):
            out["income"] += a
        else:
            out["spending"] -= a
    return out


def _float(x: Any) -> Optional[float]:
    return None if x is None else float(x)


def forecast_needs(state, graph, side: str, tables=None, ctx: Optional[LedgerContext] = None) -> list:
    """The printed tables the income of ``side``'s forecast needs and the player has not entered
    (the economy's ``forecast_needs``: apto's Table X [8.1], [8.2]), each a ``TableNeed``."""
    fn = getattr(economy(state.game), "forecast_needs", None)
    if fn is None:
        return []
    ctx = ctx or context_of(state, graph, tables)
    return list(fn(side, ctx))


def need_head(need) -> str:
    """What a table the forecast needs gives, and that it is not entered ("the seasonal EP income
    needs Table X (ep_incomes) [8.1];[8.2], not entered")."""
    return f"{need.what} needs {need.title} ({need.table}) {need.rule}, not entered"


def need_text(need, surface: str = "cli", file: str = "FILE") -> str:
    """A table the forecast needs, as a surface says it: the page names the Rule tables page, the
    CLI ``campaign table import``."""
    where = ("enter it on the Rule tables page" if surface == "page"
             else f"enter it with campaign table import {file} {need.table} CSV")
    return f"{need_head(need)}: {where}"


def forecast(state, graph, side: str, tables=None, surface: str = "cli", file: str = "FILE") -> list[Statement]:
    """``side``'s statements for the turn in force as the rules compute them: the recorded entries,
    the income the rules fix (not yet recorded) and the close. Nothing is recorded. Its working
    says what the strike plotter booked for the side this turn and which income figure to type,
    and which printed table the income needs and is not entered (``surface``: how to enter it)."""
    eco = economy(state.game)
    ctx = context_of(state, graph, tables)
    book = book_of(state)
    needs = forecast_needs(state, graph, side, tables, ctx)
    booked = booked_note(state, side, "income", book)
    recorded = {(e.item or "").lower() for e in book.entries if e.kind == "income" and e.side == side
                and e.turn == ctx.turn}  # a line the player recorded is not forecast again
    planned = [e for e in eco.income(book, side, ctx) if (e.item or "").lower() not in recorded]
    for e in planned:
        book = book.with_entry(e)
    for e in eco.close_turn(book, side, ctx):
        book = book.with_entry(e)
    acc = accounts_of(state, [side])
    out = _noted(state, statements(book, [side], acc, [ctx.turn]))
    read = tuple(k for k, kind in board_kinds(state.game).items() if "ledger" in kind.aids)
    missing = [f"board: {g.text} ({g.rule}): the income that reads them is not computed"
               for g in board_gaps(ctx.world, side, read)]
    for st in out:
        st.steps.append("forecast: income the rules compute and the turn's close, not recorded")
        st.steps += missing
        st.steps += [need_text(n, surface, file) for n in needs if st.account in (n.accounts or (st.account,))]
        if booked and st is out[0]:
            st.steps.append(booked)
    return out


def played_turns(campaign) -> list[int]:
    """The calendar indexes of the turns ``campaign`` has played, from its first to the current one."""
    s = campaign.state
    return sorted({t for t, _ in campaign.turn_ends()} | {s.turn.index})


def campaign_turn(campaign, value: Any, what: str = "turn") -> int:
    """``value`` (a turn label in any form the game prints, or a calendar index) as the calendar
    index of a turn ``campaign`` has played; a CampaignError naming ``what`` and its turns otherwise."""
    s = campaign.state
    index = s.calendar.index_of(value, around=s.turn.index, what=what)
    played = played_turns(campaign)
    if not played[0] <= index <= played[-1]:
        raise CampaignError(not_played(campaign, value, what))
    return index


def not_played(campaign, value: Any, what: str = "turn") -> str:
    """The one line that says ``value`` is not a turn ``campaign`` has played, and which are."""
    cal, played = campaign.state.calendar, played_turns(campaign)
    first, last = (cal.turn(i).label for i in (played[0], played[-1]))
    turns = (f"its only turn is {first} (calendar index {played[0]})" if len(played) == 1 else
             f"its turns are {first} to {last} (calendar index {played[0]}-{played[-1]})")
    return f"{what} {v.show(value)} is not a turn of this campaign: {turns}"


class LedgerView:
    """``campaign.ledger``: the production ledger of an open campaign, read and written from Python
    with the commands the CLI and the ledger page use. A side is its id or its name; a turn a label
    in any form the game prints ("G/T 4/8/42", "4/8/42") or a calendar index; a bad one raises a
    one-line CampaignError naming the argument and what it may be.

    >>> campaign.ledger.add("allies", "income", 40, note="chart")  # doctest: +ELLIPSIS
    EventRecord(...)
    >>> campaign.ledger.statements(side="Allies")[0].closing
    40
    >>> _ = campaign.undo()
    """

    def __init__(self, campaign):
        self.campaign = campaign

    def __repr__(self) -> str:
        return f"<ledger of {self.campaign.path}>"

    # ----- arguments --------------------------------------------------------------------------
    def _side(self, side: Any) -> Optional[str]:
        return None if side is None else v.side(self.campaign.state, side)

    def _turn(self, turn: Any) -> Optional[int]:
        return None if turn is None else campaign_turn(self.campaign, turn)

    def _turns(self, turns: Any) -> Optional[list[int]]:
        if turns is None:
            return None
        many = list(turns) if isinstance(turns, (list, tuple, set, frozenset, range)) else [turns]
        return sorted({campaign_turn(self.campaign, t, "turns") for t in many})

    # ----- read -------------------------------------------------------------------------------
    def book(self) -> Book:
        """Every entry and handed-over line, in recorded order (``rules.ledger.Book``).

        >>> len(campaign.ledger.book().entries)
        0
        """
        return book_of(self.campaign.state)

    def log(self, side: Any = None, turn: Any = None) -> list[Entry]:
        """The ledger's entries (the player's, the closes', the lines other aids hand over), in
        recorded order, of ``side`` (either end of a transfer) and ``turn`` when given.

        >>> rec = campaign.ledger.add("japan", "income", 9)
        >>> [(e.side, e.kind, e.amount) for e in campaign.ledger.log(side="Japan")]
        [('japan', 'income', 9)]
        >>> _ = campaign.undo()
        """
        side, turn = self._side(side), self._turn(turn)
        return self.book().of(side=side, turn=turn)

    def frame(self, side: Any = None, turns: Any = None):
        """Every line of every statement: the typed table ``ledger_lines`` (docs/data.md), one row
        per line, of ``side`` and ``turns`` (a turn or several: labels or calendar indexes) when given.

        >>> rec = campaign.ledger.add("allies", "income", 12, note="chart")
        >>> campaign.ledger.frame(side="Allies", turns="4/8/42")[["side", "account", "kind", "amount", "note"]]
             side account    kind  amount   note
        0  allies      CP  income    12.0  chart
        >>> _ = campaign.undo()
        """
        return self._filtered(frame(self.campaign.state), side, turns)

    lines = frame

    def statements_frame(self, side: Any = None, turns: Any = None):
        """Every statement of every side, account and turn from the campaign's first turn to the
        current one: the typed table ``ledger_statements`` (docs/data.md; a turn with no line
        carries its balance), of ``side`` and ``turns`` when given.

        >>> rec = campaign.ledger.add("allies", "income", 12)
        >>> campaign.ledger.statements_frame(side="allies")[["account", "opening", "income", "closing"]].head(2)
          account  opening  income  closing
        0      CP      0.0    12.0     12.0
        1      PP      0.0     0.0      0.0
        >>> _ = campaign.undo()
        """
        first = played_turns(self.campaign)[0]
        return self._filtered(statements_frame(self.campaign.state, first=first), side, turns)

    def _filtered(self, df, side: Any, turns: Any):
        side, turns = self._side(side), self._turns(turns)
        if side is not None:
            df = df[df["side"] == side]
        if turns is not None:
            df = df[df["turn"].isin(turns)]
        return df.reset_index(drop=True)

    def statements(self, side: Any = None, turn: Any = None) -> list[Statement]:
        """The statements (``rules.ledger.Statement``: opening, every line with its rule, closing,
        the working) of ``side`` (every side) for ``turn`` (every turn with a line, and the current one).

        >>> [(st.account, st.closing) for st in campaign.ledger.statements(side="Japan", turn="G/T 4/8/42")][:3]
        [('CP', 0), ('PP', 0), ('HQ', 0)]
        >>> campaign.ledger.statements(side="nobody")
        Traceback (most recent call last):
        ...
        assistant.campaign.errors.CampaignError: side 'nobody' is not a side of witp (sides: japan, allies)
        """
        side, turn = self._side(side), self._turn(turn)
        return statements_of(self.campaign.state, None if side is None else [side], None if turn is None else [turn])

    def forecast(self, side: Any, tables=None) -> list[Statement]:
        """``side``'s statements for the turn in force as the rules compute them (the income they
        fix and the close); nothing is recorded.

        >>> [st.account for st in campaign.ledger.forecast("allies")]
        ['CP', 'PP', 'HQ', 'reserve', 'future_ops']
        """
        return forecast(self.campaign.state, self.campaign.graph(), v.side(self.campaign.state, side), tables)

    def items(self, side: Any) -> list[Any]:
        """What the rules text prices for ``side`` (``rules.ledger.Priced``: item, kind, account,
        amount or None where a table the player enters gives it, rule).

        >>> [(p.amount, p.rule) for p in campaign.ledger.items("allies") if p.item == "APA/APB repair"]
        [(3, '[60.2.1]')]
        """
        s = self.campaign.state
        return economy(s.game).catalogue(v.side(s, side), context_of(s, self.campaign.graph()))

    def queue(self, side: Any = None):
        """The build queue: entries with an arrival turn, by arrival (``views.build_queue``).

        >>> campaign.ledger.queue("allies")
        []
        """
        from .views import build_queue

        return build_queue(self.campaign.state, self._side(side))

    # ----- write (each one undoable event: campaign.undo()) ----------------------------------
    def add(self, side: Any, kind: Any, amount: Any = None, *, account: Any = None, item: Any = None,
            note: Any = None, to_side: Any = None, to_account: Any = None, data: Any = None, tables: Any = None):
        """Record one entry in the turn in force, after the game's economy has checked it (the
        command ``campaign ledger FILE add`` runs): ``kind`` one of income, loss, spend, transfer,
        reserve, adjust; ``amount`` in the game's points (text as typed, or a number), or left out
        for an item the rules price. Returns the EventRecord; ``campaign.undo()`` withdraws it. An
        entry the rules forbid raises ``commands.RuleRefusal`` (a CampaignError with the findings).

        >>> rec = campaign.ledger.add("Allies", "income", 10, item="CP income")
        >>> rec = campaign.ledger.add("Allies", "spend", item="APA/APB repair")  # the rules price it
        >>> rec.body.entries[0]["amount"], rec.body.entries[0]["account"], rec.body.entries[0]["rule"]
        (3, 'CP', '[60.2.1]')
        >>> campaign.ledger.add("allies", "bribe", 3)
        Traceback (most recent call last):
        ...
        assistant.campaign.errors.CampaignError: ledger kind 'bribe' is not one of income, loss, spend, transfer, reserve, adjust
        >>> _ = campaign.undo(), campaign.undo()
        """
        from .commands import AddEntry

        return self.campaign.execute(AddEntry(side=side, kind=kind, amount=amount, account=account, item=item,
                                              note=note, to_side=to_side, to_account=to_account, data=data,
                                              tables=tables))

    def go_to(self, where: Any):
        """Advance the campaign to where the calendar allows an entry it refused: ``where`` is the
        refusal (``RuleRefusal``, its ``allowed_at``) or that position; one advance event per turn
        or phase, each undone by ``campaign.undo()``. Returns the event records.

        >>> try:
        ...     campaign.ledger.add("allies", "income", 5, account="PP")
        ... except Exception as refusal:
        ...     print(refusal.allowed_at.title)
        Strategic G/T 0/9/42, Production Phase
        """
        place = getattr(where, "allowed_at", where)
        if place is None or not hasattr(place, "index"):
            raise CampaignError("nothing to go to: the refusal does not depend on the calendar")
        return go_to(self.campaign, place.index, place.phase_index)

    def close_turn(self, side: Any, tables=None):
        """Close ``side``'s turn in force: the carry-over and expiry the rules compute, recorded as
        one event (``campaign ledger FILE close-turn``); ``campaign.undo()`` reopens it.

        >>> rec = campaign.ledger.close_turn("japan")
        >>> [e["kind"] for e in rec.body.entries]
        ['adjust']
        >>> _ = campaign.undo()
        """
        from .commands import CloseTurn

        return self.campaign.execute(CloseTurn(side=side, tables=tables))


def graph_of(state, ctx_map):
    """The map graph a command sees (the state's corrections on the campaign's map)."""
    return ctx_map.graph(corrections_of(state))
