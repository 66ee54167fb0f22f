"""The production ledger: every point accounted for, every restriction checked.

``events`` stores ledger entries as campaign events (one per entry; a turn's close as one event);
``commands`` check an entry against the game's economy (``assistant.rules.<game>.economy``) before
it is recorded; ``engine`` folds them (and the strike plotter's losses) into per-turn statements,
a forecast and a DataFrame; ``cli`` is ``campaign ledger``; ``widget`` is the dashboard's view.
"""
