"""Views of the ledger that the dashboard and the analyst share, no widgets:

- ``sections(statement)``: a statement's lines as the player reads them (income, spending and
  losses, carry-over/expiry), each with its signed amount, item, rule and note;
- ``build_queue(state)``: the entries whose ``data["arrives"]`` names a turn (a label or a calendar
  index, as the game's economy writes it), with the turn each arrives in and whether it is due;
- ``history(statements)``: per side, account and turn the closing balance, income, spending and
  losses (what the charts draw), from ``engine.statements_frame``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ...campaign.errors import CampaignError
from ...numbertext import NumberField, NumberTextError, is_numeral
from ...rules.ledger import Book, Line, Statement
from .engine import book_of

ARRIVES = "arrives"  # the key an entry's data names its arrival turn with (a label or an index)
#: A turn's calendar index as typed: 0 (the calendar's first turn) or later. No game runs near
#: 9,999 turns (witp's Campaign Game, the longest, has fewer than 200), so a longer one is a slip.
LAST_INDEX = 9_999
SECTIONS = ("income", "spending", "carry-over")
SECTION_TITLES = {"income": "Income", "spending": "Spending and losses", "carry-over": "Carry-over / expiry"}


def section_of(line: Line) -> str:
    """Which part of a statement ``line`` belongs in: ``adjust`` (the close's carry-over, expiry
    and corrections) is "carry-over"; a line that adds to the account (income, a transfer or
    reserve received) is "income"; one that takes from it is "spending"."""
    if line.kind == "adjust":
        return "carry-over"
    return "income" if line.amount >= 0 and line.kind in ("income", "transfer", "reserve") else "spending"


def sections(st: Statement) -> dict[str, list[Line]]:
    """The statement's lines by section, in recorded order (every section present, maybe empty)."""
    out: dict[str, list[Line]] = {k: [] for k in SECTIONS}
    for line in st.lines:
        out[section_of(line)].append(line)
    return out


@dataclass(frozen=True)
class QueueItem:
    """One entry that arrives later: what, for whom, when ordered, when it arrives."""

    entry: int
    side: str
    account: str
    item: Optional[str]
    amount: Any
    ordered: int
    ordered_label: str
    arrives: int
    arrives_label: str
    due: bool  # it arrives in the turn in force or has arrived
    rule: str = ""
    note: Optional[str] = None


def turn_index(value: Any, what: str = "turn") -> int:
    """A calendar index as typed (``numbertext``: the digits 0-9, from 0 to ``LAST_INDEX``)."""
    try:
        return int(NumberField(what, 0, LAST_INDEX).read(value))
    except NumberTextError as e:
        raise CampaignError(str(e)) from None


def arrival_turn(state, value: Any, what: str = "arrives") -> int:
    """A turn given as a calendar index or a label, as a calendar index (one-line error if neither)."""
    if isinstance(value, bool):
        raise CampaignError(f"{what} {value!r} is neither a turn label nor a calendar index")
    if isinstance(value, (int, float)) or is_numeral(value):
        return turn_index(value, what)
    if isinstance(value, str) and value.strip():
        text = value.strip()
        try:
            return state.calendar.find(text, around=state.turn.index)
        except CampaignError:
            found = _by_suffix(state, text)
            if found is None:
                raise
            return found
    raise CampaignError(f"{what} {value!r} is neither a turn label nor a calendar index")


def _by_suffix(state, text: str, years: int = 12) -> Optional[int]:
    """The one turn near the turn in force whose label ends with ``text`` (witp's "0/9/42" for
    "Strategic G/T 0/9/42"); None if none or several do."""
    want = " " + " ".join(text.lower().split())
    cal = state.calendar
    span = years * len(cal.slots) * len(cal.periods)
    now = state.turn.index
    hits = [i for i in range(now - span, now + span) if (" " + " ".join(cal.turn(i).label.lower().split())).endswith(want)]
    return hits[0] if len(hits) == 1 else None


def build_queue(state, side: Optional[str] = None, book: Optional[Book] = None,
                pending_only: bool = False) -> list[QueueItem]:
    """Every entry of ``side`` (all sides) whose data names an arrival turn, by arrival then entry.
    ``pending_only`` keeps those that arrive after the turn in force."""
    book = book or book_of(state)
    now = state.turn.index
    scheduled = _scheduled(state, book, side)
    out = []
    for e in book.entries:
        if side is not None and e.side != side:
            continue
        if ARRIVES in e.data:
            at = arrival_turn(state, e.data[ARRIVES], f"entry {e.id}'s arrival")
        elif e.id in scheduled:
            at = scheduled[e.id]
        else:
            continue
        if pending_only and at <= now:
            continue
        out.append(QueueItem(entry=e.id, side=e.side, account=e.account, item=e.item, amount=e.amount,
                             ordered=e.turn, ordered_label=book.labels.get(e.turn) or state.calendar.turn(e.turn).label,
                             arrives=at, arrives_label=state.calendar.turn(at).label, due=at <= now,
                             rule=e.rule, note=e.note))
    out.sort(key=lambda q: (q.arrives, q.entry))
    return out


def unscheduled(state, side: Optional[str] = None, book: Optional[Book] = None) -> list:
    """The entries of ``side`` (all sides) that pay for a unit appearing later (the economy's
    ``awaits_arrival``: globalwar's builds [18.0.G-H]) and name no arrival turn, so the build queue
    cannot show them: the queue says so rather than stand empty."""
    book = book or book_of(state)
    try:
        from .engine import economy

        awaits = getattr(economy(state.game), "awaits_arrival", None)
    except CampaignError:
        return []
    if not callable(awaits):
        return []
    scheduled = _scheduled(state, book, side)
    return [e for e in book.entries if (side is None or e.side == side) and e.id > 0 and ARRIVES not in e.data
            and e.id not in scheduled and awaits(e)]


def _scheduled(state, book: Book, side: Optional[str]) -> dict[int, int]:
    """Arrivals the game's economy schedules itself (an optional ``arrivals(book, side)`` giving
    ``{"entry", "arrives"}`` per entry, e.g. witp's Delay Cycles [52.5], [53.8]): entry id -> turn."""
    try:
        from .engine import economy

        fn = getattr(economy(state.game), "arrivals", None)
    except CampaignError:
        return {}
    if not callable(fn):
        return {}
    out: dict[int, int] = {}
    for s in ([side] if side is not None else [x.id for x in state.sides]):
        for a in fn(book, s):
            out[int(a["entry"])] = arrival_turn(state, a["arrives"], f"entry {a['entry']}'s arrival")
    return out


def history(df):
    """Per (side, account, turn): ``closing`` balance, ``income`` (income lines and transfers
    received), ``spending`` (spend, transfers and reserve out, as a positive number), ``losses``
    (loss lines, positive), as floats, sorted by side, account, turn; from the statements
    (``engine.statements_frame``, the table ``ledger_statements``: every turn of every account) or
    from the lines (``engine.frame``, the table ``ledger_lines``: the turns each account has a line
    in, the closing balance the running total of its lines)."""
    import pandas as pd

    cols = ["side", "account", "turn", "turn_label", "closing", "income", "spending", "losses"]
    if len(df) == 0:
        return pd.DataFrame(columns=cols)
    if "closing" not in df.columns:
        df = _per_turn_of_lines(df)
    out = pd.DataFrame({c: df[c].astype(str) if c in ("side", "account", "turn_label") else
                        df[c].astype(int) if c == "turn" else df[c].astype(float) for c in cols})
    return out.sort_values(["side", "account", "turn"], kind="stable").reset_index(drop=True)


def _per_turn_of_lines(df):
    """The lines of ``ledger_lines`` summed per side, account and turn as ``engine.totals`` sums a
    statement's, with the running balance as ``closing``."""
    import pandas as pd

    amt = df["amount"].astype(float)
    kind = df["kind"].astype(str)
    received = (kind == "income") | (kind.isin(["transfer", "reserve"]) & (amt >= 0))
    work = pd.DataFrame({
        "side": df["side"].astype(str), "account": df["account"].astype(str), "turn": df["turn"].astype(int),
        "turn_label": df["turn_label"].astype(str), "amount": amt,
        "income": amt.where(received, 0.0),
        "spending": (-amt).where(~received & (kind != "loss") & (kind != "adjust"), 0.0),
        "losses": (-amt).where(kind == "loss", 0.0)})
    g = work.groupby(["side", "account", "turn"], sort=True).agg(
        turn_label=("turn_label", "first"), amount=("amount", "sum"), income=("income", "sum"),
        spending=("spending", "sum"), losses=("losses", "sum")).reset_index()
    g["closing"] = g.groupby(["side", "account"])["amount"].cumsum()
    return g
