"""The analysis notebook answers its question end to end on a generated multi-turn campaign of
each of two games (``tests/campaigns_gen.py``), executed top to bottom under nbclient with the
campaign as ``$CAMPAIGN_FILE``: the numbers its answer cells show are the generator's plan (counted
here from the plan, not from the tables), its figure is an image that stays in a static HTML
export, and the campaign is not written."""

from __future__ import annotations

import os
from html.parser import HTMLParser
from pathlib import Path

import pytest

from assistant.campaign import Campaign
from assistant.paths import notebooks_dir

NOTEBOOK = "analysis.ipynb"
ROOT = Path(__file__).resolve().parents[2]


class _Tables(HTMLParser):
    """The cells of every HTML table in a text, as lists of rows (header rows included)."""

    def __init__(self):
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def html_table(outputs) -> list[dict[str, str]]:
    """The one table a cell shows (a DataFrame's HTML), as dicts by column name."""
    html = "".join(str(o.get("data", {}).get("text/html", "")) for o in outputs)
    p = _Tables()
    p.feed(html)
    assert len(p.tables) == 1, html[:2000]
    header, *rows = p.tables[0]
    return [dict(zip(header, r)) for r in rows]  # the index's cell sits under the empty first header


def number(text: str) -> float:
    return float(text.replace(",", ""))


@pytest.mark.needs_aid("supply")  # its history (supply_by_turn) and the ledger together
@pytest.mark.needs_aid("ledger")
@pytest.mark.parametrize("game", ["witp", "apto"])
def test_analysis_notebook_answers_on_a_generated_campaign(tmp_path, monkeypatch, game):
    import nbformat  # here, not at collection: it loads jsonschema's format grammars (1-3 s)
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter

    from campaigns_gen import generate

    plan = generate(tmp_path / f"{game}.campaign", game)
    with Campaign.open(plan.path, readonly=True) as c:
        last_seq = c.state.last_seq
    monkeypatch.setenv("CAMPAIGN_FILE", str(plan.path))
    monkeypatch.setenv("CAMPAIGN_ASSISTANT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    nb = nbformat.read(notebooks_dir() / NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    code = [c for c in nb.cells if c.cell_type == "code"]
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    assert not errors, errors

    # Most turns out of supply: every piece the plan cut off, with its turns and what it paid.
    ranking = html_table(code[1].outputs)
    assert {r["unit"]: int(number(r["turns_out"])) for r in ranking} == plan.turns_out()
    cost = {(r["unit"], k[len("cost_"):]): number(v) for r in ranking for k, v in r.items()
            if k.startswith("cost_") and number(v)}
    assert cost == plan.cost()
    most = max(plan.turns_out().values())
    assert {r["unit"] for r in ranking[:sum(n == most for n in plan.turns_out().values())]} == {
        u for u, n in plan.turns_out().items() if n == most}  # most turns first

    # What it cost: the lines naming a cut-off piece, and no other.
    lines = html_table(code[2].outputs)
    want = sorted((str(x["turn"]), x["unit"], float(x["amount"])) for x in plan.named if x["cut"])
    assert sorted((r["turn"], r["unit"], number(r["cost"])) for r in lines) == want

    # The figure: an image in the notebook and in its static HTML export.
    pngs = [o["data"]["image/png"] for o in code[3].outputs if "image/png" in o.get("data", {})]
    assert len(pngs) == 1
    html, _ = HTMLExporter().from_notebook_node(nb)
    assert "data:image/png;base64," + pngs[0].replace("\n", "") in html
    for unit in plan.turns_out():
        assert unit in html

    with Campaign.open(plan.path, readonly=True) as c:
        assert c.state.last_seq == last_seq  # nothing written
