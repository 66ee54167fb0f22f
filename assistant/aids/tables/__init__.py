"""Rule tables from the game box (issue 12 point 3): the printed tables a rulebook references but
does not contain, entered once into the campaign and used by every aid from then on.

    from assistant.aids.tables import import_table, tables_of, schemas
    import_table(campaign, "lrb_radius", open("lrb_radius.csv", "rb").read())   # checked whole, one event
    tables_of(campaign.state)["lrb_radius"].rows

``schema`` reads ``data/games/<game>/templates/schemas.toml`` and checks a table row by row;
``events`` holds the ``tables`` slice and ``TableSet``; ``commands`` ``SetTable``/``RemoveTable``;
``cli`` is ``campaign table list|import|show``; ``widget`` the dashboard's table editor.
``assistant.aids.world.world_of`` merges the stored tables under any per-query ``tables``.
"""

from .commands import RemoveTable, SetTable, import_table
from .events import StoredTable, TableSet, rows_of, tables_of
from .schema import TableSchema, check_csv, check_grid, schema_of, schemas

__all__ = ["RemoveTable", "SetTable", "StoredTable", "TableSchema", "TableSet", "check_csv", "check_grid",
           "import_table", "rows_of", "schema_of", "schemas", "tables_of"]
