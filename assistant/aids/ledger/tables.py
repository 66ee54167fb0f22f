"""The production ledger's export tables (``campaign export --format csv|parquet|xlsx``,
``campaign.table(NAME)``): every line of every statement, and every statement of every turn.

Declared here, built by ``engine`` (imported when a table is asked for: registering one imports no
rules). ``campaign.ledger.frame()`` and ``campaign ledger FILE --csv`` are ``ledger_lines``.
"""

from __future__ import annotations

from ...campaign.exporttables import TURN_COLUMNS, Column, register_table

SIDE = Column("side", "category", "the side's id")
ACCOUNT = Column("account", "category", "the side's account, as the game's economy names it (witp CP, PP, MSP; "
                 "apto EP:NATION and reserve:NATION; globalwar a power's PP and its _maint pool)")
POINTS = ("the game's points (witp CP/PP/MSP by account, apto EP, globalwar PP): whole points, but hundredths "
          "for witp's Japanese PP under ledger_japan_pp_rounding = exact [53.6]; hence float")

LINE_COLUMNS = (
    *TURN_COLUMNS, SIDE, ACCOUNT,
    Column("kind", "category", "income, loss, spend, transfer, reserve or adjust (the ledger's one vocabulary; "
           "adjust is the close's carry-over and expiry, and corrections)"),
    Column("amount", "float", "the line's signed effect on the account: + adds, - takes away (a transfer is two "
           "lines: - on the giver's account, + on the receiver's)", unit=POINTS),
    Column("item", "text", "what it is in the game's words (a priced item, \"expiry\"; a handed-over line without "
           "one: its source)"),
    Column("rule", "text", "the rule that prices or computes it, where one does"),
    Column("note", "text", "the player's or the rules' note"),
    Column("entry", "int", "the ledger entry's number (negative for a line another aid hands over: strike N's "
           "lines are -(100 N + 1), -(100 N + 2) ...)"),
    Column("seq", "int", "the event that recorded it"),
    Column("source", "category", "entry (the player's entry), close (a turn's close the rules computed) or the aid "
           "record that handed it over (strike N)"),
)

STATEMENT_COLUMNS = (
    *TURN_COLUMNS, SIDE, ACCOUNT,
    Column("opening", "float", "the balance before the turn's lines", unit=POINTS),
    Column("income", "float", "income lines and transfers or reserve received (positive)", unit=POINTS),
    Column("spending", "float", "spend lines and transfers or reserve given (positive)", unit=POINTS),
    Column("losses", "float", "loss lines (positive)", unit=POINTS),
    Column("adjustments", "float", "adjust lines, signed: the close's carry-over and expiry, corrections",
           unit=POINTS),
    Column("closing", "float", "opening + income - spending - losses + adjustments", unit=POINTS),
    Column("lines", "int", "how many lines the statement has (0: a quiet turn, which carries its balance)"),
)


@register_table("ledger_lines", LINE_COLUMNS,
                "Every line of every ledger statement: the entries recorded and the lines other aids hand over "
                "(the strike plotter's losses), one row per line, in statement order (turn, side, account, then "
                "as recorded). A turn with no line has no row (its balances are in ledger_statements).")
def ledger_lines_table(source):
    from .engine import frame

    df = frame(source.state)
    return df if source.turns is None else df[df["turn"].isin(source.turns)]


@register_table("ledger_statements", STATEMENT_COLUMNS,
                "One row per side, account and turn, for every turn from the campaign's first to the current "
                "one: the statements reindexed over the turns explicitly, so a turn with no line is a row that "
                "carries its balance (opening = closing, lines 0).")
def ledger_statements_table(source):
    from .engine import statements_frame

    played = [t for t, _ in source.campaign.turn_ends()]
    df = statements_frame(source.state, first=min(played) if played else None)
    return df if source.turns is None else df[df["turn"].isin(source.turns)]
