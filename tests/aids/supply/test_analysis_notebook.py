"""The analysis notebook runs top to bottom under nbclient on a copy of the demo
campaign with three turns played, shows the history of every turn, the chart and the bases, and
writes nothing to the campaign. Needs the real witp supply rules (the kernel is another process)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from assistant.aids.supply.frames import bases_frame, trace_frame
from assistant.campaign import Campaign
from assistant.paths import notebooks_dir
from assistant.ui.demo import ensure_demo

NOTEBOOK = "analysis.ipynb"


@pytest.fixture
def home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("CAMPAIGN_ASSISTANT_HOME", str(home))
    return home


@pytest.fixture
def demo_copy(tmp_path, home):
    """The demo campaign (built by the real code) with two more turns played: the 1st Marine
    Division moves along Guadalcanal, then the turn advances."""
    path = ensure_demo(tmp_path / "demo-copy.campaign")
    c = Campaign.open(path)
    labels = [c.state.turn.label]
    c.advance()
    c.move_unit("1st-marine-division", "E2519")
    labels.append(c.state.turn.label)
    c.advance()
    labels.append(c.state.turn.label)
    c.close()
    return path, labels


def _text(outputs) -> str:
    out = []
    for o in outputs:
        data = o.get("data", {})
        out.append(str(data.get("text/html", "")) + str(data.get("text/plain", "")) + str(o.get("text", "")))
    return "\n".join(out)


def test_analysis_notebook_executes_top_to_bottom_on_the_served_campaign(tmp_path, monkeypatch, demo_copy):
    from nbclient import NotebookClient

    path, labels = demo_copy
    before = Campaign.open(path, readonly=True)
    last_seq, units = before.state.last_seq, set(before.state.units)
    before.close()
    monkeypatch.setenv("CAMPAIGN_FILE", str(path))
    root = str(Path(__file__).resolve().parents[3])
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    import nbformat  # here, not at collection: it loads jsonschema's format grammars (1-3 s)

    nb = nbformat.read(notebooks_dir() / NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    code = [c for c in nb.cells if c.cell_type == "code"]
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    assert not errors, errors
    history = _text(code[1].outputs)
    for label in labels:  # one block of rows per turn played
        assert label in history, label
    for unit in units:
        assert unit in history, unit
    chart = [o for o in code[2].outputs if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert chart, code[2].outputs
    after = Campaign.open(path, readonly=True)
    lines = trace_frame(after).dropna(subset=["length"]).nlargest(10, "length")
    assert len(lines) > 0  # the demo has linked pieces
    for unit in lines.unit:
        assert unit in _text(code[3].outputs), unit
    bases = bases_frame(after)
    for hex_ in bases.hex:
        assert hex_ in _text(code[4].outputs), hex_
    assert "category" in _text(code[4].outputs)
    assert after.state.last_seq == last_seq  # nothing written
    after.close()


def test_open_campaign_is_the_served_file_else_the_demo_and_read_only(tmp_path, monkeypatch, home, demo_copy):
    from assistant.aids.supply.analysis import open_campaign
    from assistant.campaign import CampaignError

    path, _ = demo_copy
    monkeypatch.setenv("CAMPAIGN_FILE", str(path))
    c = open_campaign()
    assert Path(c.path) == path and c.readonly
    with pytest.raises(CampaignError):
        c.add_note("must not be written")
    c.close()
    monkeypatch.delenv("CAMPAIGN_FILE")
    d = open_campaign()
    assert Path(d.path).parent == home / "data" and Path(d.path).name.startswith("demo-witp") and d.readonly
    d.close()
