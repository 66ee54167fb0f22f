"""Orders of battle: unit types the player enters from the counters, imported
from CSV row by row against each game's schema (``data/games/<game>/oob_schema.toml``), and units
placed on the map by type."""
