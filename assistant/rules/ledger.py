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

from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Optional, Protocol, Sequence

from ..numbertext import NumberField
from .findings import Finding
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
    the player enters), the account and kind it books to, and the rule."""

    item: str
    kind: str
    account: str
    amount: Optional[Number]
    rule: str
    doc: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"item": self.item, "kind": self.kind, "account": self.account, "amount": _num(self.amount),
                "rule": self.rule, "doc": self.doc}


@dataclass(frozen=True)
class LedgerContext:
    """What an economy may consult besides the book: the rules' world (map, pieces, control,
    settings, the player's tables, the supply tracer through it), the turn in force (calendar
    index, label, kind, year, period such as a season) and every turn's label."""

    world: World
    turn: int
    turn_label: str
    turn_kind: str = ""
    year: Optional[int] = None
    period: str = ""
    labels: Mapping[int, str] = field(default_factory=_frozen)


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
