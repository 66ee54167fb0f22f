"""A campaign pins its map: the map version and placed geometry it was created
on, so that a later ``campaign map derive`` does not silently move hexes under it.

``pin_for`` reads the installed map's version; ``map_for`` builds the GameMap a campaign plays
on (its pinned geometry; the installed map for old files without a pin); ``map_status`` says
which version a campaign uses and whether the installed map differs.
"""

from __future__ import annotations

import json
import logging
from functools import lru_cache
from typing import Any, Optional

from ..hexes import GridSpec, HexError
from ..maps import GameMap, UnknownGame, load_game_spec, load_map
from ..maps.version import current_map_version
from .errors import CampaignError
from .model import CampaignState, MapPin

log = logging.getLogger(__name__)


def pin_for(game: str, model: Optional[str] = None) -> MapPin:
    """The pin of ``game``'s map as installed now (grid ``model``; None: the calibrated one)."""
    try:
        v = current_map_version(game, model)
    except (UnknownGame, HexError) as e:
        raise CampaignError(str(e).splitlines()[0]) from None
    return MapPin(model=v.model, version=v.version, grid=v.grid)


def _grid_key(grid: Any) -> str:
    return json.dumps(grid, sort_keys=True, separators=(",", ":"))


@lru_cache(maxsize=32)
def _pinned_map(game: str, model: str, grid_json: str) -> GameMap:
    return GameMap.from_grid_spec(load_game_spec(game), GridSpec.model_validate_json(grid_json), model)


def map_for(game: str, pin: Optional[MapPin]) -> GameMap:
    """The GameMap a campaign on ``pin`` plays on: the installed map when its geometry is the
    pinned one (or the file has no pin), else a GameMap on the pinned geometry. A pin this version
    cannot read falls back to the installed map with a logged warning (``map_status`` says so)."""
    if pin is None:
        return load_map(game)
    try:
        current = load_map(game)  # the shared instance when the pinned model is the calibrated one
        if current.model != pin.model:
            current = load_map(game, pin.model)
        if _grid_key(current.grid_spec.model_dump(mode="json")) == _grid_key(pin.grid):
            return current
        return _pinned_map(game, pin.model, _grid_key(pin.grid))
    except (HexError, ValueError) as e:
        log.warning("campaign map %s (%s) cannot be built (%s); using the installed map", pin.short, pin.model, e)
        return load_map(game)


def map_status(state: CampaignState, gm: Optional[GameMap] = None) -> dict[str, Any]:
    """Which map ``state`` uses and how it compares with the installed one (for ``campaign info``)."""
    pin = state.map_pin
    try:
        now = pin_for(state.game, pin.model if pin else None)
    except CampaignError as e:
        now, why = None, str(e)
    else:
        why = None
    out: dict[str, Any] = {
        "pinned": pin is not None, "model": pin.model if pin else (now.model if now else None),
        "version": pin.version if pin else None, "installed_version": now.version if now else None,
        "revision": state.map_revision,
    }
    if pin is None:
        out["newer"] = False
        out["geometry_changed"] = False
        out["note"] = "not pinned (a file from before map pins): it uses the installed map"
    else:
        out["newer"] = now is None or now.version != pin.version
        out["geometry_changed"] = now is None or _grid_key(now.grid) != _grid_key(pin.grid)
        if now is None:
            out["note"] = f"the installed map cannot be read ({why})"
        elif out["newer"]:
            out["note"] = (f"the installed map {now.short} differs from the campaign's {pin.short}"
                           + (" (hexes lie elsewhere)" if out["geometry_changed"] else " (same geometry)")
                           + "; 'campaign map upgrade' moves the campaign to it")
        else:
            out["note"] = "the campaign's map is the installed one"
    if gm is not None and pin is not None:
        out["geometry_in_use"] = ("pinned" if _grid_key(gm.grid_spec.model_dump(mode="json")) == _grid_key(pin.grid)
                                  else "installed (the pinned geometry cannot be read by this version)")
    return out
