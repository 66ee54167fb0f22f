"""The registry of export tables (``campaign export --format csv|parquet|xlsx``): each a function of
(state, events) giving a DataFrame, registered by name. Registering one imports nothing: an aid's
``tables.py`` is imported whenever the aids load (on every page), and only an export builds the
tables, with pandas (``export.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

if TYPE_CHECKING:
    import pandas as pd

    from .events import EventRecord
    from .model import CampaignState

TableFn = Callable[["CampaignState", Sequence["EventRecord"]], "pd.DataFrame"]
TABLES: dict[str, TableFn] = {}


def register_table(name: str) -> Callable[[TableFn], TableFn]:
    def wrap(fn: TableFn) -> TableFn:
        TABLES[name] = fn
        return fn

    return wrap
