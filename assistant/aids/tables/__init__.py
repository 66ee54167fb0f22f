"""Rule tables from the game box: the printed tables a rulebook references but
does not contain, entered once into the campaign and used by every aid from then on.

    from assistant.aids.tables import import_table, tables_of, schemas
    import_table(campaign, "lrb_radius", open("lrb_radius.csv", "rb").read())   # checked whole, one event
    tables_of(campaign.state)["lrb_radius"].rows

``schema`` reads ``data/games/<game>/templates/schemas.toml`` and checks a table row by row;
``commands`` ``SetTable``/``RemoveTable``; ``cli`` is ``campaign table list|import|show``;
``widget`` the dashboard's table editor. The tables themselves (the ``tables`` slice and
``TableSet``) are campaign state every aid reads, so they live in
``assistant.campaign.printedtables``; ``assistant.campaign.world.world_of`` merges them under any
per-query ``tables``.
"""

from ...campaign.printedtables import StoredTable, TableSet, rows_of, tables_of
from ...campaign.tableschema import TableSchema, check_csv, check_grid, schema_of, schemas
from .commands import RemoveTable, SetTable, import_table

__all__ = ["RemoveTable", "SetTable", "StoredTable", "TableSchema", "TableSet", "check_csv", "check_grid",
           "import_table", "rows_of", "schema_of", "schemas", "tables_of"]
