"""The frame every page shares (``assistant.ui.page``), in plain Python: one header form that names
the game by its title on every aid page, and the campaign dashboard's extra tabs found by looking
(``assistant.ui.tabs``), so that no module of the UI imports an aid."""

from __future__ import annotations

import ast
import html
import importlib
import inspect
import os
import subprocess
import sys
from pathlib import Path

import ipywidgets as w
import pytest

import assistant.ui
from assistant.campaign import Campaign
from assistant.discovery import part_modules
from assistant.ui import dashboard as dashboard_module
from assistant.ui.dashboard import CampaignDashboard
from assistant.ui.kit import attach
from assistant.ui.page import Page, header_html
from assistant.ui.tabs import DashboardTab, dashboard_tabs
from assistant.ui.view import View


def aid_pages() -> list[type]:
    """Every ``Page`` the aids' widget modules define, found as the kit finds aids (a new aid's
    page is checked without editing this test)."""
    found = []
    for name in part_modules("assistant.aids", "widget"):
        module = importlib.import_module(name)
        found += [c for _, c in inspect.getmembers(module, inspect.isclass)
                  if issubclass(c, Page) and c.__module__ == name]
    return found


AID_PAGES = aid_pages()


@pytest.fixture(scope="module")
def guadalcanal(tmp_path_factory):
    c = Campaign.create(tmp_path_factory.mktemp("frame") / "g.campaign", game="witp", scenario="guadalcanal-1942")
    yield c
    c.close()


def widgets_in(root: w.Widget) -> list[w.Widget]:
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(c for c in getattr(node, "children", ()) if isinstance(c, w.Widget))
    return out


def test_every_aid_widget_module_declares_its_page_on_the_kit():
    modules = part_modules("assistant.aids", "widget")
    assert modules and {p.__module__ for p in AID_PAGES} == set(modules)
    assert all(p.NAME and p.CSS for p in AID_PAGES)


@pytest.mark.parametrize("page_class", AID_PAGES, ids=lambda c: c.__name__)
def test_every_aid_page_names_the_game_by_its_title_in_one_header_form(page_class, guadalcanal, tmp_path):
    page = attach(page_class, guadalcanal, log_path=tmp_path / "d.log")
    try:
        view = page.view
        assert guadalcanal.map.spec.title == "War in the Pacific (2nd ed.)"  # the game spec's title, not "witp"
        # name · the game's title · the file · the turn (· what the page adds)
        assert view.title.value.startswith(header_html(view.NAME, guadalcanal) + " · "
                                           + html.escape(guadalcanal.state.turn.label))
        assert "War in the Pacific (2nd ed.)" in view.title.value and "<code>g.campaign</code>" in view.title.value
        assert view.title in widgets_in(page.widget) and view.errors.widget in widgets_in(page.widget)
        assert not page.errors.records, [r.message for r in page.errors.records]
    finally:
        page.close()


def test_the_campaign_dashboard_has_the_same_header(guadalcanal, tmp_path):
    page = attach(CampaignDashboard, guadalcanal, log_path=tmp_path / "d.log")
    try:
        assert header_html("Campaign Assistant", guadalcanal) in page.view.title.value
    finally:
        page.close()


# ----- the dashboard's extra tabs: declared by aids, found by looking ------------------------------
NOTE_TAB = """
import ipywidgets as w

from assistant.ui.tabs import DashboardTab
from assistant.ui.view import View


class NoteTab(View):
    def __init__(self, campaign, errors, map_view):
        super().__init__(campaign, errors)
        self.map = map_view
        self.write = w.Button(description="write")
        self.seen = []
        self.widget = w.VBox([w.HTML("notes"), self.write])

    def refresh(self, state=None):
        self.seen.append((state or self.campaign.state).last_seq)

    def write_buttons(self):
        return [self.write]


TAB = DashboardTab(title="Notes", build=NoteTab)
"""


@pytest.fixture
def fake_aids(tmp_path, monkeypatch):
    """A package of aids: one declares a tab, one's tab module is broken, one declares something
    else, one declares none."""
    root = tmp_path / "fakeaids"
    for aid, tab in {"notes": NOTE_TAB, "broken": "raise RuntimeError('this tab is broken')\n",
                     "odd": "TAB = 'a tab'\n", "plain": None}.items():
        (root / aid).mkdir(parents=True)
        (root / aid / "__init__.py").write_text("")
        if tab is not None:
            (root / aid / "tab.py").write_text(tab)
    (root / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "fakeaids"
    for name in [m for m in sys.modules if m == "fakeaids" or m.startswith("fakeaids.")]:
        del sys.modules[name]


def test_tabs_are_found_by_looking_and_a_broken_one_is_named_and_left_out(fake_aids):
    failed = []
    tabs = dashboard_tabs(fake_aids, failed=lambda module, e: failed.append((module, str(e))))
    assert [t.title for t in tabs] == ["Notes"] and isinstance(tabs[0], DashboardTab)
    assert failed == [("fakeaids.broken.tab", "this tab is broken"),
                      ("fakeaids.odd.tab", "fakeaids.odd.tab.TAB is str, not a DashboardTab")]
    with pytest.raises(RuntimeError, match="this tab is broken"):
        dashboard_tabs(fake_aids)
    assert dashboard_tabs("no_such_aids_package") == []


def test_the_dashboard_shows_a_found_tab_builds_it_when_opened_and_keeps_it_up_to_date(
        fake_aids, guadalcanal, tmp_path, monkeypatch):
    monkeypatch.setattr(dashboard_module, "dashboard_tabs", lambda failed: dashboard_tabs(fake_aids, failed))
    page = attach(CampaignDashboard, guadalcanal, log_path=tmp_path / "d.log")
    try:
        d = page.view
        titles = [d.tabs.get_title(i) for i in range(len(d.tabs.children))]
        assert titles == ["Units", "Control", "Journal", "History", "Notes"] and d.tab_views == {}
        assert [r.context for r in page.errors.records] == ["loading fakeaids.broken.tab", "loading fakeaids.odd.tab"]
        d.tabs.selected_index = 4
        tab = d.tab_views["Notes"]
        assert type(tab).__name__ == "NoteTab" and isinstance(tab, View) and tab.map is d.map and d.tabs.children[4].children == (tab.widget,)
        guadalcanal.add_note("seen by the tab")
        assert tab.seen[-1] == guadalcanal.state.last_seq
        assert tab.write in d.write_buttons()
        d.set_write_refusal("the disk is read-only")
        assert tab.write.disabled
    finally:
        page.close()


def test_a_tab_that_builds_no_view_is_one_error_in_the_panel(fake_aids, guadalcanal, tmp_path, monkeypatch):
    not_a_view = DashboardTab(title="Odd", build=lambda campaign, errors, map_view: object())
    monkeypatch.setattr(dashboard_module, "dashboard_tabs", lambda failed: [not_a_view])
    page = attach(CampaignDashboard, guadalcanal, log_path=tmp_path / "d.log")
    try:
        page.view.tabs.selected_index = 4
        (rec,) = page.errors.records
        assert rec.context == "open the odd" and "is not an assistant.ui.view.View" in rec.message
        assert page.view.tab_views == {}
    finally:
        page.close()


# ----- the UI imports no aid ------------------------------------------------------------------------
def imported_modules(path: Path, package: str) -> set[str]:
    """Every module ``path`` (a module of ``package``) imports, relative imports resolved."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found |= {module} | {f"{module}.{a.name}" for a in node.names}
    return found


def test_no_module_of_the_ui_imports_an_aid():
    ui = Path(assistant.ui.__file__).parent
    offenders = {}
    for path in sorted(ui.rglob("*.py")):
        package = ".".join(["assistant", "ui", *path.relative_to(ui).parent.parts])
        aids = sorted(m for m in imported_modules(path, package) if m.split(".")[:2] == ["assistant", "aids"])
        if aids:
            offenders[str(path.relative_to(ui))] = aids
    assert offenders == {}
    assert "assistant.aids.mapedit.widget" in imported_modules(  # the check sees a relative import
        Path(assistant.ui.__file__).parents[1] / "aids" / "mapedit" / "tab.py", "assistant.aids.mapedit")


def test_the_ui_package_names_load_on_first_use_and_all_of_them_exist():
    """``assistant.ui`` loads its widgets lazily (the Voila server process imports ``assistant.ui.site``
    and needs none of them): every name it exports is there, in ``dir()``, and an unknown one is an
    AttributeError."""
    import assistant.ui as ui

    assert sorted(ui.__all__) == sorted(ui._EXPORTS)
    for name in ui.__all__:
        assert getattr(ui, name) is getattr(importlib.import_module(f"assistant.ui.{ui._EXPORTS[name]}"), name)
        assert name in dir(ui)
    with pytest.raises(AttributeError, match="no_such_widget"):
        ui.no_such_widget  # noqa: B018


def test_the_voila_server_process_imports_no_widget_and_no_pandas():
    """The server process's imports are its start-up time: ``assistant.ui.siteproc`` brings in neither
    the dashboards nor pandas, nor jsonschema's IRI grammar."""
    code = ("import sys, assistant.ui.siteproc; "
            "print(sorted(m for m in ('pandas', 'networkx', 'assistant.ui.dashboard', 'ipywidgets', "
            "'rfc3987_syntax') if sys.modules.get(m) is not None))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_campaign_dashboard_kernel_imports_no_pandas_and_no_networkx(tmp_path):
    """Every page load starts a kernel: the campaign dashboard (units, map, place names, hex details)
    computes nothing pandas or networkx would do, so its kernel imports neither (0.6 s of start-up)."""
    from assistant.campaign import Campaign

    file = tmp_path / "light.campaign"
    Campaign.create(file, game="witp", scenario="guadalcanal-1942").close()
    code = ("import sys; from assistant.ui import campaign_dashboard; campaign_dashboard(); "
            "print(sorted(m for m in ('pandas', 'networkx', 'scipy') if sys.modules.get(m) is not None))")
    env = dict(os.environ, CAMPAIGN_FILE=str(file), CAMPAIGN_ASSISTANT_HOME=str(tmp_path / "home"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]"
