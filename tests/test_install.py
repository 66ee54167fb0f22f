"""A non-editable install carries the games' data and the notebooks (issue 2 item 1)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_wheel_install_works_from_another_directory(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
                   check=True, timeout=300)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    py = venv / "bin" / "python"
    wheel = next(wheels.glob("campaign_assistant-*.whl"))
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", str(wheel)],
                   check=True, timeout=300)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    where = subprocess.run(
        [str(py), "-c", "import assistant, assistant.paths as p; print(assistant.__file__);"
         "print(p.data_dir()); print(p.notebooks_dir())"],
        cwd=elsewhere, env=env, capture_output=True, text=True, check=True)
    pkg, data, notebooks = where.stdout.split()
    assert str(venv) in pkg and str(venv) in data and str(venv) in notebooks
    assert (Path(notebooks) / "campaign.ipynb").is_file()
    assert (Path(pkg).parent / "ui/jupyter/voila/templates/campaign/index.html.j2").is_file()
    out = subprocess.run([str(venv / "bin" / "campaign"), "map", "info", "witp", "--json"],
                         cwd=elsewhere, env=env, capture_output=True, text=True, check=True)
    info = json.loads(out.stdout)
    assert info["hexes"] > 10_000 and info["rms"] is not None
