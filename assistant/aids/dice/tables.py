"""The dice aid's export table: the roll log (``campaign export --format csv|parquet|xlsx``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...campaign.exporttables import register_table
from .events import roll_log

if TYPE_CHECKING:
    import pandas as pd

COLUMNS = ["id", "seq", "turn", "turn_label", "notation", "reason", "values", "modifier", "total", "entered"]


@register_table("dice_rolls")
def dice_rolls_table(state, events) -> "pd.DataFrame":
    import pandas as pd  # only an export builds the table: the aids load on every page

    rows = [{**r.model_dump(), "values": " ".join(map(str, r.values))} for r in roll_log(state)]
    return pd.DataFrame(rows, columns=COLUMNS)
