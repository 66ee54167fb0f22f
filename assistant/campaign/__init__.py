"""Campaign state: an event-sourced campaign file that never loses a record.

    from assistant.campaign import Campaign, CampaignError
    c = Campaign.create("pacific.campaign", game="witp", scenario="guadalcanal-1942")
    c.place_unit("allies", "division", "E2519", name="Americal Division")
    c.advance(); c.undo(); c.state.turn.label

Modules: ``store`` (SQLite I/O), ``events`` (typed, versioned event types), ``fold`` (the pure
fold), ``commands``/``validate`` (validation), ``calendar``/``gamedata``/``scenario`` (game data),
``export`` (JSON/CSV/Parquet/Excel), ``slices`` (aids' state slices and their discovery),
``mappin`` (the map a campaign is pinned to), ``campaign`` (the Campaign object).

State several aids read lives here, not in any one aid: ``control`` (hex control),
``printedtables`` (the printed tables a player entered), ``world`` (the rules' ``World`` built
from a state), ``dicenotation`` (``2d6``, ``1d10z``), and ``handover`` (the named kinds of record
one aid hands another, such as the strike losses the ledger books).
"""

# Hex control and the printed tables are core event types and slices: registered whenever the
# campaign layer loads, so a file holding them opens with or without any aid installed.
from . import batch, board, control, printedtables  # noqa: F401
from .calendar import Calendar, Phase, TurnInfo
from .campaign import Campaign
from .errors import BusyError, CampaignError, CampaignFileError, StaleViewError
from .events import EVENT_TYPES, EventBody, EventRecord, register_event, register_upcaster
from .model import CampaignState, MapPin, Nation, Note, Side, Unit
from .scenario import list_scenarios, load_scenario
from .slices import StateSlice, load_aids, model_slice, register_slice

__all__ = [
    "BusyError", "Calendar", "Campaign", "CampaignError", "CampaignFileError", "CampaignState", "EVENT_TYPES",
    "EventBody", "EventRecord", "MapPin", "Nation", "Note", "Phase", "Side", "StaleViewError", "StateSlice", "TurnInfo",
    "Unit", "list_scenarios", "load_aids", "load_scenario", "model_slice", "register_event", "register_slice",
    "register_upcaster",
]
