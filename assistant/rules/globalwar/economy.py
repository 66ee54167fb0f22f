"""Global War's economy for the production ledger (rule 18.0 and related).

Accounts: each Major Power keeps its PPs [18.0.C] (``germany``, ``italy``, ``japan``;
``commonwealth``, ``us``, ``ussr``, ``france``; the first of a side is its main account) and a
maintenance account ``<power>_maint`` holding the turn's maintenance capacity [18.10.B-C] (setting
``ledger_maintenance``: ``capacity`` books maintenance there, ``pool`` pays it from the PPs).

Items (``item`` of an entry; ``qty``/``sp``/``pipeline``/``holding_areas``/``ih_pp`` in its data):
``production`` (income [18.0.D], computed by ``income``), ``maintenance capacity`` (income [18.10]),
``build T`` / ``rebuild T`` / ``undeplete T`` (spend; the player's Production Cost Table -- the
[18.2.2] Mech is one example, shown as such; builds geared [18.9.1]), ``maintain T`` (spend [18.10.2]), ``lend-lease`` (transfer
[18.8]), ``LRB losses`` (loss [17.3.2]), ``unspent PP lost`` (adjust [18.5.1], by ``close_turn``).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Optional

from ...words import counted
from ..board import gap
from ..ledger import Book, DataKey, Entry, LedgerContext, Priced, quantity
from ..strike import Finding
from . import economy_tables as T
from .economy_production import POWERS, pipeline_capacity, production

MAINT = "_maint"
SETTINGS = {
    "ledger_maintenance": ("capacity", ("capacity", "pool")),
    "ledger_productive_capacity": ("gross", ("gross", "net")),
    "ledger_maintenance_rounding": ("entry", ("entry", "sp")),
    "air_pp_loss_cap": ("output", ("output", "none")),
}
BUILDS = ("build", "rebuild", "undeplete")
#: [18.9.4] "The US and USSR are considered to be neutral until at war with Germany"; "Japan ...
#: until at war with the US"; Italy is "nominally neutral" at the start [22.3.1.2].
NEUTRAL_UNTIL = {"us": "Germany", "ussr": "Germany", "japan": "the US", "italy": "the Allies"}
#: [18.7.6.E] a Commonwealth build names the country it appears in; Japan likewise [18.7.7].
APPEARS = {"commonwealth": "18.7.6.E", "japan": "18.7.7"}
REGIONS = {"commonwealth": ("uk", "canada", "india"), "japan": ("japan", "manchukuo")}
LEND_LEASE = "lend-lease"
PRODUCTION = "production"
CAPACITY = "maintenance capacity"
INDEPENDENT = "production (independent)"


#: The values of an entry's data the rules read, by the kinds of entry that carry them; every other
#: name is refused (``rules.ledger.data_findings``). ``qty`` and ``arrives`` are the ledger's own.
DATA_KEYS = {
    "qty": DataKey(("spend",), "18.0.F;18.9.1", "how many units a build, rebuild or undepletion pays for"),
    "sp": DataKey(("spend",), "18.10.2", "the SPs a maintenance entry pays for"),
    "appears": DataKey(("spend",), "18.7.6.E;18.7.7", "the country a Commonwealth or Japanese unit appears in"),
    "ih_pp": DataKey(("loss",), "17.3.2", "the PPs the bombed Industrial Hex produces (the loss's cap)"),
    "region": DataKey(("income",), "18.7.6.C", "the sub-country that produced the PPs independently"),
    "pipeline": DataKey(("transfer",), "18.8.1", "the pipeline that carries Lend-Lease (communications, PORT-PORT)"),
    "holding_areas": DataKey(("transfer",), "18.8.1.C", "the MS counts of the pipeline's Holding Areas (4,2)"),
}

#: Which income figure to type where the strike plotter booked LRB losses: 18.0.D subtracts them.
INCOME_FIGURE = ("Type the production as the Industrial Hexes make it before the LRB raids (home IHs operating x "
                 "the Production Multiple + 1 per linked captured IH): 18.0.D subtracts the PPs lost to LRBs that "
                 "turn, and the ledger has them already, so the bombed figure would count them twice (17.3.2).")


def setting(ctx: LedgerContext, name: str) -> str:
    default, choices = SETTINGS[name]
    v = ctx.world.settings.get(name, default)
    if v not in choices:
        raise ValueError(f"setting {name}={v!r} must be one of {', '.join(choices)}")
    return v


def power_of(account: str) -> str:
    return account[:-len(MAINT)] if account.endswith(MAINT) else account


def power_name(power: str) -> str:
    """A Major Power as the rules name it ("US", "Germany", "Commonwealth"), from its id or account."""
    power = power_of(power)
    return power.upper() if power in ("us", "uk", "ussr") else power.replace("_", " ").title()


def game_turn(ctx: LedgerContext) -> int:
    return ctx.world.turn if ctx.world.turn is not None else ctx.turn


def _whole(data, key: str, default: int) -> int:
    v = data.get(key, default)
    if isinstance(v, bool) or not isinstance(v, (int, float, str)) or not str(v).strip().isdigit() or int(v) < 1:
        raise ValueError(f"data {key} {v!r} must be a whole number of at least 1")
    return int(v)


def parse_item(item: Optional[str]) -> tuple[str, Optional[str]]:
    """``("build", "Mech")``, ``("maintain", "SS")``, ``("lend-lease", None)`` ...; ("", None) for
    an item of the player's own."""
    if not item:
        return "", None
    words = item.strip().split(None, 1)
    verb = words[0].lower()
    if verb in BUILDS + ("maintain",) and len(words) == 2:
        return verb, words[1]
    return item.strip().lower(), None


class GlobalWarEconomy:
    """Global War's ``Economy``."""

    game = "globalwar"
    POINTS = "PP"  # whole PPs: even 18.10.2's ½-PP maintenance is rounded up
    DATA_KEYS = DATA_KEYS
    INCOME_FIGURE = INCOME_FIGURE

    def priced_amount(self, priced: Priced, data, ctx: LedgerContext) -> tuple[Optional[Any], str]:
        """The amount a priced item's entry must be: maintenance is 18.10.2's cost of its SPs (the
        ½ rounded up, ``ledger_maintenance_rounding``), a build, rebuild or undepletion its
        Production Cost Table price times the units (qty) [18.0.F]."""
        verb, name = parse_item(priced.item)
        if verb == "maintain":
            t = T.unit_type(name or "")
            sp = quantity(data, "sp")
            due = self.maintenance(t, sp, ctx) if t is not None else None
            return due, (f"{sp} SP" if sp != 1 and due is not None else "")
        if priced.amount is None:
            return None, ""
        qty = quantity(data)
        return priced.amount * qty, (f"{qty} x {_n(priced.amount)}" if qty != 1 else "")

    def arrival(self, entry: Entry, ctx: LedgerContext) -> Optional[int]:
        """The calendar turn a build, rebuild or undepletion appears, where the rules fix it: the
        Production Track position of its type, the turn paid plus the delay of the player's
        Production Cost Table [18.0.G-H] (None without the table's delay: the player gives arrives).
        The ledger writes it into the entry as ``arrives``; the check says it (18.0.H)."""
        verb, name = parse_item(entry.item)
        t = T.unit_type(name or "") if verb in BUILDS else None
        if t is None or entry.kind != "spend":
            return None
        wait = T.delay(ctx.world.tables, verb, t)
        return None if wait is None else entry.turn + wait

    def awaits_arrival(self, entry: Entry) -> bool:
        """A build, rebuild or undepletion: a unit that appears later [18.0.G-H] (the build queue)."""
        verb, name = parse_item(entry.item)
        return entry.kind == "spend" and verb in BUILDS and T.unit_type(name or "") is not None

    def account_name(self, account: str) -> str:
        """A power's PP ("Germany PP") and its maintenance pool [18.10] ("Germany maintenance")."""
        named = power_name(account)
        return f"{named} maintenance" if account.endswith(MAINT) else f"{named} PP"

    def accounts(self, side: str) -> tuple[str, ...]:
        powers = POWERS.get(side, ())
        return powers + tuple(p + MAINT for p in powers)

    # ----- prices ----------------------------------------------------------------------------
    def maintenance(self, type_: str, sp: int, ctx: LedgerContext) -> Optional[int]:
        """18.10.2: cost per SP, ½ rounded up (setting ``ledger_maintenance_rounding``: ``entry``
        rounds the entry's total up once, ``sp`` each SP's cost)."""
        per = T.MAINTENANCE.get(type_)
        if per is None:
            return None
        if setting(ctx, "ledger_maintenance_rounding") == "sp":
            return math.ceil(per) * sp
        return math.ceil(per * sp)

    def catalogue(self, side: str, ctx: LedgerContext) -> list[Priced]:
        main = (POWERS.get(side) or ("",))[0]
        maint = main + MAINT if setting(ctx, "ledger_maintenance") == "capacity" else main
        out = [Priced(PRODUCTION, "income", main, None, "18.0.D",
                      "home IHs operating x Production Multiple + 1 per linked captured IH (computed)"),
               Priced(CAPACITY, "income", main + MAINT, None, "18.10.B",
                      "the previous turn's productive capacity (Turn 1: this turn's) (computed)"),
               Priced(LEND_LEASE, "transfer", main, None, "18.8.1",
                      "to an allied Major Power; capped by the pipeline (the entry's value pipeline=... or holding_areas=...)"),
               Priced("LRB losses", "loss", main, None, "17.3.2", "PPs an IH loses to LRBs this turn only")]
        for t in T.TYPES:
            price = T.cost(ctx.world.tables, "build", t)
            example = T.example_note(t) if price is None else ""
            out.append(Priced(f"build {t}", "spend", main, price, "18.0.F",
                              "; ".join(x for x in (example, "per unit; at most last turn's + 1 [18.9.1]") if x)))
            out.append(Priced(f"rebuild {t}", "spend", main, T.cost(ctx.world.tables, "rebuild", t), "18.0.F",
                              "per unit; not limited by 18.9.1 [18.6.1.B]"))
        for t in T.UNDEPLETE:
            out.append(Priced(f"undeplete {t}", "spend", main, T.cost(ctx.world.tables, "undeplete", t), "18.0.E"))
        for t in T.TYPES:
            out.append(Priced(f"maintain {t}", "spend", maint, self.maintenance(t, 1, ctx), "18.10.2",
                              "per SP" if t in T.MAINTENANCE else "not in the 18.10.2 table: your cost"))
        return out

    # ----- checks ----------------------------------------------------------------------------
    def check(self, book: Book, entry: Entry, ctx: LedgerContext) -> list[Finding]:
        out: list[Finding] = []
        acc, power = entry.account, power_of(entry.account)
        maint_acc = acc.endswith(MAINT)
        if entry.kind == "reserve":
            return [Finding("error", "18.5.1", "PPs may not be accumulated from turn to turn: there is no reserve")]
        verb, type_ = parse_item(entry.item)
        if verb in BUILDS:
            out += self._build(book, entry, ctx, verb, type_)
        elif verb == "maintain":
            out += self._maintain(entry, ctx, type_)
        elif maint_acc and entry.kind not in ("income", "adjust"):
            out.append(Finding("error", "18.10.2", f"{acc} holds the maintenance capacity: only maintenance "
                                                   f"(item 'maintain TYPE') is booked to it"))
        if entry.kind == "transfer":
            out += self._lend_lease(book, entry, ctx)
        if entry.kind == "income" and verb == PRODUCTION and entry.account in POWERS.get(entry.side, ()):
            prod = production(ctx.world, entry.side, entry.account, game_turn(ctx))
            if prod.multiple is not None and entry.amount != prod.pooled:
                out.append(Finding("warning", "18.0.D", f"the map gives {power_name(entry.account)} {prod.pooled} PP this turn, "
                                                        f"not {_n(entry.amount)}: " + "; ".join(prod.steps())))
        if entry.kind == "loss" and "ih_pp" in entry.data and setting(ctx, "air_pp_loss_cap") == "output":
            cap = _whole(entry.data, "ih_pp", 1)
            if entry.amount > cap:
                out.append(Finding("error", "17.3.2", f"an Industrial Hex producing {cap} PP cannot lose {entry.amount} "
                                                      f"(setting air_pp_loss_cap=output)"))
        if entry.kind in ("spend", "transfer"):
            before = book.balance(entry.side, acc, entry.turn) + _loss_carried(book, entry.side, acc, entry.turn)
            after = before - entry.amount
            if after < 0:
                rule = "18.10.C" if maint_acc else "18.0.E"
                what = "maintenance capacity" if maint_acc else "PP"
                out.append(Finding("error", rule, f"{power_name(power)} has {_n(before)} {what} left this turn; "
                                                  f"{entry.kind} of {_n(entry.amount)} would leave {_n(after)}"))
        if entry.kind in ("spend", "transfer") and not maint_acc:
            out += self._independent(book, entry)
        if entry.kind in ("spend", "transfer", "income") and not maint_acc:
            left = book.balance(entry.side, acc, entry.turn - 1)
            if left > 0:
                out.append(Finding("warning", "18.5.1", f"{power_name(power)} carries {_n(left)} PP from an earlier turn: "
                                                        f"unused PPs are lost (close that turn)"))
        return out

    def _independent(self, book: Book, entry: Entry) -> list[Finding]:
        """[18.7.6.B-C] PPs a sub-country produced independently pay only for units appearing in
        it (data ``appears``); everything else draws on the pooled PPs."""
        mine = [x for x in book.entries if x.turn == entry.turn and x.side == entry.side
                and x.account == entry.account] + [entry]
        own: dict[str, Any] = {}
        for x in mine:
            if x.kind == "income" and x.item == INDEPENDENT:
                r = str(x.data.get("region"))
                own[r] = own.get(r, 0) + x.amount
        if not own:
            return []
        pooled = book.balance(entry.side, entry.account, entry.turn - 1)
        drawn: dict[str, Any] = {r: 0 for r in own}
        for x in mine:
            if x.kind == "income" and x.item == INDEPENDENT:
                continue
            r = str(x.data.get("appears")) if x.kind == "spend" else None
            if r in drawn:
                drawn[r] += x.amount
                continue
            pooled += sum(d for s_, a, d in x.effects() if s_ == entry.side and a == entry.account)
        pooled -= sum(max(0, drawn[r] - own[r]) for r in own)
        if pooled < 0:
            where = ", ".join(f"{_n(v)} PP in {r}" for r, v in own.items())
            return [Finding("error", "18.7.6.C", f"{power_name(entry.account)}'s pooled PPs fall to {_n(pooled)}: "
                                                 f"{where} produced independently pay only for units appearing "
                                                 f"there (the entry's value appears=...)")]
        return []

    def _build(self, book: Book, entry: Entry, ctx: LedgerContext, verb: str, name: Optional[str]) -> list[Finding]:
        t = T.unit_type(name or "")
        if t is None:
            return [Finding("error", "22.4.1", f"unit type {name!r} is not one of {', '.join(T.TYPES)}")]
        if entry.kind != "spend":
            return [Finding("error", "18.0.E", f"'{verb} {t}' is paid for: kind spend, not {entry.kind}")]
        if entry.account.endswith(MAINT):
            return [Finding("error", "18.0.E", f"builds are paid from {power_name(entry.account)}'s PPs, "
                                               f"not its maintenance capacity")]
        if verb == "undeplete" and t not in T.UNDEPLETE:
            return [Finding("error", "18.0.E", f"only Surf-As and ASWs are undepleted, not {t}")]
        out: list[Finding] = []
        qty = _whole(entry.data, "qty", 1)
        price = T.cost(ctx.world.tables, verb, t)
        if price is not None and entry.amount != price * qty:
            out.append(Finding("error", "18.0.F", f"{qty} x '{verb} {t}' costs {price * qty} PP, not {_n(entry.amount)}"))
        elif price is None and verb == "build" and T.example_note(t):
            out.append(Finding("question", "18.2.2", f"confirm {_n(entry.amount)} PP for {qty} x 'build {t}': "
                                                     + T.example_note(t)))
        if verb == "build":
            out += self._gearing(book, entry, t, qty)
        out += self._arrival(entry, ctx, verb, t)
        power = power_of(entry.account)
        if t == "Fort" and power in NEUTRAL_UNTIL:
            out.append(Finding("question", "18.9.4", f"neutrals may not expend PPs on fortifications: is {power_name(power)} "
                                                     f"at war with {NEUTRAL_UNTIL[power]}?"))
        if power in APPEARS and verb in ("build", "rebuild") and not entry.data.get("appears"):
            out.append(Finding("question", APPEARS[power], f"in which country will it appear ({', '.join(REGIONS[power])})? "
                                                           f"give it as the entry's value appears=..."))
        return out

    def _arrival(self, entry: Entry, ctx: LedgerContext, verb: str, t: str) -> list[Finding]:
        """[18.0.G-H] the unit appears on the turn its Production Track position reaches: the
        entry's ``arrives`` (a calendar index) must be the turn paid plus the delay."""
        wait = T.delay(ctx.world.tables, verb, t)
        if wait is None:
            if not entry.data.get("arrives"):
                example = f" ([18.2.2] example only: {T.EXAMPLE[t]})" if verb == "build" and t in T.EXAMPLE else ""
                return [Finding("question", "18.0.H", f"on which turn does it appear? the delay of '{verb} {t}' is in "
                                                      f"the Production Cost Table (production_costs, {verb}_turns), "
                                                      f"not in the text{example}: give its arrival turn (arrives), or "
                                                      f"enter the table; without it the build queue cannot show it")]
            return []
        due = entry.turn + wait
        label = ctx.labels.get(due) or f"calendar turn {due}"
        given = entry.data.get("arrives")
        if isinstance(given, str) and given.strip().lstrip("-").isdigit():
            given = int(given)
        if isinstance(given, int) and not isinstance(given, bool) and given != due:
            return [Finding("error", "18.0.H", f"'{verb} {t}' paid on {ctx.turn_label} appears {counted(wait, 'turn')} on "
                                               f"({label}, calendar turn {due}), not calendar turn {given}")]
        at = f"calendar turn {due}" + (f" ({label})" if label != f"calendar turn {due}" else "")
        return [Finding("info", "18.0.H", f"'{verb} {t}' appears {counted(wait, 'turn')} on (its Production Track position, "
                                          f"18.0.G): {at}; its arrival for the build queue: arrives={due}")]

    def _gearing(self, book: Book, entry: Entry, t: str, qty: int) -> list[Finding]:
        """[18.9.1] new builds of a type <= those started the turn before + 1 (one always allowed,
        [18.9.1.B]); the Commonwealth counts as one country [18.9.2] (one account); rebuilds do not
        count [18.6.1.B]."""
        def started(turn: int) -> int:
            return sum(_whole(e.data, "qty", 1) for e in book.entries
                       if e.turn == turn and e.side == entry.side and e.account == entry.account and e.kind == "spend"
                       and parse_item(e.item)[0] == "build" and T.unit_type(parse_item(e.item)[1] or "") == t)
        last, now = started(entry.turn - 1), started(entry.turn)
        limit = last + 1
        if now + qty > limit:
            return [Finding("error", "18.9.1", f"{power_name(entry.account)} started {last} {t} last turn: at most "
                                               f"{limit} this turn ({now} started already, {qty} more asked)")]
        return []

    def _maintain(self, entry: Entry, ctx: LedgerContext, name: Optional[str]) -> list[Finding]:
        t = T.unit_type(name or "")
        if t is None:
            return [Finding("error", "18.10.2", f"unit type {name!r} is not one of {', '.join(T.TYPES)}")]
        if entry.kind != "spend":
            return [Finding("error", "18.10.2", f"maintenance is spent: kind spend, not {entry.kind}")]
        mode = setting(ctx, "ledger_maintenance")
        if mode == "capacity" and not entry.account.endswith(MAINT):
            return [Finding("error", "18.10.C", f"maintenance is allocated from the maintenance capacity (setting "
                                                f"ledger_maintenance=capacity): book it to {entry.account}{MAINT}")]
        if mode == "pool" and entry.account.endswith(MAINT):
            return [Finding("error", "18.10.A", f"maintenance is paid from the PPs (setting ledger_maintenance=pool): "
                                                f"book it to {power_of(entry.account)}")]
        sp = _whole(entry.data, "sp", 1)
        due = self.maintenance(t, sp, ctx)
        if due is None:
            return [Finding("question", "18.10.2", f"the 18.10.2 table gives no maintenance cost for {t}: "
                                                   f"{_n(entry.amount)} PP as your table says?")]
        if entry.amount != due:
            return [Finding("error", "18.10.2", f"{sp} SP of {t} cost {due} PP to maintain, not {_n(entry.amount)}")]
        return []

    def _lend_lease(self, book: Book, entry: Entry, ctx: LedgerContext) -> list[Finding]:
        """[18.8]: between Major Powers of one side, capped by the pipeline [18.8.1]."""
        to_side = entry.to_side or entry.side
        to_acc = entry.to_account or entry.account
        if to_side != entry.side:
            return [Finding("error", "18.8.2" if entry.side == "axis" else "18.8.3",
                            f"Lend-Lease goes between Major Powers of one side, not {entry.side} to {to_side}")]
        if entry.account.endswith(MAINT) or to_acc.endswith(MAINT) or to_acc not in POWERS.get(to_side, ()):
            return [Finding("error", "18.8.1", f"Lend-Lease moves PPs between Major Powers' PP accounts, "
                                               f"not {entry.account} to {to_acc}")]
        if to_acc == entry.account:
            return [Finding("error", "18.8.1", f"{to_acc} cannot lend to itself")]
        out: list[Finding] = []
        if "ussr" in (to_acc, entry.account):
            out.append(Finding("question", "18.8.3.B", "the USSR takes part in Lend-Lease only once at war with "
                                                       "Germany, Italy or Japan: is it?"))
        cap, how = self._capacity(entry, ctx)
        if cap is None:
            out.append(Finding("question", "18.8.1", how))
            return out
        lent = sum(e.amount for e in book.entries
                   if e.turn == entry.turn and e.kind == "transfer" and e.side == entry.side
                   and e.account == entry.account and (e.to_account or e.account) == to_acc)
        if lent + entry.amount > cap:
            out.append(Finding("error", "18.8.1.C", f"{how}: at most {cap} PP {entry.account} -> {to_acc} this turn "
                                                    f"({_n(lent)} lent already, {_n(entry.amount)} more asked)"))
        else:
            out.append(Finding("info", "18.8.1", how))
        return out

    def _capacity(self, entry: Entry, ctx: LedgerContext) -> tuple[Optional[Any], str]:
        d = entry.data
        pipe = d.get("pipeline")
        if pipe is not None and str(pipe).strip().lower() in ("communications", "communications area"):
            return math.inf, "a Communications Area Pipeline: unlimited [18.8.1.B]"
        if d.get("holding_areas") is not None:
            try:
                ms = [int(x) for x in str(d["holding_areas"]).split(",")]
            except ValueError:
                raise ValueError(f"data holding_areas {d['holding_areas']!r} must be MS counts like 4,2") from None
            if not ms or min(ms) < 0:
                raise ValueError(f"data holding_areas {d['holding_areas']!r} must be MS counts like 4,2")
            return min(ms), f"Merchant Ship Holding Areas of {', '.join(map(str, ms))} MS: {min(ms)} PP [18.8.1.C]"
        if pipe is not None:
            cap, desc = pipeline_capacity(ctx.world, entry.side, str(pipe), f"lend-lease {entry.account}")
            return cap, desc
        return None, ("which pipeline carries it? give data pipeline=communications, pipeline=PORT-PORT "
                      "or holding_areas=4,2 (the capacity caps Lend-Lease)")

    # ----- the turn --------------------------------------------------------------------------
    def income(self, book: Book, side: str, ctx: LedgerContext) -> list[Entry]:
        out: list[Entry] = []
        gt = game_turn(ctx)
        for power in POWERS.get(side, ()):
            if gap(ctx.world, "industrial_hex", power) is not None:
                continue  # [18.0.D] counts the power's Industrial Hexes: none entered, nothing to count
            prod = production(ctx.world, side, power, gt)
            steps = "; ".join(prod.steps())
            homes = sum(1 for h in prod.hexes if h.status == "home" and h.pooled)
            caps = sum(1 for h in prod.hexes if h.status == "captured" and h.pooled)
            if prod.multiple is not None or prod.pooled:
                out.append(Entry(side=side, turn=ctx.turn, kind="income", amount=prod.pooled, account=power,
                                 item=PRODUCTION, rule="18.0.D",
                                 note=f"{homes} home IH x {prod.multiple} + {caps} captured (Turn {gt})",
                                 data={"steps": steps}))
            for region, pp in prod.independent_by_region().items():
                out.append(Entry(side=side, turn=ctx.turn, kind="income", amount=pp, account=power,
                                 item=INDEPENDENT, rule="18.7.6.C",
                                 note=f"produced independently in {region}: pays for units appearing there",
                                 data={"steps": steps, "region": region}))
            if setting(ctx, "ledger_maintenance") == "capacity":
                cap = self._maintenance_capacity(book, side, power, ctx, out)
                if cap is not None:
                    out.append(Entry(side=side, turn=ctx.turn, kind="income", amount=cap[0], account=power + MAINT,
                                     item=CAPACITY, rule=cap[1], note=cap[2]))
        return out

    def _maintenance_capacity(self, book: Book, side: str, power: str, ctx: LedgerContext,
                              now: list[Entry]) -> Optional[tuple[Any, str, str]]:
        """[18.10.B] Turn 1: the turn's productive capacity; [18.10.C] later: the previous turn's
        (setting ``ledger_productive_capacity``: ``gross`` = the IHs' production, ``net`` = with
        Lend-Lease and LRB losses)."""
        if game_turn(ctx) == 1:
            made = [e for e in now if e.account == power and (e.item or "").startswith(PRODUCTION)]
            if not made:
                return None
            return sum(e.amount for e in made), "18.10.B", "Turn 1: this turn's productive capacity"
        prev = ctx.turn - 1
        es = [e for e in book.entries if e.turn == prev and e.side == side]
        made = [e for e in es if e.account == power and e.kind == "income" and (e.item or "").startswith(PRODUCTION)]
        if not made:
            return None
        total = sum(e.amount for e in made)
        if setting(ctx, "ledger_productive_capacity") == "net":
            for e in es:
                if e.kind == "loss" and e.account == power:
                    total -= e.amount
                if e.kind == "transfer" and e.account == power:
                    total -= e.amount
                if e.kind == "transfer" and (e.to_account or e.account) == power and e.account != power:
                    total += e.amount
            return total, "18.10.C", "last turn's production with Lend-Lease and LRB losses"
        return total, "18.10.C", "last turn's production"

    def close_turn(self, book: Book, side: str, ctx: LedgerContext) -> list[Entry]:
        out = []
        for acc in self.accounts(side):
            left = book.balance(side, acc, ctx.turn)
            back = _loss_carried(book, side, acc, ctx.turn + 1)
            if back > 0:  # [17.3.2] a loss past the turn's PPs is not carried into the next turn
                out.append(Entry(side=side, turn=ctx.turn, kind="adjust", amount=back, account=acc,
                                 item="LRB losses end with the turn", rule="17.3.2",
                                 note="PPs lost are lost for that turn only; they are not cumulative"))
                left += back
            if left > 0:
                maint = acc.endswith(MAINT)
                out.append(Entry(side=side, turn=ctx.turn, kind="adjust", amount=-left, account=acc,
                                 item="unused maintenance capacity" if maint else "unspent PP lost",
                                 rule="18.10.C" if maint else "18.5.1",
                                 note="the capacity is the turn's own" if maint
                                 else "PPs may not be accumulated from turn to turn"))
        return out


def _loss_carried(book: Book, side: str, account: str, turn: int) -> Any:
    """The PPs of ``account`` that earlier turns' LRB losses still hold down at the start of ``turn``:
    [17.3.2] "The PPs that are lost are lost for that turn only; they are not cumulative", so a
    loss beyond a turn's PPs (its balance below zero at the turn's end, the turn not closed) is
    no debt of the next turn. No more than the losses booked, nor than the balance is short."""
    short = -book.balance(side, account, turn - 1)
    if short <= 0:
        return 0
    lost = sum(e.amount for e in book.entries if e.turn < turn and e.kind == "loss"
               and e.side == side and e.account == account)
    back = sum(e.amount for e in book.entries if e.turn < turn and e.kind == "adjust" and e.rule == "17.3.2"
               and e.side == side and e.account == account)
    return max(0, min(short, lost - back))


def _n(x: Any) -> Any:
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else float(x)
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


RULES = GlobalWarEconomy()
