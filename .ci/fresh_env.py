"""Prove that the running interpreter is a fresh environment: none of the project's declared
dependencies (``[project].dependencies`` and the ``test`` extra of pyproject.toml) is installed or
importable. ``.ci/run`` runs this in its new virtual environment BEFORE installing anything, so
the README's test command is shown to pass from nothing.

    python .ci/fresh_env.py [PYPROJECT]     exit 0: fresh; exit 1: names what is already there
"""

from __future__ import annotations

import importlib.metadata as md
import importlib.util
import re
import sys
from pathlib import Path

# Import names the README's dashboards and tests need first, checked besides the distributions.
MODULES = ("pandas", "ipywidgets", "networkx", "pydantic", "voila", "pytest")


def declared(pyproject: Path) -> list[str]:
    """Distribution names of the dependencies and every optional-dependency group."""
    text = pyproject.read_text(encoding="utf-8")
    try:
        import tomllib

        project = tomllib.loads(text)["project"]
        specs = list(project.get("dependencies", []))
        for group in project.get("optional-dependencies", {}).values():
            specs += group
    except ModuleNotFoundError:  # Python 3.10: the quoted requirement strings of the file
        specs = re.findall(r'^\s*"([A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?\s*(?:[<>=!~;][^"]*)?)",?\s*$',
                           text, flags=re.M)
    return sorted({re.split(r"[\s<>=!~;\[]", s.strip(), maxsplit=1)[0] for s in specs})


def present(names: list[str]) -> list[str]:
    found = []
    for n in names:
        try:
            found.append(f"{n} {md.version(n)}")
        except md.PackageNotFoundError:
            pass
    found += [f"module {m}" for m in MODULES if importlib.util.find_spec(m) is not None]
    return found


def main(argv: list[str]) -> int:
    pyproject = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parents[1] / "pyproject.toml"
    names = declared(pyproject)
    if not names:
        print(f"error: {pyproject} declares no dependencies to check", file=sys.stderr)
        return 1
    found = present(names)
    if found:
        print(f"error: {sys.prefix} is not a fresh environment: it already has {', '.join(found)}",
              file=sys.stderr)
        return 1
    print(f"fresh environment {sys.prefix} (Python {sys.version.split()[0]}): none of the "
          f"{len(names)} declared dependencies is installed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
