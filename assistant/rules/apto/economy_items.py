"""apto's priced items: every EP cost or credit the text gives, with when it
may be paid, which nations pay it, whether the Economic Reserve may pay it in a monthly turn [8.4],
and per-game limits. Costs the text does not print come from the player's EP Costs Table
(``data/games/apto/templates/ep_costs.csv``; Player Aid Card IV [8.6])."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

SEASONAL, MONTHLY, ANY = "seasonal", "monthly", "any"
COSTS_TABLE = "ep_costs"
INCOME_TABLE = "ep_incomes"
WESTERN = ("us", "uk", "australia")


@dataclass(frozen=True)
class Item:
    """One priced item: ``amount`` None where a die or the player's table gives it."""

    name: str
    kind: str
    amount: Optional[int]
    rule: str
    timing: str = SEASONAL
    nations: Optional[tuple[str, ...]] = None  # who may pay (None: any income nation)
    reserve_ok: bool = False  # the ER may pay it in a monthly turn [8.4]
    reserve_only: bool = False  # paid from the ER alone
    limit: Optional[Mapping[str, int]] = None  # per-game count per nation
    doc: str = ""


def _offensives() -> list[Item]:
    base = [("Japanese Army Offensive", 2, ("japan",)), ("Japanese Navy Offensive", 2, ("japan",)),
            ("Soviet Offensive", 2, ("ussr",)), ("Western Allied Offensive", 3, WESTERN),
            ("Chinese Offensive", 3, ("china",)), ("CCP Offensive", 1, ("china",))]
    out = [Item(n, "spend", c, "[8.13]", SEASONAL, ns, doc="bought in the Purchase Offensives Step")
           for n, c, ns in base]
    out += [Item(f"Impromptu {n}", "spend", 2 * c, "[5.5]", MONTHLY, ns, reserve_ok=True,
                 doc=f"double the normal {c} EP [5.5]; only for the paying nation itself")
            for n, c, ns in base]
    return out


ITEMS: tuple[Item, ...] = tuple(_offensives() + [
    Item("Combined Offensive HQ", "spend", 2, "[5.3]", MONTHLY, reserve_ok=True,
         doc="per HQ beyond the first; any participating power may pay"),
    Item("Combined Offensive HQ (Wet)", "spend", 4, "[5.3]", MONTHLY, reserve_ok=True,
         doc="per HQ beyond the first in a Wet month"),
    Item("Joint Offensive", "spend", 2, "[5.4]", MONTHLY),
    Item("Dirt Airstrip", "spend", 1, "[4.3]", MONTHLY, doc="and 1 Offensive"),
    Item("Refuel at sea (8 or fewer units)", "spend", 1, "[3.14]", MONTHLY, reserve_ok=True,
         doc="per sea area with 8 or fewer friendly naval units (each STP point counts)"),
    Item("Refuel at sea (9 or more units)", "spend", 2, "[3.14]", MONTHLY, reserve_ok=True,
         doc="per sea area with 9 or more friendly naval units"),
    Item("Pilot Recovery", "spend", 4, "[7.16]", MONTHLY, reserve_ok=True, doc="per air unit"),
    Item("Installation repair attempt", "spend", 1, "[7.17]", MONTHLY, reserve_ok=True,
         doc="then 1d6"),
    Item("Protect installation under construction", "spend", 1, "[3.28];[4.26]", MONTHLY,
         reserve_ok=True, reserve_only=True, doc="against the doubles roll; paid from the ER"),
    Item("Purchased replenishment", "spend", None, "[7.14]", MONTHLY,
         doc="the normal EP cost of the step (EP Costs Table)"),
    Item("Rebuild depleted unit", "spend", None, "[8.6]", SEASONAL,
         doc="the cost of one step of that unit (EP Costs Table)"),
    Item("Partisan arrival EP", "spend", 1, "[10.6]", MONTHLY, reserve_ok=True,
         doc="+1 to the arrival die per EP"),
    Item("Partisan", "spend", 2, "[10.6];[8.4]", SEASONAL, reserve_ok=True, doc="up to the nation's limit"),
    Item("Installation repair (Seasonal)", "spend", 1, "[8.6]", SEASONAL, doc="automatic"),
    Item("Upgrade coastal fort to fortification", "spend", 1, "[8.6]", SEASONAL),
    Item("Upgrade Small to Large Airbase", "spend", 1, "[8.6]", SEASONAL, doc="not in jungle or mountain"),
    Item("Relocate Small Airbase", "spend", 1, "[8.11]", SEASONAL),
    Item("Relocate Large Airbase", "spend", 2, "[8.11]", SEASONAL),
    Item("Burma Railway", "spend", 2, "[10.35]", SEASONAL, ("japan",), limit={"japan": 6},
         doc="1-season delay; at most 6 per game"),
    Item("Harbor Enlargement", "spend", 5, "[10.43]", SEASONAL, ("japan", "us"), limit={"japan": 1, "us": 2},
         doc="Japan 1, US 2 per game; complete after 1d6 seasons"),
    Item("Harbor Enlargement refund", "income", 5, "[10.43]", SEASONAL, ("japan", "us"),
         doc="a roll of 6 refunds the EPs and forbids that hex"),
    Item("Naval repair (surface ship)", "spend", 2, "[8.8]", SEASONAL, doc="then the yard-time roll"),
    Item("Naval repair (submarine)", "spend", 3, "[8.8]", SEASONAL, doc="then the yard-time roll"),
    Item("Hastened naval repair", "spend", 4, "[8.8]", SEASONAL, doc="home port (not Alaska or Hawaii); -2 yard time"),
    Item("Salvage repair (Major Port)", "spend", 2, "[8.9]", SEASONAL, doc="+3 yard time"),
    Item("Salvage repair (Minor or Coastal City port)", "spend", 3, "[8.9]", SEASONAL, doc="+3 yard time"),
    Item("Scrap BB", "income", 7, "[8.10]", SEASONAL),
    Item("Scrap CV", "income", 4, "[8.10]", SEASONAL),
    Item("Scrap CVL", "income", 2, "[8.10]", SEASONAL),
    Item("Scrap CA", "income", 3, "[8.10]", SEASONAL),
    Item("Demolish Dirt Airstrip", "spend", 1, "[8.7];[4.3]", SEASONAL),
    Item("Demolish Small Airbase", "spend", 2, "[8.7]", SEASONAL),
    Item("Demolish Large Airbase", "spend", 3, "[8.7]", SEASONAL),
    Item("Demolish Coastal Fort", "spend", 1, "[8.7]", SEASONAL),
    Item("Demolish Fortification", "spend", 2, "[8.7]", SEASONAL),
    Item("Demolish Permanent Fort", "spend", 6, "[8.7]", SEASONAL),
    Item("Demolish Coastal City Port", "spend", 3, "[8.7]", SEASONAL),
    Item("Demolish Minor Port", "spend", 4, "[8.7]", SEASONAL),
    Item("Demolish Major Port", "spend", 5, "[8.7]", SEASONAL),
    Item("Demolish Burma Railway", "spend", 2, "[8.7]", SEASONAL),
    Item("Japanese DD step", "spend", 4, "[11.48]", SEASONAL, ("japan",), doc="optional rule; 2-season delay"),
    Item("Japanese DD", "spend", 8, "[11.48]", SEASONAL, ("japan",), doc="optional rule; twice the step"),
    Item("War extension 1 month", "spend", 20, "[11.5]", SEASONAL, ("us",),
         doc="optional rule; Summer 1945 only; the US player"),
    Item("War extension 2 months", "spend", 40, "[11.5]", SEASONAL, ("us",),
         doc="optional rule; Summer 1945 only; the US player"),
    Item("War extension 3 months", "spend", 60, "[11.5]", SEASONAL, ("us",),
         doc="optional rule; Summer 1945 only; the US player"),
    Item("Doolittle Raid", "income", None, "[10.38]", MONTHLY, ("us",), limit={"us": 1},
         doc="the US gains 2d6 EP, once"),
    Item("Strategic Warfare", "loss", None, "[2.0];[8.2]", MONTHLY,
         doc="the Bombing Table or interdiction result, applied at once"),
    Item("A-Bomb", "loss", None, "[10.34];[9.10]", MONTHLY, ("japan",), limit={"japan": 2},
         doc="the 120+ column; each lowers the surrender integer [9.10]"),
    Item("Seasonal income", "income", None, "[8.1];[8.2]", SEASONAL,
         doc="Table X (entered on the Rule tables page as ep_incomes) or the printed result"),
    Item("Lend-lease", "transfer", None, "[8.3]", SEASONAL, ("us", "uk"),
         doc="UK at most 1/4, US at most 1/2 of net income per Seasonal Turn"),
    Item("Economic Reserve", "reserve", None, "[8.4]", SEASONAL, doc="at most 20 EPs in reserve"),
])

# Items whose price changes by year: the Japanese STP [11.1] costs 4, 6 from 1943.
STP = "Japanese STP"


def stp_item(year: Optional[int]) -> Item:
    cost = 6 if year is not None and year >= 1943 else 4
    return Item(STP, "spend", cost, "[11.1]", SEASONAL, ("japan",), doc="optional rule; 4 EP, 6 from 1943")


def by_name(name: str, items: Sequence[Item]) -> Optional[Item]:
    low = name.strip().lower()
    return next((i for i in items if i.name.lower() == low), None)


def cost_rows(rows: Sequence[Mapping[str, str]], table: str) -> list[Item]:
    """The player's EP Costs Table rows for ``table`` (``axis`` or ``western_allies``) as items
    [8.6]: ``table,item,cost``; a bad cell names its row and column."""
    out: list[Item] = []
    for i, row in enumerate(rows, start=1):
        t = str(row.get("table") or "").strip()
        if t not in ("axis", "western_allies"):
            raise ValueError(f"{COSTS_TABLE} row {i}, column table: {t!r} must be axis or western_allies")
        name = str(row.get("item") or "").strip()
        if not name:
            raise ValueError(f"{COSTS_TABLE} row {i}, column item: empty")
        cell = str(row.get("cost") or "").strip()
        if not cell.isdigit():
            raise ValueError(f"{COSTS_TABLE} row {i}, column cost: {cell!r} must be a whole number of EPs")
        if t == table:
            out.append(Item(name, "spend", int(cell), "[8.6]", SEASONAL, doc="EP Costs Table (Player Aid Card IV)"))
    return out


def income_of(rows: Sequence[Mapping[str, str]], nation: str, year: int) -> Optional[int]:
    """Table X: ``nation``'s seasonal EP income in ``year`` (None if the table has no such row);
    rows ``nation,year,income``, a bad cell names its row and column."""
    found = None
    for i, row in enumerate(rows, start=1):
        y = str(row.get("year") or "").strip()
        if not y.isdigit():
            raise ValueError(f"{INCOME_TABLE} row {i}, column year: {y!r} must be a year")
        cell = str(row.get("income") or "").strip()
        if not cell.lstrip("-").isdigit():
            raise ValueError(f"{INCOME_TABLE} row {i}, column income: {cell!r} must be a whole number of EPs")
        if str(row.get("nation") or "").strip().lower() == nation and int(y) == year:
            found = int(cell)
    return found
