"""A non-editable install carries the games' data and the notebooks."""

import json
import os
import site
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
    """Built as a newcomer would: the wheel installed into a venv of its own (no system
    site-packages, so nothing of this machine's leaks in) and run from another folder.

    Its dependencies are this test environment's (which .ci/run installs fresh from the declared
    list), reached through a ``.pth`` line that follows the venv's own site-packages: the wheel's
    ``assistant`` is found first, a development checkout's editable hook is never run, and
    ``pip check`` proves every declared dependency is there. Installing them again would be the
    same install .ci/run has just done, at 80 s."""
    wheels = tmp_path / "wheels"
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)], timeout=300)
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])  # this pip installs into it
    py = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(py)]
    inner = Path(run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    outer = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (inner / "zz_test_environment.pth").write_text("".join(f"{p}\n" for p in outer))
    wheel = next(wheels.glob("campaign_assistant-*.whl"))
    # --ignore-installed: the test environment's own install (seen through the .pth line) is neither
    # taken as already there nor touched
    run([*pip, "install", "-q", "--no-deps", "--ignore-installed", str(wheel)], timeout=300)
    check = subprocess.run([*pip, "check"], capture_output=True, text=True)
    missing = [line for line in check.stdout.splitlines() if line.lower().startswith("campaign-assistant")]
    assert missing == [], missing
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


# ----- .ci/run proves the README's test command in a fresh environment --------------------------
CI_RUN = ROOT / ".ci" / "run"
FRESH = ROOT / ".ci" / "fresh_env.py"


def _ci_lines() -> list[str]:
    return [line.strip() for line in CI_RUN.read_text().splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_fresh_env_check_refuses_an_environment_that_has_the_dependencies():
    """This test's own interpreter has them all (it is running pytest): the check names them."""
    proc = subprocess.run([sys.executable, str(FRESH)], capture_output=True, text=True)
    assert proc.returncode == 1, proc.stdout
    assert "not a fresh environment" in proc.stderr and "pandas" in proc.stderr and "ipywidgets" in proc.stderr


def test_fresh_env_check_passes_in_a_new_venv(tmp_path):
    venv = tmp_path / "bare"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    proc = run([str(venv / "bin" / "python"), str(FRESH)])
    assert "none of the" in proc.stdout and str(venv) in proc.stdout


def test_fresh_env_check_reads_every_declared_dependency(monkeypatch):
    """Hand count of pyproject.toml today: 16 dependencies, 11 in the test extra, 2 in the derive extra and 1 in the gis
    extra (geopandas, in the test extra too: counted once); the Python 3.10 fallback (no tomllib) reads the same names."""
    sys.path.insert(0, str(FRESH.parent))
    try:
        import fresh_env
    finally:
        sys.path.remove(str(FRESH.parent))
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    groups = [project["dependencies"], *project.get("optional-dependencies", {}).values()]
    names = fresh_env.declared(ROOT / "pyproject.toml")
    assert {"pandas", "ipywidgets", "pytest", "playwright", "voila"} <= set(names)
    assert len(names) == len({s for g in groups for s in g}) == 16 + 11 + 2
    monkeypatch.setitem(sys.modules, "tomllib", None)  # 'import tomllib' fails as on Python 3.10
    assert fresh_env.declared(ROOT / "pyproject.toml") == names


def test_ci_run_makes_a_clean_venv_and_proves_it_fresh_before_installing():
    lines = _ci_lines()
    venv = next(i for i, line in enumerate(lines) if " -m venv " in f" {line} ")
    assert "--clear" in lines[venv].split(), lines[venv]  # a venv left by an earlier run is emptied
    check = next(i for i, line in enumerate(lines) if "fresh_env.py" in line)
    installs = [i for i, line in enumerate(lines) if "pip install" in line or "bash -c" in line]
    assert installs and venv < check < min(installs), lines
