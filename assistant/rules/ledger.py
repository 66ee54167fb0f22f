"""What every game's economy shares: ledger entries of one vocabulary, the balances they fold into,
per-turn statements that show their working, and the protocol each game's rules fill.

Layering: below the campaign (plain values). The ledger aid (``assistant/aids/ledger``) stores
entries as campaign events, builds a ``Book`` from them, and asks the game's ``Economy``
(``assistant.rules.<game>.economy.RULES``) to check an entry before it is recorded, to price known
items, to compute the income the rules fix, and to close a turn (carry-over, expiry).

Entry kinds, one vocabulary for all games (the game's own line names go in ``item``):

- ``income``   adds ``amount`` to the account;
- ``loss``     subtracts it (strategic bombing, strategic warfare, mining ...);
- ``spend``    subtracts it (builds, repairs, activations ...);
- ``transfer`` moves it from the account to ``to_side``/``to_account`` (lend-lease, lending, PP transfers);
- ``reserve``  moves it from the account into ``to_account`` (default ``"reserve"``: witp CP reserve,
  apto Economic Reserve); a negative amount draws it back;
- ``adjust``   adds a signed amount (carry-over/expiry, corrections; ``close_turn`` writes these).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Optional, Protocol, Sequence

from ..numbertext import NumberField
from .findings import Finding, When
from .registry import MissingRules, rules_module

if TYPE_CHECKING:  # the ledger's context carries a World; the ledger's arithmetic needs no graph
    from .world import World

KINDS = ("income", "loss", "spend", "transfer", "reserve", "adjust")
RESERVE = "reserve"
Number = int | float | Fraction
#: The largest amount one entry may move, either way. No rulebook bounds an entry; the figures the
#: three games print run to hundreds of points (witp's Strategic Reserve is 200 CP [28.1.1]), so
#: this keeps every real entry and refuses a slip of the keyboard (a documented bound, not a rule).
MAX_ENTRY = 99_999


def _frozen(d: Optional[Mapping[str, Any]] = None) -> Mapping[str, Any]:
    return MappingProxyType(dict(d or {}))


@dataclass(frozen=True)
class Entry:
    """One ledger entry: points gained, spent, lost, moved, held back or adjusted (``kind``, one of
    ``KINDS``), as the player records it or a game's economy computes it. ``turn`` is the calendar
    index it belongs to; ``account`` the game's account name (witp "CP"/"PP", apto "EP", globalwar
    "PP"); ``data`` holds game figures the rules computed (e.g. ``{"season": "Spring", "raw_loss":
    52}``) and where it came from (``{"source": "strike 3"}``)."""

    side: str
    turn: int
    kind: str
    amount: Number
    account: str
    item: Optional[str] = None
    note: Optional[str] = None
    rule: str = ""
    to_side: Optional[str] = None
    to_account: Optional[str] = None
    data: Mapping[str, Any] = field(default_factory=_frozen)
    id: int = 0
    seq: int = 0

    def effects(self) -> list[tuple[str, str, Number]]:
        """``(side, account, signed delta)`` of this entry on the balances."""
        a = self.amount
        if self.kind == "income" or self.kind == "adjust":
            return [(self.side, self.account, a)]
        if self.kind in ("loss", "spend"):
            return [(self.side, self.account, -a)]
        if self.kind == "transfer":
            return [(self.side, self.account, -a), (self.to_side or self.side, self.to_account or self.account, a)]
        if self.kind == "reserve":
            return [(self.side, self.account, -a), (self.side, self.to_account or RESERVE, a)]
        raise ValueError(f"entry kind {self.kind!r} is not one of {', '.join(KINDS)}")

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "seq": self.seq, "side": self.side, "turn": self.turn, "kind": self.kind,
                "amount": _num(self.amount), "account": self.account, "item": self.item, "note": self.note,
                "rule": self.rule, "to_side": self.to_side, "to_account": self.to_account, "data": dict(self.data)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Entry":
        return cls(side=d["side"], turn=d["turn"], kind=d["kind"], amount=d["amount"], account=d["account"],
                   item=d.get("item"), note=d.get("note"), rule=d.get("rule", ""), to_side=d.get("to_side"),
                   to_account=d.get("to_account"), data=_frozen(d.get("data")), id=d.get("id", 0), seq=d.get("seq", 0))


@dataclass
class Line:
    """One line of a statement: the signed effect of one entry on this account."""

    kind: str
    amount: Number
    rule: str = ""
    note: Optional[str] = None
    item: Optional[str] = None
    entry: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": _num(self.amount), "rule": self.rule, "note": self.note,
                "item": self.item, "entry": self.entry}


@dataclass
class Statement:
    """One side's account over one turn: opening balance, every line, closing balance."""

    side: str
    account: str
    turn: int
    turn_label: str
    opening: Number
    lines: list[Line] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)

    @property
    def closing(self) -> Number:
        return self.opening + sum((line.amount for line in self.lines), 0)

    def total(self, kind: str) -> Number:
        return sum((line.amount for line in self.lines if line.kind == kind), 0)

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "account": self.account, "turn": self.turn, "turn_label": self.turn_label,
                "opening": _num(self.opening), "lines": [line.to_json() for line in self.lines],
                "closing": _num(self.closing), "steps": list(self.steps)}


@dataclass(frozen=True)
class Book:
    """Every entry of a campaign, in the order recorded, with the balances they fold into. The ledger
    aid builds it from a campaign state (its own entries and the losses other aids record for it);
    ``balance`` is an account's running total, ``statement`` one side's account over one turn
    (opening, every line with its rule, closing). Immutable: ``with_entry`` gives a new book."""

    entries: tuple[Entry, ...] = ()
    labels: Mapping[int, str] = field(default_factory=_frozen)  # turn index -> label

    def of(self, side: Optional[str] = None, account: Optional[str] = None,
           turn: Optional[int] = None) -> list[Entry]:
        """Entries touching ``side``'s ``account`` (either end of a transfer), optionally in one turn."""
        out = []
        for e in self.entries:
            if turn is not None and e.turn != turn:
                continue
            if side is None or any(s == side and (account is None or a == account) for s, a, _ in e.effects()):
                out.append(e)
        return out

    def balance(self, side: str, account: str, through: Optional[int] = None) -> Number:
        """The balance after every entry up to and including turn ``through`` (all if None)."""
        total: Number = 0
        for e in self.entries:
            if through is not None and e.turn > through:
                continue
            for s, a, d in e.effects():
                if s == side and a == account:
                    total += d
        return total

    def turns(self) -> list[int]:
        return sorted({e.turn for e in self.entries})

    def statement(self, side: str, account: str, turn: int) -> Statement:
        """``side``'s ``account`` over ``turn``: the balance before it, each entry's effect, the close."""
        opening = self.balance(side, account, turn - 1)
        st = Statement(side=side, account=account, turn=turn, turn_label=self.labels.get(turn, str(turn)),
                       opening=opening)
        for e in self.entries:
            if e.turn != turn:
                continue
            for s, a, d in e.effects():
                if s == side and a == account:
                    st.lines.append(Line(kind=e.kind, amount=d, rule=e.rule, note=e.note, item=e.item, entry=e.id))
        return st

    def with_entry(self, e: Entry) -> "Book":
        return Book(self.entries + (e,), self.labels)


@dataclass(frozen=True)
class Priced:
    """An item whose cost (or income) the text gives: the amount (None when it depends on a table
    the player enters), the account and kind it books to, and the rule. ``fixed``: the price fixes
    the entry's amount (its price times how many, ``priced_amount``); False where the rules let the
    player pay more (apto's refuelling may be over-spent [3.14]): the price is then the amount
    offered, not the only one taken."""

    item: str
    kind: str
    account: str
    amount: Optional[Number]
    rule: str
    doc: str = ""
    fixed: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"item": self.item, "kind": self.kind, "account": self.account, "amount": _num(self.amount),
                "rule": self.rule, "doc": self.doc}


@dataclass(frozen=True)
class LedgerContext:
    """What an economy may consult besides the book: the rules' world (map, pieces, control,
    settings, the player's tables, the supply tracer through it), the turn in force (calendar
    index, label, kind, year, period such as a season) and every turn's label. ``where`` (given by
    the ledger aid, None elsewhere) finds the first calendar position after the one in force where
    a predicate holds (``campaign.calendar.next_turn_where``): a position has ``index``, ``label``,
    ``kind``, ``period``, ``year`` and ``phase`` (with ``name``), so a refusal that depends on the
    calendar names the next turn it is allowed in (``Timing``)."""

    world: World
    turn: int
    turn_label: str
    turn_kind: str = ""
    year: Optional[int] = None
    period: str = ""
    labels: Mapping[int, str] = field(default_factory=_frozen)
    where: Optional[Callable[[Callable[[Any], bool]], Any]] = field(default=None, compare=False, repr=False)


# ----- where on the calendar an entry is allowed ------------------------------------------------
@dataclass(frozen=True)
class Timing:
    """Where on the calendar the rules allow an entry: a turn of one of ``kinds`` (the calendar's
    slot kinds: apto "seasonal"/"monthly", witp "strategic"), of ``period`` and ``year`` where given
    (apto's War extension: the Summer 1945 Seasonal Turn), done in the phase named ``phase`` (where
    the page takes the player; the entry itself is judged by its turn). ``noun`` is how the rules
    call such a turn ("Seasonal Turn"), ``says`` the refusal in the rules' words ("EP income is
    determined in a Seasonal Turn"), ``rule`` its rule. An economy's optional ``when(entry, ctx)``
    gives the timings of an entry; its check refuses through ``timing_findings``."""

    noun: str
    says: str
    rule: str
    kinds: tuple[str, ...] = ()
    phase: str = ""
    period: str = ""
    year: Optional[int] = None

    def allows(self, kind: str, period: Any = "", year: Any = None) -> bool:
        """Whether a turn of ``kind`` (in ``period`` of ``year``) is one this timing allows."""
        return ((not self.kinds or kind in self.kinds) and (not self.period or period == self.period)
                and (self.year is None or year == self.year))

    def allows_now(self, ctx: LedgerContext) -> bool:
        return self.allows(ctx.turn_kind, ctx.period, ctx.year)

    def when(self) -> Optional[When]:
        """The timing as a finding's ``When`` (a kind of turn and its phase), as every aid's
        findings say where on the calendar they are allowed; None where a ``When`` cannot say it
        (several kinds, a season of one year)."""
        if len(self.kinds) > 1 or self.period or self.year is not None:
            return None
        return When(kind=self.kinds[0] if self.kinds else "", phase=self.phase, says=f"a {self.noun}")

    def at(self, position: Any, phase: bool = True) -> bool:
        """Whether the calendar ``position`` (a ``TurnInfo``) is one: its turn allowed and, with
        ``phase``, the phase named ``phase`` (any phase where none is named)."""
        if not self.allows(getattr(position, "kind", ""), getattr(position, "period", ""),
                           getattr(position, "year", None)):
            return False
        if not phase or not self.phase:
            return True
        p = getattr(position, "phase", None)
        return p is not None and str(getattr(p, "name", "")).lower() == self.phase.lower()


def next_allowed(ctx: LedgerContext, timings: Sequence[Timing]) -> Any:
    """The first calendar position after the one in force where every timing holds: in the phase
    the timings name, else the turn's first phase; None where the context has no calendar
    (``where``) or none comes within its horizon (nor before the game's last turn)."""
    if ctx.where is None or not timings:
        return None
    if any(t.phase for t in timings):
        found = ctx.where(lambda pos: all(t.at(pos) for t in timings))
        if found is not None:
            return found
    return ctx.where(lambda pos: all(t.at(pos, phase=False) for t in timings))


def where_next(ctx: LedgerContext, timings: Sequence[Timing]) -> str:
    """Where the entry is next allowed, in words ("the next Seasonal Turn is Autumn Seasonal Turn
    1937, 3 turns ahead"); "" without a calendar to look in."""
    if ctx.where is None or not timings:
        return ""
    t = timings[0]
    pos = next_allowed(ctx, timings)
    if pos is None:
        return f"no {t.noun} comes later in the game"
    ahead = int(pos.index) - int(ctx.turn)
    phase = getattr(getattr(pos, "phase", None), "name", "")
    at = f" ({phase})" if phase and any(x.phase for x in timings) else ""
    return f"the next {t.noun} is {pos.label}{at}, {ahead} turn{'' if ahead == 1 else 's'} ahead"


def timing_findings(timings: Sequence[Timing], ctx: LedgerContext) -> list[Finding]:
    """The refusal of each timing the turn in force does not meet, naming where the entry is next
    allowed (``where_next``) when the context has a calendar."""
    out = []
    for t in timings:
        if t.allows_now(ctx):
            continue
        nxt = where_next(ctx, [t])
        out.append(Finding("error", t.rule, f"{t.says}, not in {ctx.turn_label}" + (f": {nxt}" if nxt else ""),
                           when=t.when()))
    return out


# ----- the values an entry carries (its ``data``) -----------------------------------------------
@dataclass(frozen=True)
class DataKey:
    """A value of an entry's ``data`` the rules read: for entries of ``kinds`` (every kind when
    empty), under ``rule``, meaning ``doc``. ``fact``: a figure the rules read from the latest entry
    that records it (witp's EM, apto's US-held cities), so an entry of amount 0 may carry it."""

    kinds: tuple[str, ...] = ()
    rule: str = ""
    doc: str = ""
    fact: bool = False


#: The values the ledger itself reads, whatever the game: an entry's arrival turn (the build
#: queue), how many of a priced item it pays for, and the demo's sample mark.
LEDGER_DATA: Mapping[str, DataKey] = MappingProxyType({
    "arrives": DataKey(("spend",), "", "the turn the unit paid for arrives (a turn label or a calendar index): the "
                                       "build queue"),
    "qty": DataKey((), "", "how many of a priced item the entry pays for: the amount is qty x its price"),
    "sample": DataKey((), "", "a sample entry of the demo, not from the rulebook"),
})


def data_keys(eco: Any) -> Optional[Mapping[str, DataKey]]:
    """Every value an entry of ``eco``'s game may carry: the ledger's own (``LEDGER_DATA``) and the
    game's (its ``DATA_KEYS``); None where the economy declares none (every value is taken)."""
    own = getattr(eco, "DATA_KEYS", None)
    if own is None:
        return None
    return {**LEDGER_DATA, **own}


def data_findings(eco: Any, kind: str, data: Mapping[str, Any]) -> Optional[str]:
    """Why ``data`` cannot go with an entry of ``kind`` in ``eco``'s game, in one line, or None: a
    number that is not finite (1e999999, nan, inf: nothing can read it), or a name no rule of the
    game reads for that kind of entry (it would be recorded and mean nothing)."""
    for k, v in data.items():
        if not _finite(v):
            return f"value {k}={v} is not a finite number: no rule can read it"
    keys = data_keys(eco)
    if keys is None:
        return None
    for k in data:
        spec = keys.get(k)
        if spec is None:
            usable = sorted(n for n, s in keys.items() if not s.kinds or kind in s.kinds)
            return (f"value {k} is not one the rules read for {_a(kind)} entry of {eco.game}: nothing would read "
                    f"it (they read " + (", ".join(usable) if usable else "none") + ")")
        if spec.kinds and kind not in spec.kinds:
            return (f"value {k} is read for {' or '.join(spec.kinds)} entries ({spec.doc}), "
                    f"not for {_a(kind)} entry")
    return None


def _a(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def _finite(v: Any) -> bool:
    if isinstance(v, bool) or v is None:
        return True
    if isinstance(v, (int, Fraction)):
        return True
    if isinstance(v, float):
        return math.isfinite(v)
    text = str(v).strip()
    try:
        return math.isfinite(float(text))
    except (ValueError, OverflowError):
        return True  # text that is no number is read as text (or refused by the rule that reads it)


@dataclass(frozen=True)
class TableNeed:
    """A printed table the rules' income needs and the player has not entered: its template name
    (``table``, as ``campaign table import`` and the Rule tables page know it), its ``title``
    ("Table X"), ``what`` needs it ("the seasonal EP income"), the ``rule``, and the ``accounts``
    whose forecast lacks it (every account when empty). An economy's optional
    ``forecast_needs(side, ctx)`` gives them."""

    table: str
    title: str
    what: str
    rule: str = ""
    accounts: tuple[str, ...] = ()


# ----- what a priced item costs -----------------------------------------------------------------
def priced_amount(eco: Any, priced: Priced, data: Mapping[str, Any], ctx: LedgerContext) -> tuple[Optional[Number], str]:
    """What the rules fix as the amount of an entry for ``priced`` with ``data``: the economy's own
    ``priced_amount`` where it has one (globalwar's maintenance per SP [18.10.2]), else the price
    times ``qty`` (1 unless given: "n items cost n times the price", apto [8.6]), and how, in words.
    None where the rules fix no amount (no printed price, or an amount the player may choose)."""
    own = getattr(eco, "priced_amount", None)
    if own is not None:
        return own(priced, data, ctx)
    if priced.amount is None:
        return None, ""
    qty = quantity(data)
    return priced.amount * qty, (f"{qty} x {_num(priced.amount)}" if qty != 1 else "")


def quantity(data: Mapping[str, Any], key: str = "qty") -> int:
    """``data``'s ``key`` as a count of at least 1 (1 when not given); ValueError naming it otherwise."""
    v = data.get(key, 1)
    if isinstance(v, bool) or not str(v).strip().isdigit() or int(str(v).strip()) < 1 or int(str(v).strip()) > MAX_ENTRY:
        raise ValueError(f"value {key}={v} must be a whole number from 1 to {MAX_ENTRY}")
    return int(str(v).strip())


class Economy(Protocol):
    """A game's economy (``assistant/rules/<game>/economy.py`` exposes ``RULES``)."""

    game: str

    def accounts(self, side: str) -> tuple[str, ...]:
        """The accounts ``side`` keeps (the first is its main one)."""
        ...

    def catalogue(self, side: str, ctx: LedgerContext) -> list[Priced]:
        """Every item the text prices (amount None where the player's table gives it)."""
        ...

    def check(self, book: Book, entry: Entry, ctx: LedgerContext) -> list[Finding]:
        """The rules on ``entry`` as if it were recorded now: a Finding of level ``error`` forbids it
        (its text says why, with the rule); warnings and questions advise."""
        ...

    def income(self, book: Book, side: str, ctx: LedgerContext) -> list[Entry]:
        """The income entries the rules compute for ``side`` this turn (formulas the text fixes,
        the player's tables), unrecorded; empty where the player must enter the printed result."""
        ...

    def close_turn(self, book: Book, side: str, ctx: LedgerContext) -> list[Entry]:
        """The entries that close ``side``'s turn (carry-over, expiry, loss caps), unrecorded."""
        ...

    # Optional: ``POINTS`` (what its amounts count, "EP"; default "points"),
    # ``amount_step(settings) -> (step, rule)`` (the smallest part of a point an amount may hold
    # under the game's settings, and the rule that makes it; default whole points),
    # ``close_findings(book, side, ctx) -> list[Finding]`` (what the rules judge of the turn as it
    # closes, e.g. witp's air-block minimum [52.4.2]; none by default) and
    # ``unpriced_account(side, kind, item, to_account) -> (account, findings)`` (the account of an
    # item it does not price when the player names none, with what to ask; default the first one).
    # A priced item with no account named books to its ``Priced.account``.
    # ``when(entry, ctx) -> list[Timing]`` (where on the calendar the rules allow the entry; its
    # check refuses through ``timing_findings``, naming the next turn it is allowed in),
    # ``DATA_KEYS`` (``{name: DataKey}``: the values of an entry's data its rules read; declared,
    # every other name is refused), ``priced_amount(priced, data, ctx) -> (amount, how)`` (what a
    # priced item's entry must amount to; default its price x qty), ``arrival(entry, ctx) ->
    # Optional[int]`` (the calendar turn the rules fix for a unit paid for: written as ``arrives``)
    # and ``awaits_arrival(entry) -> bool`` (an entry the build queue must show),
    # ``INCOME_FIGURE`` (which income figure to type where the strike plotter booked losses) and
    # ``loss_turns(turn, kind, labels)`` (the turns whose booked losses an income entry meets),
    # ``forecast_needs(side, ctx) -> list[TableNeed]`` (the printed tables its income lacks).


def amount_field(eco: Any, settings: Mapping[str, Any]) -> NumberField:
    """What an entry's amount may be in ``eco``'s game: a number of its points from -MAX_ENTRY to
    MAX_ENTRY in its smallest unit (whole points unless its ``amount_step`` says otherwise)."""
    step, rule = eco.amount_step(settings) if hasattr(eco, "amount_step") else (1, "")
    return NumberField("amount", -MAX_ENTRY, MAX_ENTRY, step=step, unit=getattr(eco, "POINTS", "points"),
                       rule=rule)


class NoEconomy(MissingRules):
    """A game has no economy module."""


def _num(x: Optional[Number]) -> Optional[int | float | str]:
    if x is None:
        return None
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else float(x)
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def economy_for(game: str) -> Economy:
    """The economy rules of ``game`` (``assistant.rules.<game>.economy.RULES``)."""
    return rules_module(game, "economy", NoEconomy).RULES


def account_name(eco: Any, account: str) -> str:
    """``account`` as the game's rules name it (witp's ``strategic_reserve`` is the "Strategic
    Reserve" of [28.1.1]): the economy's ``ACCOUNT_NAMES``, else the id in words."""
    names = getattr(eco, "ACCOUNT_NAMES", None) or {}
    if account in names:
        return names[account]
    named = getattr(eco, "account_name", None)
    return named(account) if callable(named) else account.replace("_", " ")


def statements(book: Book, sides: Iterable[str], accounts: Mapping[str, Sequence[str]],
               turns: Optional[Iterable[int]] = None) -> list[Statement]:
    """Every statement of ``sides`` (each of its ``accounts``) for ``turns`` (default: every turn
    with an entry), in one pass over the book: turn by turn, side by side, account by account."""
    sides = list(sides)
    wanted = {(s, a) for s in sides for a in accounts.get(s, ())}
    by_turn: dict[int, list[Entry]] = {}
    for e in book.entries:
        by_turn.setdefault(e.turn, []).append(e)
    ts = sorted(set(turns)) if turns is not None else sorted(by_turn)
    balance: dict[tuple[str, str], Number] = {k: 0 for k in wanted}
    out: list[Statement] = []
    pending = sorted(by_turn)
    i = 0
    for t in ts:
        while i < len(pending) and pending[i] < t:  # turns before t that are not reported
            for e in by_turn[pending[i]]:
                for sd, a, d in e.effects():
                    if (sd, a) in balance:
                        balance[(sd, a)] += d
            i += 1
        current = {k: Statement(side=k[0], account=k[1], turn=t, turn_label=book.labels.get(t, str(t)),
                                opening=balance[k]) for k in balance}
        for e in by_turn.get(t, ()):
            for sd, a, d in e.effects():
                if (sd, a) in current:
                    current[(sd, a)].lines.append(Line(kind=e.kind, amount=d, rule=e.rule, note=e.note,
                                                       item=e.item, entry=e.id))
        for k, st in current.items():
            balance[k] = st.closing
        if i < len(pending) and pending[i] == t:
            i += 1
        out += [current[(sd, a)] for sd in sides for a in accounts.get(sd, ()) if (sd, a) in current]
    return out
