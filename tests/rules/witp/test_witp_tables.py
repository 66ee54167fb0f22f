"""Every witp supply table transcribed in assistant/rules/witp/tables.py, printed back in the
rulebook's words, is found verbatim in the rulebook text ([31.3.1], [32.2.1]-[32.2.4], [32.4.1])."""

import re

import pytest

from assistant.rules.witp import tables as T
from rulebooks import one_line, text


def section(rule: str, nxt: str) -> str:
    """The witp rulebook from ``rule`` up to ``nxt``, as one line."""
    book = text("witp")
    a = book.index(rule)
    return book[a:book.index(nxt, a)]


ROWS = ([("[32.2.1]", "[32.2.2]", T.render_category_row(c)) for c in T.CATEGORIES]
        + [("[32.2.2]", "[32.2.3]", T.render_air_row(c)) for c in T.CATEGORIES]
        + [("[32.2.3]", "[32.2.4]", T.render_naval_row(c)) for c in T.CATEGORIES]
        + [("[32.2.4]", "[32.3]", T.render_ground_row(c)) for c in T.CATEGORIES]
        + [("[32.4.1]", "[32.5]", T.render_msu_row(i)) for i in range(len(T.MSU_TABLE))]
        + [("[31.3.1]", "[31.3.2]", T.render_cargo_row(i)) for i in range(len(T.CARGO_TABLE))])


@pytest.mark.parametrize("rule, nxt, row", ROWS, ids=[f"{r}:{row[:30]}" for r, _, row in ROWS])
def test_each_transcribed_row_is_the_rulebooks_own(rule, nxt, row):
    assert one_line(row) in section(rule, nxt)


def test_32_9_extra_distances_and_11_5_port_damage_are_the_rulebooks():
    s = section("[32.9]", "[33.0]")
    for k, v in T.UCS_EXTRA.items():
        assert f"- {k}: + {v}" in s
    s = section("[11.5] Bombardment", "[11.5.1]")
    for lvl, pct in T.PORT_DAMAGE_RADIUS_PCT.items():
        assert re.search(rf"Command Radius of (all|any) HQ('s)? present by {pct}% \(rounded down\)", s), lvl
