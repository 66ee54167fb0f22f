"""apto's seasons in the ledger: which turns belong to a season, the Strategic Warfare losses of a
season (raw, as recorded), the Japanese surrender integer [9.10] and construction arrivals [8.6]."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..ledger import Book, LedgerContext

SEASONS = ("Winter", "Spring", "Summer", "Autumn")
SURRENDER = 100  # [9.10]
ABOMB_CUTS = (15, 30)  # the first and the second A-Bomb [9.10]
US_CITY_CUT = 10  # per Japanese home city held by supplied US land units [9.10]


def seasonal_turns(ctx: LedgerContext) -> list[int]:
    """Calendar indices of the Seasonal Turns the context knows (by label), and the turn in force."""
    out = {i for i, lab in ctx.labels.items() if "Seasonal Turn" in str(lab)}
    if ctx.turn_kind == "seasonal":
        out.add(ctx.turn)
    return sorted(out)


def season_start(ctx: LedgerContext, turn: int) -> Optional[int]:
    """The Seasonal Turn at or before ``turn`` (None before the first)."""
    before = [t for t in seasonal_turns(ctx) if t <= turn]
    return before[-1] if before else None


def losses(book: Book, side: str, account: str, first: int, last: int) -> int:
    """The raw losses (kind ``loss``) booked to ``side``'s ``account`` in turns ``first``..``last``."""
    return sum(e.amount for e in book.entries
               if e.kind == "loss" and e.side == side and e.account == account and first <= e.turn <= last)


def preceding_season_losses(book: Book, side: str, account: str, ctx: LedgerContext) -> int:
    """At a Seasonal Turn: the losses of the three monthly turns before it [8.2]."""
    prev = season_start(ctx, ctx.turn - 1)
    return losses(book, side, account, (prev + 1) if prev is not None else -10**9, ctx.turn - 1)


def current_season_losses(book: Book, side: str, account: str, ctx: LedgerContext) -> int:
    """In a monthly turn: the losses since the preceding Seasonal Turn [9.10] ("during the same season")."""
    start = season_start(ctx, ctx.turn)
    return losses(book, side, account, (start + 1) if start is not None else -10**9, ctx.turn)


@dataclass(frozen=True)
class Surrender:
    """The [9.10] test: the surrender integer, Japan's losses this season, what is still needed."""

    integer: int
    losses: int
    steps: tuple[str, ...]

    @property
    def needed(self) -> int:
        return max(self.integer - self.losses, 0)

    @property
    def surrenders(self) -> bool:
        return self.losses >= self.integer


def surrender(season_losses: int, us_cities: int = 0, abombs: int = 0, soviet_roll: Optional[int] = None,
              manchukuo_hexes: int = 0) -> Surrender:
    """Japan surrenders at once when its Strategic Warfare losses this season reach the integer:
    100, less 10 per home city held by supplied US land units, 15 for the first A-Bomb and 30 for the
    second, and the once-only Soviet 2d6 (+2 per Manchukuo resource hex held by supplied Soviet
    land units) if the USSR is at war with Japan [9.10]."""
    for name, val in (("us_cities", us_cities), ("abombs", abombs), ("manchukuo_hexes", manchukuo_hexes),
                      ("season_losses", season_losses)):
        if isinstance(val, bool) or not isinstance(val, int) or val < 0:
            raise ValueError(f"{name} {val!r} must be a whole number, 0 or more")
    if abombs > 2:
        raise ValueError(f"abombs {abombs} must be 0, 1 or 2 (two A-Bombs in the game [10.34])")
    if soviet_roll is not None and (isinstance(soviet_roll, bool) or not isinstance(soviet_roll, int)
                                    or not 2 <= soviet_roll <= 12):
        raise ValueError(f"soviet_roll {soviet_roll!r} must be a 2d6 roll, 2 to 12")
    n = SURRENDER
    steps = [f"surrender integer {SURRENDER} [9.10]"]
    if us_cities:
        n -= US_CITY_CUT * us_cities
        steps.append(f"-{US_CITY_CUT * us_cities} for {us_cities} home cities held by supplied US land units")
    for i in range(abombs):
        n -= ABOMB_CUTS[i]
        steps.append(f"-{ABOMB_CUTS[i]} for the {'first' if i == 0 else 'second'} A-Bomb")
    if soviet_roll is not None:
        cut = soviet_roll + 2 * manchukuo_hexes
        n -= cut
        steps.append(f"-{cut} for the Soviet roll {soviet_roll}" + (f" +2 x {manchukuo_hexes} Manchukuo hexes"
                                                                  if manchukuo_hexes else ""))
    steps.append(f"= {n}; season losses {season_losses}")
    return Surrender(integer=n, losses=season_losses, steps=tuple(steps))


def arrival(period: str, year: int, delay: int) -> tuple[str, int]:
    """The Seasonal Turn a purchase with a construction delay of ``delay`` seasons arrives in [8.6]
    (a submarine bought in Spring with a 2-season delay arrives in Autumn)."""
    if period not in SEASONS:
        raise ValueError(f"season {period!r} is not one of {', '.join(SEASONS)}")
    if isinstance(delay, bool) or not isinstance(delay, int) or not 0 <= delay <= 4:
        raise ValueError(f"delay {delay!r} must be 0 to 4 seasons [8.6]")
    k = SEASONS.index(period) + delay
    return SEASONS[k % 4], year + k // 4


def arrival_label(period: str, year: int, delay: int) -> str:
    p, y = arrival(period, year, delay)
    return f"{p} Seasonal Turn {y}"
