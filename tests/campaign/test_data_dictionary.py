"""The data dictionary and the tables' schemas: ``docs/data.md`` is what the tables declare (a new
column without its doc fails), and every registered table -- the campaign's and each aid's, looped
over the registry -- has the same columns and dtypes in a new campaign as in one of several turns,
and keeps them through CSV, Parquet and Excel."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pandas as pd
import pytest

from assistant.campaign import Campaign
from assistant.campaign.exporttables import KINDS, data_dictionary, spec, table_names
from turnkit import played

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "data.md"
NAMES = table_names()  # every table registered (the aids loaded): one added later is covered too
AIDS = sorted(p.name for p in (ROOT / "assistant" / "aids").iterdir() if (p / "__init__.py").is_file())


@pytest.mark.needs_aid(*AIDS)  # the dictionary documents every aid's tables and event types
def test_docs_data_md_is_the_data_dictionary():
    assert DOC.read_text(encoding="utf-8") == data_dictionary(), (
        "docs/data.md is out of date: python -m assistant.campaign.datadoc > docs/data.md")


def test_the_data_dictionary_lists_every_table_and_column():
    text = data_dictionary()
    for name in NAMES:
        assert f"## `{name}`" in text
        section = text.split(f"## `{name}`", 1)[1].split("\n## ", 1)[0]
        for c in spec(name).columns:
            assert f"| `{c.name}` | {c.kind} | `{KINDS[c.kind]}` |" in section, (name, c.name)


@pytest.mark.parametrize("name", NAMES)
def test_every_table_and_column_says_what_it_holds(name):
    t = spec(name)
    assert t.doc.strip(), name
    assert t.columns, name
    undocumented = [c.name for c in t.columns if not c.doc.strip()]
    assert not undocumented, f"{name}: columns without a doc: {undocumented}"


@pytest.fixture(scope="module")
def campaigns(tmp_path_factory):
    """(a new witp campaign, one of three turns): empty tables and full ones."""
    d = tmp_path_factory.mktemp("schemas")
    new = Campaign.create(d / "new.campaign", game="witp")
    full, _ = played(d / "full.campaign", "witp")
    full.set_hexside("B2048", "B1949", mountain=True)  # witp [5.1.8]
    yield new, full
    new.close()
    full.close()


def schema(df: pd.DataFrame) -> list[tuple[str, str]]:
    """Column names with their dtypes (a categorical's with its categories' dtype)."""
    return [(c, str(df[c].dtype) + (f"[{df[c].cat.categories.dtype}]" if isinstance(df[c].dtype, pd.CategoricalDtype)
                                    else "")) for c in df.columns]


def dtypes(df: pd.DataFrame) -> list[tuple[str, str]]:
    return [(c, str(d)) for c, d in df.dtypes.items()]


def assert_text_categories(df: pd.DataFrame, name: str) -> None:
    """Every categorical with categories has text ones (a categorical without any, in Parquet,
    reads back with object categories: there is no value to tell their dtype by)."""
    for c in df.columns:
        if isinstance(df[c].dtype, pd.CategoricalDtype) and len(df[c].cat.categories):
            assert pd.api.types.is_string_dtype(df[c].cat.categories.dtype), (name, c)


@pytest.mark.parametrize("name", NAMES)
def test_every_table_has_one_schema_empty_or_full(campaigns, name):
    new, full = campaigns
    empty, filled = new.table(name), full.table(name)
    declared = [(c.name, KINDS[c.kind]) for c in spec(name).columns]
    assert [(c, d.split("[")[0] if d.startswith("category") else d) for c, d in schema(empty)] == declared
    assert schema(empty) == schema(filled)
    if spec(name).module.startswith("assistant.campaign"):  # the campaign's own: the full one fills them all
        assert len(filled) > 0, f"{name} is empty in the campaign of three turns"


def test_the_campaign_of_three_turns_fills_the_campaigns_own_tables(campaigns):
    own = [n for n in NAMES if spec(n).module.startswith("assistant.campaign")]
    assert {"units", "events", "units_by_turn", "control_by_turn"} <= set(own)
    empty = [n for n in own if campaigns[1].table(n).empty]
    assert not empty


@pytest.fixture(scope="module")
def exported(campaigns, tmp_path_factory):
    full = campaigns[1]
    d = tmp_path_factory.mktemp("exported")
    frames = full.tables()
    return frames, {fmt: full.export(d / fmt, fmt) for fmt in ("csv", "parquet", "xlsx")}, full.path.stem


def test_csv_export_has_every_tables_columns(exported):
    frames, files, stem = exported
    by_name = {p.name: p for p in files["csv"]}
    assert set(by_name) == {f"{stem}-{n}.csv" for n in NAMES}
    for name, df in frames.items():
        back = pd.read_csv(by_name[f"{stem}-{name}.csv"], keep_default_na=False, dtype=str)
        assert list(back.columns) == list(df.columns), name
        assert len(back) == len(df), name


def test_parquet_export_keeps_columns_dtypes_and_values(exported):
    frames, files, stem = exported
    by_name = {p.name: p for p in files["parquet"]}
    assert set(by_name) == {f"{stem}-{n}.parquet" for n in NAMES}
    for name, df in frames.items():
        back = pd.read_parquet(by_name[f"{stem}-{name}.parquet"])
        assert dtypes(back) == dtypes(df), name
        assert_text_categories(back, name)
        pd.testing.assert_frame_equal(back, df, check_categorical=False, obj=name)


def test_parquet_keeps_the_dtypes_of_empty_tables(campaigns, tmp_path):
    new = campaigns[0]
    files = {p.name: p for p in new.export(tmp_path, "parquet")}
    for name in NAMES:
        df = new.table(name)
        back = pd.read_parquet(files[f"{new.path.stem}-{name}.parquet"])
        assert dtypes(back) == dtypes(df), name


def test_xlsx_export_has_every_tables_columns(exported):
    frames, files, _ = exported
    (book,) = files["xlsx"]
    wb = openpyxl.load_workbook(book, read_only=True)
    assert wb.sheetnames == [n[:31] for n in NAMES]
    for name, df in frames.items():
        ws = wb[name[:31]]
        header = [c.value for c in next(ws.iter_rows(max_row=1))]
        assert header == list(df.columns), name
        assert ws.max_row == len(df) + 1, name
    wb.close()
