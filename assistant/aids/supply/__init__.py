"""The supply-path tracer (issue 9): supply and command lines for witp, apto and globalwar.

``engine`` builds the rules' ``SupplyWorld`` from a campaign state and traces units, hexes and
whole sides (with what-ifs); ``events``/``commands`` hold hex control, the campaign state the
rules read ("friendly land hexes"); ``history`` gives analysts every past turn; ``cli`` is
``campaign trace`` and ``campaign control``; ``widget`` is the dashboard's view.
"""
