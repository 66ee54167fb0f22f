"""The test folders have no __init__.py (pytest's default import mode puts each folder on the path),
so two test modules with one basename would stop the whole run at collection: keep them unique."""

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_test_module_basenames_are_unique():
    names = Counter(p.name for p in TESTS.rglob("*.py") if p.name != "conftest.py" and "__pycache__" not in p.parts)
    assert [n for n, c in names.items() if c > 1] == []
