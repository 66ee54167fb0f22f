"""Supply over a campaign's history, for analysts: computed once and kept.

``history_frame(campaign)`` traces every unit and installation of every side as the campaign stood
at the END of each turn played so far (the last state in which that turn was the current one,
``Campaign.state_at(turn=...)``), the current turn included, and returns one row per unit per turn:
the typed analysts' table ``supply_by_turn`` (``tables.py``; docs/data.md)::

    turn, turn_label, date, side, unit, kind, hex, supplied, status, length, length_unit, source

``turn`` is the calendar index, ``turn_label`` the game's name for it, ``date`` its first day;
``status`` is in the game's own words (witp linked/isolated ...); ``length`` is the traced line in
the rule's own unit (``length_unit``; empty when the rules give none); ``source`` is the providing
unit's id, else the source hex (empty when cut off). ``turns=`` limits the turns (labels in any
form the game prints, calendar indexes or a range), ``sides=`` the sides (ids or names).
``counts_frame(df)`` gives the supplied / unsupplied counts per turn and side (the chart of the
supply dashboard). ``campaign trace FILE --history [--csv|--json] [--turns ...]`` prints the same
rows (``history_output``); ``campaign.supply`` (``api.py``) is the Python face of it all.

How it is computed once:

* **One forward pass, one state at a time.** Where each turn ends is read from the events' turn
  column alone (``Campaign.turn_ends``); the states at those ends come from ONE fold of the events
  (``Campaign.turn_states``), not a snapshot reload and replay per turn, and each is traced into
  rows as it comes and let go: a whole war's states are never held together (the newest folded
  is kept, where the next fold starts).
* **Kept per turn.** A turn's rows are a function of the state at its end, and events are only
  appended: the state after an event never changes. So each turn's rows are kept with the event
  its turn ended on, and a turn is traced again only when its end has moved -- the current turn
  after a write, a turn an undone advance went back to. A correction of the map or a setting is
  itself an event: it changes the states after it, whose turns' ends are new events, and leaves
  every earlier turn as it was played (each turn is traced on its own map, corrections and
  settings). Only what is outside the log -- the rules' code, the game's data, the installed map
  -- changes every turn at once: the kept rows are keyed by a version of those
  (``historystore.inputs_version``) where they are kept between processes.
* **Where.** In memory, per campaign object, for every caller in a process (the supply page
  among them: its chart tab traces nothing while closed, and once open only the turns whose end
  moved); and, given a folder (``keep``: the command line and the page pass the user's cache
  folder), in a cache file there that outlives the process (``historystore.HistoryStore``: why
  not in the campaign file is written there), so a second call or a fresh page kernel reads the
  turns another process traced.

The hex graph of each past state is that state's map (its pin) with that state's corrections; it is
built once per map version (``map_pin``, ``map_revision``) met on the way, so its compiled
``HexNet`` is reused too.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from pathlib import Path
from typing import Any, Optional

from ...campaign.csvout import csv_text
from ...campaign.errors import CampaignError
from .rows import COLUMNS, HISTORY_COLUMNS, checked_campaign, checked_sides, trace_row, turn_date

__all__ = ["COLUMNS", "COUNT_COLUMNS", "HISTORY_COLUMNS", "History", "counts_frame", "forget", "history",
           "history_frame", "history_output", "kept", "turn_ends", "GraphCache"]

COUNT_COLUMNS = ("turn", "turn_label", "side", "supplied", "unsupplied")
KEPT_CONTEXTS = 4  # what-ifs (and the plain history) whose rows a process keeps per campaign


def turn_ends(campaign) -> list[tuple[int, int]]:
    """``(turn index, seq)`` for every turn played, oldest turn first: ``seq`` is the last event
    after which that turn was the current one (what ``Campaign.state_at(turn=...)`` returns)."""
    return campaign.turn_ends()


class GraphCache:
    """One hex graph per map version of a campaign: the campaign's own graph for its current
    version, else the state's pinned map with the state's corrections, built once and kept while
    it is the newest met (a forward pass meets each map version in one run of turns)."""

    KEEP = 2

    def __init__(self, campaign):
        self.campaign = campaign
        self.graphs: OrderedDict[tuple, object] = OrderedDict()

    @staticmethod
    def key(state) -> tuple:
        pin = state.map_pin.model_dump_json() if state.map_pin is not None else None
        return pin, state.map_revision

    def graph(self, state):
        k = self.key(state)
        if k == self.key(self.campaign.state):
            return self.campaign.graph()
        if k not in self.graphs:
            from ...campaign.mapfix import corrections_of
            from ...campaign.mappin import map_for

            self.graphs[k] = map_for(state.game, state.map_pin).graph(corrections_of(state))
            while len(self.graphs) > self.KEEP:
                self.graphs.popitem(last=False)
        return self.graphs[k]


def _whatif_for(whatif, state):
    """The what-if for one past state: units named in ``without`` that did not exist then are
    simply absent."""
    from .engine import WhatIf

    return WhatIf(with_enemy=whatif.with_enemy, without=tuple(u for u in whatif.without if u in state.units))


# ----- what a process keeps ------------------------------------------------------------------------
class _Kept:
    """One campaign's history kept in this process: per context (the rules object and the
    what-if), per side and turn, ``(seq the turn ended on, rows)``; per turn the ids of the units
    then (a what-if's ``without`` must name one); and the newest state folded (the next fold
    starts there)."""

    def __init__(self):
        self.rows: OrderedDict[tuple, dict[tuple[str, int], tuple[int, list]]] = OrderedDict()
        self.units: dict[int, tuple[int, frozenset]] = {}
        self.state = None
        self.rules: dict[int, Any] = {}
        self.store: Optional[tuple[tuple, Any]] = None  # ((folder, game, campaign digest), HistoryStore)

    def context(self, key: tuple) -> dict[tuple[str, int], tuple[int, list]]:
        if key not in self.rows:
            self.rows[key] = {}
            while len(self.rows) > KEPT_CONTEXTS:
                self.rows.popitem(last=False)
        self.rows.move_to_end(key)
        return self.rows[key]


_KEPT: "weakref.WeakKeyDictionary[Any, _Kept]" = weakref.WeakKeyDictionary()


def kept(campaign) -> _Kept:
    """What this process keeps of ``campaign``'s history (made on first use, gone with it)."""
    k = _KEPT.get(campaign)
    if k is None:
        k = _KEPT[campaign] = _Kept()
    return k


def forget(campaign) -> None:
    """Drop what this process keeps of ``campaign``'s history (the next call traces every turn)."""
    _KEPT.pop(campaign, None)


def _rules_key(k: _Kept, game: str) -> Any:
    """The rules object the engine traces with, by identity (kept alive with the rows)."""
    from . import engine

    try:
        rules = engine.rules_for(game)
    except Exception:  # no rules for the game: tracing says so in its own words
        return None
    k.rules[id(rules)] = rules
    return id(rules)


def _whatif_key(whatif) -> tuple:
    return (tuple(whatif.with_enemy), tuple(whatif.without)) if whatif else ((), ())


def _traced_turns(campaign, wanted: list[str], whatif, ends: list[tuple[int, int]]) -> tuple["RowsAt", list]:
    """Every ``(side, turn)``'s rows for ``ends``, from what is kept, tracing the turns whose end
    moved (one fold from the newest state kept). Returns ``(rows by (side, turn), turns traced
    now as (turn, seq))``."""
    k = kept(campaign)
    ctx = k.context((_rules_key(k, campaign.game), _whatif_key(whatif)))
    need = [(turn, seq) for turn, seq in ends if any(ctx.get((s, turn), (None,))[0] != seq for s in wanted)]
    if need:
        from ...rules.hexnet import many_searches
        from .engine import trace_side, world_of

        if len(need) > 3:  # many turns: a page's kernel may take csgraph for them, as a command does
            many_searches()
        first = min(seq for _, seq in need)
        graphs = GraphCache(campaign)
        start = k.state if k.state is not None and k.state.last_seq <= first else None
        # one state at a time, as the campaign folds them: each is traced into rows and let go
        for turn, state in campaign.turn_states(turns=[t for t, _ in need], start=start):
            seq = state.last_seq
            k.units[turn] = (seq, frozenset(state.units))
            if k.state is None or state.last_seq > k.state.last_seq:
                k.state = state  # the newest state folded: the next fold starts there
            world = world_of(state, graphs.graph(state))
            label, date = state.calendar.turn(turn).label, turn_date(state.calendar, turn)
            turn_whatif = _whatif_for(whatif, state) if whatif else None
            for side in wanted:
                if ctx.get((side, turn), (None,))[0] != seq:
                    ctx[(side, turn)] = (seq, [trace_row(t, turn, label, date)
                                                for t in trace_side(world, side, turn_whatif).items])
            del world, state
    return RowsAt(ctx), need


class RowsAt:
    """Rows by ``(side, turn)`` as kept when the call was made (a copy of the entries, not of the
    rows: a later call that traces a turn again does not change what this one answered)."""

    __slots__ = ("_entries",)

    def __init__(self, ctx: dict):
        self._entries = dict(ctx)

    def __getitem__(self, key: tuple[str, int]) -> list:
        return self._entries[key][1]


def played_ends(campaign, turns=None) -> list[tuple[int, int]]:
    """``campaign.turn_ends()`` limited to ``turns`` (a turn or several, labels in any form the game
    prints or calendar indexes, or a ``range``; ``Campaign.turn_indexes``). A turn named that has
    not been played is an error naming the turns played (no silently empty history)."""
    ends = campaign.turn_ends()
    if turns is None:
        return ends
    wanted = set(campaign.turn_indexes(_plain_turns(turns), "turns"))
    cal = campaign.state.calendar
    span = ("none" if not ends else cal.turn(ends[0][0]).label if len(ends) == 1
            else f"{cal.turn(ends[0][0]).label} to {cal.turn(ends[-1][0]).label}")
    got = [(t, seq) for t, seq in ends if t in wanted]
    if isinstance(turns, range):  # a run of turns: those played in it, at least one
        if not got:
            raise CampaignError(f"turns: no turn of {turns!r} has been played in this campaign "
                                f"(turns played: {span}, calendar indexes {ends[0][0] if ends else '-'} to "
                                f"{ends[-1][0] if ends else '-'})")
        return got
    missing = sorted(wanted - {t for t, _ in ends})
    if missing:
        raise CampaignError(f"turns: {cal.turn(missing[0]).label!r} has not been played in this campaign "
                            f"(turns played: {span})")
    return got


def _plain_turns(turns):
    """Turns as an analyst has them at hand, made plain: a numpy or pandas integer (``df.turn.max()``)
    an int, an array, Series or Index of them (``df.turn.unique()``) a list."""
    import numbers

    def plain(t):
        return int(t) if isinstance(t, numbers.Integral) and not isinstance(t, bool) else t

    if isinstance(turns, (str, range, list, tuple, set, frozenset)):
        return [plain(t) for t in turns] if isinstance(turns, (list, tuple, set, frozenset)) else turns
    if hasattr(turns, "tolist") and getattr(turns, "ndim", 0) == 1:
        return [plain(t) for t in turns.tolist()]
    return plain(turns)


def history(campaign, sides=None, whatif=None, keep: Optional[Path] = None, turns=None) -> "History":
    """Every side's supply at the end of each turn played, as kept per turn (a ``History``: the
    counts per turn for a chart, the whole frame when read). Arguments as ``history_frame``; a
    turn already traced in this process (and whose end has not moved since) is not traced again,
    a turn kept in ``keep`` is read, and the turns traced now are added there after the call
    returns (``HistoryStore.save_later``)."""
    checked_campaign(campaign)
    wanted = checked_sides(campaign.state, sides)
    ends = played_ends(campaign, turns)
    disk = _from_disk(campaign, wanted, ends, keep) if keep is not None and not whatif else None
    by, need = _history(campaign, wanted, whatif, ends)
    if disk is not None and need:
        _to_disk(campaign, wanted, need, by, *disk)
    k = kept(campaign)
    return History(k.context((_rules_key(k, campaign.game), _whatif_key(whatif))), wanted, ends, by)


def history_frame(campaign, sides=None, whatif=None, keep: Optional[Path] = None, turns=None):
    """Every unit's supply status at the end of each turn played (current turn included), one row
    per unit per turn: the typed table ``supply_by_turn`` (columns ``HISTORY_COLUMNS``, docs/data.md);
    ``sides`` (a side id or name, or several) limits the sides traced; ``turns`` (a turn or several,
    labels in any form the game prints or calendar indexes, or a ``range``) the turns; ``whatif``
    applies the same hypothetical changes to every turn (a unit it removes must exist in at least
    one of them). The campaign is never written; a turn already traced in this process (and whose
    end has not moved since) is not traced again. ``keep``: the cache folder where the plain
    history (no what-if) is kept between processes (``historystore``): a turn kept there is read,
    not traced, and the turns traced now are added to it."""
    return history(campaign, sides, whatif, keep, turns).frame()


class History:
    """The supply history of a campaign at its turn ends (``ends``), each turn's rows kept by the
    process (``by``: rows by ``(side, turn)``). Nothing whole is built until asked: ``counts()``
    (what a chart draws) from each turn's counts, kept per turn; ``frame()`` the frame of every
    row, kept with the turn ends it shows and extended from the first turn whose end moved."""

    def __init__(self, ctx: dict, wanted: list[str], ends: list[tuple[int, int]], by: RowsAt):
        self._ctx, self.sides, self.ends, self._by = ctx, list(wanted), list(ends), by

    def counts(self):
        """``counts_frame(self.frame())``, from each turn's counts alone (kept per turn and side
        with the event the turn ended on): the same frame, without the frame of every row."""
        import numpy as np
        import pandas as pd

        ctx, labels, seen, cells = self._ctx, {}, [], {}
        for turn, seq in self.ends:
            for s in self.sides:
                got = ctx.get(("count", s, turn))
                if got is None or got[0] != seq:
                    rows = self._by[(s, turn)]
                    n = sum(1 for r in rows if r["supplied"])
                    got = ctx[("count", s, turn)] = (seq, n, len(rows) - n, rows[0]["turn_label"] if rows else None)
                _, sup, cut, label = got
                if sup + cut:
                    labels.setdefault(turn, label)
                    if s not in seen:
                        seen.append(s)
                    cells[(turn, s)] = (sup, cut)
        if not labels:
            from .frames import frame_of

            return counts_frame(frame_of([]))
        grid = [(t, s) for t in labels for s in seen]  # every side seen at every turn with rows
        made = [cells.get(ts, (0, 0)) for ts in grid]
        columns = {"turn": np.fromiter((t for t, _ in grid), "int64", len(grid)),
                   "turn_label": np.array([labels[t] for t, _ in grid], dtype=object),
                   "side": np.array([s for _, s in grid], dtype=object),
                   "supplied": np.fromiter((m[0] for m in made), "int64", len(grid)),
                   "unsupplied": np.fromiter((m[1] for m in made), "int64", len(grid))}
        return pd.DataFrame(columns, columns=list(COUNT_COLUMNS))

    def frame(self):
        """The frame of every row (``history_frame``: the table ``supply_by_turn``, typed), a copy
        the caller may change."""
        from .tables import supply_frame

        ctx, wanted, ends, by = self._ctx, self.sides, self.ends, self._by
        # The typed frame of every row is kept with the turn ends it shows: reused up to the first
        # turn whose end moved, then the rows of the turns from there typed and appended.
        now = tuple(ends)
        before = ctx.get(("full", tuple(wanted)))
        same, offset = 0, 0
        if before is not None:
            old_ends, full, offsets = before
            while same < min(len(old_ends), len(now)) and old_ends[same] == now[same]:
                same += 1
            offset = offsets[same]
            if same == len(now) == len(old_ends):
                return full.copy()
        offsets = list(before[2][:same + 1]) if before is not None else [0]
        rows = []
        for turn, _ in ends[same:]:
            for s in wanted:
                rows += by[(s, turn)]
            offsets.append(offset + len(rows))
        df = supply_frame(rows, full.iloc[:offset] if before is not None and offset else None,
                          trimmed=before is not None and offset < len(full))
        ctx[("full", tuple(wanted))] = (now, df, tuple(offsets))
        return df.copy()


def _history(campaign, wanted, whatif, ends=None):
    """``_traced_turns``, then the what-if's check: a unit it removes must exist at the end of at
    least one turn (the units of every turn are known once its end is folded or kept)."""
    ends = campaign.turn_ends() if ends is None else ends
    by, need = _traced_turns(campaign, wanted, whatif, ends)
    if whatif and whatif.without:
        k, at = kept(campaign), set(ends)
        seen = set().union(*(ids for t, (seq, ids) in k.units.items() if (t, seq) in at))
        for u in whatif.without:
            if u not in seen:
                raise CampaignError(f"--without {u!r}: no such unit in any turn of this campaign")
    return by, need


def _from_disk(campaign, wanted, ends, keep: Path):
    """The turns this process does not hold, read from the cache folder into what it keeps.
    Returns ``(store, digests)`` for ``_to_disk`` (None: nothing was missing)."""
    from .historystore import HistoryStore, rows_of

    k = kept(campaign)
    ctx = k.context((_rules_key(k, campaign.game), _whatif_key(None)))
    missing = [(t, seq) for t, seq in ends if any(ctx.get((s, t), (None,))[0] != seq for s in wanted)]
    if not missing:
        return None
    digests = campaign.log_digests([1] + [seq for _, seq in missing])
    where = (Path(keep), campaign.game, digests[1])
    if k.store is None or k.store[0] != where:  # one connection per campaign and folder, kept
        k.store = (where, HistoryStore(*where))
    store = k.store[1]
    found = store.load([(t, s, seq, digests[seq]) for t, seq in missing for s in wanted], "json")
    for t, seq in missing:
        for s in wanted:
            if (t, s) in found:
                ctx[(s, t)] = (seq, rows_of(found[(t, s)]))
    return store, digests


def _to_disk(campaign, wanted, need, by, store, digests) -> None:
    """Add the turns traced now to the cache folder, after the call returns (rendered and written
    in the background: a later read in this process waits for it; another process that reads
    first traces the turn itself)."""
    from .historystore import render

    names = {s.id: s.name for s in campaign.state.sides}
    todo = [(t, s, seq, digests[seq], by[(s, t)], names.get(s, s)) for t, seq in need for s in wanted
            if seq in digests]
    # json alone: the printed formats when first printed
    store.save_later(lambda: [(t, s, seq, lg, render(rows, name, ("json",))) for t, s, seq, lg, rows, name in todo])


def history_output(campaign, fmt: str = "text", whatif=None, keep: Optional[Path] = None, turns=None) -> str:
    """What ``campaign trace FILE --history`` prints: ``fmt`` ``csv`` (the table ``supply_by_turn``,
    as ``csvout.frame_csv(history_frame(...))`` writes it), ``json`` (a list of records, one a line; an
    unknown length is null) or ``text`` (turn by turn, each side's counts and one line a unit).
    ``keep``: the cache folder where the plain history (no what-if) is kept between calls
    (``historystore``); a call on an unchanged campaign then traces nothing and folds nothing.
    ``turns``: as ``history_frame``."""
    from .historystore import HistoryStore, render, rows_of

    checked_campaign(campaign)
    wanted = checked_sides(campaign.state, None)
    names = {s.id: s.name for s in campaign.state.sides}
    ends = played_ends(campaign, turns)
    texts: dict[tuple[int, str], str] = {}
    store = None
    if keep is not None and not whatif and ends:
        digests = campaign.log_digests([1] + [seq for _, seq in ends])
        store = HistoryStore(keep, campaign.game, digests[1])
        wanted_keys = [(t, s, seq, digests[seq]) for t, seq in ends for s in wanted]
        texts = store.load(wanted_keys, fmt)
        if len(texts) < len(wanted_keys):
            made = []
            miss = [key for key in wanted_keys if key[:2] not in texts]
            rows = store.load(miss, "json") if fmt != "json" else {}  # kept by a page: json alone
            for t, s, seq, lg in miss:
                if (t, s) in rows:
                    out = render(rows_of(rows[(t, s)]), names.get(s, s))
                    texts[(t, s)] = out[fmt]
                    made.append((t, s, seq, lg, out))
            missing = [(t, seq) for t, seq in ends if any((t, s) not in texts for s in wanted)]
            if missing:  # trace the turns not kept (those kept are not even decoded)
                by, _ = _history(campaign, wanted, None, missing)
                for t, s, seq, lg in wanted_keys:
                    if (t, s) not in texts:
                        out = render(by[(s, t)], names.get(s, s))
                        texts[(t, s)] = out[fmt]
                        made.append((t, s, seq, lg, out))
            store.save(made)
        store.close()
    else:
        by, _ = _history(campaign, wanted, whatif, ends)
        for t, _ in ends:
            for s in wanted:
                texts[(t, s)] = render(by[(s, t)], names.get(s, s))[fmt]
    return _assemble(campaign, fmt, ends, wanted, texts)


def _assemble(campaign, fmt: str, ends, wanted, texts) -> str:
    parts: list[str] = []
    if fmt == "csv":
        parts.append(csv_text([], header=HISTORY_COLUMNS))
        parts += [texts[(t, s)] for t, _ in ends for s in wanted]
        return "".join(parts)
    if fmt == "json":
        body = ",\n".join(x for x in (texts[(t, s)] for t, _ in ends for s in wanted) if x)
        return f"[\n{body}\n]\n" if body else "[]\n"
    cal = campaign.state.calendar
    for t, _ in ends:
        parts.append(f"{cal.turn(t).label} (turn {t})\n")
        parts += [texts[(t, s)] for s in wanted]
    return "".join(parts) if parts else "no turns\n"


def counts_frame(df):
    """Supplied and unsupplied counts per turn and side of a ``history_frame`` (columns
    ``COUNT_COLUMNS``), every side of the frame at every turn of it (0 where it had no units); of
    a ``History``, from its turns' kept counts (``History.counts``)."""
    import pandas as pd

    if isinstance(df, History):
        return df.counts()

    missing = [c for c in ("turn", "turn_label", "side", "supplied") if c not in df.columns]
    if missing:
        raise CampaignError(f"not a supply history frame: no column {', '.join(missing)}")
    turns = df[["turn", "turn_label"]].drop_duplicates("turn").sort_values("turn").astype({"turn": "int64"})
    sides = list(dict.fromkeys(df["side"].astype(object)))
    grid = pd.MultiIndex.from_product([turns["turn"], sides], names=["turn", "side"])
    supplied = df["supplied"].astype(bool)
    got = pd.DataFrame({"supplied": supplied.astype("int64"), "unsupplied": (~supplied).astype("int64"),
                        "turn": df["turn"].astype("int64"), "side": df["side"].astype(object)}).groupby(["turn", "side"]).sum()
    out = got.reindex(grid, fill_value=0).reset_index()
    out.insert(1, "turn_label", out["turn"].map(dict(zip(turns["turn"], turns["turn_label"]))))
    return out[list(COUNT_COLUMNS)].astype({"supplied": "int64", "unsupplied": "int64"})
