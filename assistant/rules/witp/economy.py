"""witp's economy for the production ledger: Command Points [28] and
Production Points [51]-[53], each check citing its rule.

Accounts (``WitpEconomy.accounts``): ``CP`` the cycle's allotment not yet allocated, ``PP`` the
production pool, ``HQ`` the CP held by on-map HQs (each entry names its HQ, see
``economy_book``), ``reserve`` the CP Reserve [28.6], ``future_ops`` the Future Operation pool
[28.5]; Japan also keeps ``strategic_reserve`` [28.1.1], ``emergency_reserve`` [28.1.2],
``stockpile`` (Co-Prosperity Sphere resource points bought with CP [53.2.3]) and ``MSP`` (the
Merchant Shipping Point total: mining [56.4] and attrition [57] losses land here).

Where the text leaves the number to a chart the game prints (Allied CP Table, US PP
Availability Chart, Economic Multiple Table), the player enters the printed result; the Japanese
Command Points Table and PP multiple are read from the player's templates when given.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any, Mapping, Optional

from ...words import counted
from ..ledger import Book, DataKey, Entry, LedgerContext, Priced, Timing, timing_findings
from ..strike import Finding
from . import economy_book as B
from . import economy_rates as R

GAME = "witp"
CP_TABLE = "japanese_command_points"
PP_MULTIPLE_TABLE = "japanese_pp_multiple"
COMMON = ("CP", "PP", "HQ", "reserve", "future_ops")
JAPAN_ONLY = ("strategic_reserve", "emergency_reserve", "stockpile", "MSP")
ACCOUNT_NAMES = {"CP": "CP", "PP": "PP", "HQ": "CP held by HQs", "reserve": "CP Reserve",  # [28.6]
                 "future_ops": "Future Operation pool",  # [28.5]
                 "strategic_reserve": "Strategic Reserve", "emergency_reserve": "Emergency Reserve",  # [28.1.1], [28.1.2]
                 "stockpile": "stockpiled resource points", "MSP": "MSP"}  # [53.2.3], [56.4]
OUTFLOWS = ("spend", "transfer", "reserve")

ITEM_STOCKPILE = "resource point stockpiled"
ITEM_CADRE = "cadre early release"
ITEM_US_PP = "US PP income"
ITEM_JAPAN_PP = "Japanese PP income"
ITEM_JAPAN_CP = "Japanese CP income"
ITEM_EWR = "Emergency War Reserve growth"
ITEM_ISE_HYUGA = "Ise/Hyuga hybrid carrier conversion"


# ----- when on the calendar: the Strategic G/T's Command and Production Phases [50.0] ------------
STRATEGIC = ("strategic",)
ALLOCATION_TIMING = Timing("Strategic G/T", "CP are assigned to HQs during Strategic G/Ts", "[28.4]", STRATEGIC,
                           phase="Command Phase")
FUTURE_OPS_TIMING = Timing("Strategic G/T", "CP go to a future operation pool during Strategic G/Ts", "[28.5]",
                           STRATEGIC, phase="Command Phase")
RESERVE_TIMING = Timing("Strategic G/T", "CP are placed into reserve during Strategic G/Ts", "[28.6]", STRATEGIC,
                        phase="Command Phase")
BUILD_TIMING = Timing("Strategic G/T", "production occurs in the Production Phase of Strategic G/Ts", "[51.0]",
                      STRATEGIC, phase="Production Phase")
STOCKPILE_TIMING = Timing("Strategic G/T", "resource points are stockpiled in the Command Phase of Strategic G/Ts",
                          "[53.2.3]", STRATEGIC, phase="Command Phase")
PP_INCOME_TIMING = Timing("Strategic G/T", "PP are received in the Production Phase of Strategic G/Ts", "[52.1]",
                          STRATEGIC, phase="Production Phase")

#: The values of an entry's data the rules read, by the kinds of entry that carry them; every other
#: name is refused (``rules.ledger.data_findings``). ``fact``: read from the latest entry giving it.
DATA_KEYS = {
    "msp": DataKey((), "[28.6.1];[28.1]", "the Merchant Shipping Point total (the Japanese exchange rate, the CP "
                                          "and PP tables)", fact=True),
    "homeland_resources": DataKey((), "[28.1]", "the homeland resource level (Japanese Command Point Table)", fact=True),
    "cps_resources": DataKey((), "[28.1]", "the Co-Prosperity Sphere resource level (Japanese Command Point Table)",
                             fact=True),
    "em": DataKey((), "[53.6.7]", "the Economic Multiple (starts at 2, never below 0)", fact=True),
    "ics": DataKey((), "[53.5.3]", "the operational Industrial Centres (0-10)", fact=True),
    "multiple": DataKey(("income",), "[53.6]", "the MS PP multiple (1.1 to 0.6) of a Japanese PP income"),
    "hq": DataKey(("transfer", "spend", "adjust", "income", "loss"), "[28.4.1]", "the HQ an HQ-account entry is of"),
    "from_hq": DataKey(("transfer",), "[28.8]", "the lending HQ"),
    "to_hq": DataKey(("transfer",), "[28.8]", "the borrowing HQ"),
    "new_hq": DataKey(("transfer",), "[28.4]", "a newly-deployed HQ (at most 50% of the allotment)"),
    "previous": DataKey(("transfer", "spend"), "[28.4];[52.4.1]", "the set-up's allocation, or the units initiated "
                                                                   "in the previous Production Phase"),
    "china": DataKey(("transfer",), "[28.8]", "a loan into or out of an HQ inside China"),
    "us_cw": DataKey(("transfer",), "[28.8]", "a loan between US and CW HQs"),
    "unlike": DataKey(("transfer",), "[28.8]", "a loan between unlike HQs"),
    "cycle": DataKey(("transfer",), "[28.5]", "the future operation's cycle (9/42)"),
    "isolated": DataKey(("transfer", "spend"), "[28.6.3]", "reserve CP through an isolated HQ"),
    "pairs": DataKey(("income",), "[28.7]", "AO tanker pairs' fuel capacities (12/10, 8/8)"),
    "port": DataKey(("income",), "[28.7]", "AO tankers' port: major, minor or anchorage"),
    "supply_base": DataKey(("income",), "[28.7]", "AO tankers at a supply base"),
    "msb": DataKey(("income",), "[28.7]", "AO tankers at a mobile supply base"),
    "category": DataKey(("income", "spend"), "[28.7];[52.4.2]", "AO tankers' supply category (A-F), or what a PP "
                                                               "build is: air, ship or ground"),
    "type": DataKey(("spend",), "[52.4.1]", "the unit type a PP build initiates"),
    "count": DataKey(("spend",), "[52.4.1]", "how many units a PP build initiates"),
    "delay": DataKey(("spend",), "[52.5]", "the unit's Delay Cycles on the Production Cost chart"),
    "steps": DataKey(("spend",), "[44.4.5]", "a cadre's printed steps"),
    "tq": DataKey(("spend",), "[44.4.5]", "a cadre's TQ"),
    "years": DataKey(("spend",), "[44.4.5]", "the years a cadre is released early"),
    "steps_removed": DataKey(("spend",), "[44.4.5]", "the steps a cadre release removes"),
    "tq_lowered": DataKey(("spend",), "[44.4.5]", "the TQ steps a cadre release lowers"),
    "deposit": DataKey(("adjust",), "[28.6.1]", "a reserve exchange: CP recorded To Reserve this cycle"),
}

#: Which figure to type where the strike plotter booked strategic mining losses [56.4].
INCOME_FIGURE = ("The MSP lost are on the MSP account already: the MSP total the Japanese Command Point Table "
                 "[28.1] and the PP multiple [53.6] read is the balance after them, so type CP and PP income as "
                 "those tables give them for that total.")


def _setting(ctx: LedgerContext, name: str, default: str, choices: tuple) -> str:
    v = ctx.world.settings.get(name, default) if ctx.world is not None else default
    if v not in choices:
        raise ValueError(f"setting {name}={v!r} must be one of {', '.join(map(str, choices))}")
    return v


def four_three(ctx) -> str:
    return _setting(ctx, "ledger_four_three", "floor", R.FOUR_THREE_READINGS)


def _num(x: Any) -> str:
    x = Fraction(x) if not isinstance(x, float) else x
    if isinstance(x, Fraction) and x.denominator == 1:
        return str(int(x))
    return f"{float(x):g}"


class WitpEconomy:
    """witp's rules for the ledger (``assistant.rules.ledger.Economy``)."""

    game = GAME
    ACCOUNT_NAMES = ACCOUNT_NAMES
    POINTS = "points"  # CP, PP or MSP by account
    DATA_KEYS = DATA_KEYS
    INCOME_FIGURE = INCOME_FIGURE

    @staticmethod
    def loss_turns(turn: int, kind: str, labels) -> tuple[int, ...]:
        """The turns whose losses an income entry of ``turn`` meets: at a Strategic G/T, those since
        the previous one (the cycle its income is for) and the turn itself; else the turn alone."""
        if kind != "strategic":
            return (turn,)
        before = [t for t, lab in labels.items() if t < turn and str(lab).startswith("Strategic")]
        first = (max(before) + 1) if before else max(0, turn - 4)
        return tuple(range(first, turn + 1))

    def when(self, entry: Entry, ctx: LedgerContext) -> list[Timing]:
        """Where on the calendar the rules allow ``entry``: CP allocations to HQs [28.4], the future
        operation pool [28.5], the CP reserve [28.6] and stockpiling [53.2.3] in the Command Phase of
        a Strategic G/T; PP received [52.1] and production [51.0] in its Production Phase."""
        e, out = entry, []
        if e.kind == "transfer" and e.account == "CP" and e.to_account == "HQ":
            out.append(ALLOCATION_TIMING)
        if e.kind == "transfer" and e.to_account == "future_ops":
            out.append(FUTURE_OPS_TIMING)
        if (e.kind == "reserve" or (e.kind == "transfer" and e.to_account == "reserve")) and e.account == "CP" \
                and e.amount > 0:
            out.append(RESERVE_TIMING)
        if e.kind == "spend" and e.account == "PP":
            out.append(BUILD_TIMING)
        if (e.item or "").lower() == ITEM_STOCKPILE.lower():
            out.append(STOCKPILE_TIMING)
        if e.kind == "income" and e.account == "PP":
            out.append(PP_INCOME_TIMING)
        return out

    def amount_step(self, settings: Mapping[str, Any]) -> tuple[Fraction, str]:
        """Whole points, but hundredths where the Japanese PP keep their fraction (setting
        ``ledger_japan_pp_rounding = "exact"``): EM x ICs (whole numbers) x the MS PP multiple, which
        runs "1.1, the highest, to 0.6, the lowest" [53.1]; its table is not in the text, so a
        multiple of up to two places is allowed for [53.6]."""
        exact = settings.get("ledger_japan_pp_rounding", "down") == "exact"
        return (Fraction(1, 100), "[53.6]") if exact else (Fraction(1), "")

    def arrivals(self, book: Book, side: str) -> list[dict]:
        """The build queue: each PP build's arrival cycle [52.5], [53.8] (``economy_book.arrivals``)."""
        return B.arrivals(book, side)

    # ---- accounts and prices -------------------------------------------------------------------
    def accounts(self, side: str) -> tuple[str, ...]:
        return COMMON + JAPAN_ONLY if side == "japan" else COMMON

    def catalogue(self, side: str, ctx: LedgerContext) -> list[Priced]:
        japan = side == "japan"  # each side's own rule: [28.1] and [53.6] are Japan's, [28.2] and [52.2] the Allies'
        out = [
            Priced("CP income", "income", "CP", None, "[28.1]" if japan else "[28.2]",
                   "the cycle's CP from the printed " + ("Japanese Command Point Table" if japan else "Allied CP Table")),
            Priced("PP income", "income", "PP", None, "[53.6]" if japan else "[52.2]",
                   "the cycle's PP ([53.6]: EM x operational ICs x MS PP multiple)" if japan
                   else "the cycle's PP (the printed US Production Point Availability Chart)"),
            Priced("AO tankers", "income", "HQ", None, "[28.7]", "CP from strategic-role AO pairs"),
        ]
        if side == "japan":
            out += [
                Priced("strategic mining MSP loss", "loss", "MSP", None, "[56.4]",
                       "(APs x resource value, or x 5 / 3 for a major / minor port) x 1D6 x 10 %; the strike plotter books it"),
                Priced("MS attrition", "loss", "MSP", None, "[57.3]", "the Merchant Shipping Attrition Table result"),
                Priced("captured MS instalment", "income", "MSP", 2, "[60.3]",
                       "6 MSP for a major port, 4 for a minor, in 2-MSP instalments"),
                Priced("operational Industrial Centres", "adjust", "PP", 0, "[53.5.1];[55.3];[55.4]",
                       "record the operational ICs as the entry's value ics=N after strategic bombing damage or repair; the next PP income uses it"),
                Priced("Economic Multiple Table", "adjust", "PP", 0, "[53.6.1]-[53.6.7]",
                       "record the EM as the entry's value em=N after the roll (EM starts at 2; never below 0)"),
                Priced("Strategic Reserve at start", "income", "strategic_reserve", R.STRATEGIC_RESERVE, "[28.1.1]",
                       "200 CP at the start of the war; never replenished"),
                Priced("Emergency War Reserve at start", "income", "emergency_reserve", R.EMERGENCY_RESERVE, "[28.1.2]",
                       "50 CP at the start; ships only"),
                Priced(ITEM_STOCKPILE, "spend", "CP", R.STOCKPILE_CP, "[53.2.3]",
                       "5 CP buy 1 Co-Prosperity Sphere resource point (Command Phase; no maximum)"),
                Priced(ITEM_ISE_HYUGA, "spend", "PP", 2, "[60.6.1]",
                       "2 PP each, 7 cycles, from 0/7/42; counts as a ship for [53.7.1]"),
                Priced("APB repair", "spend", "CP", 3, "[60.2.1]", "3 CP per level (plus 1 MSP, permanent)"),
            ]
        else:
            us30 = self._us_fixed(ctx)
            out += [
                Priced(ITEM_US_PP, "income", "PP", R.US_FIXED_PP if us30 else None, "[52.2];[52.3]",
                       "30 PP a cycle from 0/10/44; before, the US PP Availability Chart result"),
                Priced(ITEM_CADRE, "spend", "CP", None, "[44.4.5]",
                       "(steps removed + TQ steps lowered) x years advanced (the entry's values steps=N years=N)"),
                Priced("B-29 strategic strike", "spend", "HQ", None, "[55.1.1]", "the Activation Costs Summary's CP"),
                Priced("KMT Independent corps", "spend", "PP", 1, "[47.7.2]", "1 US PP (with 5 KMT provincial points)"),
                Priced("APA/APB repair", "spend", "CP", 3, "[60.2.1]", "3 CP (max 3 per Strategic G/T)"),
            ]
        return out

    # ---- the calendar --------------------------------------------------------------------------
    @staticmethod
    def _cycle(ctx: LedgerContext, turn: Optional[int] = None) -> Optional[int]:
        label = ctx.turn_label if turn is None or turn == ctx.turn else ctx.labels.get(turn, "")
        c = B.cycle_of(label)
        return B.ordinal(c) if c else None

    def _cycle_ends(self, ctx: LedgerContext) -> bool:
        """The turn in force is the last of its cycle [28.9]."""
        nxt = ctx.labels.get(ctx.turn + 1)
        if nxt is None:
            return ctx.turn_label.startswith("G/T 4/")
        return B.cycle_of(nxt) != B.cycle_of(ctx.turn_label)

    @staticmethod
    def _strategic(ctx: LedgerContext) -> bool:
        return ctx.turn_kind == "strategic" or ctx.turn_label.startswith("Strategic")

    def _us_fixed(self, ctx: LedgerContext) -> bool:
        c = self._cycle(ctx)
        return c is not None and c >= B.ordinal(R.US_FIXED_FROM)

    def _turns_of_cycle(self, book: Book, ctx: LedgerContext, cycle: int) -> set[int]:
        return {t for t, lab in {**dict(book.labels), **dict(ctx.labels)}.items()
                if B.cycle_of(lab) and B.ordinal(B.cycle_of(lab)) == cycle}

    def _msp(self, book: Book, side: str, entry: Optional[Entry] = None) -> Optional[int]:
        if entry is not None and "msp" in entry.data:
            return int(entry.data["msp"])
        if B.has_entries(book, side, "MSP"):
            return int(book.balance(side, "MSP"))
        return None

    # ---- checks --------------------------------------------------------------------------------
    def check(self, book: Book, entry: Entry, ctx: LedgerContext) -> list[Finding]:
        out: list[Finding] = []
        e = entry
        out += timing_findings(self.when(e, ctx), ctx)
        out += self._check_balance(book, e)
        out += self._check_priced_account(e, ctx)
        if e.side == "japan":
            out += self._check_strategic_reserve(book, e)
        if e.kind == "transfer" and e.account == "CP" and e.to_account == "HQ":
            out += self._check_allocation(book, e, ctx)
        if B.is_loan(e):
            out += self._check_loan(e)
        if (e.kind == "transfer" and e.to_account == "future_ops") or (e.account == "future_ops" and e.kind in OUTFLOWS):
            out += self._check_future_ops(book, e, ctx)
        if e.kind == "reserve" or (e.kind == "transfer" and e.to_account == "reserve"):
            out += self._check_reserve(book, e, ctx)
        if e.account == "reserve" and e.kind in OUTFLOWS:
            out += self._check_reserve_use(book, e, ctx)
        if e.kind == "spend" and e.account == "PP":
            out += self._check_build(book, e, ctx)
        if (e.item or "").lower() == ITEM_STOCKPILE.lower():
            out += self._check_stockpile(e, ctx)
        if (e.item or "").lower().startswith("cadre"):
            out += self._check_cadre(e, ctx)
        if (e.item or "").lower().endswith("ao tankers") and "pairs" in e.data:  # "Combined Fleet: AO tankers"
            out += self._check_ao(e)
        if e.kind == "income" and e.account == "PP":
            out += self._check_pp_income(book, e, ctx)
        elif "ics" in e.data or "em" in e.data:
            out += self._check_figures(e)
        return out

    def _check_priced_account(self, e: Entry, ctx: LedgerContext) -> list[Finding]:
        """An item the rules price is paid in the points its rule names: CP [28] or PP [51] (or MSP,
        stockpiled resource points) -- e.g. the Ise/Hyuga conversion "costs 2 PP's" [60.6.1]. Another
        account of the same points (an HQ's CP, the reserve) is the player's choice."""
        name = (e.item or "").strip().lower()
        priced = next((p for p in self.catalogue(e.side, ctx) if p.item.lower() == name), None) if name else None
        if priced is None or _points(priced.account) == _points(e.account):
            return []
        return [Finding("error", priced.rule, f"{priced.item} is paid in {ACCOUNT_NAMES.get(priced.account, priced.account)}"
                                              f" ({priced.account}), not {e.account}")]

    def unpriced_account(self, side: str, kind: str, item: str, to_account: Optional[str]) -> tuple[str, list[Finding]]:
        """The account of an entry naming an item the rules do not price, when the player names none
        (``AddEntry`` asks): an allocation to an HQ, the reserve or a future operation comes from the
        cycle's allotment, CP -- "the CP's allotted to each side are in turn allocated to HQ's, to
        "reserve," or to "future operations."" [29.0]; anything else is booked to CP with a question
        naming the item and the accounts, as the rules do not say whether it is CP [28.0] or PP [51.0]."""
        accounts = self.accounts(side)
        allocation = (kind == "reserve" and to_account in (None, "reserve")) or (
            kind == "transfer" and to_account in ("HQ", "reserve", "future_ops") and ">" not in item)
        if allocation:
            return "CP", []
        return accounts[0], [Finding("question", "[28.0];[51.0]", f"'{item}' is not an item the rules price: booked to "
                                                                   f"{accounts[0]}; name its account if it is another "
                                                                   f"({', '.join(accounts)})")]

    @staticmethod
    def _check_ao(e: Entry) -> list[Finding]:
        """[28.7] data pairs "12/10, 8/8" (fuel capacities), port major|minor|anchorage, supply_base,
        msb (true/false), category (A-F when not fully supplied)."""
        d = e.data
        try:
            pairs = [tuple(int(x) for x in p.split("/")) for p in str(d["pairs"]).split(",") if p.strip()]
            if any(len(p) != 2 for p in pairs):
                raise ValueError
            port = str(d.get("port") or "").lower() or None
            if port not in (None, "major", "minor", "anchorage"):
                raise ValueError
            cp = R.ao_tanker_cp(pairs, port, bool(d.get("supply_base")), bool(d.get("msb")), d.get("category"))
        except (ValueError, KeyError):
            return [Finding("error", "[28.7]", f"AO tanker data {dict(d)!r}: pairs like '12/10, 8/8', port "
                                               "major/minor/anchorage, category A-F")]
        if e.amount != cp:
            return [Finding("error", "[28.7]", f"these AO pairs give {cp} CP; {_num(e.amount)} entered")]
        return [Finding("info", "[28.7]", f"{counted(len(pairs), 'AO pair')}: {cp} CP")]

    @staticmethod
    def _check_figures(e: Entry) -> list[Finding]:
        """Recorded EM [53.6.7] and operational Industrial Centres [53.5.3]."""
        out = []
        for key, lo, hi, rule in (("em", 0, None, "[53.6.7]"), ("ics", 0, R.INDUSTRIAL_CENTRES, "[53.5.3]")):
            if key in e.data:
                try:
                    v = int(str(e.data[key]))
                except ValueError:
                    out.append(Finding("error", rule, f"{key} {e.data[key]!r} must be a whole number"))
                    continue
                if v < lo or (hi is not None and v > hi):
                    out.append(Finding("error", rule, f"{key} {v} is out of range ({lo}-{hi if hi is not None else ''})"))
        return out

    def _check_balance(self, book: Book, e: Entry) -> list[Finding]:
        if e.kind not in OUTFLOWS or e.amount <= 0:
            return []
        held = book.balance(e.side, e.account)
        if e.account == "HQ" and (B.is_loan(e) or B.hq_of(e)):
            hq = B.loan_of(e)[0] if B.is_loan(e) else B.hq_of(e)
            held = B.hq_balances(book, e.side).get(hq, 0)
            if e.amount > held:
                return [Finding("error", "[28.4.1]", f"{hq} holds {_num(held)} CP; it cannot give {_num(e.amount)}")]
            return []
        if e.amount > held:
            # PP: [52.1] STEP 2 for the US, [53.1] STEP 3 for Japan ("as per 52.1 (STEP 2)")
            rule = ("[53.1]" if e.side == "japan" else "[52.1]") if e.account == "PP" else "[28.4.1]"
            return [Finding("error", rule, f"{e.side} holds {_num(held)} {e.account}; {e.kind} of {_num(e.amount)} "
                                           f"would leave {_num(held - e.amount)} (no deficit spending)")]
        return []

    def _check_strategic_reserve(self, book: Book, e: Entry) -> list[Finding]:
        out = []
        left = book.balance("japan", "strategic_reserve")
        if e.kind == "spend" and e.account in ("CP", "HQ") and left > 0:
            out.append(Finding("error", "[28.1.1]", f"Japanese CP must come from the Strategic Reserve ({_num(left)} "
                                                    "left) before any other CP are spent"))
        into = [d for s, a, d in e.effects() if s == "japan" and a == "strategic_reserve" and d > 0]
        if into and any(d < 0 for x in book.entries for s, a, d in x.effects() if s == "japan" and a == "strategic_reserve"):
            out.append(Finding("error", "[28.1.1]", "the Strategic Reserve, once drawn on, may never be reconstituted"))
        elif into and book.balance("japan", "strategic_reserve") + sum(into) > R.STRATEGIC_RESERVE:
            out.append(Finding("error", "[28.1.1]", f"the Strategic Reserve starts at {R.STRATEGIC_RESERVE} CP and is "
                                                    "never replenished"))
        return out

    def _check_allocation(self, book: Book, e: Entry, ctx: LedgerContext) -> list[Finding]:
        out = []
        hq = B.hq_of(e)
        if not hq:
            return [Finding("error", "[28.4.1]", "name the HQ the CP are allocated to (item or data hq)")]
        cycle = self._cycle(ctx)
        if cycle is None:
            return out
        now = B.allocated(book, e.side, hq, cycle) + e.amount
        prev = B.allocated(book, e.side, hq, cycle - 1)
        if "previous" in e.data and not prev:  # e.g. the campaign's first cycle: the set-up's assignment
            try:
                prev = Fraction(str(e.data["previous"]))
            except (ValueError, ZeroDivisionError):
                return out + [Finding("error", "[28.4]", f"the entry's value previous={e.data['previous']} must be a number")]
        cap = R.gearing_cap(prev)
        if now > cap:
            out.append(Finding("error", "[28.4]", f"{hq} may be assigned at most {cap} new CP this cycle "
                                                  f"(max(1.5 x {_num(prev)}, 20)); {_num(now)} asked"
                                                  + ("; none recorded last cycle (the entry's value previous=N gives the set-up's)"
                                                     if not prev else "")))
        if e.data.get("new_hq"):
            allotment = sum((x.amount for x in book.entries if x.side == e.side and x.kind == "income"
                             and x.account == "CP" and B.entry_cycle(book, x) == cycle), 0)
            ncap = R.new_hq_cap(allotment)
            if now > ncap:
                out.append(Finding("error", "[28.4]", f"newly-deployed {hq} may take at most 50% of the cycle's "
                                                      f"allotment {_num(allotment)} = {ncap} CP; {_num(now)} asked"))
        return out

    def _check_loan(self, e: Entry) -> list[Finding]:
        lender, borrower = B.loan_of(e)
        if not lender or not borrower:
            return [Finding("error", "[28.8]", "a loan names the lending and the borrowing HQ (item 'LENDER > BORROWER')")]
        out = [Finding("question", "[28.8]", f"{lender} within {borrower}'s Command Radius (or the reverse), both "
                                             "linked, like-type, not US<->CW, neither in China?")]
        for k in ("china", "us_cw", "unlike"):
            if e.data.get(k):
                why = {"china": "no CP may be lent into, or out of, any HQ inside China",
                       "us_cw": "US HQs may not lend CP to CW HQs, and vice-versa",
                       "unlike": "both HQs must be like-type"}[k]
                out.append(Finding("error", "[28.8]", why))
        return out

    def _check_future_ops(self, book: Book, e: Entry, ctx: LedgerContext) -> list[Finding]:
        out = []
        cycle = self._cycle(ctx)
        pool = book.balance(e.side, "future_ops")
        target = self._pool_target(book, e.side)
        if e.to_account == "future_ops":
            added = sum((x.amount for x in book.entries if x.side == e.side and x.turn == ctx.turn
                         and x.to_account == "future_ops"), 0) + e.amount
            if added > R.FUTURE_OPS_PER_TURN:
                out.append(Finding("error", "[28.5]", f"at most {R.FUTURE_OPS_PER_TURN} CP per Strategic G/T go to the "
                                                      f"future operation pool; {_num(added)} asked"))
            want = B.parse_cycle(str(e.data.get("cycle") or e.item or ""))
            if want is None:
                out.append(Finding("error", "[28.5]", "name the future operation's cycle (item or data cycle, e.g. '9/42')"))
            elif cycle is not None:
                w = B.ordinal(want)
                if pool > 0 and target is not None and w != target:
                    out.append(Finding("error", "[28.5]", "no side may have more than one future operation pool at a time"))
                if not cycle < w <= cycle + R.FUTURE_OPS_HORIZON:
                    out.append(Finding("error", "[28.5]", f"the future operation's cycle {want[0]}/{want[1]} must be 1 to "
                                                          f"{R.FUTURE_OPS_HORIZON} cycles ahead of {ctx.turn_label}"))
        if e.account == "future_ops":
            if target is not None and cycle is not None and cycle < target:
                out.append(Finding("error", "[28.5]", "CP committed to a future operation may not be removed or used "
                                                      "until the cycle designated"))
            if e.to_account != "HQ":
                out.append(Finding("error", "[28.5]", "future operation CP must be allocated to an HQ or HQs"))
        return out

    def _pool_target(self, book: Book, side: str) -> Optional[int]:
        for x in reversed(book.entries):
            if x.side == side and x.to_account == "future_ops":
                c = B.parse_cycle(str(x.data.get("cycle") or x.item or ""))
                return B.ordinal(c) if c else None
        return None

    def _check_reserve(self, book: Book, e: Entry, ctx: LedgerContext) -> list[Finding]:
        if e.amount <= 0 or e.account != "CP":
            return [] if e.amount <= 0 else [Finding("error", "[28.6]", "CP are placed into reserve from the cycle's allotment (account CP)")]
        out = []
        cycle = self._cycle(ctx)
        if e.side == "japan":
            if self._msp(book, e.side, e) is None:
                out.append(Finding("question", "[28.6.1]", "the Japanese exchange rate depends on the MS Point total: "
                                                           "record the MSP total (account MSP) or give data msp"))
            return out
        if cycle is None:
            return out
        turns = self._turns_of_cycle(book, ctx, cycle)
        placed = sum((x.amount for x in book.entries if x.side == e.side and x.turn in turns and x.kind == "reserve"
                      and x.account == "CP" and x.amount > 0), 0) + e.amount
        cycle_cp = sum((x.amount for x in book.entries if x.side == e.side and x.turn in turns and x.kind == "income"
                        and x.account == "CP"), 0)
        cap = R.allied_reserve_cap(cycle_cp)
        if placed > cap:
            out.append(Finding("error", "[28.6.2]", f"the Allied player may place at most 50% of the cycle's {_num(cycle_cp)} "
                                                    f"CP = {cap} into reserve; {_num(placed)} asked"))
        prev_turns = self._turns_of_cycle(book, ctx, cycle - 1)
        prev = sum((x.amount for x in book.entries if x.side == e.side and x.turn in prev_turns and x.kind == "reserve"
                    and x.account == "CP" and x.amount > 0), 0)
        gcap = R.gearing_cap(prev)
        if placed > gcap:
            out.append(Finding("error", "[28.6.2]", f"Allied reserve placements are geared [28.4]: at most {gcap} this "
                                                    f"cycle (max(1.5 x {_num(prev)}, 20)); {_num(placed)} asked"))
        return out

    def _check_reserve_use(self, book: Book, e: Entry, ctx: LedgerContext) -> list[Finding]:
        cycle = self._cycle(ctx)
        if cycle is None or e.amount <= 0:
            return []
        turns = self._turns_of_cycle(book, ctx, cycle)
        pending = sum((d for x in book.entries if x.side == e.side and x.turn in turns
                       for s, a, d in x.effects() if s == e.side and a == "reserve" and (x.kind == "reserve" or x.data.get("deposit"))), 0)
        ready = book.balance(e.side, "reserve") - max(pending, 0)
        out = []
        if e.amount > ready:
            out.append(Finding("error", "[28.6]", f"reserve CP become available the following cycle: {_num(ready)} of the "
                                                  f"{_num(book.balance(e.side, 'reserve'))} in reserve may be used now"))
        if e.data.get("isolated"):
            out.append(Finding("info", "[28.6.3]", f"through an isolated HQ {_num(e.amount)} reserve CP give "
                                                   f"{R.isolated_hq_receives(int(e.amount))} (2:1)"))
        return out

    def _check_build(self, book: Book, e: Entry, ctx: LedgerContext) -> list[Finding]:
        out = []
        unit, count = B.unit_of(e)
        if not unit:
            return out + [Finding("error", "[52.4.1]", "name the unit type initiated (item, e.g. 'CV' or '2 CV')")]
        now = B.initiated(book, e.side, unit, ctx.turn) + count
        if e.side == "japan" and unit in ("MSU", "APB"):
            prev, basis = None, ""  # [53.7.2] "MSU's: No per-turn restrictions apply" (the allowable-builds pool [53.10] does)
        else:
            prev, basis, gearing = self._previous_initiated(book, e, ctx, unit)
            out += gearing
        if prev is not None:
            cap = R.unit_gearing_cap(prev)
            if now > cap:
                out.append(Finding("error", "[52.4.1]", f"at most {cap} {unit} may be initiated this Production Phase "
                                                        f"({prev} in the previous one{basis}, + 1); {now} asked"))
            elif basis:
                out.append(Finding("info", "[52.4.1]", f"{now} {unit} of at most {cap} ({prev} in the previous "
                                                       f"one{basis}, + 1)"))
        if "delay" in e.data:
            try:
                delay = int(e.data["delay"])
                if delay < 1:
                    raise ValueError
            except (TypeError, ValueError):
                out.append(Finding("error", "[52.5]", f"delay {e.data['delay']!r} must be a whole number of cycles, at least 1"))
            else:
                c = B.cycle_of(ctx.turn_label)
                if c:
                    a = R.arrival_cycle(c, delay)
                    out.append(Finding("info", "[52.5]", f"{unit} arrives 0/{a[0]}/{a[1]:02d}, usable from G/T 1/{a[0]}/{a[1]:02d}"))
        out += self._check_shares(book, e, ctx)
        out += self._air_status(book, e, ctx)
        return out

    def _check_shares(self, book: Book, e: Entry, ctx: LedgerContext) -> list[Finding]:
        """[52.4.2] (and [53.7] for Japan): of the newly-received PP, at most 50 % (rounded up) on air
        blocks and on ships; PP accumulated before are not restricted. Lifted for the US from 0/1/44;
        Japan: at most one ship a phase (MSUs and one CD apart) [53.7.1], [53.7.2]."""
        out: list[Finding] = []
        cat = B.category_of(e, R.SHIP_TYPES)
        unit, count = B.unit_of(e)
        c = self._cycle(ctx)
        if e.side == "japan":
            out += self._one_ship(book, e, ctx)
            if cat == "ship" and unit in ("MSU", "APB"):
                return out
        if cat not in ("air", "ship"):
            return out
        if e.side != "japan" and c is not None and c >= B.ordinal(R.SHARES_LIFTED):
            return out
        received = sum((x.amount for x in book.entries if x.side == e.side and x.turn == ctx.turn and x.kind == "income"
                        and x.account == "PP"), 0)
        accumulated = max(book.balance(e.side, "PP", ctx.turn - 1), 0)
        spent = sum((x.amount for x in book.entries if x.side == e.side and x.turn == ctx.turn and x.kind == "spend"
                     and x.account == "PP" and B.category_of(x, R.SHIP_TYPES) == cat), 0) + e.amount
        cap = R.share_cap(received) + accumulated
        if cat == "air" and spent == e.amount and count == 1:
            em = B.latest_data(book, "japan", "em", ctx.turn) if e.side == "japan" else None
            if e.side != "japan" or int(em if em is not None else R.EM_START) >= 1:
                return out  # [52.4.2] exception 1 / [53.7.4]: one air block a cycle whatever its cost
        if spent > cap:
            out.append(Finding("error", "[52.4.2]", f"at most 50% (rounded up) of the {_num(received)} PP received "
                                                    f"({R.share_cap(received)}) plus {_num(accumulated)} accumulated may "
                                                    f"go to {cat}s: {_num(spent)} asked"))
        return out

    @staticmethod
    def _ship_kind(x: Entry) -> Optional[str]:
        """What a Japanese PP spend is for [53.7.1]: "ship", "sub" (sub points), "cd" [53.7.2], or None
        (no ship, or MS production: "No restrictions apply to Japanese MS production"). The
        Ise/Hyuga conversion is "considered a naval unit, in regards to 53.7.1" [60.6.1]."""
        if (x.item or "").strip().lower() == ITEM_ISE_HYUGA.lower():
            return "ship"
        if B.category_of(x, R.SHIP_TYPES) != "ship":
            return None
        unit, _ = B.unit_of(x)
        if unit in ("MSU", "APB"):
            return None
        return {"CD": "cd", "SS": "sub"}.get(unit, "ship")

    def _one_ship(self, book: Book, e: Entry, ctx: LedgerContext) -> list[Finding]:
        """[53.7.1] Japan initiates at most one ship in a Production Phase, "up to 4 sub points" being
        a "single ship" (1-4 sub points one ship, 5 two); [53.7.2] at most one CD besides."""
        kind = self._ship_kind(e)
        if kind is None:
            return []
        phase = [x for x in book.entries if x.side == "japan" and x.turn == ctx.turn and x.kind == "spend"
                 and x.account == "PP"] + [e]
        n = {"ship": 0, "sub": 0, "cd": 0}
        for x in phase:
            k = self._ship_kind(x)
            if k is not None:
                n[k] += B.unit_of(x)[1]
        if kind == "cd":
            if n["cd"] > 1:
                return [Finding("error", "[53.7.2]", f"Japan may initiate at most one CD in a Production Phase: "
                                                     f"{n['cd']} asked")]
            return []
        ships = n["ship"] + R.sub_ships(n["sub"])
        if ships > 1:
            subs = f" with {n['sub']} sub points (up to 4 are a single ship)" if n["sub"] else ""
            return [Finding("error", "[53.7.1]", f"Japan may initiate at most one ship in a Production Phase: "
                                                 f"{ships}{subs} asked")]
        return []

    def _air_rule(self, side: str, ctx: LedgerContext) -> Optional[str]:
        """The rule that holds ``side`` to the air-block minimum this turn: [52.4.2] for the US until
        0/1/44 ("Commencing with cycle 0/1/44 ... permanently lifted"), [53.7] for Japan (its 1st
        bullet applies, the listed exceptions disregarded); None outside a Production Phase."""
        if not self._strategic(ctx):
            return None
        if side == "japan":
            return "[53.7]"
        c = self._cycle(ctx)
        return None if c is not None and c >= B.ordinal(R.SHARES_LIFTED) else "[52.4.2]"

    def _air_spent(self, book: Book, side: str, turn: int, extra: Optional[Entry] = None):
        spends = [x for x in book.entries if x.side == side and x.turn == turn and x.kind == "spend"
                  and x.account == "PP"] + ([extra] if extra is not None else [])
        return sum((x.amount for x in spends if B.category_of(x, R.SHIP_TYPES) == "air"), 0)

    def _pp_received(self, book: Book, side: str, turn: int):
        """The PP ``side`` received in the Production Phase of ``turn``; None when none is recorded."""
        got = [x.amount for x in book.entries if x.side == side and x.turn == turn and x.kind == "income"
               and x.account == "PP"]
        return sum(got, 0) if got else None

    def _air_status(self, book: Book, e: Entry, ctx: LedgerContext) -> list[Finding]:
        """A PP spend's running status of the [52.4.2] air-block minimum (judged as the phase closes)."""
        rule = self._air_rule(e.side, ctx)
        received = self._pp_received(book, e.side, ctx.turn) if rule else None
        if received is None:
            return []
        air, need = self._air_spent(book, e.side, ctx.turn, e), R.air_minimum(received)
        return [Finding("info", rule, f"air blocks this Production Phase: {_num(air)} PP of the at least {need} "
                                      f"(30% of {_num(received)} PP received, rounded up); judged as the turn closes")]

    def close_findings(self, book: Book, side: str, ctx: LedgerContext) -> list[Finding]:
        """What the rules judge of ``side``'s turn as it closes (the close's warnings and questions).

        [52.4.2] "At least 30% (rounded up) of the total PP's received (not accumulated) in a given
        cycle must be used to initiate the production of air blocks" -- for Japan too [53.7]; lifted
        for the US from 0/1/44. It is judged here, as the Production Phase (the Strategic G/T)
        closes, not on each spend: the PP are received and spent in that phase ("all PP's must be
        spent in the Production Phase in which they are received", 25 % kept at most [52.4.3]), so
        only its close knows what went to air blocks (each PP spend shows the running status as an
        info). Every PP spent on air blocks in the phase counts (points are alike: those kept from
        before are not restricted, so the air blocks are taken as bought with the new ones first).
        A warning with the numbers when short; a question when the PP received are not recorded
        (asked only of a side that keeps PP in this ledger)."""
        rule = self._air_rule(side, ctx)
        if rule is None:
            return []
        air = self._air_spent(book, side, ctx.turn)
        received = self._pp_received(book, side, ctx.turn)
        if received is None:
            if not B.has_entries(book, side, "PP"):
                return []
            return [Finding("question", rule, f"the PP received this Production Phase are not recorded: at least 30% "
                                              f"(rounded up) of them must go to air blocks ({_num(air)} PP did)")]
        need = R.air_minimum(received)
        if air < need:
            return [Finding("warning", rule, f"air blocks got {_num(air)} PP this Production Phase: at least 30% "
                                             f"(rounded up) of the {_num(received)} PP received = {need} must")]
        return [Finding("info", rule, f"air blocks got {_num(air)} PP this Production Phase: at least {need} "
                                      f"(30% of {_num(received)} PP received, rounded up)")]

    def _previous_initiated(self, book: Book, e: Entry, ctx: LedgerContext,
                            unit: str) -> tuple[Optional[int], str, list[Finding]]:
        """[52.4.1] units of ``unit`` type initiated in the previous Production Phase: (how many, the
        reading it rests on, findings); how many is None where it is not known.

        The book counts them when the calendar holds the previous cycle's Production Phase. The
        campaign's first Production Phase has none before it, and the text does not say what "the
        previous Production Phase" is then (the scenario booklets are not in it): the entry's value
        previous=N gives it, else the setting ``ledger_first_production_gearing`` decides -- ``ask``
        (default): a question to the player, the limit not checked; ``zero``: none were initiated
        before, so at most one of each type."""
        prev_turn = self._previous_production(book, ctx)
        if prev_turn is not None:
            return B.initiated(book, e.side, unit, prev_turn), "", []
        if "previous" in e.data:
            try:
                n = int(str(e.data["previous"]))
                if n < 0:
                    raise ValueError
            except ValueError:
                return None, "", [Finding("error", "[52.4.1]", f"the entry's value previous={e.data['previous']} must "
                                                               "be a whole number of units")]
            return n, " (the entry's value previous=N)", []
        reading = _setting(ctx, "ledger_first_production_gearing", "ask", R.FIRST_PRODUCTION_READINGS)
        if reading == "zero":
            return 0, " (reading zero: none before the campaign's first Production Phase)", []
        return None, "", [Finding("question", "[52.4.1]", f"the campaign's first Production Phase: how many {unit} "
                                                          "were initiated in the previous one is not known (reading "
                                                          "ask): give the entry's value previous=N to check at most "
                                                          "N + 1")]

    def _previous_production(self, book: Book, ctx: LedgerContext) -> Optional[int]:
        cycle = self._cycle(ctx)
        if cycle is None:
            return None
        for t, lab in sorted({**dict(book.labels), **dict(ctx.labels)}.items(), reverse=True):
            c = B.cycle_of(lab)
            if t < ctx.turn and lab.startswith("Strategic") and c and B.ordinal(c) == cycle - 1:
                return t
        return None

    def _check_stockpile(self, e: Entry, ctx: LedgerContext) -> list[Finding]:
        out = []
        if e.side != "japan":
            out.append(Finding("error", "[53.2.3]", "only Japan stockpiles Co-Prosperity Sphere resource points"))
        if e.kind != "spend" or e.account != "CP":
            out.append(Finding("error", "[53.2.3]", "resource points are bought by spending CP"))
        if Fraction(e.amount) % R.STOCKPILE_CP:
            out.append(Finding("error", "[53.2.3]", f"{_num(e.amount)} CP is not a whole number of resource points "
                                                    f"({R.STOCKPILE_CP} CP each)"))
        else:
            out.append(Finding("info", "[53.2.3]", f"{_num(e.amount)} CP -> "
                                                   f"{counted(int(e.amount) // R.STOCKPILE_CP, 'resource point')} stockpiled"))
        return out

    def _check_cadre(self, e: Entry, ctx: LedgerContext) -> list[Finding]:
        d = e.data
        reading = _setting(ctx, "ledger_cadre_bracketing", "example", R.CADRE_READINGS)
        try:
            if "steps" in d and "years" in d:
                tq, steps, removed = R.cadre_release(int(d["steps"]), int(d.get("tq", 0)), int(d["years"]))
                lowered = int(d["years"])
            elif "steps_removed" in d and "years" in d:
                removed, lowered = int(d["steps_removed"]), int(d.get("tq_lowered", d["years"]))
            else:
                return [Finding("question", "[44.4.5]", "give the unit's printed steps and the years advanced (the "
                                                        "entry's values steps=N years=N) to check the CP")]
        except (TypeError, ValueError):
            return [Finding("error", "[44.4.5]", f"cadre data {dict(d)!r} must be whole numbers")]
        cp = R.cadre_cp(removed, lowered, int(d["years"]), reading)
        if e.amount != cp:
            return [Finding("error", "[44.4.5]", f"releasing the cadre {counted(int(d['years']), 'year')} early costs {cp} CP "
                                                 f"(({counted(removed, 'step')} + {lowered} TQ) x {d['years']}, reading {reading}); "
                                                 f"{_num(e.amount)} entered")]
        return [Finding("info", "[44.4.5]", f"{counted(removed, 'step')} removed, TQ -{lowered}: {cp} CP")]

    def _check_pp_income(self, book: Book, e: Entry, ctx: LedgerContext) -> list[Finding]:
        out = []
        if e.side != "japan":
            if self._us_fixed(ctx) and e.amount != R.US_FIXED_PP:
                out.append(Finding("error", "[52.3]", f"from cycle 0/10/44 the US receives {R.US_FIXED_PP} PP a cycle; "
                                                      f"{_num(e.amount)} entered"))
            return out
        if {"em", "ics", "multiple"} <= set(e.data):
            try:
                em, ics, mult = int(e.data["em"]), int(e.data["ics"]), Fraction(str(e.data["multiple"]))
            except (TypeError, ValueError):
                return out + [Finding("error", "[53.6]", f"em/ics/multiple {dict(e.data)!r} must be numbers")]
            if em < 0:
                out.append(Finding("error", "[53.6.7]", f"the EM may never be below zero ({em})"))
            if not 0 <= ics <= R.INDUSTRIAL_CENTRES:
                out.append(Finding("error", "[53.5.3]", f"{ics} operational Industrial Centres: there are {R.INDUSTRIAL_CENTRES}"))
            if not Fraction(6, 10) <= mult <= Fraction(11, 10):
                out.append(Finding("error", "[53.1]", f"the MS PP multiple runs from 1.1 to 0.6; {_num(mult)} entered"))
            rounding = _setting(ctx, "ledger_japan_pp_rounding", "down", R.PP_ROUNDINGS)
            pp = R.japanese_pp(max(em, 0), ics, mult, rounding)
            if not out and Fraction(e.amount) != Fraction(pp):
                out.append(Finding("error", "[53.6]", f"EM {em} x {ics} ICs x {_num(mult)} = {_num(pp)} PP "
                                                      f"(rounded {rounding}); {_num(e.amount)} entered"))
        return out

    # ---- income the rules compute --------------------------------------------------------------
    def income(self, book: Book, side: str, ctx: LedgerContext) -> list[Entry]:
        if not self._strategic(ctx):
            return []
        out: list[Entry] = []
        if side != "japan":
            if self._us_fixed(ctx):
                out.append(Entry(side=side, turn=ctx.turn, kind="income", amount=R.US_FIXED_PP, account="PP",
                                 item=ITEM_US_PP, rule="[52.3]", note="30 PP a cycle from 0/10/44"))
            return out
        msp = self._msp(book, side)
        cp = self._japan_cp(book, ctx, msp)
        if cp is not None:
            out.append(cp)
        pp = self._japan_pp(book, ctx, msp)
        if pp is not None:
            out.append(pp)
        if msp is not None and msp > 0:
            out.append(Entry(side=side, turn=ctx.turn, kind="income", amount=R.emergency_reserve_growth(msp),
                             account="emergency_reserve", item=ITEM_EWR, rule="[28.1.2]",
                             note=f"1% of {msp} MSP, standard rounding", data={"msp": msp}))
        return out

    def _japan_cp(self, book: Book, ctx: LedgerContext, msp: Optional[int]) -> Optional[Entry]:
        table = ctx.world.tables.get(CP_TABLE) if ctx.world is not None else None
        home = B.latest_data(book, "japan", "homeland_resources", ctx.turn)
        cps = B.latest_data(book, "japan", "cps_resources", ctx.turn)
        if not table or msp is None or home is None or cps is None:
            return None
        level = min(int(home), int(cps))
        cp = R.lookup_range(table, CP_TABLE, {"resource": level, "msp": msp}, "cp")
        if cp is None:
            raise ValueError(f"table {CP_TABLE} has no row for resource level {level} and {msp} MSP [28.1]")
        return Entry(side="japan", turn=ctx.turn, kind="income", amount=cp, account="CP", item=ITEM_JAPAN_CP,
                     rule="[28.1]", note=f"lower resource level {level} x {msp} MSP on the Japanese Command Point Table",
                     data={"resource_level": level, "msp": msp})

    def _japan_pp(self, book: Book, ctx: LedgerContext, msp: Optional[int]) -> Optional[Entry]:
        table = ctx.world.tables.get(PP_MULTIPLE_TABLE) if ctx.world is not None else None
        if not table or msp is None:
            return None
        mult = R.lookup_range(table, PP_MULTIPLE_TABLE, {"msp": msp}, "multiple", kind=Fraction)
        if mult is None:
            raise ValueError(f"table {PP_MULTIPLE_TABLE} has no row for {msp} MSP [53.6]")
        em = int(B.latest_data(book, "japan", "em", ctx.turn) if B.latest_data(book, "japan", "em", ctx.turn) is not None
                 else R.EM_START)
        ics = self._operational_ics(book, ctx)
        rounding = _setting(ctx, "ledger_japan_pp_rounding", "down", R.PP_ROUNDINGS)
        pp = R.japanese_pp(em, ics, mult, rounding)
        return Entry(side="japan", turn=ctx.turn, kind="income", amount=pp, account="PP", item=ITEM_JAPAN_PP,
                     rule="[53.6]", note=f"EM {em} x {ics} operational ICs x {_num(mult)} ({msp} MSP)",
                     data={"em": em, "ics": ics, "multiple": str(mult), "msp": msp})

    def _operational_ics(self, book: Book, ctx: LedgerContext) -> int:
        """[53.5.1] the ICs recorded operational (data ics), else 10 less those whose hex Japan does not control."""
        ics = B.latest_data(book, "japan", "ics", ctx.turn)
        if ics is not None:
            return int(ics)
        n = R.INDUSTRIAL_CENTRES
        control = getattr(ctx.world, "control", None)
        if control is not None:
            for hex_label in INDUSTRIAL_CENTRE_HEXES:
                try:
                    owner = control.owner(hex_label)
                except (KeyError, ValueError):
                    owner = None
                if owner is not None and owner != "japan":
                    n -= 1
        return n

    # ---- the close of a turn -------------------------------------------------------------------
    def close_turn(self, book: Book, side: str, ctx: LedgerContext) -> list[Entry]:
        reading = four_three(ctx)
        out: list[Entry] = []

        def add(e: Entry) -> None:
            nonlocal book
            out.append(e)
            book = book.with_entry(e)

        mine = [e for e in book.entries if e.side == side and e.turn == ctx.turn]
        # [28.6.1] CP placed into reserve this turn are recorded at the exchange rate.
        placed = sum((e.amount for e in mine if e.kind == "reserve" and e.account == "CP" and e.amount > 0), 0)
        if placed:
            msp = self._msp(book, side, next((e for e in mine if e.kind == "reserve" and "msp" in e.data), None))
            if side != "japan" or msp is not None:
                rate = R.japanese_reserve_rate(msp) if side == "japan" else (4, 3)
                kept = R.exchange(int(placed), rate, reading)
                if kept != placed:
                    add(Entry(side=side, turn=ctx.turn, kind="adjust", amount=kept - placed, account="reserve",
                              item="reserve exchange", rule="[28.6.1]", data={"deposit": True},
                              note=f"{_num(placed)} CP placed at {rate[0]}:{rate[1]} -> {kept} recorded To Reserve"))
        # [28.8] loans this turn: 4:3, none lost below 4.
        for e in mine:
            if B.is_loan(e):
                lender, borrower = B.loan_of(e)
                got = R.lend_received(int(e.amount), reading)
                if got != e.amount:
                    add(Entry(side=side, turn=ctx.turn, kind="adjust", amount=got - e.amount, account="HQ",
                              item=f"{borrower}: loan exchange", rule="[28.8]", data={"hq": borrower},
                              note=f"{_num(e.amount)} CP lent by {lender} at 4:3 -> {got} received"))
        # [53.2.3] CP spent on resource points: the points go "in the bank" (5 CP each).
        bought = sum((e.amount for e in mine if e.kind == "spend" and (e.item or "").lower() == ITEM_STOCKPILE.lower()), 0)
        if side == "japan" and bought:
            add(Entry(side=side, turn=ctx.turn, kind="income", amount=int(bought) // R.STOCKPILE_CP, account="stockpile",
                      item="resource points stockpiled", rule="[53.2.3]",
                      note=f"{_num(bought)} CP at {R.STOCKPILE_CP} CP a point"))
        # [52.4.3] PP beyond the accumulated ones and 25 % (rounded up) of those received are lost.
        if self._strategic(ctx):
            received = sum((e.amount for e in mine if e.kind == "income" and e.account == "PP"), 0)
            opening = book.balance(side, "PP", ctx.turn - 1)
            closing = book.balance(side, "PP", ctx.turn)
            lost = R.pp_lost(opening, received, closing)
            if lost:
                add(Entry(side=side, turn=ctx.turn, kind="adjust", amount=-lost, account="PP", item="PP not accumulated",
                          rule="[52.4.3];[53.0]", note=f"keep {_num(max(opening, 0))} accumulated + 25% of "
                          f"{_num(received)} received ({R.stockpile_cap(received)}); {_num(lost)} lost"))
        if self._cycle_ends(ctx):
            out_cycle = self._carry_over(book, side, ctx, reading)
            for e in out_cycle:
                add(e)
        return out

    def _carry_over(self, book: Book, side: str, ctx: LedgerContext, reading: str) -> list[Entry]:
        out: list[Entry] = []
        cycle = self._cycle(ctx)
        turns = self._turns_of_cycle(book, ctx, cycle) if cycle is not None else {ctx.turn}
        # [28.6] reserve placed this cycle arrives for the next cycle: it is not carried over yet.
        fresh = sum((d for x in book.entries if x.side == side and x.turn in turns
                     for s, a, d in x.effects() if s == side and a == "reserve"
                     and (x.kind == "reserve" and x.amount > 0 or x.data.get("deposit"))), 0)
        held = book.balance(side, "reserve")
        old = held - max(fresh, 0)
        if old > 0:
            kept = R.reserve_carry(int(old), reading)
            if kept != old:
                out.append(Entry(side=side, turn=ctx.turn, kind="adjust", amount=kept - old, account="reserve",
                                 item="reserve carry-over", rule="[28.9.1]",
                                 note=f"{_num(old)} reserve CP carried at 4:3 -> {kept}"))
        for hq, n in sorted(B.hq_balances(book, side).items()):
            if n > 0 and not _china(hq):
                kept = R.hq_carry(int(n))
                out.append(Entry(side=side, turn=ctx.turn, kind="adjust", amount=kept - n, account="HQ",
                                 item=f"{hq}: carry-over", rule="[28.9.2]", data={"hq": hq},
                                 note=f"{hq}: {_num(n)} CP carried at 2:1 -> {kept}"))
        return out


# [53.5.3] the ten Industrial Centres' hexes (Osaka and Tokyo hold two each).
INDUSTRIAL_CENTRE_HEXES = ("B3029", "B3227", "B3527", "B3626", "B3627", "B3627", "B3727", "D0226", "D0326", "D0326")


def _points(account: str) -> str:
    """What an account holds: PP, MSP, stockpiled resource points, or CP (every other account)."""
    return account if account in ("PP", "MSP", "stockpile") else "CP"


def _china(hq: str) -> bool:
    """[28.9.3] the Japanese C.E.F. HQ and Allied CP allocated to China keep theirs per [28.3.1]."""
    return bool(re.search(r"\b(c\.?e\.?f\.?|china)\b", hq, re.IGNORECASE))


RULES = WitpEconomy()
