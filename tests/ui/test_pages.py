"""Dashboards are discovered: every notebook in ``notebooks/`` and every notebook
an aid ships in its package is served by ``campaign serve`` and listed on the dashboard home;
nothing is listed by hand. What the home page says of a page (its one name, its one line, its
section and place) is the notebook's own metadata."""

from __future__ import annotations

import json
import signal
import sys

import pytest

from assistant.paths import notebooks_dir
from assistant.ui import pages
from assistant.ui.pages import DashboardError, find_dashboards, stage_dashboards

FAKE = "kit_fake_aid_pages"


def write_notebook(path, title=None, code="print('hi')", **meta):
    import nbformat  # here, not at collection: it loads jsonschema's format grammars (1-3 s)

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    if title:
        nb.metadata["title"] = title
    nb.metadata.update(meta)
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


PLAYER_AIDS = ["campaign.ipynb", "supply.ipynb", "strike.ipynb", "ledger.ipynb"]  # the order a turn uses them
SETTING_UP = ["board.ipynb", "oob.ipynb", "tables.ipynb", "map_editor.ipynb", "scan.ipynb"]


def test_the_package_pages_each_have_one_name_and_one_line_player_aids_first_analysts_last():
    found = find_dashboards()
    by_section = {s: [d.name for d in found if d.section == s] for s in pages.SECTIONS}
    assert by_section[pages.PLAY][:len(PLAYER_AIDS)] == PLAYER_AIDS
    assert by_section[pages.SETUP][:len(SETTING_UP)] == SETTING_UP
    assert "analysis.ipynb" in by_section[pages.ANALYSIS]
    assert [d.section for d in found] == sorted((d.section for d in found), key=pages.SECTIONS.index)
    titles = [d.title for d in found]
    assert len({t.casefold() for t in titles}) == len(titles), titles  # one name per page
    for d in found:
        if d.origin == "notebooks":  # ours each say what question they answer, in one line
            assert d.description and "\n" not in d.description and len(d.description) <= 170, d
            assert d.title != d.path.stem, d  # a name in the players' words, not the file's
    line = {d.name: d.description.lower() for d in found}
    # A player's key word leads to its page first: no page before it says it.
    for word, name in (("supply", "supply.ipynb"), ("reach", "strike.ipynb"), ("points", "ledger.ipynb")):
        assert next(n for n in line if word in line[n]) == name, (word, name)


def test_the_package_notebooks_are_thin_and_stored_without_outputs():
    for p in sorted(notebooks_dir().glob("*.ipynb")):
        nb = json.loads(p.read_text(encoding="utf-8"))
        for c in nb["cells"]:
            if c["cell_type"] == "code":
                assert c["outputs"] == [] and c["execution_count"] is None, p.name


def test_the_set_up_the_home_page_places_in_the_campaign_page_is_its_tabs():
    from assistant.ui.dashboard import CampaignDashboard
    from assistant.ui.site import SETUP_IN_CAMPAIGN
    from assistant.ui.tabs import dashboard_tabs

    tabs = [*CampaignDashboard.CORE_TABS, *(t.title for t in dashboard_tabs())]
    assert [tab for tab, _ in SETUP_IN_CAMPAIGN] and all(tab in tabs for tab, _ in SETUP_IN_CAMPAIGN), tabs


def test_a_page_says_its_line_section_and_place_in_its_own_metadata(site, tmp_path):
    nbs, aids = site
    write_notebook(aids / "ledger" / "ledger.ipynb", title="Production ledger", description="How many  points?\n",
                   section="play", order=4)
    write_notebook(nbs / "study.ipynb", title="Analysis: a study", description="What happened?", section="analysis")
    write_notebook(nbs / "board.ipynb", title="Board set-up", section="Setup", order=1)
    write_notebook(nbs / "zz_plain.ipynb")  # declares nothing: still listed, by its file's name, no line
    found = find_dashboards(nbs)
    got = [(d.name, d.title, d.section, d.description) for d in found]
    assert got == [("campaign.ipynb", "Campaign", "play", found[0].description),
                   ("ledger.ipynb", "Production ledger", "play", "How many points?"),  # the aid's own line
                   ("zz_plain.ipynb", "zz_plain", "play", ""),  # no order: after those with one,
                   ("supply.ipynb", "Supply", "play", ""),  # notebooks/ first, then the aids'
                   ("board.ipynb", "Board set-up", "setup", ""),
                   ("study.ipynb", "Analysis: a study", "analysis", "What happened?")]
    staged = stage_dashboards(found, tmp_path / "served")
    served = pages.served_dashboards(staged, tuple(d.name for d in found))  # as `campaign serve` hands it over
    assert [(d.name, d.title, d.section, d.description) for d in served] == got
    unordered = pages.served_dashboards(staged)  # no order handed over: by section and order still,
    assert [d.name for d in unordered] == ["campaign.ipynb", "ledger.ipynb", "supply.ipynb", "zz_plain.ipynb",
                                           "board.ipynb", "study.ipynb"]  # ties by name


@pytest.mark.parametrize("meta, says", [({"section": "extras"}, "section 'extras' is none of play, setup, analysis"),
                                        ({"order": "first"}, "order 'first' is not a number"),
                                        ({"order": True}, "order True is not a number")])
def test_a_section_or_order_the_home_page_cannot_place_is_an_error_naming_the_notebook(site, meta, says):
    nbs, _ = site
    write_notebook(nbs / "odd.ipynb", title="Odd", **meta)
    with pytest.raises(DashboardError) as e:
        find_dashboards(nbs)
    assert str(nbs / "odd.ipynb") in str(e.value) and says in str(e.value)
    assert [d.title for d in pages.served_dashboards(nbs) if d.name == "odd.ipynb"] == ["odd"]  # served: listed


def test_two_pages_with_one_name_are_an_error_naming_both(site):
    nbs, aids = site
    write_notebook(nbs / "tracer.ipynb", title="supply")
    with pytest.raises(DashboardError, match="both titled") as e:
        find_dashboards(nbs)
    assert str(nbs / "tracer.ipynb") in str(e.value) and str(aids / "supply" / "supply.ipynb") in str(e.value)


def test_the_home_page_lists_each_page_with_its_line_under_its_sections_heading():
    import html as h
    import re

    from assistant.ui.site import home_page

    found = pages.served_dashboards(notebooks_dir())
    page = home_page(None, found)
    headings = re.findall(r"<h2>([^<]+)</h2>", page)
    assert headings == ["This campaign", "Playing a turn", "Setting up", "For analysts"], headings
    links = re.findall(r'class="ca-dashboard-link" href="/voila/render/([^"]+)"[^>]*>([^<]+)</a>'
                       r"(?:<span class='ca-page-line'>([^<]+)</span>)?", page)
    assert [(n, h.unescape(t), h.unescape(line)) for n, t, line in links] == [(d.name, d.title, d.description)
                                                                             for d in found]
    setup = page[page.index("<h2>Setting up</h2>"):page.index("<h2>For analysts</h2>")]
    assert 'href="/voila/render/campaign.ipynb">Campaign</a> page, as its tabs:' in setup
    assert all(f"<b>{tab}</b> (" in setup for tab in ("Orders", "Control", "Map editor"))
    assert "ca-file-name" not in page  # one name per page: not its file's too
    bare = home_page(None, [pages.DashboardNotebook("x.ipynb", "X", notebooks_dir() / "x.ipynb", "served")])
    assert "<h2>Playing a turn</h2>" in bare and ">X</a></li>" in bare and "Setting up" not in bare
    assert "No dashboards are served." in home_page(None, [])


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
