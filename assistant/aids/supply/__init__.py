"""The supply-path tracer: supply and command lines for witp, apto and globalwar.

``engine`` builds the rules' ``SupplyWorld`` from a campaign state and traces units, hexes and
whole sides (with what-ifs); ``history`` gives analysts every past turn; ``cli`` is
``campaign trace``; ``widget`` is the dashboard's view. Hex control, the campaign state the rules
read ("friendly land hexes"), is the campaign layer's (``assistant.campaign.control``, set with
``campaign control``): the strike plotter and the ledger read it too.
"""
