"""A healthy campaign in a place that cannot be written (a read-only mount,
simulated by a 0555 directory and a 0444 file met without root's permission-overriding
capabilities: ``campaignkit.run_as_player``) opens read-only — view, export, info, backup — with a
notice, instead of being called "damaged"; a write is one line naming the cause; the dashboard
disables every writing button and shows why."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager

from assistant.campaign import Campaign
from campaignkit import file_fingerprint, run_as_player

CLI = [sys.executable, "-m", "assistant.cli"]


def campaign_cli(*args):
    return run_as_player([*CLI, *map(str, args)], capture_output=True, text=True, timeout=120)


@contextmanager
def shelf(tmp_path):
    """A campaign with notes and units in a 0555 directory, itself 0444 (a read-only medium)."""
    d = tmp_path / "cdrom"
    d.mkdir()
    path = d / "shared.campaign"
    with Campaign.create(path, game="witp", scenario="guadalcanal-1942") as c:
        c.add_note("the opponent's last move")
        units = len(c.state.units)
    path.chmod(0o444)
    d.chmod(0o555)
    try:
        yield path, units
    finally:
        d.chmod(0o755)
        path.chmod(0o644)


def test_view_info_export_and_backup_work_and_say_read_only(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    with shelf(tmp_path) as (path, units):
        before = file_fingerprint(path)
        r = campaign_cli("info", path)
        assert r.returncode == 0, r.stderr
        assert "damaged" not in r.stdout and "integrity  ok" in r.stdout
        assert f"read-only  {path} is read-only" in r.stdout
        d = json.loads(campaign_cli("info", path, "--json").stdout)
        assert d["notes"] == 1 and d["units"] == units and d["read_only_because"]
        r = campaign_cli("units", path)
        assert r.returncode == 0 and len(r.stdout.strip().splitlines()) == units, r.stderr
        r = campaign_cli("log", path)
        assert r.returncode == 0 and "the opponent's last move" in r.stdout, r.stderr
        r = campaign_cli("export", path, "--to", out, "--format", "csv")
        assert r.returncode == 0 and (out / "shared-notes.csv").is_file(), r.stderr
        r = campaign_cli("backup", path, out / "mine.campaign")
        assert r.returncode == 0, r.stderr
        assert file_fingerprint(path) == before
        assert sorted(p.name for p in path.parent.iterdir()) == ["shared.campaign"]  # no sidecar made
    with Campaign.open(out / "mine.campaign") as copy:  # the backup is writable where it lives
        copy.add_note("my reply")


def test_a_write_is_one_line_naming_the_cause_and_changes_nothing(tmp_path):
    with shelf(tmp_path) as (path, _):
        before = file_fingerprint(path)
        r = campaign_cli("note", path, "x")
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and "damaged" not in lines[0], r.stderr
        assert f"cannot write to {path}: {path} is read-only" in lines[0] and "viewed and exported" in lines[0]
        assert file_fingerprint(path) == before


DASHBOARD = """
import json, sys
from assistant.campaign import Campaign
from assistant.ui.dashboard import campaign_dashboard
c = Campaign.open(sys.argv[1], readonly="auto")
print(json.dumps({"readonly": c.readonly, "reason": c.write_refusal}))
c.close()
page = campaign_dashboard(sys.argv[1])
v = page.view
print(json.dumps({"page": type(page).__name__, "disabled": {b.description: b.disabled for b in v.write_buttons()},
                  "note": v.refusal_note.value, "shown": v.refusal_note.layout.display,
                  "tip": v.note_btn.tooltip, "units": len(v.unit_list.options)}))
page.close()
"""


def test_the_dashboard_opens_read_only_disables_writing_and_shows_why(tmp_path):
    with shelf(tmp_path) as (path, units):
        before = file_fingerprint(path)
        r = run_as_player([sys.executable, "-c", DASHBOARD, str(path)], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        api, page = (json.loads(line) for line in r.stdout.strip().splitlines()[-2:])
        assert api["readonly"] is True and f"{path} is read-only" in api["reason"]
        assert page["page"] == "DashboardPage" and page["units"] == units  # the campaign, not an error page
        assert page["disabled"] and all(page["disabled"].values()), page["disabled"]
        assert "Writing is off" in page["note"] and "is read-only" in page["note"] and page["shown"] == "block"
        assert page["tip"].startswith("Writing is off:")
        assert file_fingerprint(path) == before


def test_a_writable_campaign_page_keeps_writing_on(tmp_path):
    from assistant.ui.dashboard import campaign_dashboard

    path = tmp_path / "w.campaign"
    Campaign.create(path, game="witp").close()
    page = campaign_dashboard(path)
    try:
        v = page.view
        assert not page.campaign.readonly and page.campaign.write_refusal is None
        assert not v.note_btn.disabled and v.refusal_note.layout.display == "none"
        # the file is deleted under the page: the next poll turns writing off, with the reason
        path.unlink()
        page.poll()
        assert v.note_btn.disabled and v.place_btn.disabled and "deleted or moved" in v.refusal_note.value
        v.note_text.value = "lost?"
        v.note_btn.click()  # disabled in the browser; even a click through is refused and shown
        assert any("deleted or moved" in r.message for r in page.errors.records)
    finally:
        page.close()


def test_an_aid_view_without_its_own_notice_gets_one_in_the_error_panel(tmp_path):
    """The kit's contract for any aid's page: a view without ``set_write_refusal`` still tells the
    player that writing is off, and why (in the error panel, once)."""
    import ipywidgets as w

    from assistant.ui.kit import attach

    path = tmp_path / "v.campaign"
    Campaign.create(path, game="witp").close()
    with Campaign.open(path, readonly=True) as c:
        page = attach(lambda campaign, errors: w.HTML("an aid"), c)
        page.poll()
        page.poll()
        said = [r.message for r in page.errors.records]
        assert len(said) == 1 and "writing is off" in said[0] and "opened read-only" in said[0]
        page.close()
