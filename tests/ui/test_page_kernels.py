"""What an aid page's kernel imports before the player asks it anything.

Every page load starts a kernel (only the campaign dashboard's is kept ready), so what the
notebook's cells import is the page's start-up time and the kernel's memory. Each page runs its
notebook's code here as its kernel does, on the demo campaign, and names the heavy packages left in
``sys.modules``: pandas (with pyarrow), networkx, scipy, numba and matplotlib come in only with the
action that computes with them (a trace, a target's reach, a chart, an export)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from assistant.paths import notebooks_dir

HEAVY = ("pandas", "pyarrow", "networkx", "scipy", "numba", "matplotlib", "openpyxl")
# The ledger shows the forecast and the priced items of the turn in force when it opens, and the
# rules compute those on the map graph (a networkx graph; the derived hex table is read without pandas).
# Board set-up shows what the board holds, read from the same graph. (In a kernel both come on the
# loop's next turn, after the page is shown; this script has no loop, so they come at once.)
NEEDED_AT_OPEN = {"ledger.ipynb": ("networkx",), "board.ipynb": ("networkx",)}
PAGES = ("supply.ipynb", "strike.ipynb", "ledger.ipynb", "map_editor.ipynb", "tables.ipynb", "oob.ipynb",
         "scan.ipynb", "board.ipynb")


def notebook_code(name: str) -> str:
    nb = json.loads((notebooks_dir() / name).read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")


def test_every_aid_page_is_held_here():
    """A new page in notebooks/ is added to PAGES (the campaign dashboard and the analysts'
    pandas notebook have tests and purposes of their own)."""
    found = {p.name for p in notebooks_dir().glob("*.ipynb")} - {"campaign.ipynb", "analysis.ipynb"}
    assert found == set(PAGES)


@pytest.mark.parametrize("page", PAGES)
def test_an_aid_page_kernel_imports_no_pandas_networkx_scipy_numba_or_matplotlib_when_opened(page, tmp_path):
    lines = notebook_code(page).splitlines()
    *head, last = [line for line in lines if line.strip()]
    code = "\n".join(head + [
        f"page = {last}",
        "import sys",
        "from assistant.ui.kit import DashboardPage",
        "assert isinstance(page, DashboardPage), page  # not the error page",
        "page.widget",
        f"print(sorted(m for m in {HEAVY!r} if sys.modules.get(m) is not None))"])
    env = dict(os.environ, CAMPAIGN_ASSISTANT_HOME=str(tmp_path / "home"))
    env.pop("CAMPAIGN_FILE", None)  # the demo campaign: units, a map, every aid's state
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=180, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == repr(sorted(NEEDED_AT_OPEN.get(page, ())))


def test_the_spare_kernel_warms_with_the_kit_pages_imports_only(tmp_path):
    """``warm_imports``: the top-level imports of the served notebooks built on the dashboard kit
    (not the analysts' pandas notebook, not a notebook of plain widgets, nor one that cannot be
    read), each once; nothing else of their code."""
    from assistant.ui.pages import find_dashboards, stage_dashboards
    from assistant.ui.site import warm_imports

    site = stage_dashboards(find_dashboards(), tmp_path / "site")
    (site / "plain.ipynb").write_text(json.dumps({"cells": [{"cell_type": "code", "source": "import ipywidgets\n"}]}))
    (site / "broken.ipynb").write_text("{not json")
    code, pages = warm_imports(site)
    assert pages == set(PAGES) | {"campaign.ipynb"}
    assert "from assistant.aids.supply.widget import SupplyWidget" in code
    assert code.count("from assistant.ui.kit import dashboard") == 1
    assert "analysis" not in code and "dashboard(" not in code and "campaign_dashboard()" not in code
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\n"
                          f"print(sorted(m for m in {HEAVY!r} if sys.modules.get(m) is not None))"],
                         capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"  # a spare holds no pandas, networkx, scipy, numba or matplotlib


# After its first answer (the warm-up a kernel runs, then a unit traced, a target's reach): what a
# supply or strike kernel holds. networkx for the rules' world; no pandas (the derived map is read
# with the csv module), no scipy (the warm-up's searches do not count toward csgraph's import:
# rules/_search.py ``uncounted``), no matplotlib. The map graph's hexes are rows of the map's
# columns and its hexsides share a few read-only feature mappings (maps/graph.py).
FIRST_ANSWER = {
    "supply.ipynb": "v = page.view\n"
                    "v.unit.value = next(o[1] for o in v.unit.options if o[1])\n"
                    "assert v.trace is not None and v.problem is None, v.problem",
    "strike.ipynb": "v = page.view\n"
                    "v.choose_target('E2418')\n"
                    "assert v.problem is None, v.problem",
}


@pytest.mark.parametrize("page", sorted(FIRST_ANSWER))
def test_a_search_page_kernel_after_its_first_answer_holds_networkx_only(page, tmp_path):
    lines = notebook_code(page).splitlines()
    *head, last = [line for line in lines if line.strip()]
    code = "\n".join(head + [
        f"page = {last}",
        "import sys",
        "from assistant.maps.graph import HexAttrs",
        "page.widget",
        "page.warmer.run()",
        "assert page.warmer.done and not page.warmer.failures, page.warmer.failures",
        FIRST_ANSWER[page],
        "g = page.campaign.graph()",
        "assert all(type(a) is HexAttrs for a in g._node.values())",
        "assert len({id(d) for _, _, d in g.edges(data=True)}) < 100 < g.number_of_edges()",
        f"print(sorted(m for m in {HEAVY!r} if sys.modules.get(m) is not None))"])
    env = dict(os.environ, CAMPAIGN_ASSISTANT_HOME=str(tmp_path / "home"))
    env.pop("CAMPAIGN_FILE", None)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "['networkx']"
