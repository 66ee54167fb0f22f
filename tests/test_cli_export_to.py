"""``campaign export --to DIR``: an empty or blank DIR is refused in one line, nothing written
(``Path('')`` is the current folder: the export landed wherever the command was run)."""

from __future__ import annotations

import os

import pytest

from assistant.campaign import Campaign
from clikit import run_cli


@pytest.fixture
def campaign_file(tmp_path):
    c = Campaign.create(tmp_path / "w.campaign", game="witp")
    c.close()
    return c.path


@pytest.mark.parametrize("to", ["", " ", "\t", "  \n"])
@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_export_to_an_empty_folder_name_is_refused(tmp_path, campaign_file, to, fmt):
    here = tmp_path / "here"
    here.mkdir()
    cwd = os.getcwd()
    os.chdir(here)
    try:
        r = run_cli("export", campaign_file, "--to", to, "--format", fmt, home=tmp_path / "home")
    finally:
        os.chdir(cwd)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: ") and "--to" in r.stderr, r.stderr
    assert list(here.iterdir()) == []


def test_export_to_a_folder_still_writes_there(tmp_path, campaign_file):
    r = run_cli("export", campaign_file, "--to", tmp_path / "out", home=tmp_path / "home")
    assert r.returncode == 0, r.stderr
    assert [p.name for p in (tmp_path / "out").iterdir()] and r.stdout.startswith("wrote ")
