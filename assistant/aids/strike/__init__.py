"""The strike plotter: reach, legality, exposure, odds and resolution for witp, apto and
globalwar air strikes.

``engine`` builds a ``StrikePlan`` from the player's input and asks the game's air rules
(``assistant.rules.<game>.air``); ``events``/``commands`` record a resolution (dice entered or
rolled, unit changes applied, ledger entries kept for the production ledger) as an undoable event;
``cli`` is ``campaign strike`` and ``campaign odds``; ``widget`` is the dashboard's view.
"""
