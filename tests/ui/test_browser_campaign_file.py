"""In a real browser: the campaign file under an open dashboard is deleted,
or the campaign lives on read-only media. The page says why writing is off, every button that
records an event is disabled, and nothing is acknowledged. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.campaign import Campaign
from uikit import copy_demo, open_dashboard, require_chromium, shot, start_serve

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "campaign"))
from campaignkit import _drop_file_privileges  # noqa: E402  (the permission tests' own helper)

require_chromium()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

VIEWPORT = {"width": 1500, "height": 950}
WRITE_BUTTONS = [".ca-next-phase", ".ca-next-turn", ".ca-place", ".ca-move", ".ca-remove", ".ca-set-attrs",
                 ".ca-add-note", ".ca-undo", ".ca-redo"]


def open_page(browser, url: str):
    ctx, page, _probe = open_dashboard(browser, url, VIEWPORT)
    return ctx, page


def disabled(page) -> dict[str, bool]:
    return {s: page.eval_on_selector(s, "e => e.disabled") for s in WRITE_BUTTONS}


def test_a_deleted_file_turns_writing_off_on_the_open_page(tmp_path, demo_home, browser):
    file = copy_demo(demo_home, tmp_path / "games")
    served = start_serve(tmp_path / "home", str(file))
    try:
        ctx, page = open_page(browser, served.url)
        try:
            on = disabled(page)
            assert not any(v for k, v in on.items() if k != ".ca-redo"), on  # (nothing to redo yet)
            # first, a plain copy of the file alone holds a note from the page and one from the API
            page.click(".ca-tabs .lm-TabBar-tab:has-text('Journal')")
            page.fill(".ca-note-text textarea", "written on the page")
            page.click(".ca-add-note")
            page.wait_for_function("() => document.querySelector('.ca-notes').textContent.includes('on the page')",
                                   timeout=30_000)
            with Campaign.open(file) as api:
                api.add_note("written through the API")
                copy = tmp_path / "copy.campaign"
                shutil.copyfile(file, copy)  # while the page's kernel and the API both hold it open
            with Campaign.open(copy) as c:
                assert [n.text for n in c.state.notes][-2:] == ["written on the page", "written through the API"]
            assert page.eval_on_selector(".ca-write-refusal", "e => getComputedStyle(e).display") == "none"
            for p in (file, Path(str(file) + "-wal"), Path(str(file) + "-shm")):
                p.unlink(missing_ok=True)
            page.wait_for_selector(".ca-write-refusal", state="visible", timeout=30_000)
            text = page.inner_text(".ca-write-refusal")
            assert "Writing is off" in text and "deleted or moved" in text and file.name in text
            page.wait_for_function("s => s.every(x => document.querySelector(x).disabled)", arg=WRITE_BUTTONS,
                                   timeout=10_000)
            # a forced click records nothing
            page.fill(".ca-note-text textarea", "into the void")
            page.click(".ca-add-note", force=True)
            page.wait_for_timeout(1000)
            assert "into the void" not in page.inner_text(".ca-notes")
            shot(page, "campaign-file-deleted-writing-off")
            assert not file.exists()  # nothing re-created the file at its path
        finally:
            ctx.close()
    finally:
        assert served.stop() == 0, "".join(served.output)


def start_serve_as_player(home: Path, *args: str, monkeypatch):
    """``start_serve`` with root's permission-overriding capabilities dropped (``run_as_player``)."""
    real = subprocess.Popen

    def popen(*a, **kw):
        if os.geteuid() == 0:
            kw["preexec_fn"] = _drop_file_privileges
        return real(*a, **kw)

    with monkeypatch.context() as m:
        m.setattr(subprocess, "Popen", popen)
        return start_serve(home, *args)


def test_a_campaign_on_read_only_media_is_shown_with_writing_off(tmp_path, demo_home, browser, monkeypatch):
    shelf = tmp_path / "cdrom"
    file = copy_demo(demo_home, shelf)
    assert sorted(x.name for x in shelf.iterdir()) == ["guadalcanal.campaign"]  # as burnt: no sidecars
    file.chmod(0o444)
    shelf.chmod(0o555)
    try:
        served = start_serve_as_player(tmp_path / "home", str(file), monkeypatch=monkeypatch)
        try:
            ctx, page = open_page(browser, served.url)
            try:
                page.wait_for_selector(".ca-write-refusal", state="visible", timeout=30_000)
                text = page.inner_text(".ca-write-refusal")
                assert "Writing is off" in text and "view and export only" in text and "read-only" in text
                assert all(disabled(page).values()), disabled(page)
                assert "damaged" not in page.inner_text("body")
                assert page.eval_on_selector_all(".ca-unit-list select option", "els => els.length") > 0
                title = page.get_attribute(".ca-add-note", "title") or ""
                assert title.startswith("Writing is off:"), title
                shot(page, "campaign-file-read-only-media")
            finally:
                ctx.close()
        finally:
            assert served.stop() == 0, "".join(served.output)
    finally:
        shelf.chmod(0o755)
        file.chmod(0o644)
    assert sorted(x.name for x in shelf.iterdir()) == ["guadalcanal.campaign"]  # no sidecar was made there
