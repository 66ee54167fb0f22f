"""``campaign orders FILE [ORDERS.txt|-]``: orders from a file or from stdin, one step or none."""

from __future__ import annotations

import io
import json
import subprocess

import pytest

from assistant.campaign import Campaign
from assistant.cli import main
from campaignkit import PY, REPO, file_fingerprint, subprocess_env

ORDERS = """# Allied moves
move "1st Marine Division" E2519
place "2nd Marine Div" "marine division" at E2619 side allies nation us tq=8
move "2nd Marine" to E2418
control E2519 E2619 allies
"""


@pytest.fixture
def f(tmp_path, capsys):
    p = tmp_path / "g.campaign"
    assert main(["new", str(p), "--game", "witp", "--scenario", "guadalcanal-1942"]) == 0
    capsys.readouterr()
    return p


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def units(path) -> dict:
    with Campaign.open(path, readonly=True) as c:
        return {u.id: u.hex for u in c.state.units.values()}


def test_orders_from_a_file_are_one_step_that_one_undo_takes_back(f, tmp_path, capsys):
    orders = tmp_path / "turn.txt"
    orders.write_text(ORDERS, encoding="utf-8")
    before = units(f)
    code, out, err = run(capsys, "orders", f, orders)
    assert (code, err) == (0, "")
    assert out.startswith("recorded 4 orders as one step (#") and out.endswith("'campaign undo' takes them all back\n")
    after = units(f)
    assert after["1st-marine-division"] == "E2519" and after["2nd-marine-div"] == "E2418"
    code, out, _ = run(capsys, "undo", f)
    assert code == 0 and out.startswith("undo #") and units(f) == before
    assert run(capsys, "redo", f)[0] == 0 and units(f) == after


def test_orders_from_stdin_with_a_dash_or_no_file(f, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("move 1st-marine-division E2519\n"))
    assert run(capsys, "orders", f, "-")[0] == 0 and units(f)["1st-marine-division"] == "E2519"
    monkeypatch.setattr("sys.stdin", io.StringIO("move 1st-marine-division E2619\nmove kido-butai E2619\n"))
    code, out, _ = run(capsys, "orders", f, "--json")
    d = json.loads(out)
    assert code == 0 and d["type"] == "batch" and d["orders"] == 2 and len(d["payload"]["events"]) == 2


def test_a_real_pipe_into_the_installed_command(f):
    p = subprocess.run([PY, "-m", "assistant.cli", "orders", str(f)], input="move kido-butai E2519\n", cwd=REPO,
                       env=subprocess_env(), capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert units(f)["kido-butai"] == "E2519"


def test_bad_lines_are_each_named_under_the_error_line_and_nothing_is_written(f, tmp_path, capsys):
    orders = tmp_path / "turn.txt"
    orders.write_text(ORDERS + "move nobody E2519\n\nremove kido-butai\nfly kido-butai E2519\n", encoding="utf-8")
    before = file_fingerprint(f)
    code, out, err = run(capsys, "orders", f, orders)
    assert (code, out) == (2, "")
    assert err.splitlines() == ["error: 2 of 7 orders refused, nothing recorded:",
                                "  line 6: no unit called nobody on the map",
                                "  line 9: fly is not an order (orders: move, place, remove, control, set)"]
    assert file_fingerprint(f) == before


def test_an_unreadable_orders_file_is_one_line(f, tmp_path, capsys):
    code, _, err = run(capsys, "orders", f, tmp_path / "missing.txt")
    assert code == 2 and err.startswith("error: No such file or directory: ") and len(err.splitlines()) == 1
    (tmp_path / "bin.txt").write_bytes(b"move \xff\xfe E2519\n")
    code, _, err = run(capsys, "orders", f, tmp_path / "bin.txt")
    assert code == 2 and err == f"error: {tmp_path / 'bin.txt'} is not UTF-8 text\n"


def test_a_ground_unit_placed_at_sea_warns_with_its_line(f, capsys, monkeypatch):
    with Campaign.open(f, readonly=True) as c:
        sea = next(h for h, (surface, _) in sorted(c.map.surfaces.items()) if surface == "sea" and h.startswith("E"))
    monkeypatch.setattr("sys.stdin", io.StringIO(
        f"# landing\nplace 'Americal' 'infantry division' at {sea} side allies nation us\n"))
    code, _, err = run(capsys, "orders", f)
    assert code == 0 and err.startswith(f"warning: line 2: {sea} is open sea on the map")
