"""The rules read region, area and nation names from the map data: every name a game's rules
compare a hex with (``REGIONS_READ`` in any of its rules modules) is a region or country of its
shipped map, and every nation a hex names (country, home_of, colony_of) is a nation the game's
sides declare, so a rule comparing them can match."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

from assistant.maps import list_games, load_game_spec, load_map

NATION_ATTRS = ("country", "home_of", "colony_of")


def regions_read(game: str) -> dict[str, str]:
    """Each region name a game's rules modules declare they read -> the module declaring it."""
    pkg = importlib.import_module(f"assistant.rules.{game}")
    out = {}
    for info in pkgutil.iter_modules(pkg.__path__):
        mod = importlib.import_module(f"{pkg.__name__}.{info.name}")
        for name in getattr(mod, "REGIONS_READ", ()):
            out.setdefault(name, mod.__name__)
    return out


def map_names(game: str) -> set[str]:
    return {str(a[k]) for _, a in load_map(game).graph().nodes(data=True) for k in ("region", "country") if a.get(k)}


@pytest.mark.parametrize("game", list_games())
def test_every_region_the_rules_read_is_on_the_shipped_map(game):
    names = map_names(game)
    missing = {n: where for n, where in regions_read(game).items() if n not in names}
    assert not missing, f"{game}: the rules read regions its shipped map lacks: {missing}"


def test_the_games_whose_rules_read_regions_declare_them():
    """apto's [7.0] sources and always-supplied areas, witp's air garrison areas; Global War's rules
    read countries as nation ids only (checked below)."""
    assert {"Hawaiian Is.", "Bismarck Is.", "Indochina", "Philippines", "Malaya"} <= set(regions_read("apto"))
    assert {"Philippines", "Japan", "Manchuria", "Hawaiian Islands"} <= set(regions_read("witp"))
    assert regions_read("globalwar") == {}


@pytest.mark.parametrize("game", list_games())
def test_every_nation_a_hex_names_is_a_nation_of_the_game(game):
    nations = {n.id for s in load_game_spec(game).sides for n in s.nations}
    named = {str(a[k]) for _, a in load_map(game).graph().nodes(data=True) for k in NATION_ATTRS if a.get(k)}
    assert named, game
    assert named <= nations, f"{game}: hexes name nations its sides lack: {sorted(named - nations)}"
