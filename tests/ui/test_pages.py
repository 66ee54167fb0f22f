"""Dashboards are discovered: every notebook in ``notebooks/`` and every notebook
an aid ships in its package is served by ``campaign serve`` and listed on the dashboard home;
nothing is listed by hand."""

from __future__ import annotations

import json
import signal
import sys

import pytest

from assistant.paths import notebooks_dir
from assistant.ui import pages
from assistant.ui.pages import DashboardError, find_dashboards, stage_dashboards

FAKE = "kit_fake_aid_pages"


def write_notebook(path, title=None, code="print('hi')"):
    import nbformat  # here, not at collection: it loads jsonschema's format grammars (1-3 s)

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    if title:
        nb.metadata["title"] = title
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A notebooks folder like the package's, and an aids package ``kit_fake_aid_pages`` whose
    ``supply`` aid ships a notebook and whose ``ledger`` aid ships none."""
    nbs = tmp_path / "notebooks"
    nbs.mkdir(parents=True)
    # The package's campaign dashboard only: its other notebooks (supply.ipynb, analysis.ipynb)
    # would collide with the names this test gives its own.
    (nbs / pages.HOME).write_bytes((notebooks_dir() / pages.HOME).read_bytes())
    aids = tmp_path / "site" / FAKE
    for aid in ("supply", "ledger"):
        (aids / aid).mkdir(parents=True)
        (aids / aid / "__init__.py").write_text("raise RuntimeError('discovery must not import aids')\n")
    (aids / "__init__.py").write_text("")
    write_notebook(aids / "supply" / "supply.ipynb", title="Supply")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(pages, "AIDS_PACKAGE", FAKE)
    yield nbs, aids
    for name in [n for n in sys.modules if n == FAKE or n.startswith(FAKE + ".")]:
        del sys.modules[name]


def test_the_package_notebooks_are_found_campaign_first():
    found = find_dashboards()
    names = [d.name for d in found]
    assert names[0] == "campaign.ipynb" and found[0].title == "Campaign"
    on_disk = {p.name for p in notebooks_dir().glob("*.ipynb")}
    assert on_disk <= set(names)  # every notebook there is served; aids may add theirs


def test_a_new_notebook_and_an_aids_notebook_are_found_and_served(site, tmp_path):
    nbs, aids = site
    before = [d.name for d in find_dashboards(nbs)]
    assert before[0] == "campaign.ipynb" and "supply.ipynb" in before  # the aid's, found in its folder
    write_notebook(nbs / "analysis.ipynb", title="Logistics analysis")
    write_notebook(nbs / ".hidden.ipynb")
    found = find_dashboards(nbs)
    names = [d.name for d in found]
    assert sorted(names) == sorted(before + ["analysis.ipynb"])  # found; the hidden one is not
    assert names[0] == "campaign.ipynb" and names.index("analysis.ipynb") < names.index("supply.ipynb")
    new = found[1]
    assert (new.title, new.origin, new.path) == ("Logistics analysis", "notebooks", nbs / "analysis.ipynb")
    supply = next(d for d in found if d.name == "supply.ipynb")
    assert (supply.title, supply.origin) == ("Supply", "supply")
    served = stage_dashboards(found, tmp_path / "served")
    assert sorted(p.name for p in served.iterdir()) == sorted(d.name for d in found)
    assert (served / "analysis.ipynb").read_bytes() == (nbs / "analysis.ipynb").read_bytes()


def test_two_dashboards_with_one_name_are_an_error_naming_both(site):
    nbs, aids = site
    write_notebook(nbs / "supply.ipynb")
    with pytest.raises(DashboardError, match="supply.ipynb") as e:
        find_dashboards(nbs)
    assert str(nbs / "supply.ipynb") in str(e.value) and str(aids / "supply" / "supply.ipynb") in str(e.value)


def test_an_unreadable_notebook_is_an_error_naming_it(site):
    nbs, _ = site
    (nbs / "broken.ipynb").write_text("{ not json")
    with pytest.raises(DashboardError, match="broken.ipynb"):
        find_dashboards(nbs)
    (nbs / "broken.ipynb").write_text(json.dumps({"metadata": {}}))
    with pytest.raises(DashboardError, match="broken.ipynb.*no cells"):
        find_dashboards(nbs)


def test_staging_needs_an_empty_folder(tmp_path):
    (tmp_path / "served").mkdir()
    (tmp_path / "served" / "old.ipynb").write_text("{}")
    with pytest.raises(DashboardError, match="not empty"):
        stage_dashboards(find_dashboards(), tmp_path / "served")


def test_serve_refuses_a_name_clash_in_one_line_before_starting_anything(site, capsys, assistant_home, monkeypatch):
    import assistant.paths
    from assistant.cli import main

    nbs, _ = site
    write_notebook(nbs / "supply.ipynb")
    monkeypatch.setattr(assistant.paths, "notebooks_dir", lambda: nbs)
    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        assert main(["serve", "--no-browser"]) == 2
    finally:
        for s, h in handlers.items():
            signal.signal(s, h)
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: two dashboards") and "supply.ipynb" in err[0]
    assert not (assistant_home / "data").exists()  # the demo was not created
