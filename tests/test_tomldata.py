"""Where a key is in a TOML file's text: the line a data file's error names."""

from __future__ import annotations

import pytest

from assistant.tomldata import key_line

TEXT = '''\
# a comment = not a key
[game]
id = "x"
origin = { year = 1941, period = "13" }

[[sides]]
id = "axis"

[[sides]]
id = "allies"
nations = [
  { id = "us", name = "a, b = { [c] }" },  # a comment, with = and {
  { id = "uk",
    name = "Britain" },
]
pairs = [["a", "b"], ["c", "d"]]
doc = """
nations = [ not a key ]
"""
'''


@pytest.mark.parametrize("key, line", [
    (("game",), 2),
    (("game", "id"), 3),
    (("game", "origin", "period"), 4),
    (("game", "name"), 2),                        # missing: its table's header
    (("sides", 0, "id"), 7),
    (("sides", 1, "nations"), 11),
    (("sides", 1, "nations", 0, "name"), 12),
    (("sides", 1, "nations", 1), 13),
    (("sides", 1, "nations", 1, "name"), 14),
    (("sides", 1, "nations", 1, "flag"), 13),     # missing: its inline table's line
    (("sides", 1, "nations", 5, "id"), 11),       # no such element: the array's key
    (("sides", 1, "pairs", 1), 16),
    (("sides", 1, "doc"), 17),
])
def test_a_keys_line(key, line):
    assert key_line(TEXT, key) == line
