"""apto ledger test kit: a calendar of labelled turns (a Seasonal Turn, then three months), a
context for any of its turns, and a book of entries -- so each rule is tested on figures counted
by hand, without a campaign file."""

from __future__ import annotations

from typing import Any, Mapping, Optional

import networkx as nx

from aptokit import SIDES, defaults
from assistant.rules.control import Control
from assistant.rules.ledger import Book, Entry, LedgerContext
from assistant.rules.world import World

SEASONS = ("Winter", "Spring", "Summer", "Autumn")
MONTHS = {"Winter": ("January", "February", "March"), "Spring": ("April", "May", "June"),
          "Summer": ("July", "August", "September"), "Autumn": ("October", "November", "December")}


def calendar(season: str = "Spring", year: int = 1942, seasons: int = 6) -> dict[int, tuple[str, str, str, int]]:
    """index -> (label, kind, season, year): index 0 is ``season``'s Seasonal Turn of ``year``."""
    out, i, k, y = {}, 0, SEASONS.index(season), year
    for _ in range(seasons):
        p = SEASONS[k]
        out[i] = (f"{p} Seasonal Turn {y}", "seasonal", p, y)
        for j, m in enumerate(MONTHS[p]):
            out[i + 1 + j] = (f"{m} {y}", "monthly", p, y)
        i += 4
        k += 1
        if k == 4:
            k, y = 0, y + 1
    return out


def ctx(turn: int, cal: Optional[dict] = None, settings: Optional[Mapping[str, Any]] = None,
        tables: Optional[Mapping[str, Any]] = None, world: Optional[World] = None) -> LedgerContext:
    cal = cal or calendar()
    label, kind, period, year = cal[turn]
    s = defaults()
    s.update(settings or {})
    g = nx.Graph()
    nation_side = {n: sd for sd, ns in SIDES.items() for n in ns}
    w = World(game="apto", graph=g, pieces=(), control=Control.build(g, nation_side), settings=s, sides=SIDES,
              tables=dict(tables or {}))
    if world is not None:
        w = World(game="apto", graph=world.graph, pieces=world.pieces, control=world.control,
                  settings={**dict(world.settings), **(settings or {})}, sides=world.sides, tables=dict(tables or {}))
    return LedgerContext(world=w, turn=turn, turn_label=label, turn_kind=kind, year=year, period=period,
                         labels={i: v[0] for i, v in cal.items() if i <= turn + 1})


def entry(side: str, turn: int, kind: str, amount, account: Optional[str] = None, **kw) -> Entry:
    return Entry(side=side, turn=turn, kind=kind, amount=amount,
                 account=account or ("EP" if side == "japan" else "EP:us"), **kw)


def book(*entries: Entry) -> Book:
    return Book(tuple(Entry(**{**e.__dict__, "id": i + 1, "seq": i + 1}) for i, e in enumerate(entries)))


def errors(findings) -> list[str]:
    return [f"{f.ref} {f.text}" for f in findings if f.level == "error"]
