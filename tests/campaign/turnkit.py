"""Campaigns of several turns built with the Python API, for the per-turn tables' tests (imported
by name, like ``campaignkit``)."""

from __future__ import annotations

import importlib
import random
from pathlib import Path

from assistant.campaign import Campaign
from assistant.campaign.control import set_control

# Per game: two hexes a unit stands in and moves to, a unit of a declared kind with typed values
# (and a note of the player's own), and a region the map names (None: the game names none).
GAMES = {
    "witp": {"a": "E2519", "b": "E2418", "c": "B3227", "side": "allies", "other": "japan",
             "kind": "HQ", "nation": "australia", "attrs": {"hq_type": "army", "sea_radius": 3, "mine": "x"},
             "update": {"sea_radius": 2}, "second": ("japan", "infantry division", {"steps": 3})},
    "apto": {"a": "W 3021", "b": "W 3825", "c": "W 3022", "side": "allies", "other": "japan",
             "kind": "Land unit", "nation": "us", "attrs": {"strength": "1/2", "posture": "attacking", "mine": "x"},
             "update": {"strength": 3}, "second": ("japan", "Air unit", {"type": "F", "quality": "none",
                                                                          "range": 6})},
}


def loads(aid: str) -> bool:
    """Is ``assistant.aids.<aid>`` importable (not made unimportable by ``--block-aid``)?"""
    try:
        importlib.import_module(f"assistant.aids.{aid}")
    except ImportError:
        return False
    return True


def played(path: Path, game: str) -> tuple[Campaign, dict[str, str]]:
    """A ``game`` campaign of three turns: turn 0 places two units and sets a hex's control; turn 1
    moves the first unit and changes one of its values; turn 2 removes the second, hands the hex to
    the other side and adds a second hex; a note, a dice roll and (with the ledger aid) a ledger
    line on the way. Returns the open campaign and the ids (``first``, ``second``)."""
    g = GAMES[game]
    c = Campaign.create(path, game=game)
    first = c.place_unit(g["side"], g["kind"], g["a"], name="First", nation=g["nation"], attrs=g["attrs"]).body.unit.id
    side2, kind2, attrs2 = g["second"]
    second = c.place_unit(side2, kind2, g["c"], name="Second", attrs=attrs2).body.unit.id
    set_control(c, "hex", [g["a"]], g["side"])
    c.add_note("=1+1 opening moves")
    if loads("dice"):
        from assistant.aids.dice import RollDice

        c.execute(RollDice("2d6", reason="first roll"), rng=random.Random(3))
    c.advance("turn")
    c.move_unit(first, g["b"])
    c.update_unit(first, **g["update"])
    c.set_hex(g["b"], region="Test Reach")
    if loads("ledger"):
        from assistant.aids.ledger.commands import AddEntry

        c.execute(AddEntry(side=g["side"], kind="adjust", amount="4"))
    c.advance("turn")
    c.remove_unit(second)
    set_control(c, "hex", [g["a"], g["c"]], g["other"])
    set_control(c, "region", ["Test Reach"], g["side"])
    return c, {"first": first, "second": second}
