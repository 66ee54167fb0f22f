"""A game's map for GIS, with a campaign's state on it: every hex's outline on the globe
(``maps.geo``) with its label, surface and terrain (the campaign's map corrections applied) and,
with a campaign, who controls it (``control``, and the step of the control rules that decided,
``control_by``) and the units in it (``units``: ids, ``unit_names``). As GeoJSON
(``map_geojson``; the CLI's ``campaign map geojson``) or a geopandas GeoDataFrame
(``geodataframe``, with the ``gis`` extra).

>>> from assistant.campaign.geomap import geodataframe
>>> gdf = geodataframe("witp", "g.campaign")            # doctest: +SKIP
>>> gdf[gdf.control == "japan"].plot()                   # doctest: +SKIP
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Union

from .errors import CampaignError

CampaignLike = Union[None, str, Path, Any]


def map_geojson(game: str, campaign: CampaignLike = None) -> dict:
    """The GeoJSON FeatureCollection of ``game``'s map (``maps.geo``: RFC 7946), one Feature per
    hex; ``campaign`` (a Campaign of that game, or the path of its file, opened read-only) adds
    its corrections, control and units and draws its pinned map."""
    from ..maps.geo import feature_collection, hex_outlines

    if campaign is None or hasattr(campaign, "state"):
        gm, props = _map_and_properties(game, campaign)
        return feature_collection(hex_outlines(gm), props)
    opened = _open(campaign)
    try:
        return map_geojson(game, opened)
    finally:
        opened.close()


def geodataframe(game: str, campaign: CampaignLike = None):
    """``map_geojson(game, campaign)`` as a geopandas GeoDataFrame: one row per hex, indexed by
    its label, the same columns as the Features' properties, CRS EPSG:4326 (longitude, latitude).
    Needs geopandas: ``pip install 'campaign-assistant[gis]'`` (CampaignError saying so without it)."""
    from ..maps.geo import GIS_EXTRA, geodataframe_of

    try:
        import geopandas  # noqa: F401
    except ModuleNotFoundError:
        raise CampaignError(f"a GeoDataFrame needs geopandas: {GIS_EXTRA}") from None
    return geodataframe_of(map_geojson(game, campaign))


def _open(path):
    from .campaign import Campaign

    if not isinstance(path, (str, Path)):
        raise CampaignError(f"campaign must be a Campaign, the path of a campaign file or None, "
                            f"not {type(path).__name__}")
    return Campaign.open(path, readonly=True)


def _map_and_properties(game: str, campaign):
    from ..maps.gamemap import load_map
    from ..maps.gamespec import list_games
    from ..maps.geo import hex_properties

    if not isinstance(game, str) or game not in list_games():
        raise CampaignError(f"game {game!r} is not a game (games: {', '.join(list_games())})")
    if campaign is None:
        gm = load_map(game)
        return gm, hex_properties(gm)
    state = campaign.state
    if state.game != game:
        raise CampaignError(f"campaign {campaign.path} is a {state.game} campaign, not {game}")
    from .mapfix import corrected_hexes
    from .world import world_of

    gm = campaign.map
    props = hex_properties(gm, corrected_hexes(gm.hexes, state))
    control = world_of(state, campaign.graph()).control
    decided = [control.resolve(label) for label in props.index]
    props["control"] = [side for side, _ in decided]
    props["control_by"] = [by for _, by in decided]
    units: dict[str, list] = {}
    for u in sorted(state.units.values(), key=lambda u: u.id):
        units.setdefault(u.hex, []).append(u)
    props["units"] = [[u.id for u in units.get(label, ())] for label in props.index]
    props["unit_names"] = [[u.name or u.id for u in units.get(label, ())] for label in props.index]
    return gm, props
