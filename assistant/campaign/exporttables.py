"""The analysts' tables: every table ``campaign export --format csv|parquet|xlsx`` writes, each with
a declared schema, so a table has the same columns and dtypes whether it holds rows or none.

A table is registered with its columns (``Column``: name, kind, unit, rule, meaning) and a
function of a ``TableSource`` giving its rows (dicts, or a DataFrame with those columns);
``table_frame`` types them (``typed_frame``). A per-turn table starts with ``TURN_COLUMNS`` (the
calendar index ``turn``, which sorts in play order, the game's ``turn_label`` and the turn's
``date``) and reads past states from ``TableSource.turn_states``, one at a time (never every
turn's state at once). The data dictionary ``docs/data.md`` is ``data_dictionary()``.

Registering a table imports nothing: an aid's tables module is imported whenever the aids load
(on every page), and only a caller that asks for a table builds it, with pandas.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Optional, Sequence, Union

from .errors import CampaignError

if TYPE_CHECKING:
    import pandas as pd

    from .campaign import Campaign
    from .events import EventRecord
    from .model import CampaignState

# A column's kind -> its pandas dtype (nullable where pandas has one: a missing value is <NA>).
KINDS = {
    "int": "Int64",  # counts, ids, sequence numbers
    "float": "Float64",  # lengths, amounts with fractions
    "text": "string",  # free text, labels, hex labels
    "category": "category",  # sides, nations, kinds, statuses: a small set of values
    "bool": "boolean",
    "time": "datetime64[ns, UTC]",  # when something was recorded (UTC)
    "date": "datetime64[ns]",  # a day of the game's calendar
}


@dataclass(frozen=True)
class Column:
    """One column of an analysts' table: its name, kind (a key of ``KINDS``), what it means, its
    unit and the rule it comes from."""

    name: str
    kind: str
    doc: str
    unit: str = ""
    rule: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"column {self.name}: kind {self.kind!r} is not one of {', '.join(KINDS)}")

    @property
    def dtype(self) -> str:
        return KINDS[self.kind]


TURN_COLUMNS = (
    Column("turn", "int", "the turn's calendar index: 0 is the campaign game's first turn, 1 the next; sorts in "
           "play order"),
    Column("turn_label", "category", "the turn as the game names it (e.g. G/T 4/8/42, July 1937, Turn 3 (Spring "
           "1940))"),
    Column("date", "date", "the turn's first day on the real calendar (the game's calendar says on what grounds: "
           "`date_rule` in its game.toml; empty where it gives none)"),
)

RowsFn = Callable[["TableSource"], Union[Iterable[dict], "pd.DataFrame"]]


ColumnsArg = Union[Sequence[Column], Callable[[], Sequence[Column]]]


@dataclass(frozen=True)
class TableSpec:
    """A registered table: its name, meaning, columns and the function giving its rows.
    ``declared`` is the columns, or a function giving them, called whenever they are asked for
    (columns drawn from the games' data or from every registered event type: registering the
    table reads nothing)."""

    name: str
    doc: str
    declared: ColumnsArg = field(compare=False)
    rows: RowsFn = field(compare=False)
    rule: str = ""
    module: str = ""

    @property
    def columns(self) -> tuple[Column, ...]:
        cols = tuple(self.declared() if callable(self.declared) else self.declared)
        _check_names(self.name, cols)
        return cols

    @property
    def per_turn(self) -> bool:
        """A table whose rows belong to turns: it has every one of ``TURN_COLUMNS``."""
        return {c.name for c in TURN_COLUMNS} <= {c.name for c in self.columns}

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]


TABLES: dict[str, TableSpec] = {}


def _check_names(table: str, cols: Sequence[Column]) -> None:
    names = [c.name for c in cols]
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"table {table}: column {', '.join(twice)} is declared twice")


def register_table(name: str, columns: ColumnsArg, doc: str, rule: str = "") -> Callable[[RowsFn], RowsFn]:
    """Register ``fn(source) -> rows`` as the table ``name`` with ``columns`` (or a function of no
    argument giving them, called whenever they are asked for)."""
    cols = columns if callable(columns) else tuple(columns)
    if not callable(cols):
        _check_names(name, cols)

    def wrap(fn: RowsFn) -> RowsFn:
        if name in TABLES and TABLES[name].rows is not fn:
            raise ValueError(f"table {name!r} is registered twice")
        TABLES[name] = TableSpec(name, doc, cols, fn, rule, fn.__module__)
        return fn

    return wrap


def typed_frame(columns: Sequence[Column], rows: Union[Iterable[dict], "pd.DataFrame"]) -> "pd.DataFrame":
    """``rows`` as a DataFrame with exactly ``columns``, each of its kind's dtype (the same dtypes
    for no rows). A value that does not convert raises ValueError naming the column."""
    import pandas as pd

    names = [c.name for c in columns]
    if isinstance(rows, pd.DataFrame):
        raw = rows.reindex(columns=names)
    else:
        raw = pd.DataFrame(list(rows), columns=names)
    out = {}
    for c in columns:
        try:
            out[c.name] = _typed(raw[c.name], c.kind)
        except (ValueError, TypeError) as e:
            raise ValueError(f"column {c.name} ({c.kind}): {e}") from None
    return pd.DataFrame(out, columns=names, index=pd.RangeIndex(len(raw)))


def _typed(col: "pd.Series", kind: str) -> "pd.Series":
    import pandas as pd

    col = col.reset_index(drop=True)
    if kind == "category":
        values = col.astype("string").astype(object).where(col.notna(), None)
        cats = sorted({v for v in values if v is not None})
        # categories of text ("str": pandas 3's string dtype, which Parquet reads them back as; object in pandas 2)
        return pd.Series(pd.Categorical(values, categories=pd.Index(cats, dtype="str")))
    if kind == "time":
        return (pd.to_datetime(col, utc=True, format="ISO8601") if len(col) else col).astype(KINDS[kind])
    if kind == "date":
        return (pd.to_datetime(col) if len(col) else col).astype(KINDS[kind])
    if kind == "text":
        return col.astype(object).where(col.notna(), None).astype("string")
    return col.astype(object).where(col.notna(), None).astype(KINDS[kind])


class TableSource:
    """What a table's rows are made of: the campaign's state now, its events, and (for per-turn
    tables) the state at the end of each turn played, streamed (``turn_states``). ``turns``: the
    calendar indexes to keep (None: every turn played)."""

    def __init__(self, campaign: "Campaign", turns: Optional[Iterable[int]] = None):
        from .validate import campaign_arg

        self.campaign = campaign_arg(campaign)
        self.state: CampaignState = campaign.state
        self.turns = None if turns is None else frozenset(turns)
        self._events: Optional[list[EventRecord]] = None

    @property
    def events(self) -> "list[EventRecord]":
        if self._events is None:
            self._events = [e for e in self.campaign.events() if e.seq <= self.state.last_seq]
        return self._events

    def turn_states(self) -> Iterator[tuple[int, "CampaignState"]]:
        """``(turn index, state at the end of that turn)`` for each turn played (of ``turns``),
        oldest first, one state at a time."""
        return self.campaign.turn_states(turns=self.turns)

    def turn_columns(self, index: int) -> dict[str, Any]:
        """``TURN_COLUMNS``' values for turn ``index``."""
        cal = self.state.calendar
        return {"turn": index, "turn_label": cal.turn(index).label, "date": cal.first_day(index)}

    def wants(self, index: int) -> bool:
        return self.turns is None or index in self.turns


def table_names() -> list[str]:
    """Every registered table, the campaign's own first (in registration order), then the aids'."""
    from . import export, turntables  # noqa: F401  (the campaign's own tables)
    from .slices import load_aids

    load_aids()
    own = [n for n, t in TABLES.items() if t.module.startswith("assistant.campaign")]
    return own + [n for n in TABLES if n not in own]


def spec(name: str) -> TableSpec:
    names = table_names()
    if name not in TABLES:
        raise CampaignError(f"table {name!r} is not one of {', '.join(names)}")
    return TABLES[name]


def table_frame(name: str, source: TableSource) -> "pd.DataFrame":
    """The table ``name`` of ``source``, typed (``typed_frame``)."""
    t = spec(name)
    return typed_frame(t.columns, t.rows(source))


def data_dictionary() -> str:
    """``docs/data.md``: every table with its columns, their dtypes, units and rules (a test keeps
    the file equal to this)."""
    lines = ["# Data dictionary", "",
             "Every table `campaign export --format csv|parquet|xlsx` writes (one file, or one sheet, per table),",
             "and that `campaign.table(NAME)` gives in Python, typed as listed here whether it holds rows or none.",
             "Generated from the tables' declarations (`assistant/campaign/exporttables.py`): "
             "`python -m assistant.campaign.datadoc > docs/data.md`.", "",
             "Kinds: " + "; ".join(f"`{k}` = pandas `{v}`" for k, v in KINDS.items()) + ". In CSV a missing value is "
             "an empty cell, a time is ISO 8601 in UTC, a date is YYYY-MM-DD; text that a spreadsheet would run as a "
             "formula is written with a leading `'`.", ""]
    for name in table_names():
        t = TABLES[name]
        lines += [f"## `{name}`", "", t.doc + (f" Rules: {t.rule}." if t.rule else ""), "",
                  "| column | kind | dtype | unit | rule | meaning |", "|---|---|---|---|---|---|"]
        for c in t.columns:
            lines.append(f"| `{c.name}` | {c.kind} | `{c.dtype}` | {_md(c.unit)} | {_md(c.rule)} | {_md(c.doc)} |")
        lines.append("")
    return "\n".join(lines)


def _md(text: str) -> str:
    """``text`` as one cell of a Markdown table (a ``|`` would end the cell, a line break the row)."""
    return " ".join(text.split()).replace("|", "\\|")
