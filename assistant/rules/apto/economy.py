"""apto's economy for the production ledger (Part 8).

Accounts. Each income nation keeps an EP Track and an Economic Reserve [8.1], [8.4]. Side
``japan`` has one nation: accounts ``EP`` and ``reserve``. Side ``allies`` keeps one pair per
income nation: ``EP:us``, ``EP:uk``, ``EP:australia``, ``EP:china``, ``EP:ussr`` and
``reserve:us`` ... (the US first: its main account). Minor nations have no EPs [9.0]; CCP
Offensives are paid from China's track (the text gives no CCP income).

What the rules check before an entry is recorded (``check``): no deficit spending [8.1], [8.6],
[8.13]; items in their turn (Seasonal or monthly); who may pay an item ([5.5]: no Impromptu
Offensive for another nation); per-game limits; the Economic Reserve (at most 20, assigned or
released in a Seasonal Turn, immune to Strategic Warfare, and in monthly turns paying only the
[8.4] list); lend-lease (only the UK and US send, in a Seasonal Turn, the UK at most 1/4 and the US
at most 1/2 of its net income, routes [8.3]); Strategic Warfare losses in monthly turns only,
applied at once, and the Japanese surrender test [9.10]. ``income`` gives the Table X base income
(template ``ep_incomes.csv``); ``close_turn`` applies the [2.0] loss cap at the Seasonal Turn.

Settings (game.toml): ``ledger_loss_cap``, ``ledger_lend_lease_net``, ``ledger_reserve_monthly``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ...words import counted
from ..ledger import Book, DataKey, Entry, LedgerContext, Priced, TableNeed, Timing, timing_findings
from ..strike import Finding
from . import economy_items as items
from .economy_colonies import adjustments
from .economy_items import ANY, MONTHLY, SEASONAL, Item
from .economy_season import current_season_losses, preceding_season_losses, surrender

NATIONS = {"japan": ("japan",), "allies": ("us", "uk", "australia", "china", "ussr")}
RESERVE_CAP = 20  # [8.4]
LEND_LEASE = {"uk": (1, 4), "us": (1, 2)}  # share of net income per Seasonal Turn [8.3]
RECIPIENTS = {"us": ("uk", "ussr", "australia", "china"), "uk": ("australia", "china")}  # [8.3]
INCOME_ITEMS = {None, "seasonal income", "colony resource hexes", "captured resource hexes", "oil hexes",
                "conquest debit"}  # the calculated income [8.2]
SETTINGS = {"ledger_loss_cap": "next_income", "ledger_lend_lease_net": "after_losses",
            "ledger_reserve_monthly": "listed", "ledger_oil_bonus": "included", "ledger_war_extension": "once"}
CAP_ITEM = "Strategic Warfare loss cap"


def ep_account(side: str, nation: str) -> str:
    return "EP" if side == "japan" else f"EP:{nation}"


def reserve_account(side: str, nation: str) -> str:
    return "reserve" if side == "japan" else f"reserve:{nation}"


def nation_of(side: str, account: str) -> tuple[Optional[str], bool]:
    """(nation, is the Economic Reserve) of ``side``'s ``account``; nation None if not one of its."""
    for n in NATIONS.get(side, ()):
        if account == ep_account(side, n):
            return n, False
        if account == reserve_account(side, n):
            return n, True
    return None, False


def loss_account(world, side: str, hex: str) -> tuple[Optional[str], str]:
    """(the EP Track a Strategic Bombing loss in ``hex`` falls on, why): the track of the nation the
    hex is of -- ``home_of``, else ``colony_of``, else ``country`` -- "EPs inflicted upon the enemy"
    [2.5] are the bombed nation's (Chungking's are China's). None when the hex names no income
    nation of ``side``: the player says whose track it is (never the side's first one)."""
    from .terrain import norm

    a = world.graph.nodes[hex] if hex in world.graph else {}
    nation = norm(a.get("home_of") or a.get("colony_of") or a.get("country"))
    if nation in NATIONS.get(side, ()):
        return ep_account(side, nation), f"{hex} is {nation}'s: its EP Track [2.5]"
    return None, (f"{hex} names no nation of {side} (home_of, colony_of or country{': ' + nation if nation else ''}): "
                  f"enter whose EP Track the loss falls on [2.5]")


def deficit_note(account: str, balance, cap: str) -> str:
    """What [8.1] and [8.4] say of a track Strategic Warfare takes below zero, under the loss-cap
    reading ``cap`` (setting ``ledger_loss_cap``)."""
    paid = ("from that turn's income; losses beyond that turn's income come back [2.0]" if cap == "next_income"
            else "in full")
    return (f"{account} goes to {balance}: an EP deficit (the EP markers' negative side [8.1]), paid at the next "
            f"Seasonal Turn {paid}; the Economic Reserve is exempt [8.4]")


def season_income(book: Book, side: str, account: str, turn: int) -> int:
    """The calculated income booked to ``account`` in Seasonal Turn ``turn`` [8.2]: the base income
    and its computed adjustments (conquest debits included), not credits such as scrapping."""
    total = 0
    for x in book.entries:
        if x.side != side or x.account != account or x.turn != turn:
            continue
        name = x.item.lower() if x.item else None
        if (x.kind == "income" and (name in INCOME_ITEMS or x.data.get("computed"))) or \
                (x.kind == "adjust" and name == "conquest debit"):
            total += x.amount
    return int(total)


EXTENSION_EP_PER_MONTH = 20  # [11.5]: 1 monthly game-turn 20 EPs, 2 = 40, 3 = 60
EXTENSION_MAX_MONTHS = 3  # [11.5]: "one to three monthly game-turns (but never more)"


def _extension_cap(book: Book, e: Entry, reading: str = "once") -> list[Finding]:
    """[11.5] the war is extended one to three monthly game-turns, never more: the months of every
    War extension the side has booked (20 EPs a month), this entry's with them, are at most 3.
    Setting ledger_war_extension: once (default: the duration is decided once, "the war cannot be
    extended again") refuses a second booking; total allows several within the cap."""
    def months(x: Entry) -> int:
        return int(x.amount) // EXTENSION_EP_PER_MONTH

    prior = [x for x in book.entries
             if x.side == e.side and x.kind == "spend" and (x.item or "").lower().startswith("war extension")]
    before = sum(months(x) for x in prior)
    total = before + months(e)
    if prior and reading == "once":
        return [Finding("error", "[11.5]", f"the US decides the Extension's total duration once: {counted(before, 'month')} "
                                           f"already booked, and the war cannot be extended again "
                                           f"(setting ledger_war_extension=once)")]
    if total <= EXTENSION_MAX_MONTHS:
        return []
    booked = f"{counted(before, 'month')} already booked and {months(e)} more" if before else counted(months(e), 'month')
    return [Finding("error", "[11.5]", f"the war is extended one to three monthly game-turns, never more: "
                                       f"{booked} make {total}")]


# ----- when on the calendar ([8.13]: the Seasonal Turn and the monthly turns) ---------------------
SEASONAL_TURN = ("seasonal",)
MONTHLY_TURN = ("monthly",)
INCOME_TIMING = Timing("Seasonal Turn", "EP income is determined in a Seasonal Turn", "[8.1];[8.2]", SEASONAL_TURN,
                       phase="Economic Income Phase")
LOSS_TIMING = Timing("monthly turn", "Strategic Warfare losses fall in the monthly Strategic Warfare Phase",
                     "[2.0];[8.2]", MONTHLY_TURN, phase="Strategic Warfare Phase")
LEND_LEASE_TIMING = Timing("Seasonal Turn", "lend-lease is sent in the Lend-Lease Step of a Seasonal Turn", "[8.3]",
                           SEASONAL_TURN, phase="Economic Income Phase")
RESERVE_TIMING = Timing("Seasonal Turn", "EPs are assigned to or released from the Economic Reserve in a Seasonal Turn",
                        "[8.4]", SEASONAL_TURN, phase="Economic Income Phase")

#: The values of an entry's data the rules read ([9.10]: the surrender test reads the latest
#: Japanese entry that gives them). Every other name is refused (``rules.ledger.data_findings``).
DATA_KEYS = {
    "us_cities": DataKey((), "[9.10]", "Japanese home cities held by supplied US land units", fact=True),
    "soviet_roll": DataKey((), "[9.10]", "the Soviet roll of the surrender test", fact=True),
    "manchukuo": DataKey((), "[9.10]", "Manchukuo hexes of the surrender test", fact=True),
}

#: Which income figure to type where the strike plotter booked Strategic Warfare losses [8.2].
INCOME_FIGURE = ("Type the Seasonal income as Table X gives it, before these losses: the ledger subtracts them "
                 "already (the worked example: income 77, losses 47, the track marked 30 [8.2]) and the Seasonal "
                 "Turn's close caps them at that income [2.0].")


def setting(ctx: LedgerContext, name: str) -> str:
    value = ctx.world.settings.get(name, SETTINGS[name]) if ctx.world.settings is not None else SETTINGS[name]
    return str(value)


@dataclass(frozen=True)
class AptoEconomy:
    """``assistant.rules.ledger.Economy`` for apto."""

    game: str = "apto"
    POINTS = "EP"  # every amount a whole number of Economic Points: the prices and Table X are in EPs
    DATA_KEYS = DATA_KEYS
    INCOME_FIGURE = INCOME_FIGURE

    @staticmethod
    def loss_turns(turn: int, kind: str, labels) -> tuple[int, ...]:
        """The turns whose Strategic Warfare losses an income entry of ``turn`` meets: at a Seasonal
        Turn the preceding season's monthly turns and the turn itself (the income nets them [8.2]),
        else the turn alone."""
        if kind != "seasonal":
            return (turn,)
        before = [t for t, lab in labels.items() if t < turn and "Seasonal Turn" in str(lab)]
        first = (max(before) + 1) if before else max(0, turn - 3)
        return tuple(range(first, turn + 1))

    def forecast_needs(self, side: str, ctx: LedgerContext) -> list[TableNeed]:
        """Table X [8.1], [8.2]: the seasonal income is computed from it; without it (or without a
        row for a nation and the year) the forecast shows none."""
        rows = ctx.world.tables.get(items.INCOME_TABLE) if ctx.world.tables else None
        nations = NATIONS.get(side, ())
        if not rows:
            return [TableNeed(items.INCOME_TABLE, "Table X", "the seasonal EP income", "[8.1];[8.2]")]
        if ctx.turn_kind != "seasonal" or ctx.year is None:
            return []
        lacking = [n for n in nations if items.income_of(rows, n, ctx.year) is None]
        return [TableNeed(items.INCOME_TABLE, "Table X", f"{n}'s seasonal EP income in {ctx.year}", "[8.1];[8.2]",
                          (ep_account(side, n),)) for n in lacking]

    def when(self, entry: Entry, ctx: LedgerContext) -> list[Timing]:
        """Where on the calendar the rules allow ``entry``: an item's Seasonal Turn or monthly turn,
        the War extension's Summer 1945 Seasonal Turn [11.5]; EP income in a Seasonal Turn [8.1];
        Strategic Warfare losses in a monthly turn [2.0]; lend-lease [8.3] and the Economic Reserve
        [8.4] in a Seasonal Turn."""
        out: list[Timing] = []
        item = (items.by_name(entry.item, self.items(entry.side, ctx)) or items.by_name(entry.item, items.ITEMS)
                if entry.item else None)
        if item is not None and item.timing == SEASONAL:
            out.append(Timing("Seasonal Turn", f"{item.name} is paid in a Seasonal Turn", item.rule, SEASONAL_TURN,
                              phase="Construction Phase" if item.kind == "spend" else ""))  # purchases, construction
        if item is not None and item.timing == MONTHLY:
            out.append(Timing("monthly turn", f"{item.name} is paid in a monthly turn", item.rule, MONTHLY_TURN))
        if item is not None and item.name.startswith("War extension"):
            out.append(Timing("Summer 1945 Seasonal Turn", f"{item.name} is bought in the Summer 1945 Seasonal Turn only",
                              item.rule, SEASONAL_TURN, period="Summer", year=1945))
        seasonal_income = (entry.item or "").lower() in {x for x in INCOME_ITEMS if x} or entry.item is None
        if entry.kind == "income" and seasonal_income:
            out.append(INCOME_TIMING)
        if entry.kind == "loss":
            out.append(LOSS_TIMING)
        if entry.kind == "transfer":
            out.append(LEND_LEASE_TIMING)
        if entry.kind == "reserve" and not nation_of(entry.side, entry.account)[1]:
            out.append(RESERVE_TIMING)
        kinds_said = {t.kinds for t in out if t in (INCOME_TIMING, LOSS_TIMING, LEND_LEASE_TIMING, RESERVE_TIMING)}
        # an item's own turn, said once: "Seasonal income" is EP income, "Strategic Warfare" a loss
        return [t for t in out if t.year is not None or t in (INCOME_TIMING, LOSS_TIMING, LEND_LEASE_TIMING,
                                                              RESERVE_TIMING) or t.kinds not in kinds_said]

    # --- accounts and prices -------------------------------------------------------------
    def account_name(self, account: str) -> str:
        """A nation's EP Track [8.0] ("US EP") and its reserve; Japan's are plain "EP" and "reserve"."""
        what, _, nation = account.partition(":")
        if not nation:
            return what
        return f"{nation.upper() if nation in ('us', 'uk', 'ussr') else nation.title()} {what}"

    def accounts(self, side: str) -> tuple[str, ...]:
        ns = NATIONS.get(side, ())
        return tuple(ep_account(side, n) for n in ns) + tuple(reserve_account(side, n) for n in ns)

    def items(self, side: str, ctx: LedgerContext) -> list[Item]:
        """Every item ``side``'s nations may book: the text's prices, then the player's EP Costs Table."""
        ns = set(NATIONS.get(side, ()))
        out = [i for i in items.ITEMS if i.nations is None or ns & set(i.nations)]
        if "japan" in ns:
            out.append(items.stp_item(ctx.year))
        rows = ctx.world.tables.get(items.COSTS_TABLE) if ctx.world.tables else None
        if rows:
            known = {i.name.lower() for i in out}
            extra = items.cost_rows(rows, "axis" if side == "japan" else "western_allies")
            out += [i for i in extra if i.name.lower() not in known]
        return out

    def catalogue(self, side: str, ctx: LedgerContext) -> list[Priced]:
        """Every item ``side`` may book, each on the account of the first of its nations that pays it
        (the ER for an item paid from the reserve)."""
        out = []
        for i in self.items(side, ctx):
            payers = [n for n in NATIONS.get(side, ()) if i.nations is None or n in i.nations]
            acc = (reserve_account if i.reserve_only else ep_account)(side, payers[0])
            when = {SEASONAL: "Seasonal Turn", MONTHLY: "monthly turn", ANY: "any turn"}[i.timing]
            out.append(Priced(item=i.name, kind=i.kind, account=acc, amount=i.amount, rule=i.rule,
                              doc="; ".join(x for x in (i.doc, when, "the ER may pay it" if i.reserve_ok else "") if x),
                              fixed=not i.name.startswith("Refuel")))  # refuelling may be over-spent [3.14]
        return out

    # --- the rules on one entry -----------------------------------------------------------
    def check(self, book: Book, entry: Entry, ctx: LedgerContext) -> list[Finding]:
        nation, in_reserve = nation_of(entry.side, entry.account)
        if nation is None:
            return [Finding("error", "[8.1]", f"{entry.account!r} is not an EP account of {entry.side}")]
        out: list[Finding] = []
        # an item of another side's catalogue is still that item: its rules refuse the wrong payer
        item = (items.by_name(entry.item, self.items(entry.side, ctx)) or items.by_name(entry.item, items.ITEMS)
                if entry.item else None)
        if item is not None:
            out += self._item_rules(book, entry, ctx, item, nation, in_reserve)
        kind_check = {"spend": self._spend, "income": self._income, "loss": self._loss,
                      "transfer": self._transfer, "reserve": self._reserve}.get(entry.kind)
        if kind_check is not None:
            out += kind_check(book, entry, ctx, nation, in_reserve, item)
        return timing_findings(self.when(entry, ctx), ctx) + out

    def _item_rules(self, book, e: Entry, ctx, item: Item, nation, in_reserve) -> list[Finding]:
        out = []
        if item.kind != e.kind:
            out.append(Finding("error", item.rule, f"{item.name} is booked as {item.kind}, not {e.kind}"))
        if item.nations is not None and nation not in item.nations:
            why = (" (a major power may not buy an Impromptu Offensive for another nation)"
                   if item.name.startswith("Impromptu") else "")
            out.append(Finding("error", item.rule, f"{item.name} is paid by {' or '.join(item.nations)}, "
                                                   f"not {nation}{why}"))
        if item.reserve_only and not in_reserve:
            out.append(Finding("error", item.rule, f"{item.name} is paid from the Economic Reserve "
                                                   f"({reserve_account(e.side, nation)}), not {e.account}"))
        if item.limit and nation in item.limit:
            def count(name: str) -> int:
                return sum(1 for x in book.entries if x.side == e.side and x.item and x.item.lower() == name.lower()
                           and nation_of(x.side, x.account)[0] == nation)
            # a refunded Harbor Enlargement (a roll of 6) does not count: "eligible ... to attempt another" [10.43]
            n = count(item.name) - count(f"{item.name} refund")
            if n + 1 > item.limit[nation]:
                out.append(Finding("error", item.rule, f"{nation} may book {item.name} {item.limit[nation]} "
                                                       f"time(s) per game; {n} already"))
        if item.amount and e.kind in ("spend", "income") and not item.name.startswith("Refuel") \
                and (e.amount <= 0 or e.amount % item.amount):
            # "All EP costs are immutable" [8.6]: n items cost n times the price (refuelling may be over-paid [3.14])
            out.append(Finding("error", item.rule, f"{item.name} costs {item.amount} EP each; {e.amount} is not a "
                                                   f"whole number of them"))
        if item.name.startswith("War extension"):
            out += _extension_cap(book, e, setting(ctx, "ledger_war_extension"))
        return out

    def _available(self, book, e: Entry, ctx, what: str) -> list[Finding]:
        """No deficit spending [8.1], [8.6], [8.13]: the account must hold the amount now."""
        have = book.balance(e.side, e.account, ctx.turn)
        if e.amount > have:
            return [Finding("error", "[8.1];[8.6]", f"{what} of {e.amount} EP exceeds {e.account}'s {have} EP "
                                                    "(no deficit spending)")]
        return []

    def _spend(self, book, e, ctx, nation, in_reserve, item) -> list[Finding]:
        out = self._available(book, e, ctx, f"spending {e.item or ''}".rstrip())
        if in_reserve and ctx.turn_kind == "monthly" and not (item is not None and item.reserve_ok):
            what = e.item or "an unnamed spend"
            if setting(ctx, "ledger_reserve_monthly") == "listed":
                out.append(Finding("error", "[8.4]", f"in a monthly turn the Economic Reserve pays only Combined and "
                                                     f"Impromptu Offensives, Keeping Naval Units at Sea, Pilot Recovery, "
                                                     f"Partisans and Repairing Installations, not {what}"))
            else:
                out.append(Finding("warning", "[8.4]", f"{what} is not in the [8.4] list of ER uses (its \"etc.\" read open)"))
        return out

    def _income(self, book, e, ctx, nation, in_reserve, item) -> list[Finding]:
        out = []
        if in_reserve:
            out.append(Finding("error", "[8.4]", "income goes on the EP Track; assign it to the Economic Reserve "
                                                 "with kind reserve"))
        seasonal_income = (e.item or "").lower() in {x for x in INCOME_ITEMS if x} or e.item is None
        if seasonal_income and nation == "us":
            out.append(Finding("question", "[8.1]", "the US receives no EP income until it is at war: is it?"))
        return out

    def _loss(self, book, e, ctx, nation, in_reserve, item) -> list[Finding]:
        out = []
        if in_reserve:
            out.append(Finding("error", "[8.4]", "EPs in the Economic Reserve are immune to Strategic Warfare"))
        after = book.balance(e.side, e.account) - e.amount
        if not in_reserve and after < 0:
            out.append(Finding("warning", "[8.1];[8.4]", deficit_note(e.account, after, setting(ctx, "ledger_loss_cap"))))
        if nation == "japan" and not in_reserve and ctx.turn_kind == "monthly":
            out.append(self._surrender_finding(book.with_entry(e), e.side, ctx))
        return out

    def statement_notes(self, st, settings) -> list[str]:
        """The working a statement carries: an EP Track closing below zero is a deficit [8.1], [8.4]."""
        nation, reserve = nation_of(st.side, st.account)
        if st.closing < 0 and nation is not None and not reserve:
            return [deficit_note(st.account, st.closing, settings.get("ledger_loss_cap", SETTINGS["ledger_loss_cap"]))]
        return []

    def _surrender_finding(self, book: Book, side: str, ctx) -> Finding:
        s = self.surrender(book, side, ctx)
        if s.surrenders:
            return Finding("warning", "[9.10]", f"Japan surrenders at once: losses this season {s.losses} reach "
                                                f"the surrender integer {s.integer}")
        return Finding("info", "[9.10]", f"Japan's losses this season {s.losses}; surrender integer {s.integer}: "
                                         f"{s.needed} more")

    def surrender(self, book: Book, side: str, ctx: LedgerContext):
        """The [9.10] test from the book: this season's raw losses of Japan's EP Track; A-Bombs
        counted from the "A-Bomb" losses; US-held home cities, the Soviet roll and Manchukuo hexes
        from the latest Japanese entry whose data gives ``us_cities``, ``soviet_roll``, ``manchukuo``."""
        acc = ep_account(side, "japan")
        japan = [x for x in book.entries if x.side == side]
        abombs = sum(1 for x in japan if x.kind == "loss" and (x.item or "").lower() == "a-bomb")
        facts: dict = {}
        for x in japan:
            for k in ("us_cities", "soviet_roll", "manchukuo"):
                if k in x.data:
                    facts[k] = x.data[k]
        return surrender(int(current_season_losses(book, side, acc, ctx)), int(facts.get("us_cities", 0)),
                         min(abombs, 2), facts.get("soviet_roll"), int(facts.get("manchukuo", 0)))

    def net_income(self, book: Book, side: str, nation: str, ctx: LedgerContext) -> int:
        """This Seasonal Turn's net income of ``nation`` [8.2], [8.3]: the income entered (Table X and
        its adjustments), less the preceding season's losses under ``ledger_lend_lease_net =
        after_losses`` (never below 0 [2.0])."""
        acc = ep_account(side, nation)
        inc = season_income(book, side, acc, ctx.turn)
        if setting(ctx, "ledger_lend_lease_net") == "after_losses":
            inc -= preceding_season_losses(book, side, acc, ctx)
        return max(int(inc), 0)

    def _transfer(self, book, e, ctx, nation, in_reserve, item) -> list[Finding]:
        out = []
        to_side = e.to_side or e.side
        to_nation, to_reserve = nation_of(to_side, e.to_account or e.account)
        if to_side == e.side and to_nation == nation:
            return [Finding("error", "[8.4]", "moving EPs between a nation's own track and reserve is kind reserve")]
        if in_reserve or to_reserve:
            out.append(Finding("error", "[8.3];[8.4]", "lend-lease goes from EP Track to EP Track, not the Economic Reserve"))
        if nation not in LEND_LEASE:
            return out + [Finding("error", "[8.3]", f"only the UK and the US may send EPs (lend-lease), not {nation}")]
        if to_side != e.side or to_nation is None:
            return out + [Finding("error", "[8.1];[8.3]", f"EPs go only to a friendly income nation, not "
                                                          f"{to_side} {e.to_account or e.account}")]
        if to_nation not in RECIPIENTS[nation]:
            out.append(Finding("error", "[8.3]", f"there is no lend-lease route from {nation} to {to_nation} "
                                                 f"({nation} sends to {', '.join(RECIPIENTS[nation])})"))
        out += self._available(book, e, ctx, "lend-lease")
        num, den = LEND_LEASE[nation]
        net = self.net_income(book, e.side, nation, ctx)
        cap = net * num // den
        sent = sum(x.amount for x in book.entries if x.kind == "transfer" and x.side == e.side
                   and x.account == e.account and x.turn == ctx.turn)
        if sent + e.amount > cap:
            out.append(Finding("error", "[8.3]", f"{nation} may send at most {num}/{den} of its net income {net} = {cap} EP "
                                                 f"this Seasonal Turn; {sent} sent, {e.amount} more is over"))
        if to_nation in RECIPIENTS[nation]:
            out += _route_checks(ctx.world, nation, to_nation)
        return out

    def _reserve(self, book, e, ctx, nation, in_reserve, item) -> list[Finding]:
        if in_reserve:
            return [Finding("error", "[8.4]", f"assign the Economic Reserve from the EP Track "
                                              f"{ep_account(e.side, nation)}, not from {e.account}")]
        want = reserve_account(e.side, nation)
        target = e.to_account or "reserve"
        out = []
        if target != want:
            out.append(Finding("error", "[8.4]", f"{nation}'s Economic Reserve is account {want}, not {target} "
                                                 f"(transfer to account {want})"))
        held = book.balance(e.side, want, ctx.turn)
        if e.amount > 0:
            out += self._available(book, e, ctx, "assigning to the Economic Reserve")
            if held + e.amount > RESERVE_CAP:
                out.append(Finding("error", "[8.4]", f"the Economic Reserve may hold at most {RESERVE_CAP} EPs: "
                                                     f"{held} + {e.amount} = {held + e.amount}"))
        elif -e.amount > held:
            out.append(Finding("error", "[8.4]", f"the Economic Reserve holds {held} EPs; {-e.amount} cannot be released"))
        return out

    # --- what the rules compute --------------------------------------------------------------
    def income(self, book: Book, side: str, ctx: LedgerContext) -> list[Entry]:
        """At a Seasonal Turn: each nation's Table X income for the year (template ``ep_incomes``;
        none where the table is not given: the player enters the printed result) [8.1], [8.2], and
        the adjustments the map gives: colony and captured resource hexes, Japan's oil hexes and
        conquest debits (``economy_colonies``) [8.2]."""
        if ctx.turn_kind != "seasonal" or ctx.year is None:
            return []
        rows = ctx.world.tables.get(items.INCOME_TABLE) if ctx.world.tables else None
        out = []
        for n in NATIONS.get(side, ()) if rows else ():
            amount = items.income_of(rows, n, ctx.year)
            if amount is None:
                continue
            out.append(Entry(side=side, turn=ctx.turn, kind="income", amount=amount, account=ep_account(side, n),
                             item="Seasonal income", rule="[8.1];[8.2]", note=f"Table X, {n} {ctx.year}",
                             data={"table": items.INCOME_TABLE, "year": ctx.year, "computed": True}))
        for a in adjustments(ctx.world, side, NATIONS.get(side, ()), setting(ctx, "ledger_oil_bonus")):
            out.append(Entry(side=side, turn=ctx.turn, kind="income" if a.amount >= 0 else "adjust", amount=a.amount,
                             account=ep_account(side, a.nation), item=a.item, rule=a.rule,
                             note=", ".join(a.hexes), data={"hexes": ";".join(a.hexes), "computed": True}))
        return out

    def close_turn(self, book: Book, side: str, ctx: LedgerContext) -> list[Entry]:
        """At a Seasonal Turn, the [2.0] cap: a nation never loses more EPs than the income it
        receives in the following Seasonal Turn, so the preceding season's losses beyond this
        turn's income come back (the raw losses stay in the book for [9.10]). Setting
        ``ledger_loss_cap``: ``next_income`` (default) or ``none`` (the [8.1] negative markers and
        the [9.10] example read as uncapped)."""
        if ctx.turn_kind != "seasonal" or setting(ctx, "ledger_loss_cap") != "next_income":
            return []
        out = []
        for n in NATIONS.get(side, ()):
            acc = ep_account(side, n)
            raw = int(preceding_season_losses(book, side, acc, ctx))
            if raw <= 0:
                continue
            inc = season_income(book, side, acc, ctx.turn)
            if not any(x.side == side and x.account == acc and x.turn == ctx.turn and x.kind == "income"
                       for x in book.entries):
                out.append(Entry(side=side, turn=ctx.turn, kind="adjust", amount=0, account=acc, item=CAP_ITEM,
                                 rule="[2.0]", note=f"no income entered for {n}: the cap is not applied",
                                 data={"season_losses": raw}))
                continue
            if raw > inc:
                out.append(Entry(side=side, turn=ctx.turn, kind="adjust", amount=int(raw - inc), account=acc,
                                 item=CAP_ITEM, rule="[2.0]",
                                 note=f"losses {raw} capped at this Seasonal Turn's income {inc}",
                                 data={"season_losses": raw, "income": int(inc), "returned": int(raw - inc)}))
        return out


def _route_checks(world, sender: str, to: str) -> list[Finding]:
    """The [8.3] route conditions: the map's answer where the supply tracer can give it
    (``economy_routes``), a question for what the map cannot show."""
    from . import economy_routes as routes

    if to == "ussr":
        out = [Finding("question", "[8.3]", "the US is at war and the USSR did not start its war with the Axis "
                                            "(the Vladivostok Route)?")] + routes.vladivostok(world)
    elif to == "australia":
        out = routes.australia(world)
        if sender == "uk":
            out.append(Finding("question", "[2.12];[8.2]", "the UK has declared the Indian Ocean Convoy Route open "
                                                          "this Seasonal Turn?"))
    elif to == "china":
        out = routes.china(world)
    else:  # the UK
        out = [Finding("question", "[8.3]", "the US is at war with Japan or the Axis?")]
    return out


RULES = AptoEconomy()
