"""Commands of the ledger: record an entry after the game's economy has checked it, and close a
side's turn (carry-over, expiry) as the rules compute it."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Optional

from ...campaign import validate as v
from ...campaign.commands import Context
from ...campaign.errors import CampaignError
from ...campaign.importcheck import rebuilds
from ...campaign.world import settings_of
from ...numbertext import NumberField, NumberTextError, text_of
from ...rules.ledger import KINDS, Entry, amount_field, data_findings, data_keys, next_allowed, priced_amount
from ...rules.strike import Finding
from .engine import book_of, booked_note, context_of, economy, graph_of, timings_of
from .events import SLICE, LedgerEntered
from .views import ARRIVES


class RuleRefusal(CampaignError):
    """The rules forbid the entry: ``findings`` say why, each with its rule (the CLI exits 1).
    ``allowed_at``: where the calendar next allows it, when the turn in force is what refuses it
    (a calendar ``TurnInfo``: the turn, and the phase the rules do it in), else None."""

    def __init__(self, findings: list[Finding], allowed_at: Any = None):
        self.findings = findings
        self.allowed_at = allowed_at
        super().__init__("; ".join(f"{f.ref} {f.text}" for f in findings if f.level == "error"))


def _ref(rule: str) -> str:
    return rule if not rule or rule.startswith("[") else f"[{rule}]"


def _records_fact(eco: Any, data) -> bool:
    """Whether ``data`` records a figure the rules read from the latest entry that gives it (so an
    entry of 0 points still means something: witp's em=N)."""
    keys = data_keys(eco) or {}
    return any(keys.get(k) is not None and keys[k].fact for k in data)


def amount_of(value: Any, field: NumberField) -> int | Fraction:
    """The exact amount ``value`` is (text as typed, or a number from a price or an imported
    entry), in the game's points and smallest unit (``rules.ledger.amount_field``); never rounded."""
    try:
        return field.read(value)
    except NumberTextError as e:
        raise CampaignError(str(e)) from None


@dataclass
class AddEntry:
    """One entry (``kind`` from ``KINDS``); ``amount`` may be left out for an item the rules price.

    What the form may not leave to chance (each refused in one line, nothing recorded):

    - an item the rules price fixes the amount: its price times ``qty`` (1 unless the entry's
      value qty=N says how many: "n items cost n times the price", apto [8.6], globalwar 18.0.F;
      the economy's ``priced_amount`` where it prices otherwise, e.g. globalwar's maintenance per
      SP [18.10.2]). Left out, the amount is that; given and different, it is refused, naming both;
    - an amount of 0 (typed 0, -0, 00000 ...) records nothing, and is refused, unless the rules
      price the item at 0 or the entry records a figure the rules read (``DataKey.fact``: witp's
      em=N);
    - a value (``data``) that is not a finite number, or whose name no rule of the game reads for
      that kind of entry (``rules.ledger.data_findings``).

    An arrival the rules fix (the economy's ``arrival``: globalwar's Production Track 18.0.G-H)
    is written into the entry's values as ``arrives`` when none is given (the rules' check says it,
    with its rule), so the build queue holds it. What the strike plotter booked for the side is said
    as an info (``engine.booked_note``). ``imported``: an entry rebuilt from an export, which stands
    as it was recorded: none of the three refusals above (an export always imports), no arrival added."""

    side: Any
    kind: Any
    amount: Any = None
    account: Any = None
    item: Any = None
    note: Any = None
    to_side: Any = None
    to_account: Any = None
    data: Any = None
    tables: Any = None
    imported: bool = False

    def draft(self, s, ctx: Context) -> tuple[Entry, list[Finding]]:
        entry, findings, _ = self.assess(s, ctx)
        return entry, findings

    def assess(self, s, ctx: Context) -> tuple[Entry, list[Finding], Any]:
        """The entry, what the rules say of it, and where the calendar next allows it when the turn
        in force does not (a calendar ``TurnInfo``; None otherwise)."""
        eco = economy(s.game)
        side = v.side(s, self.side)
        if self.kind not in KINDS:
            raise CampaignError(f"ledger kind {v.show(self.kind)} is not one of {', '.join(KINDS)}")
        accounts = eco.accounts(side)
        if not accounts:
            raise CampaignError(f"{side} keeps no {s.game} ledger account")
        account = None if self.account is None else v.text(self.account, "account", 20)
        if account is not None and account not in accounts:
            raise CampaignError(f"account {account!r} is not one of {side}'s: {', '.join(accounts)}")
        item = v.optional_text(self.item, "item", max_len=80)
        field = amount_field(eco, settings_of(s))
        amount = None if self.amount is None else amount_of(self.amount, field)  # read before the map is built
        data = {}
        if self.data is not None:
            for k, val in dict(self.data).items():
                data[v.key(k, "data name")] = v.scalar(val, f"data {k}")
        bad = None if self.imported else data_findings(eco, self.kind, data)
        if bad:
            raise CampaignError(bad)
        lctx = context_of(s, graph_of(s, ctx.map), self.tables)
        rule = ""
        priced = None
        told: list[Finding] = []
        if item is not None:
            priced = next((p for p in eco.catalogue(side, lctx) if p.item.lower() == item.lower()), None)
        if "qty" in data and (priced is None or priced.amount is None) and not self.imported \
                and "qty" not in (getattr(eco, "DATA_KEYS", None) or {}):  # the game's own qty reads it
            raise CampaignError(f"value qty counts a priced item; {item or 'an entry without an item'} has no price")
        fixed: Any = None
        if priced is not None:
            rule = priced.rule
            try:
                fixed, how = priced_amount(eco, priced, data, lctx)
            except ValueError as e:
                raise CampaignError(str(e)) from None
            if fixed is not None:
                fixed = amount_of(fixed, field)
                points = getattr(eco, "POINTS", "points")
                if amount is None:
                    amount = fixed
                elif amount != fixed and priced.fixed and not self.imported:
                    each = f" ({how})" if how else ""
                    raise CampaignError(
                        f"{priced.item} costs {text_of(fixed)} {points[:-1] if fixed == 1 and points.endswith('points') else points}"
                        f"{each} {_ref(priced.rule)}; amount "
                        f"{text_of(amount)} differs: leave the amount out"
                        + (f", or give qty=N for N of them (N x {text_of(priced.amount)})"
                           if priced.amount and "qty" not in data else ""))
        if amount is None:
            raise CampaignError(f"give an amount{' (' + item + ' has no printed price)' if item else ''}")
        amount = amount_of(amount, field)
        if amount == 0 and not (fixed == 0 and priced is not None) and not _records_fact(eco, data) \
                and not self.imported:
            raise CampaignError(f"amount {self.amount.strip() if isinstance(self.amount, str) else text_of(amount)} is "
                                f"zero: an entry of 0 changes no balance and means nothing (give the points it "
                                f"{'adds' if self.kind == 'income' else 'moves'})")
        if self.kind != "adjust" and amount < 0 and self.kind != "reserve":
            raise CampaignError(f"amount {text_of(amount)} must not be negative for {self.kind} (use adjust)")
        to_side = None if self.to_side is None else v.side(s, self.to_side)
        if self.kind == "transfer" and to_side is None and self.to_account is None:
            raise CampaignError("a transfer needs --to-side or --to-account")
        to_account = None if self.to_account is None else v.text(self.to_account, "account", 20)
        if to_account is not None:
            target_side = to_side or side
            if to_account not in eco.accounts(target_side) and not (self.kind == "reserve"):
                raise CampaignError(f"account {to_account!r} is not one of {target_side}'s: "
                                    f"{', '.join(eco.accounts(target_side))}")
        asked: list[Finding] = []
        if account is None:  # the account the rules book a priced item to; else the game's (or its first)
            if priced is not None:
                account = priced.account
            elif item is not None and hasattr(eco, "unpriced_account"):
                account, asked = eco.unpriced_account(side, self.kind, item, to_account)
            else:
                account = accounts[0]
            if account not in accounts:
                raise CampaignError(f"{item} books to {account!r}, not one of {side}'s accounts: {', '.join(accounts)}")
        entry = Entry(side=side, turn=s.turn.index, kind=self.kind, amount=amount, account=account, item=item,
                      note=v.optional_text(self.note, "note", max_len=200), rule=rule, to_side=to_side,
                      to_account=to_account, data=data, id=s.aid(SLICE).next_id)
        arrival = getattr(eco, "arrival", None)
        if arrival is not None and ARRIVES not in data and not self.imported:
            at = arrival(entry, lctx)  # the calendar index the rules fix (their check says it, with the rule)
            if at is not None:
                entry = Entry(**{**entry.__dict__, "data": {**data, ARRIVES: at}})
        book = book_of(s)
        note = booked_note(s, side, self.kind, book)
        if note:
            told.append(Finding("info", "", note))
        findings = list(asked) + list(eco.check(book, entry, lctx)) + told
        timings = timings_of(s, entry, lctx)
        place = next_allowed(lctx, timings) if timings else None
        return entry, findings, place

    def build(self, s, ctx: Context) -> LedgerEntered:
        entry, findings, place = self.assess(s, ctx)
        if any(f.level == "error" for f in findings):
            raise RuleRefusal(findings, place)
        body = LedgerEntered(entries=(entry.to_json(),), what="entry")
        return body.told(findings)  # the warnings and questions reach the caller (rec.body.findings)

    def conflict(self, view, fresh, ctx) -> Optional[str]:
        if view.aid(SLICE) != fresh.aid(SLICE):
            return "the ledger has changed"
        return None


@dataclass
class CloseTurn:
    """Close ``side``'s turn in force: the carry-over/expiry entries the rules compute."""

    side: Any
    tables: Any = None

    def build(self, s, ctx: Context) -> LedgerEntered:
        eco = economy(s.game)
        side = v.side(s, self.side)
        if not eco.accounts(side):
            raise CampaignError(f"{side} keeps no {s.game} ledger account")
        book = book_of(s)
        if any(e.side == side and e.turn == s.turn.index and e.data.get("close") for e in book.entries):
            raise CampaignError(f"{side}'s {s.turn.label} is closed already (undo the close to redo it)")
        lctx = context_of(s, graph_of(s, ctx.map), self.tables)
        drafts = eco.close_turn(book, side, lctx)
        judged = getattr(eco, "close_findings", None)  # what the rules judge of the turn as it closes
        findings = tuple(judged(book, side, lctx)) if judged is not None else ()
        next_id = s.aid(SLICE).next_id
        entries = []
        for i, e in enumerate(drafts):
            entries.append(Entry(**{**e.__dict__, "id": next_id + i, "turn": s.turn.index,
                                    "data": {**dict(e.data), "close": True}}).to_json())
        if not entries:  # still mark the close, so it is not applied twice
            acc = eco.accounts(side)[0]
            entries.append(Entry(side=side, turn=s.turn.index, kind="adjust", amount=0, account=acc,
                                 item="close of turn", note="nothing to carry over or expire", rule="",
                                 data={"close": True}, id=next_id).to_json())
        body = LedgerEntered(entries=tuple(entries), what=f"close of {s.turn.label}")
        return body.told(findings)  # the warnings and questions reach the caller (rec.body.findings)

    def conflict(self, view, fresh, ctx) -> Optional[str]:
        if view.aid(SLICE) != fresh.aid(SLICE):
            return "the ledger has changed"
        return None

    def target_moved(self, view, fresh, ctx) -> Optional[str]:
        """It closes the turn in force: another turn than the one it started on would be closed."""
        return None if view.turn.index == fresh.turn.index else f"the turn is now {fresh.turn.title}"


@rebuilds(LedgerEntered)
def _rebuild(b: LedgerEntered, s, ctx) -> LedgerEntered:
    """An imported entry passes the checks the player's entry passed; a turn's close is the close
    the rules compute on the state before it."""
    if b.what.startswith("close of") and b.entries:
        return CloseTurn(side=b.entries[0].get("side")).build(s, ctx)
    if len(b.entries) != 1:
        raise CampaignError("ledger_entered holds one entry unless it closes a turn")
    e = b.entries[0]
    return AddEntry(side=e.get("side"), kind=e.get("kind"), amount=e.get("amount"), account=e.get("account"),
                    item=e.get("item"), note=e.get("note"), to_side=e.get("to_side"), to_account=e.get("to_account"),
                    data=e.get("data"), imported=True).build(s, ctx)
