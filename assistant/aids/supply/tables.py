"""The supply tracer's analysts' table ``supply_by_turn``: every unit's supply status at the end of
each turn played (``history.history_frame`` gives the same frame, ``campaign trace FILE --history
--csv`` prints it, ``campaign export`` writes it).

The rows come from the kept history (``history.history``: each turn traced once, kept in the
process and in the user's cache folder, as the command line keeps it), so an export of a long
campaign traces only the turns not kept yet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence

from ...campaign.accessors import register_accessor
from ...campaign.exporttables import TURN_COLUMNS, Column, register_table, typed_frame
from .rows import HISTORY_COLUMNS

if TYPE_CHECKING:
    import pandas as pd

RULES = ("witp [28.10]-[31] (command links), [32] (supply distance of bases); apto [7.0]-[7.11], [10.42]; "
         "globalwar [9.0]-[9.4], [16.0], [17.4], [18.6]")

SUPPLY_BY_TURN = (
    *TURN_COLUMNS,
    Column("side", "category", "the side whose unit this is (its id)"),
    Column("unit", "text", "the unit's or installation's id; empty for a hypothetical unit"),
    Column("kind", "category", "the unit's kind (the game's words)"),
    Column("hex", "text", "the hex it stood in at the end of the turn (the game's hex label)"),
    Column("supplied", "bool", "in supply at the end of the turn (witp: command-linked; apto and globalwar: "
           "supplied)", rule="witp [28.10]-[31], apto [7.7], globalwar [9.0]"),
    Column("status", "category", "the status in the game's own words (witp linked / isolated; apto supplied, "
           "supplied (chit), supplied (fortification), out of supply; globalwar attack, defence, unsupplied ...)",
           rule="witp [28.10]-[31], apto [7.0]-[7.11], globalwar [9.0]-[9.4]"),
    Column("length", "float", "the traced line's length, in the unit `length_unit` names (witp: sea hexes, ground "
           "MP or rail hexes to the providing HQ, OSB or port; apto and globalwar: hexes); empty when cut off or "
           "when the rules give none", unit="as `length_unit` names", rule="witp [28.10]-[31], apto [7.7], globalwar [9.2]"),
    Column("length_unit", "category", "the unit of `length` (e.g. sea hexes, hexes)"),
    Column("source", "text", "where its supply comes from: the providing unit's id, else the source hex; "
           "empty when cut off"),
)
assert tuple(c.name for c in SUPPLY_BY_TURN) == HISTORY_COLUMNS


@register_table("supply_by_turn", SUPPLY_BY_TURN,
                "Every unit's and installation's supply status at the end of each turn played (the current turn "
                "included), one row per unit per turn, as the supply tracer traces it "
                "(`campaign trace FILE --history --csv`, `campaign.supply.history()`).", rule=RULES)
def supply_by_turn_table(source):
    from ...ui.userdirs import user_cache_dir
    from .history import history

    turns = None if source.turns is None else sorted(source.turns)
    return history(source.campaign, turns=turns, keep=user_cache_dir() / "history").frame()


def supply_frame(rows: Sequence[dict], before: Optional["pd.DataFrame"] = None,
                 trimmed: bool = True) -> "pd.DataFrame":
    """``rows`` (``rows.trace_row``) as the typed table ``supply_by_turn``, after the typed frame
    ``before`` when given (its categories and the new rows' united); ``trimmed``: ``before`` may
    have lost rows (a kept frame cut at a turn), so categories no row uses any more are dropped."""
    import numpy as np
    import pandas as pd

    from ...campaign.exporttables import _typed

    if rows:  # column by column, each typed from its values (no frame of objects first: a third of the time)
        new = pd.DataFrame({c.name: _typed(pd.Series(np.array([r[c.name] for r in rows], dtype=object), copy=False),
                                           c.kind) for c in SUPPLY_BY_TURN})
    else:
        new = typed_frame(SUPPLY_BY_TURN, [])
    if before is None or not len(before):
        return new
    cats = [c.name for c in SUPPLY_BY_TURN if c.kind == "category"]
    if trimmed:  # a category only of rows left out is dropped: the same frame as typed from these rows alone
        before = before.assign(**{c: before[c].cat.remove_unused_categories() for c in cats})
    if not len(new):
        return before.reset_index(drop=True)
    for c in cats:
        old, add = before[c].cat.categories, new[c].cat.categories
        if add.isin(old).all():  # the usual case: nothing new but the turn's label
            new[c] = new[c].cat.set_categories(old)
        else:
            both = pd.Index(sorted(set(old) | set(add)), dtype=old.dtype)  # the dtype _typed gives categories
            before = before.assign(**{c: before[c].cat.set_categories(both)})
            new[c] = new[c].cat.set_categories(both)
    return pd.concat([before, new], ignore_index=True)


# The aid's registrations that every process makes at import (``assistant.aids.AID_PARTS``): the
# accessor too, whose engine is imported on first use.
@register_accessor("supply")
def supply_view(campaign):
    """``campaign.supply``: the supply tracer of an open campaign (``api.SupplyView``)."""
    from .api import SupplyView

    return SupplyView(campaign)
