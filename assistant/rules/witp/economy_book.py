"""Reading a witp ledger book: cycles from turn labels, CP held per HQ, allocations per cycle and
units initiated per Production Phase -- the figures the economy's checks and closes compare.

Conventions (also in data/games/witp/templates/README.md, "witp ledger conventions"):

- account ``HQ`` holds the CP allocated to on-map HQs; each entry names its HQ in ``data["hq"]``
  or as the ``item`` before any ":" (``"POA"``, ``"POA: activation of 2nd Mar Div"``); a loan
  between HQs [28.8] is a ``transfer`` from ``HQ`` to ``HQ`` naming ``data["from_hq"]`` and
  ``data["to_hq"]`` or ``item = "LENDER > BORROWER"``;
- a PP ``spend`` names the unit type in ``data["type"]`` or ``item`` and its count in
  ``data["count"]`` or as a leading number (``"2 CV"``, one unit otherwise).
"""

from __future__ import annotations

import re
from typing import Iterable, Optional

from ..ledger import Book, Entry

LABEL = re.compile(r"([0-9]+)/([0-9]+)/([0-9]{2})\s*$")
COUNTED = re.compile(r"^\s*([0-9]+)\s*(?:x\s*)?(.+?)\s*$", re.IGNORECASE)


def cycle_of(label: str) -> Optional[tuple[int, int]]:
    """``(period, yy)`` of a witp turn label ("G/T 2/3/42" and "Strategic G/T 0/3/42": (3, 42))."""
    m = LABEL.search(label or "")
    return (int(m.group(2)), int(m.group(3))) if m else None


def ordinal(cycle: tuple[int, int]) -> int:
    """Cycles in order: 13 a game-year [2.4]."""
    c, yy = cycle
    return yy * 13 + c


def parse_cycle(text: str) -> Optional[tuple[int, int]]:
    """A cycle written "c/yy" or "0/c/yy" (e.g. "9/42", "0/9/42")."""
    m = re.search(r"(?:[0-9]+/)?([0-9]{1,2})/([0-9]{2})\b", text or "")
    if not m or not 1 <= int(m.group(1)) <= 13:
        return None
    return int(m.group(1)), int(m.group(2))


def entry_cycle(book: Book, e: Entry) -> Optional[int]:
    c = cycle_of(book.labels.get(e.turn, ""))
    return ordinal(c) if c else None


def hq_of(e: Entry) -> str:
    name = e.data.get("hq") or (e.item or "").split(":")[0]
    return str(name).strip()


def loan_of(e: Entry) -> tuple[str, str]:
    """(lender, borrower) of an HQ-to-HQ transfer [28.8]."""
    if e.data.get("from_hq") or e.data.get("to_hq"):
        return str(e.data.get("from_hq", "")).strip(), str(e.data.get("to_hq", "")).strip()
    parts = (e.item or "").split(">")
    return (parts[0].strip(), parts[1].strip()) if len(parts) == 2 else ("", "")


def is_loan(e: Entry) -> bool:
    return e.kind == "transfer" and e.account == "HQ" and (e.to_account or "HQ") == "HQ" and e.to_side in (None, e.side)


def hq_deltas(e: Entry, side: str) -> list[tuple[str, object]]:
    """Each HQ's share of ``e``'s effect on ``side``'s ``HQ`` account."""
    if is_loan(e) and e.side == side:
        lender, borrower = loan_of(e)
        return [(lender, -e.amount), (borrower, e.amount)]
    return [(hq_of(e), d) for s, a, d in e.effects() if s == side and a == "HQ"]


def hq_balances(book: Book, side: str, entries: Optional[Iterable[Entry]] = None) -> dict[str, object]:
    out: dict[str, object] = {}
    for e in book.entries if entries is None else entries:
        for hq, d in hq_deltas(e, side):
            out[hq] = out.get(hq, 0) + d
    return out


def is_allocation(e: Entry) -> bool:
    """CP newly assigned to an HQ from the cycle's allotment [28.4] (not from future ops [28.5])."""
    return e.kind == "transfer" and e.account == "CP" and e.to_account == "HQ" and e.to_side in (None, e.side)


def allocated(book: Book, side: str, hq: str, cycle: int) -> object:
    return sum((e.amount for e in book.entries if e.side == side and is_allocation(e) and hq_of(e).lower() == hq.lower()
                and entry_cycle(book, e) == cycle), 0)


def unit_of(e: Entry) -> tuple[str, int]:
    """(unit type, how many) of a PP spend [52.4.1]."""
    if e.data.get("type"):
        return str(e.data["type"]).strip().upper(), int(e.data.get("count", 1))
    item = (e.item or "").strip()
    m = COUNTED.match(item)
    if m:
        return m.group(2).strip().upper(), int(m.group(1))
    return item.upper(), 1


def initiated(book: Book, side: str, unit: str, turn: int) -> int:
    """Units of ``unit`` type ``side`` initiated in the Production Phase of ``turn``."""
    n = 0
    for e in book.entries:
        if e.side == side and e.turn == turn and e.kind == "spend" and e.account == "PP":
            t, k = unit_of(e)
            if t == unit:
                n += k
    return n


def latest_data(book: Book, side: str, key: str, through: int):
    """The last value ``side`` recorded for ``key`` in an entry's data up to ``through``."""
    for e in reversed(book.entries):
        if e.side == side and e.turn <= through and key in e.data:
            return e.data[key]
    return None


def has_entries(book: Book, side: str, account: str) -> bool:
    return any(s == side and a == account for e in book.entries for s, a, _ in e.effects())


def category_of(e: Entry, ship_types: frozenset) -> str:
    """air, ship or ground: ``data["category"]``, else "air" for an air block, "ship" for a ship type."""
    cat = str(e.data.get("category") or "").strip().lower()
    if cat:
        return cat
    unit, _ = unit_of(e)
    if "AIR" in unit or "BLOCK" in unit:
        return "air"
    return "ship" if unit.split()[0] in ship_types else "other"


def arrivals(book: Book, side: str) -> list[dict]:
    """The build queue: every PP spend of ``side`` with ``data["delay"]``, its unit, count and
    arrival cycle [52.5], [53.8] (``rates.arrival_cycle``)."""
    from .economy_rates import arrival_cycle

    out = []
    for e in book.entries:
        if e.side == side and e.kind == "spend" and e.account == "PP" and "delay" in e.data:
            c = cycle_of(book.labels.get(e.turn, ""))
            if c is None:
                continue
            unit, n = unit_of(e)
            a = arrival_cycle(c, int(e.data["delay"]))
            out.append({"entry": e.id, "unit": unit, "count": n, "started": f"0/{c[0]}/{c[1]:02d}",
                        "arrives": f"0/{a[0]}/{a[1]:02d}", "usable": f"G/T 1/{a[0]}/{a[1]:02d}",
                        "rule": "[52.5];[52.6.6]" if side != "japan" else "[53.8];[53.9.5]"})
    return out
