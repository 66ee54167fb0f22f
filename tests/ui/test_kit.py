"""The dashboard kit in plain Python, no browser: a page opens the campaign (a
file, ``$CAMPAIGN_FILE``, the demo) or shows why it cannot; it polls for other processes' changes
on the running event loop; every callback's error lands in the panel and the log."""

from __future__ import annotations

import asyncio
import html

import ipywidgets as w
import pytest

from assistant.campaign import Campaign
from assistant.ui.kit import CampaignPoller, DashboardPage, attach, dashboard
from assistant.ui.view import View


class NoteView(View):
    """The smallest aid view: shows the journal; its button's callback always fails."""

    def __init__(self, campaign, errors):
        super().__init__(campaign, errors)
        self.label = w.HTML()
        self.button = w.Button(description="boom")
        self.button.on_click(errors.guard(self._boom, "boom button"))
        self.widget = w.VBox([self.label, self.button])
        self.seen: list[int] = []
        self.closed = False
        self.refresh(campaign.state)

    def refresh(self, state) -> None:
        self.seen.append(state.last_seq)
        self.label.value = " | ".join(n.text for n in state.notes)

    def _boom(self, _b) -> None:
        raise RuntimeError("the aid's engine failed")

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def camp_path(tmp_path):
    path = tmp_path / "g.campaign"
    Campaign.create(path, game="witp").close()
    return path


def log_text(home) -> str:
    log = home / "logs" / "dashboard.log"
    return log.read_text() if log.exists() else ""


def panel_text(widget) -> str:
    assert "ca-error-panel" in widget._dom_classes
    return html.unescape(widget.children[1].value)


# ----- opening: a file, $CAMPAIGN_FILE, the demo, or the error page -----------------------------
def test_a_file_opens_with_the_view_under_the_error_panel(camp_path, assistant_home):
    page = dashboard(NoteView, camp_path)
    try:
        assert isinstance(page, DashboardPage) and isinstance(page.view, NoteView)
        assert page.campaign.path == camp_path and not page.poller.running  # no loop in plain Python
        assert page.widget.children == (page.errors.widget, page.view.widget)
        assert page.errors.log_path == assistant_home / "logs" / "dashboard.log"
    finally:
        page.close()
    assert page.view.closed and page.campaign._closed


def test_a_damaged_file_gives_an_error_page_and_is_not_touched(tmp_path, assistant_home):
    bad = tmp_path / "bad.campaign"
    bad.write_bytes(b"garbage" * 50)
    page = dashboard(NoteView, bad)
    assert isinstance(page, w.VBox)
    assert "ca-error-page" in page._dom_classes  # the whole page: in the flow, not floating over nothing
    assert "bad.campaign" in panel_text(page) and "Traceback" not in panel_text(page)
    assert "bad.campaign" in log_text(assistant_home)
    assert bad.read_bytes() == b"garbage" * 50


def test_a_missing_file_gives_an_error_page_and_is_not_created(tmp_path, assistant_home, monkeypatch):
    missing = tmp_path / "nowhere.campaign"
    monkeypatch.setenv("CAMPAIGN_FILE", str(missing))  # as `campaign serve` hands it to the kernel
    page = dashboard(NoteView)
    assert "nowhere.campaign" in panel_text(page) and "no campaign file" in panel_text(page)
    assert not missing.exists()
    assert "[rejected] opening campaign" in log_text(assistant_home)


def test_no_file_and_no_env_opens_the_demo(monkeypatch, assistant_home):
    monkeypatch.delenv("CAMPAIGN_FILE", raising=False)
    page = dashboard(NoteView)
    try:
        demo = assistant_home / "data" / "demo-witp-guadalcanal-1942.campaign"
        assert page.campaign.path == demo and demo.is_file()
        assert page.campaign.state.units  # the scenario's set-up
    finally:
        page.close()


def test_a_failing_view_gives_an_error_page_and_closes_the_campaign(camp_path, assistant_home, monkeypatch):
    opened = []

    def broken(campaign, errors):
        opened.append(campaign)
        raise ZeroDivisionError("division by zero in the widget")

    page = dashboard(broken, camp_path)
    text = panel_text(page)
    assert "building broken for g.campaign" in text and "ZeroDivisionError" in text
    assert "Traceback" in log_text(assistant_home)  # a bug: its traceback is logged
    assert opened[0]._closed


class DuckView:
    """Has what a view has (a widget, refresh, close) but does not say it is one."""

    def __init__(self, campaign, errors):
        self.widget = w.HTML("duck")

    def refresh(self, state) -> None:
        pass

    def close(self) -> None:
        pass


class NoWidgetView(View):
    """Says it is a view but shows nothing."""


@pytest.mark.parametrize("factory, words", [
    (lambda c, e: object(), "view object is not an assistant.ui.view.View (nor a widget)"),
    (DuckView, "view DuckView is not an assistant.ui.view.View (nor a widget)"),
    (NoWidgetView, "view NoWidgetView has no widget to show"),
])
def test_the_view_contract_is_enforced_when_the_page_is_built(camp_path, assistant_home, factory, words):
    page = dashboard(factory, camp_path)
    assert isinstance(page, w.VBox) and "ca-error-page" in page._dom_classes
    assert words in panel_text(page)
    with Campaign.open(camp_path) as c, pytest.raises(TypeError, match="View"):
        attach(factory, c)


def test_a_view_is_told_when_writing_stops_and_by_default_the_panel_says_so(camp_path):
    with Campaign.open(camp_path) as c:
        page = attach(NoteView, c)
        page.view.set_write_refusal("the file is on a read-only disk")
        (rec,) = page.errors.records
        assert rec.message == "PermissionError: writing is off: the file is on a read-only disk"
        assert page.poller.on_refusal == page.view.set_write_refusal
        page.close()


def test_a_bare_widget_is_a_view_too(camp_path):
    page = dashboard(lambda c, errors: w.HTML(f"turn {c.state.turn.label}"), camp_path)
    try:
        assert page.widget.children[0] is page.errors.widget
        assert "turn" in page.widget.children[1].value
    finally:
        page.close()


# ----- polling --------------------------------------------------------------------------------
def test_poll_picks_up_another_campaign_objects_change(camp_path, tmp_path):
    page = attach(NoteView, Campaign.open(camp_path), log_path=tmp_path / "d.log", owns_campaign=True)
    try:
        with Campaign.open(camp_path) as other:
            other.add_note("written by the CLI")
        assert "written by the CLI" not in page.view.label.value
        page.poll()
        assert page.view.label.value == "written by the CLI"
        page.poll()  # nothing new: no redraw
        assert len(page.view.seen) == 2
    finally:
        page.close()


def test_the_poll_loop_runs_on_the_running_event_loop(camp_path, tmp_path):
    async def scenario():
        page = attach(NoteView, Campaign.open(camp_path), log_path=tmp_path / "d.log", interval=0.02,
                      owns_campaign=True)
        assert page.poller.running
        with Campaign.open(camp_path) as other:
            other.add_note("from another page")
        for _ in range(250):
            await asyncio.sleep(0.02)
            if page.view.label.value:
                break
        page.close()
        timer_after_close = page.poller._timer
        with Campaign.open(camp_path) as other:
            other.add_note("after the page closed")
        await asyncio.sleep(0.1)
        return page, timer_after_close

    page, timer = asyncio.run(scenario())
    assert page.view.label.value == "from another page"  # picked up by the loop, not by a call
    assert timer is None and not page.poller.running and page.campaign._closed


def test_a_failing_poll_is_reported_once_and_backs_off(camp_path, tmp_path, monkeypatch):
    c = Campaign.open(camp_path)
    page = attach(NoteView, c, log_path=tmp_path / "d.log", owns_campaign=True)
    try:
        def broken():
            raise OSError("disk I/O error")

        monkeypatch.setattr(c, "poll", broken)
        for _ in range(4):
            page.poll()
        assert [r.message for r in page.errors.records] == ["OSError: disk I/O error"]
        assert page.poller.interval == page.poller.backoff > page.poller.base_interval
        monkeypatch.undo()
        page.poll()
        assert page.poller.interval == page.poller.base_interval
    finally:
        page.close()


def test_bad_poll_intervals_are_refused(camp_path):
    with Campaign.open(camp_path) as c:
        with pytest.raises(ValueError, match="-1"):
            CampaignPoller(c, None, interval=-1)


# ----- every callback is guarded --------------------------------------------------------------
def test_a_callback_error_lands_in_the_panel_and_the_log(camp_path, assistant_home):
    page = dashboard(NoteView, camp_path)
    try:
        page.view.button.click()
        (rec,) = page.errors.records
        assert rec.context == "boom button" and rec.message == "RuntimeError: the aid's engine failed"
        assert page.errors.widget.layout.display == "flex"
        assert "the aid's engine failed" in log_text(assistant_home)
    finally:
        page.close()


class FlakyView(NoteView):
    fail = False

    def refresh(self, state) -> None:
        if self.fail:
            raise KeyError("unit-42")
        super().refresh(state)


def test_a_failing_refresh_is_reported_not_lost(camp_path, assistant_home):
    page = dashboard(FlakyView, camp_path)
    try:
        page.view.fail = True
        rec = page.campaign.add_note("still recorded")
        assert page.campaign.state.last_seq == rec.seq  # the command itself went through
        (err,) = page.errors.records
        assert (err.context, err.message, err.kind) == ("campaign update", "unit-42", "rejected")
        assert "[rejected] campaign update: unit-42" in log_text(assistant_home)
    finally:
        page.close()
