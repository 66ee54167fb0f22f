"""The map editor's vocabulary cites the rules that say what each hex attribute is: each
reference checked against the rulebook's own sentence under that rule's heading."""

import pytest

from assistant.maps import load_game_spec
from rulebooks import one_line, text

# (game, attribute, the rule its reference must cite, that rule's heading, the next heading, the
# rulebook's sentence under it)
CITED = [
    # apto [3.15] Ports: "Ports exist within coastal city hexes, nation boxes and other locations
    # abroad (e.g., the Panama hex), and are identified by encircled anchor symbols ..." ([7.10] is
    # Out-of-Supply Units, which says nothing of ports)
    ("apto", "port", "[3.15]", "[3.15] Ports", "[3.16]",
     "Ports exist within coastal city hexes, nation boxes and other locations abroad (e.g., the Panama "
     "hex), and are identified by encircled anchor symbols"),
    ("apto", "port_destroyed", "[3.15]", "[3.15] Ports", "[3.16]",
     'Naval units may never enter a port that is currently "destroyed"'),
    # apto: the Map Clarifications' Colonies list names each nation's possessions ("CHINA =
    # Hainan."); [8.2] "add +2 EPs for each colony's resource hex currently controlled by that nation"
    ("apto", "colony_of", '"Map Clarifications"', "Map Clarifications", "[1.0]",
     "The territorial possession(s) of each Pacific nation is listed as follows"),
    ("apto", "colony_of", "[8.2]", "[8.2] Determining Economic Point Income", "[8.3]",
     "add +2 EPs for each colony's resource hex currently controlled by that nation"),
    # globalwar 9.0 D: "A supply path may be traced either overland or through a friendly port,
    # through a Merchant Ship Pipeline, to another friendly port ..." -- the reference was right;
    # 18.5.3 says what a port is on the map: a counter placed on a hex.
    ("globalwar", "port", "[9.0.D]", "9.0 Land Supply", "9.1 Supply Sources",
     "D. A supply path may be traced either overland or through a friendly port, through a Merchant Ship "
     "Pipeline, to another friendly port"),
    ("globalwar", "port", "[18.5.3]", "18.5.3 Ports", "18.6 Pipelines",
     "may be placed at any time on any friendly land/sea hex. B. Once placed, ports may not be moved."),
]


@pytest.mark.parametrize("game,attr,rule,heading,nxt,words", CITED, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CITED])
def test_attribute_cites_the_rule_whose_text_defines_it(game, attr, rule, heading, nxt, words):
    assert rule in load_game_spec(game).hexes.attributes[attr].rule.split(";")


@pytest.mark.parametrize("game,attr,rule,heading,nxt,words", CITED, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CITED])
def test_the_cited_sentence_is_under_that_rulebook_heading(game, attr, rule, heading, nxt, words):
    book = text(game)
    start = book.index(heading)
    end = book.index(nxt, start + len(heading))
    assert one_line(words) in book[start:end], (heading, words)
