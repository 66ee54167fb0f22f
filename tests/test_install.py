"""A non-editable install carries the games' data and the notebooks (issue 2 item 1)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(cmd, **kw):
    """Run a command of the inner environment; on failure, fail with its stderr (not only the
    exit status that CalledProcessError shows)."""
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode:
        pytest.fail(f"{' '.join(map(str, cmd))} exited {proc.returncode}:\n{proc.stderr[-4000:]}")
    return proc


@pytest.mark.slow
def test_wheel_install_works_from_another_directory(tmp_path):
    """Built as a newcomer would: a venv of its own (no system site-packages, so nothing of this
    machine's leaks in), the wheel installed WITH its dependencies, run from another folder."""
    wheels = tmp_path / "wheels"
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)], timeout=300)
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    py = venv / "bin" / "python"
    wheel = next(wheels.glob("campaign_assistant-*.whl"))
    run([str(py), "-m", "pip", "install", "-q", str(wheel)], timeout=900)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    where = run([str(py), "-c", "import assistant, assistant.paths as p; print(assistant.__file__);"
                 "print(p.data_dir()); print(p.notebooks_dir())"], cwd=elsewhere, env=env)
    pkg, data, notebooks = where.stdout.split()
    assert str(venv) in pkg and str(venv) in data and str(venv) in notebooks
    assert (Path(notebooks) / "campaign.ipynb").is_file()
    assert (Path(pkg).parent / "ui/jupyter/voila/templates/campaign/index.html.j2").is_file()
    out = run([str(venv / "bin" / "campaign"), "map", "info", "witp", "--json"], cwd=elsewhere, env=env)
    info = json.loads(out.stdout)
    assert info["hexes"] > 10_000 and info["rms"] is not None
    # the aids ship and are discovered in an installed wheel: a campaign with a dice roll reopens
    camp = str(elsewhere / "x.campaign")
    run([str(venv / "bin" / "campaign"), "new", camp, "--game", "apto"], cwd=elsewhere, env=env)
    run([str(venv / "bin" / "campaign"), "roll", camp, "2d6", "--seed", "1"], cwd=elsewhere, env=env)
    info = json.loads(run([str(venv / "bin" / "campaign"), "info", camp, "--json"], cwd=elsewhere, env=env).stdout)
    assert info["events"] >= 2, info
