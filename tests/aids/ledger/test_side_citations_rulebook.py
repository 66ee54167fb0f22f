"""A side's ledger never cites the other side's rule: every rule a side's price list or forecast
cites, whose rulebook heading names one side only, names that side (witp's "CP income" once cited
[28.1] "Determining Japanese Command Points" for the Allies and [28.2] "Determining Allied CP'S" for
Japan; "PP income" [53.6] "Japanese Production Points" for the Allies).

The rulebook is read for the headings: the check skips (CI fails) without it, as every quote check."""

from __future__ import annotations

import re
from functools import cache

import pytest

import rulebooks
from assistant.aids.ledger.engine import context_of, economy, forecast
from assistant.campaign import Campaign
from assistant.maps.gamespec import list_games

# Words by which a rule's heading names a side (each game's sides by id).
SIDE_WORDS = {
    "japan": r"Japanese|Japan",
    "allies": r"Allied|Allies|US|U\.S\.|American|CW|Commonwealth|Chinese|British|Soviet|Russian",
    "axis": r"Axis|German|Germany|Italian|Italy",
}
BRACKETED = re.compile(r"\[(\d+(?:\.\d+)+)\]")
PLAIN = re.compile(r"(?<![\d.])(\d+(?:\.\d+)+)(?:\.[A-Z])?(?![\d.])")


@cache
def headings(game: str) -> dict[str, str]:
    """Rule number -> the rest of the line that starts it (its heading, or its first sentence)."""
    rulebooks.text(game)  # skips (or, under CI, fails) without the rulebook
    out: dict[str, str] = {}
    for line in rulebooks.path(game).read_text(encoding="utf-8", errors="replace").splitlines():
        m = re.match(r"\s*\[(\d+(?:\.\d+)+)\]\s*(.*)", line) or re.match(r"\s*(\d+(?:\.\d+)+)\s+(\S.*)", line)
        if m:
            out.setdefault(m.group(1), m.group(2)[:160])
    return out


def sides_named(text: str) -> set[str]:
    return {side for side, words in SIDE_WORDS.items() if re.search(rf"\b(?:{words})\b", text)}


def cited(rule: str) -> list[str]:
    return BRACKETED.findall(rule or "") or PLAIN.findall(rule or "")


@pytest.mark.parametrize("game", list_games())
def test_a_sides_ledger_cites_no_rulebook_rule_headed_for_the_other_side_only(game, tmp_path):
    with Campaign.create(tmp_path / "x.campaign", game=game) as c:
        graph = c.graph()
        ctx = context_of(c.state, graph)
        wrong, checked = [], 0
        for side in [s.id for s in c.state.sides if s.id in SIDE_WORDS]:
            rules = [(p.item, p.rule) for p in economy(game).catalogue(side, ctx)]
            rules += [(line.item, line.rule) for st in forecast(c.state, graph, side) for line in st.lines]
            for item, rule in rules:
                for number in cited(rule):
                    named = sides_named(headings(game).get(number, ""))
                    checked += bool(named)
                    if named and side not in named:
                        wrong.append(f"{side}: {item} cites {number} ({headings(game)[number][:60]!r})")
    assert wrong == []
    assert checked > 0 or game == "globalwar", "no cited rule's heading names a side: the check tests nothing"


def test_a_sides_supply_traces_cite_no_rulebook_rule_headed_for_the_other_side_only(tmp_path):
    """The same for the supply tracer's reasons and working, on the Guadalcanal scenario (both sides
    on the map: Japanese and Allied bases, HQs and units)."""
    from assistant.aids.supply.engine import trace_side, world_of

    with Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942") as c:
        world = world_of(c.state, c.graph())
        wrong, checked = [], 0
        for side in ("japan", "allies"):
            for t in trace_side(world, side).items:
                for text in [r.rule for r in t.reasons] + list(t.steps):
                    for number in BRACKETED.findall(text):
                        named = sides_named(headings("witp").get(number, ""))
                        checked += bool(named)
                        if named and side not in named:
                            wrong.append(f"{side}: {t.unit} cites {number} in {text[:80]!r}")
    assert wrong == [] and checked > 0
