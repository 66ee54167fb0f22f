"""The set-up of the measured path from ``campaign new`` to a first correct answer of each aid (one
per game), shared by the browser test (tests/ui/test_browser_first_answer.py) and its benchmark
(benchmarks/bench_setup.py): the turn orders a player types into the campaign dashboard, and what
they choose on the supply, strike and ledger pages. Counter values the rulebook text does not print
are entered as the player's (``sample``); every other value is the rule text's (cited on its line)."""

from __future__ import annotations

from dataclasses import dataclass, field


def orders_count(orders: str) -> int:
    """The orders of a text (not its blank or comment lines)."""
    return sum(1 for line in orders.splitlines() if line.strip() and not line.lstrip().startswith("#"))


@dataclass
class Game:
    orders: str                      # the set-up, typed into the Turn orders box
    supply: dict = field(default_factory=dict)
    strike: dict = field(default_factory=dict)
    ledger: dict = field(default_factory=dict)


GAMES = {
    "witp": Game(
        orders="""# Japan: Kure is a Homeland Resource Center [53.4], so an Ultimate Command Source [28.10.1]
place Kure 'Ultimate Command Source' at Kure side japan
# Combined Fleet is a Combined-type HQ [29.2.2]; its Sea Command Radius is on the counter only: mine
place 'Combined Fleet HQ' HQ at Kure side japan hq_type=combined sea_radius=30 sample
place '5th Division' 'infantry division' at Hiroshima side japan
# 4 B-29 APs at Tinian [56.4.3]; their ranges are on the counter only: mine
place 'B-29' 'Air Points' at Tinian side allies ap_type=B count=4 normal_range=90 extended_range=135 sample
""",
        supply={"side": "(japan)", "unit": "5th Division"},
        strike={"side": "(allies)", "target": "Tokyo", "mission": "port_mining",
                "mission_named": "Strategic Mining: Japanese Homeland Ports [56.4.3]", "options": "port=major",
                "dice": "5"},
        ledger={"side": "(japan)", "entries": [("Strategic Reserve at start", None)]},
    ),
    "apto": Game(
        orders="""# a Japanese land unit two hexes from Mukden (W 5022), a Japanese supply source [7.0]
place 'Kwantung Army' 'Land unit' at W5024 side japan nation japan
# a US 20-20[4] (B-29) Bomber at Manila (W 3021) [2.2]: strength 20, range 20, quality 4 [4.12]
place 'B-29' 'Air unit' at Manila side allies nation us type=B strength=20 range=20 quality=4
""",
        supply={"side": "Japan", "unit": "Kwantung Army"},
        strike={"side": "Allies", "target": "Okinawa"},
        # [8.2]: 47 EP lost to Strategic Warfare during the season, then the Seasonal Turn's 77 EP income
        ledger={"side": "Japan", "entries": [("Strategic Warfare", "47"), ("next turns", 3),
                                               ("Seasonal income", "77")]},
    ),
    "globalwar": Game(
        orders="""# a Finnish infantry unit in Finland (W3423, a Finnish set-up hex [22.3.1.4]) [19.9.E]
place 'Finnish infantry' Infantry at W3423 side axis nation finland sp=1
# 24.5: five German ADs (strength 20 in all) at the German Industrial Center W3020
place 'German industry' 'Industrial Hex' at W3020 side axis nation germany
place 'AD 1' AD at W3020 side axis nation germany attack=4 sample
place 'AD 2' AD at W3020 side axis nation germany attack=4 sample
place 'AD 3' AD at W3020 side axis nation germany attack=4 sample
place 'AD 4' AD at W3020 side axis nation germany attack=4 sample
place 'AD 5' AD at W3020 side axis nation germany attack=4 sample
# CW LRBs at a UK port with an Industrial Hex for their Attack Supply [17.4.2.A]; counter values: mine
place 'UK industry' 'Industrial Hex' at W3119 side allies nation commonwealth sample
place 'LRB 1' LRB at W3119 side allies nation commonwealth attack=2 defence=4 sample
place 'LRB 2' LRB at W3119 side allies nation commonwealth attack=2 defence=4 sample
place 'LRB 3' LRB at W3119 side allies nation commonwealth attack=2 defence=4 sample
""",
        supply={"side": "Axis", "unit": "Finnish infantry"},
        strike={"side": "Allies", "target": "W3020", "base": "W3119", "mission": "bombing",
                "mission_named": "Combat mission: LRBs attack an Industrial Hex [17.3]"},
        ledger={"side": "Axis", "entries": [("Production", "8"), ("LRB losses", "3")]},
    ),
}
