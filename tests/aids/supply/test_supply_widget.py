"""The supply dashboard's view in plain Python (no kernel, no browser).

The view has no rules: these tests give the engine a small stand-in rules object (a shortest
path over the real witp map to one source per side, cut by enemy units), so what the page must
show — path, status, source, length against limit, reasons with their rules, the steps, what-ifs,
the side overlay, the update from another writer, one-line errors — is checked against answers
computed here, independently of the witp rules. The browser test runs the real witp rules.
"""

from __future__ import annotations

import html

import networkx as nx
import pandas as pd
import pytest

from assistant.aids.supply import engine
from assistant.aids.supply import widget as W
from assistant.campaign import Campaign
from assistant.rules.supply import Reason, Trace
from assistant.ui.kit import attach
from assistant.words import named
from campaignkit import saved_before_values_were_checked

LIMIT = 60  # the stand-in rules' limit, in hexes
SOURCES = {"allies": "us-sw-pacific-hq", "japan": "6th-base-force"}


class StandInRules:
    """Linked along the shortest hex path to the side's one source avoiding enemy-held hexes,
    within LIMIT hexes; else isolated with a reason. Counts its calls."""

    game = "witp"

    def __init__(self):
        self.calls = 0

    def trace(self, world, side, pieces):
        self.calls += 1
        src = next((p for p in world.pieces if p.id == SOURCES[side]), None)
        out = []
        for p in pieces:
            base = dict(unit=p.id, hex=p.hex, side=side, kind=p.kind, role=p.role, limit=LIMIT,
                        extra={"unit": "hexes"})
            if src is None:
                out.append(Trace(supplied=False, status="isolated", reasons=[Reason("[T 1]", "no source on the map")],
                                 steps=["looked for the source"], **base))
                continue
            blocked = {q.hex for q in world.pieces if q.side != side} - {p.hex, src.hex}
            view = nx.restricted_view(world.graph, blocked, [])
            try:
                path = nx.shortest_path(view, p.hex, src.hex)
            except nx.NetworkXNoPath:
                out.append(Trace(supplied=False, status="isolated", source=None,
                                 reasons=[Reason("[T 2]", f"enemy units cut every way to {src.hex}")], **base))
                continue
            ok = len(path) - 1 <= LIMIT
            out.append(Trace(supplied=ok, status="linked" if ok else "isolated", path=path,
                             source={"unit": src.id, "hex": src.hex}, length=len(path) - 1,
                             reasons=[] if ok else [Reason("[T 3]", f"{len(path) - 1} hexes is over {LIMIT}")],
                             steps=[f"shortest way to {src.hex} avoiding {len(blocked)} enemy hexes"], **base))
        return out


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    return tmp_path_factory.mktemp("home")


@pytest.fixture
def rules(monkeypatch, home):
    monkeypatch.setenv("CAMPAIGN_ASSISTANT_HOME", str(home))
    r = StandInRules()
    monkeypatch.setattr(engine, "rules_for", lambda game: r)
    return r


@pytest.fixture
def camp(tmp_path, rules):
    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    yield c
    c.close()


@pytest.fixture
def page(camp, tmp_path):
    p = attach(W.SupplyWidget, camp, log_path=tmp_path / "dashboard.log")
    yield p
    p.close()


@pytest.fixture
def view(page):
    return page.view


def expected_path(camp, unit_id, side, extra_blocked=()):
    g = camp.graph()
    st = camp.state
    src = st.units[SOURCES[side]].hex
    here = st.units[unit_id].hex
    blocked = ({u.hex for u in st.units.values() if u.side != side} | set(extra_blocked)) - {here, src}
    return nx.shortest_path(nx.restricted_view(g, blocked, []), here, src)


def test_picking_a_unit_draws_its_path_and_shows_its_working(view, camp):
    view.side.value = "allies"
    assert {v for _, v in view.unit.options} - {W.NONE} == {u.id for u in camp.state.units.values()
                                                          if u.side == "allies"}
    view.unit.value = "1st-marine-division"
    want = expected_path(camp, "1st-marine-division", "allies")
    assert view.trace.path == want
    layer = view.map._overlays[W.PATH]
    assert W.PATH in view.map.overlays_in("supply")
    assert len(layer.locations[0]) == len(want)  # one point per hex of the path
    from assistant.ui.mapview import MIXED_COLOUR

    end_colours = {f["properties"]["style"]["fillColor"] for f in view.map._overlays[W.ENDS].data["features"]}
    assert end_colours and not end_colours & {"#000000", MIXED_COLOUR}  # never the "several sides" dot
    text = view.working.value
    assert "1st Marine Division" in text and "[sample]" in text  # the demo's sample is labelled
    assert "Status: <b class='ca-supply-status'" in text and "linked" in text
    assert "US SW PACIFIC HQ" in text and want[-1] in text  # the source and its hex
    assert f"<b class='ca-supply-length'>{len(want) - 1}</b> of limit <b>{LIMIT}</b> hexes" in text
    assert " → ".join(want) in text
    assert "shortest way to" in text  # the steps
    assert view.errors.records == []


def test_a_clicked_hex_traces_a_hypothetical_unit_of_the_chosen_side(view, camp):
    view.side.value = "japan"
    view.map.select("E2519")  # what a click does
    assert view.subject == W.Subject("hex", "E2519", "japan")
    assert view.trace.hypothetical and view.trace.side == "japan"
    assert view.trace.path[0] == "E2519" and view.trace.path[-1] == camp.state.units["6th-base-force"].hex
    assert "hypothetical" in view.working.value and "Japan" in view.working.value
    assert view.unit.value == W.NONE  # the "-" entry: no campaign unit traced
    view.side.value = "allies"  # the side chooser retraces the same hex for the other side
    assert view.trace.side == "allies" and view.trace.path[-1] == camp.state.units["us-sw-pacific-hq"].hex


def test_what_if_enemy_unit_changes_the_path_and_never_touches_the_campaign(view, camp):
    view.side.value = "allies"
    view.unit.value = "1st-marine-division"
    before, seq, units = list(view.trace.path), camp.state.last_seq, dict(camp.state.units)
    mid = before[len(before) // 2]
    view.click_mode.value = "enemy"
    view.map.select(mid)  # a click in what-if mode places a hypothetical enemy unit
    assert view.whatif.with_enemy == ((mid, "japan"),)
    assert view.subject.ref == "1st-marine-division"  # still tracing the unit
    assert mid not in view.trace.path and view.trace.path == expected_path(camp, "1st-marine-division", "allies", [mid])
    assert "WHAT-IF" in view.working.value and f"at {mid}" in view.working.value
    assert "WHAT-IF" in view.map_badge.value and view.map_badge_control in view.map.map.controls
    assert W.WHATIF_LAYER in view.map.overlays_in("supply")
    assert camp.state.last_seq == seq and dict(camp.state.units) == units  # the campaign is untouched
    view.map.select(mid)  # a second click takes it away
    assert view.whatif.with_enemy == () and view.trace.path == before
    assert view.map_badge_control not in view.map.map.controls
    assert W.WHATIF_LAYER not in view.map.overlays_in("supply")


def test_what_if_without_the_source_isolates_and_clear_restores(view, camp):
    view.side.value = "allies"
    view.unit.value = "1st-marine-division"
    view.without.value = "us-sw-pacific-hq"
    view.without_btn.click()
    assert view.trace.status == "isolated" and not view.trace.supplied and view.trace.path == []
    assert "[T 1]" in view.working.value and "no source on the map" in view.working.value
    assert "without <b>US SW PACIFIC HQ</b>" in view.whatif_note.value
    assert "us-sw-pacific-hq" in camp.state.units
    view.clear_btn.click()
    assert view.trace.status == "linked" and "WHAT-IF" not in view.working.value


def test_engine_refusals_are_one_line_on_the_page(view, camp):
    view.side.value = "allies"
    view.unit.value = "1st-marine-division"
    view.without.value = "1st-marine-division"
    view.without_btn.click()  # the engine refuses to trace a unit it leaves out
    assert view.trace is None and view.problem == "1st Marine Division is both traced and left out: trace it or leave it out"
    assert "Cannot trace" in view.working.value and "Traceback" not in view.working.value
    assert view.errors.records == []
    assert W.PATH not in view.map.overlays_in("supply")


def test_a_game_without_supply_rules_says_so_in_one_line(view, monkeypatch):
    def missing(game):
        raise ModuleNotFoundError(f"No module named 'assistant.rules.{game}.supply'", name=f"assistant.rules.{game}.supply")

    monkeypatch.setattr(engine, "rules_for", missing)
    view.side.value = "allies"
    view.unit.value = "1st-marine-division"
    assert view.problem == "no supply rules for witp yet (assistant.rules.witp.supply is missing)"
    assert view.errors.records == []


def test_bad_hex_and_unit_are_reported_and_change_nothing(page, view):
    view.side.value = "allies"
    view.unit.value = "1st-marine-division"
    before = view.trace
    page.guard(view.trace_at, "t")("Z9999")
    page.guard(view.leave_out, "t")("no-such-unit")
    assert [r.kind for r in view.errors.records] == ["rejected", "rejected"]
    assert "Z9999" in view.errors.records[0].message and "no-such-unit" in view.errors.records[1].message
    assert view.trace is before and view.whatif == engine.WhatIf()


def test_side_overlay_colours_unit_hexes_by_status_in_one_picture(view, camp, rules):
    import ipyleaflet as L

    view.side.value = "allies"
    calls = rules.calls
    view.overlay.value = True
    assert rules.calls == calls + 1  # the whole side in one call to the rules
    allies = [u for u in camp.state.units.values() if u.side == "allies"]
    assert {t.unit for t in view.report.items} == {u.id for u in allies}
    layer = view.map._overlays[W.STATUS]
    assert isinstance(layer, L.ImageOverlay)  # one server-drawn picture, not GeoJSON per hex
    legend = {e.label: e.count for e in view.map.choropleth_legend(W.STATUS)}
    want: dict[str, set] = {}
    for t in view.report.items:
        want.setdefault(t.status, set()).add(t.hex)
    assert legend == {k: len(v) for k, v in want.items()}  # statuses in the rules' own words
    name = next(s.name for s in camp.state.sides if s.id == "allies")
    assert f"{name} (allies) supply, hexes" in view.map._legends[W.STATUS].value
    assert all(u.name in view.side_report.value for u in allies)
    # and a ring of the status colour around each of those hexes' unit markers
    colours = {e.label: e.colour for e in view.map.choropleth_legend(W.STATUS)}
    halos = [(f["properties"]["title"], f["properties"]["style"]["fillColor"])
             for name in view.map.overlays_in(W.HALOS) for f in view.map._overlays[name].data["features"]]
    assert sorted(halos) == sorted((status, colours[status]) for status, hexes in want.items() for _ in hexes)
    from collections import Counter

    from assistant.ui.board import unit_marker_radius

    stack = Counter(u.hex for u in camp.state.units.values())  # a stack's marker is larger: so is its halo
    assert set(view.map.overlays_in(W.HALOS)) == {f"{W.HALOS}/{unit_marker_radius(stack[t.hex]) + W.HALO_RING}"
                                                 for t in view.report.items}
    # a what-if recolours, and the legend says so
    view.leave_out("us-sw-pacific-hq")
    assert {e.label for e in view.map.choropleth_legend(W.STATUS)} == {"isolated"}
    assert "WHAT-IF" in view.map._legends[W.STATUS].value and "WHAT-IF" in view.side_report.value
    view.overlay.value = False
    assert W.STATUS not in view.map.overlays_in("supply") and view.map.overlays_in(W.HALOS) == []


def test_updates_when_another_writer_moves_the_traced_unit(page, view, camp):
    view.side.value = "allies"
    view.unit.value = "1st-marine-division"
    view.overlay.value = True
    other = Campaign.open(camp.path)
    try:
        other.move_unit("1st-marine-division", "E2519")
    finally:
        other.close()
    page.poll()  # what the kit's poller does on the kernel's loop
    assert view.trace.hex == "E2519" and view.trace.path == expected_path(camp, "1st-marine-division", "allies")
    assert "E2519" in view.working.value
    assert "E2519" in {t.hex for t in view.report.items}
    other = Campaign.open(camp.path)
    try:
        other.remove_unit("1st-marine-division")
    finally:
        other.close()
    page.poll()
    assert view.subject is None and view.trace is None
    assert "1st-marine-division" not in {v for _, v in view.unit.options}
    assert W.PATH not in view.map.overlays_in("supply")


def fake_history(camp):
    """A history_frame in the contract's columns, made here (two turns)."""
    rows = []
    for turn, label, statuses in [(10, "G/T 3/8/42", {"a": True, "b": True, "c": False}),
                                  (11, "G/T 4/8/42", {"a": True, "b": False, "c": False})]:
        for unit, ok in statuses.items():
            rows.append(dict(turn=turn, turn_label=label, side="allies", unit=unit, kind="k", hex="E2418",
                             supplied=ok, status="linked" if ok else "isolated", length=1, source=None))
        rows.append(dict(turn=turn, turn_label=label, side="japan", unit="j", kind="k", hex="E3301",
                         supplied=True, status="linked", length=0, source=None))
    return pd.DataFrame(rows)


def test_chart_counts_supplied_and_unsupplied_per_side_and_turn(camp):
    png, summary = W.chart_png(fake_history(camp), {"allies": "Allies", "japan": "Japanese"}, ["allies", "japan"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    import io

    from PIL import Image

    width, height = Image.open(io.BytesIO(png)).size
    assert (width, height) == (round(W.CHART_SIZE[0] * W.CHART_DPI), round(W.CHART_SIZE[1] * W.CHART_DPI))
    assert "2 turns" in summary and "G/T 4/8/42" in summary
    assert "Allies: <b>1</b> supplied, <b>2</b> unsupplied" in summary  # counted by hand from fake_history
    assert "Japanese: <b>1</b> supplied, <b>0</b> unsupplied" in summary
    assert W.chart_png(fake_history(camp).iloc[0:0], {}, [])[0] == b""


def test_chart_tab_draws_from_the_history_and_redraws_after_changes(view, camp, monkeypatch):
    calls = []

    def history_frame(campaign, sides=None, whatif=None, keep=None):
        calls.append(campaign.state.last_seq)
        return fake_history(campaign)

    monkeypatch.setattr(W, "history_frame", history_frame)
    assert calls == [] and view.chart.layout.display == "none"  # nothing traced until asked
    view.tabs.selected_index = 2
    assert calls == [camp.state.last_seq] and view.chart.value[:4] == b"\x89PNG"
    assert view.chart.layout.display == "block" and "2 turns" in view.chart_note.value
    view.tabs.selected_index = 0
    view.tabs.selected_index = 2
    assert len(calls) == 1  # nothing changed: not traced again
    camp.add_note("a note")
    assert calls[-1] == camp.state.last_seq and len(calls) == 2  # open tab: redrawn on change


def test_chart_says_why_when_the_history_fails(view, monkeypatch):
    def history_frame(campaign, sides=None, whatif=None, keep=None):
        raise engine.CampaignError("turn 3 has no state")

    monkeypatch.setattr(W, "history_frame", history_frame)
    view.draw_chart()
    assert "turn 3 has no state" in view.chart_note.value and view.chart.layout.display == "none"
    assert view.errors.records == []


def test_samples_are_labelled_on_the_page(view, camp):
    n = sum(u.sample for u in camp.state.units.values())
    assert n > 0 and f"{n} units marked [sample]" in view.samples_note.value
    for side in ("allies", "japan"):
        view.side.value = side
        assert {v: "[sample]" in label for label, v in view.unit.options if v != W.NONE} == {
            u.id: u.sample for u in camp.state.units.values() if u.side == side}


def test_the_notebook_is_thin_and_stored_without_outputs():
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).resolve().parents[3] / "notebooks" / "supply.ipynb").read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert all(c["outputs"] == [] and c["execution_count"] is None for c in code)
    src = "".join("".join(c["source"]) for c in code)
    assert "dashboard(SupplyWidget)" in src and len(src.splitlines()) <= 4
    assert nb["metadata"]["title"] == "Supply tracer"


def test_the_notebook_executes_top_to_bottom(tmp_path, monkeypatch, home):
    """The real notebook in a real kernel on a copy of a campaign: a widget, no error."""
    import os
    from pathlib import Path

    import nbformat
    from nbclient import NotebookClient

    with Campaign.create(tmp_path / "nb.campaign", game="witp", scenario="guadalcanal-1942"):
        pass
    kernel_home = tmp_path / "kernel-home"
    monkeypatch.setenv("CAMPAIGN_ASSISTANT_HOME", str(kernel_home))
    monkeypatch.setenv("CAMPAIGN_FILE", str(tmp_path / "nb.campaign"))
    root = Path(__file__).resolve().parents[3]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    nb = nbformat.read(root / "notebooks" / "supply.ipynb", as_version=4)
    NotebookClient(nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
    assert not (kernel_home / "logs" / "dashboard.log").exists()  # nothing was reported


def test_chart_from_the_real_history_counts_each_turn_played(view, camp):
    camp.advance("turn")
    camp.move_unit("us-sw-pacific-hq", "E3301")  # onto the Japanese base force: allies cut off
    view.tabs.selected_index = 2
    df = view.history
    assert sorted(set(df["turn_label"])) == sorted({camp.state_at(seq=1).turn.label, camp.state.turn.label})
    last = df[df["turn"] == df["turn"].max()]
    allies = last[last["side"] == "allies"]
    want_cut = int((~allies["supplied"].astype(bool)).sum())
    assert "unsupplied" in view.chart_note.value and "2 turns" in view.chart_note.value
    name = next(s.name for s in camp.state.sides if s.id == "allies")
    assert f"{name}: <b>{len(allies) - want_cut}</b> supplied, <b>{want_cut}</b> unsupplied" in view.chart_note.value


def test_the_chart_tab_traces_nothing_per_write_while_closed_and_then_only_the_turns_whose_end_moved(
        view, camp, monkeypatch):
    """The history behind the chart is kept (``history.py``): closed, the tab costs no trace per
    write; opened, every turn is traced once; a write while it is open retraces the current turn."""
    from assistant.aids.supply.history import forget, history_frame

    traced = []
    real = engine.trace_side
    monkeypatch.setattr(engine, "trace_side", lambda world, side, whatif=None: traced.append(side)
                        or real(world, side, whatif))
    camp.advance("turn")
    camp.move_unit("us-sw-pacific-hq", "E3301")
    camp.add_note("a note")
    assert traced == []  # three writes, the tab closed
    view.tabs.selected_index = 2
    assert len(traced) == 2 * 2  # two turns, two sides
    camp.move_unit("us-sw-pacific-hq", "E1737")  # the tab open
    assert len(traced) == 2 * 2 + 2  # the current turn only
    shown = view.history
    forget(camp)
    pd.testing.assert_frame_equal(shown, history_frame(camp))  # the same as traced afresh
    assert "2 turns" in view.chart_note.value
    # a page opened later (a new kernel: nothing in memory) reads the turns kept in the user's
    # cache folder instead of tracing them
    forget(camp)
    traced.clear()
    view.tabs.selected_index = 0
    view._chart_seq = None
    view.tabs.selected_index = 2
    assert traced == [] and "2 turns" in view.chart_note.value
    pd.testing.assert_frame_equal(view.history, shown)


def test_with_the_real_witp_rules_the_page_shows_the_engines_answer(tmp_path, monkeypatch, home):
    """No stand-in: the demo (its sample UCS and HQ values) plus ports, traced by
    the witp rules; the page shows exactly what the engine answers, in witp's words."""
    monkeypatch.setenv("CAMPAIGN_ASSISTANT_HOME", str(home))
    with Campaign.create(tmp_path / "w.campaign", game="witp", scenario="guadalcanal-1942") as c:
        c.set_hex("F3342", port="major")
        c.set_hex("E1737", port="major")
        page = attach(W.SupplyWidget, c, log_path=tmp_path / "d.log")
        try:
            view = page.view
            view.side.value = "allies"
            view.unit.value = "1st-marine-division"
            (want,) = engine.trace_units(engine.world_of(c.state, c.graph()), ["1st-marine-division"])
            assert view.trace.to_json() == want.to_json() and want.supplied and len(want.path) > 1
            assert (f"<b class='ca-supply-length'>{int(want.length)}</b> of limit <b>{int(want.limit)}</b> "
                    f"{want.extra['unit']}") in view.working.value
            names = {u.id: u.name for u in c.state.units.values()}  # the page says a unit by its name
            assert all(f"<li class='ca-supply-step'>{html.escape(named(s, names))}</li>" in view.working.value
                       for s in want.steps)
            assert all(f"{html.escape(r.rule)}</span> {html.escape(named(r.text, names))}" in view.working.value
                       for r in want.reasons)
            # the category's effects [32.2] as a readable list, one line per branch, never a dict's repr
            effects = want.extra["effects"]
            assert "<summary>effects <span class='ca-rule'>" in view.working.value and "{&#x27;" not in view.working.value
            assert all(f"<li><b>{branch}</b>: " in view.working.value for branch in effects if branch != "rule")
            view.overlay.value = True
            report = engine.trace_side(engine.world_of(c.state, c.graph()), "allies")
            assert {e.label for e in view.map.choropleth_legend(W.STATUS)} == {t.status for t in report.items}
            assert {t.status for t in report.items} <= {"linked", "isolated"}  # witp's words [28.10]
            assert view.errors.records == []
        finally:
            page.close()



def test_a_bad_counter_value_met_in_the_working_is_one_line_on_the_page(tmp_path, monkeypatch, home):
    """The real witp rules work out a trace's base figures when they are read ([32.4.1] reads the
    MSU's load then): a bad load is still one line on the page -- for the traced unit and the side
    report -- never an error in the dashboard's log."""
    monkeypatch.setenv("CAMPAIGN_ASSISTANT_HOME", str(home))
    with Campaign.create(tmp_path / "n.campaign", game="witp", scenario="guadalcanal-1942") as new:
        new.place_unit("allies", "MSU", "E2418", id="msu-x", attrs={"load": 3, "mitigates": "E2418"})
        # a value saved before placement checked it (placement now refuses it)
        old = saved_before_values_were_checked(new, tmp_path / "w.campaign", "msu-x", load="abc")
    with old as c:
        page = attach(W.SupplyWidget, c, log_path=tmp_path / "d.log")
        try:
            view = page.view
            view.side.value = "allies"
            view.unit.value = "1st-marine-division"
            assert view.trace is None and view.problem == "msu-x: load 'abc' is not a number >= 0"
            assert "Cannot trace" in view.working.value
            view.overlay.value = True
            assert view.report is None
            assert "msu-x: load &#x27;abc&#x27; is not a number &gt;= 0" in view.side_report.value
            assert view.errors.records == []
        finally:
            page.close()


def test_an_unchanged_side_overlay_sends_nothing_again(camp, rules, tmp_path):
    """The kit's poller redraws on every campaign change: a redraw whose statuses did not change
    sends no widget message (no new picture, no new halo layer)."""
    from assistant.ui.wiremeter import CommMeter

    with CommMeter() as meter:
        view = W.SupplyWidget(camp, log_path=tmp_path / "d.log")
        view.side.value = "allies"
        mark = meter.mark()
        view.overlay.value = True
        assert meter.bytes_since(mark) > 10_000  # the picture went
        mark = meter.mark()
        view.show_side()
        assert meter.bytes_since(mark) == 0
        view.leave_out("us-sw-pacific-hq")  # statuses change: a new picture and halos
        mark = meter.mark()
        view.show_side()
        assert meter.bytes_since(mark) == 0


def test_a_read_only_campaign_is_traced_and_says_it_is_read_only(camp, tmp_path):
    ro = Campaign.open(camp.path, readonly=True)
    page = attach(W.SupplyWidget, ro, log_path=tmp_path / "d.log")
    try:
        view = page.view
        assert "read-only" in view.readonly_note.value
        view.side.value = "allies"
        view.unit.value = "1st-marine-division"
        assert view.trace is not None and view.trace.supplied
        assert view.errors.records == []  # nothing here writes, so nothing was refused
    finally:
        page.close()
        ro.close()
