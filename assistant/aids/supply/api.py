"""``campaign.supply``: the supply tracer from Python, on an open campaign (never written).

Every method checks its arguments as the command line does and raises ``CampaignError`` naming
the argument and the allowed values (an unknown side, unit, hex or turn); a side is its id or its
name. The examples run as tests (``tests/aids/supply/test_supply_api.py``,
``tests/test_python_doc.py``) on a fresh copy of the demo campaign (witp, Guadalcanal, August 1942:
one turn played, G/T 4/8/42).
"""

from __future__ import annotations

from typing import Any, Iterable, Optional, Sequence, Union

from ...campaign import validate as v
from ...campaign.errors import CampaignError
from .engine import SideReport, WhatIf

__all__ = ["SupplyView"]


class SupplyView:
    """The supply tracer of one open campaign: ``campaign.supply``.

    >>> campaign.supply
    <campaign.supply of witp campaign at G/T 4/8/42>
    """

    WhatIf = WhatIf  # ``campaign.supply.WhatIf(...)``, as ``whatif`` builds it checked

    def __init__(self, campaign):
        self.campaign = campaign

    def __repr__(self) -> str:
        return f"<campaign.supply of {self.campaign.game} campaign at {self.campaign.state.turn.label}>"

    # ----- arguments, checked ----------------------------------------------------------------------
    def _side(self, side: Any) -> str:
        return v.side(self.campaign.state, side)

    def _hex(self, value: Any, what: str = "hex") -> str:
        try:
            return v.hex_label(self.campaign.map, value)
        except CampaignError as e:
            text = str(e)
            raise CampaignError(text if what == "hex" and text.startswith("hex") else f"{what}: {text}") from None

    def _whatif(self, whatif: Any) -> Optional[WhatIf]:
        if whatif is None or isinstance(whatif, WhatIf):
            return whatif or None
        raise CampaignError(f"whatif must be a WhatIf (campaign.supply.whatif(with_enemy=..., without=...)) or "
                            f"None, not {type(whatif).__name__}")

    def _world(self, settings: Optional[dict] = None):
        from .engine import world_of

        if settings is not None and not isinstance(settings, dict):
            raise CampaignError(f"settings must be a dict of SETTING: VALUE, not {type(settings).__name__}")
        return world_of(self.campaign.state, self.campaign.graph(), settings=settings or None)

    def whatif(self, with_enemy: Union[str, Iterable[Any]] = (), without: Union[str, Iterable[str]] = ()) -> WhatIf:
        """Hypothetical changes for a trace or a history, checked against the campaign now:
        ``with_enemy`` an enemy combat unit at a hex (``"HEX"``, or ``("HEX", side)``; several in a
        list), ``without`` a unit id (or several) traced as if it were not on the map. A unit that
        only existed in earlier turns is accepted by ``history`` (``engine.WhatIf`` unchecked).

        >>> w = campaign.supply.whatif(with_enemy=[("E2518", "Japanese")], without="us-sw-pacific-hq")
        >>> w.describe()
        ['what-if: an enemy unit of japan at E2518', 'what-if: without us-sw-pacific-hq']
        >>> campaign.supply.whatif(without="nobody")
        Traceback (most recent call last):
        ...
        assistant.campaign.errors.CampaignError: without: unit 'nobody' is not in this campaign (now)
        """
        enemies = []
        if not isinstance(without, (str, list, tuple)):
            raise CampaignError(f"without must be a unit id or a list of them, not {type(without).__name__}")
        if not isinstance(with_enemy, (str, list, tuple)):
            raise CampaignError(f"with_enemy must be a hex label, (hex, side) or a list of those, "
                                f"not {type(with_enemy).__name__}")
        for item in [with_enemy] if isinstance(with_enemy, str) else with_enemy:
            if isinstance(item, (tuple, list)) and len(item) in (1, 2):
                hex_, side = (tuple(item) + (None,))[:2]
            else:
                hex_, side = item, None
            enemies.append((self._hex(hex_, "with_enemy"), None if side is None else self._side(side)))
        gone = [without] if isinstance(without, str) else list(without)
        for u in gone:
            if not isinstance(u, str) or u not in self.campaign.state.units:
                raise CampaignError(f"without: unit {u!r} is not in this campaign (now)")
        return WhatIf(with_enemy=tuple(enemies), without=tuple(gone))

    # ----- now ---------------------------------------------------------------------------------------
    def unit(self, unit: str, whatif: Optional[WhatIf] = None, settings: Optional[dict] = None):
        """One unit's trace now (a ``Trace``: ``supplied``, ``status``, ``path``, ``source``,
        ``length``, ``reasons``; ``explain()`` in words). ``settings``: another reading of an
        ambiguous rule (game.toml ``[settings.supply_*]``).

        >>> t = campaign.supply.unit("1st-marine-division")
        >>> t.supplied, t.status, t.source["unit"]
        (True, 'linked', 'us-sw-pacific-hq')
        >>> campaign.supply.unit("1st-marine-division", whatif=campaign.supply.whatif(without="us-sw-pacific-hq")).status
        'isolated'
        """
        return self.units([unit], whatif, settings)[0]

    def units(self, units: Sequence[str], whatif: Optional[WhatIf] = None, settings: Optional[dict] = None) -> list:
        """Several units' traces now, in the order given (each with its own side's rules).

        >>> [t.status for t in campaign.supply.units(["kido-butai", "6th-base-force"])]
        ['linked', 'isolated']
        >>> campaign.supply.units(["kido-butai", "yamato"])
        Traceback (most recent call last):
        ...
        assistant.campaign.errors.CampaignError: unit 'yamato' is not in this campaign
        """
        from .engine import trace_units

        if isinstance(units, str) or not isinstance(units, (list, tuple)):
            raise CampaignError(f"units must be a list of unit ids, not {type(units).__name__} "
                                "(one unit: campaign.supply.unit(ID))")
        return trace_units(self._world(settings), list(units), self._whatif(whatif))

    def hex(self, hex: str, side: str, whatif: Optional[WhatIf] = None, role: str = "combat",
            settings: Optional[dict] = None):
        """The trace of a hypothetical unit of ``side`` (a combat unit unless ``role`` says
        otherwise) at ``hex``: would a unit there be in supply?

        >>> campaign.supply.hex("E2417", "Allied").supplied
        True
        >>> campaign.supply.hex("E99", "allies")
        Traceback (most recent call last):
        ...
        assistant.campaign.errors.CampaignError: hex 'E99' is not a witp hex label (expected like 'A2018')
        """
        from .engine import trace_hex

        label = self._hex(hex)
        return trace_hex(self._world(settings), label, self._side(side), self._whatif(whatif), role)

    def side(self, side: str, whatif: Optional[WhatIf] = None, settings: Optional[dict] = None) -> SideReport:
        """Every unit and installation of ``side`` traced now (a ``SideReport``: ``items``, the
        traces; ``counts()`` per status).

        >>> campaign.supply.side("japan").counts()
        {'isolated': 3, 'linked': 4}
        >>> campaign.supply.side("germany")
        Traceback (most recent call last):
        ...
        assistant.campaign.errors.CampaignError: side 'germany' is not a side of witp (sides: japan, allies)
        """
        from .engine import trace_side

        return trace_side(self._world(settings), self._side(side), self._whatif(whatif))

    def frame(self, sides: Any = None, whatif: Optional[WhatIf] = None):
        """The side-wide reports now as a DataFrame, one row per unit, with the working's figures
        (``frames.trace_frame``: ``limit``, ``length_unit``, ``role``, ``path``, ``reasons`` and the
        game's own, e.g. witp bases' ``tsd`` and ``category``). ``sides``: one side or several.

        >>> df = campaign.supply.frame("Japanese")
        >>> df[["unit", "status"]].head(2).to_dict("records")
        [{'unit': 'ijn-construction-units', 'status': 'isolated'}, {'unit': 'kido-butai', 'status': 'linked'}]
        """
        from .frames import trace_frame

        return trace_frame(self.campaign, sides, self._whatif(whatif))

    def bases(self, sides: Any = None, whatif: Optional[WhatIf] = None):
        """The bases at risk now, worst first (``frames.bases_frame``: witp base hexes with their
        supply distance figures [32.1.1], [32.2.1]; empty, with its columns, for other games).

        >>> campaign.supply.bases("allies")[["hex", "place", "category"]].head(1).to_dict("records")
        [{'hex': 'E2418', 'place': 'Guadalcanal', 'category': 'E'}]
        """
        from .frames import bases_frame

        return bases_frame(self.campaign, sides, self._whatif(whatif))

    # ----- over the campaign's turns -----------------------------------------------------------------
    def history(self, turns: Any = None, sides: Any = None, whatif: Optional[WhatIf] = None):
        """Every unit's supply at the end of each turn played (the current one included), one row
        per unit per turn: the typed table ``supply_by_turn`` (docs/data.md). ``turns``: a turn or
        several (labels in any form the game prints, or calendar indexes) or a ``range``; ``sides``:
        one side or several (ids or names). Each turn is traced once and kept (in the process and,
        without a what-if, in the user's cache folder, as ``campaign trace --history`` keeps it).

        >>> df = campaign.supply.history()
        >>> df.groupby("turn_label", observed=True).supplied.sum().to_dict()
        {'G/T 4/8/42': 12}
        >>> h = campaign.supply.history(turns="4/8/42", sides="Allied")
        >>> len(h), str(h.date.iloc[0].date()), str(h.dtypes["supplied"]), str(h.dtypes["side"])
        (9, '1942-08-06', 'boolean', 'category')
        >>> campaign.supply.history(turns="G/T 1/1/45")
        Traceback (most recent call last):
        ...
        assistant.campaign.errors.CampaignError: turns: 'G/T 1/1/45' has not been played in this campaign \
(turns played: G/T 4/8/42)
        """
        from ...ui.userdirs import user_cache_dir
        from .history import history_frame

        whatif = self._whatif(whatif)
        return history_frame(self.campaign, sides, whatif, None if whatif else user_cache_dir() / "history", turns)

    def counts(self, turns: Any = None, sides: Any = None, whatif: Optional[WhatIf] = None):
        """Supplied and unsupplied counts per turn and side (what the supply page's chart draws),
        from each turn's kept counts; arguments as ``history``.

        >>> campaign.supply.counts(sides="japan")[["turn_label", "supplied", "unsupplied"]].to_dict("records")
        [{'turn_label': 'G/T 4/8/42', 'supplied': 4, 'unsupplied': 3}]
        """
        from ...ui.userdirs import user_cache_dir
        from .history import history

        whatif = self._whatif(whatif)
        return history(self.campaign, sides, whatif, None if whatif else user_cache_dir() / "history", turns).counts()
