"""``campaign.strikes``: the strike plotter from Python, with the commands ``campaign strike`` and
``campaign strikes`` run (``engine.plan_of``, ``engine.assess``, ``commands.ResolveStrike``).

A side is its id or its name; a turn a label in any form the game prints or a calendar index; a bad
argument raises a one-line CampaignError naming it and what it may be.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional

from ...campaign import validate as v
from ...campaign.errors import CampaignError
from ...rules.strike import Assessment, StrikePlan
from .engine import assess, plan_of, tables_from
from .events import LoggedStrike, strike_log

SEED_LIMIT = 2**63  # the CLI's --seed takes as much (cli.common.seed_number)


class StrikesView:
    """``campaign.strikes``: the strike log of an open campaign and its strikes plotted, assessed
    and resolved.

    >>> plan = campaign.strikes.plan("Japan", "E2418", units=["kwajalein-g4m"], mission="bombardment",
    ...                              options={"damage_result": "S", "supply_category": "A"})
    >>> rec = campaign.strikes.resolve(plan)
    >>> campaign.strikes.frame()[["id", "side", "target", "dice_count", "losses", "changes"]]
       id   side target  dice_count  losses                                changes
    0   1  japan  E2418           0       1  lunga-airfield: damage=S, s_results=1
    >>> _ = campaign.undo()
    """

    def __init__(self, campaign):
        self.campaign = campaign

    def __repr__(self) -> str:
        return f"<strikes of {self.campaign.path}>"

    # ----- read -------------------------------------------------------------------------------
    def log(self, side: Any = None, turn: Any = None) -> list[LoggedStrike]:
        """The strikes resolved and not undone (``events.LoggedStrike``: id, seq, turn, side, target,
        summary and the whole ``resolution``), oldest first, of ``side`` and ``turn`` when given.

        >>> campaign.strikes.log(side="allies", turn="G/T 4/8/42")
        []
        >>> campaign.strikes.log(side="martians")
        Traceback (most recent call last):
        ...
        assistant.campaign.errors.CampaignError: side 'martians' is not a side of witp (sides: japan, allies)
        """
        side, turn = self._side(side), self._turn(turn)
        return [s for s in strike_log(self.campaign.state)
                if (side is None or s.side == side) and (turn is None or s.turn == turn)]

    def frame(self, side: Any = None, turns: Any = None):
        """The strike log as the typed table ``strikes`` (docs/data.md: plan, dice, result, losses;
        ``campaign strikes FILE --csv`` prints it), of ``side`` and ``turns`` when given.

        >>> campaign.strikes.frame().dtypes["dice_count"], len(campaign.strikes.frame(turns=[44]))
        (Int64Dtype(), 0)
        """
        df = self.campaign.table("strikes")
        side = self._side(side)
        if side is not None:
            df = df[df["side"] == side]
        if turns is not None:
            many = list(turns) if isinstance(turns, (list, tuple, set, frozenset, range)) else [turns]
            df = df[df["turn"].isin({self._turn(t, "turns") for t in many})]
        return df.reset_index(drop=True)

    # ----- plot and assess (nothing recorded) ---------------------------------------------------
    def plan(self, side: Any, target: Any, *, units: Iterable[Any] = (), bases: Iterable[Any] = (),
             mission: Any = None, altitude: Any = None, escorts: Iterable[Any] = (), return_base: Any = None,
             night: Any = False, phase: Any = None, target_unit: Any = None,
             options: Optional[Mapping[str, Any]] = None) -> StrikePlan:
        """A strike plan, each value checked as ``campaign strike`` checks its flags: ``units``
        launch from their hexes, ``bases`` launch every air unit of ``side`` there; ``mission`` in
        the game's words; ``options`` the game's own switches and the printed results the player
        reads (witp ``damage_result``, apto ``sneak`` ...).

        >>> campaign.strikes.plan("japan", "E2418", units=["kwajalein-g4m"], mission="picnic")
        Traceback (most recent call last):
        ...
        assistant.campaign.errors.CampaignError: mission 'picnic' is not one of witp's: bombardment, naval, special, ..., port_mining, ms_escort
        """
        return plan_of(self.campaign.state, self.campaign.map, side=side, target=target, units=_ids(units, "units"),
                       bases=_ids(bases, "bases"), mission=mission, altitude=altitude,
                       escorts=_ids(escorts, "escorts"), return_base=return_base, night=night, phase=phase,
                       target_unit=target_unit, options=options)

    def assess(self, plan: Any, tables: Any = None) -> Assessment:
        """``plan`` assessed by the game's air rules (reach, range class, legality, exposure, the
        odds where the rules or the player's tables fix them); nothing is recorded.

        >>> plan = campaign.strikes.plan("japan", "E2418", units=["kwajalein-g4m"], mission="bombardment")
        >>> a = campaign.strikes.assess(plan)
        >>> [(i.unit, i.base, i.range_class) for i in a.items]
        [('kwajalein-g4m', 'E3301', 'extended')]
        """
        from ...campaign.world import world_of

        return assess(world_of(self.campaign.state, self.campaign.graph(), tables=self._tables(tables)),
                      _plan(plan))

    # ----- write (one undoable event: campaign.undo()) -----------------------------------------
    def resolve(self, plan: Any, dice: Any = None, tables: Any = None, seed: Any = None):
        """Resolve ``plan`` and record it (``campaign strike FILE ... --resolve``): ``dice`` the
        faces read off physical dice in the order the rules ask for them, or None to roll them with
        the campaign's random source (``seed``: a reproducible roll); ``tables`` the printed tables
        the player filled, ``{name: rows}`` or ``{name: CSV path}``. Unit changes are applied and
        the ledger's losses handed over in the same event; returns the EventRecord, and
        ``campaign.undo()`` withdraws it.

        >>> plan = campaign.strikes.plan("japan", "E2418", units=["kwajalein-g4m"], mission="bombardment",
        ...                              options={"damage_result": "S", "supply_category": "A"})
        >>> rec = campaign.strikes.resolve(plan, dice=[])
        >>> campaign.state.units["lunga-airfield"].attrs["damage"]
        'S'
        >>> _ = campaign.undo()
        >>> "damage" in campaign.state.units["lunga-airfield"].attrs
        False
        >>> campaign.strikes.resolve(plan, dice=[7])
        Traceback (most recent call last):
        ...
        assistant.campaign.errors.CampaignError: this strike needs 0 dice (none), not 1
        """
        from .commands import ResolveStrike

        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT):
            raise CampaignError(f"seed {v.show(seed)} must be a whole number from 0 to {SEED_LIMIT - 1}")
        rng = random.Random(seed) if seed is not None else None
        return self.campaign.execute(ResolveStrike(plan=_plan(plan), dice=None if dice is None else list(dice)
                                                   if isinstance(dice, (list, tuple)) else dice,
                                                   tables=self._tables(tables)), rng=rng)

    # ----- arguments ----------------------------------------------------------------------------
    def _side(self, side: Any) -> Optional[str]:
        return None if side is None else v.side(self.campaign.state, side)

    def _turn(self, turn: Any, what: str = "turn") -> Optional[int]:
        s = self.campaign.state
        return None if turn is None else s.calendar.index_of(turn, around=s.turn.index, what=what)

    def _tables(self, tables: Any) -> Optional[dict[str, Any]]:
        """``{name: rows}`` as given, ``{name: CSV path}`` read and checked as ``--table NAME=CSV``."""
        if tables is None:
            return None
        if not isinstance(tables, Mapping):
            raise CampaignError(f"tables must be a mapping of a table's name to its rows or a CSV path, not "
                                f"{v.show(tables)}")
        out = {}
        for name, rows in tables.items():
            if isinstance(rows, (str, Path)):
                out.update(tables_from(self.campaign.state.game, [f"{name}={rows}"]))
            else:
                out[name] = rows
        return out


def _plan(plan: Any) -> StrikePlan:
    if not isinstance(plan, StrikePlan):
        raise CampaignError(f"plan must be a strike plan (campaign.strikes.plan(...)), not {v.show(plan)}")
    return plan


def _ids(values: Any, what: str) -> list[Any]:
    if isinstance(values, str):
        return [values]
    try:
        return list(values)
    except TypeError:
        raise CampaignError(f"{what} must be one id or hex, or a list of them, not {v.show(values)}") from None
