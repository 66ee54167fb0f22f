"""Multi-turn campaigns with a known plan, for the tests and the analysis notebook's run in CI.

``generate(path, game)`` builds, with the Python API only (``Campaign.create``, ``place_unit``,
``move_unit``, ``advance``, ``campaign.ledger.add``), a campaign of ``turns`` turns in which some
pieces are cut off from supply for some turns and the ledger pays for them, and returns the
``Plan`` it followed: which piece is out of supply in which turn, and every ledger line that names
a piece. A test computes what an analysis must find from the plan alone; ``test_campaigns_gen``
checks each game's plan against the supply tracer, so a plan that no longer holds fails there.

Two games, each with the mechanism its rules give for a cut-off:

* witp, the Guadalcanal scenario (August 1942): the US South West Pacific HQ is withdrawn to Pearl
  Harbor for four G/Ts, which unlinks every piece it linked (command radius [29.1], [29.2]); the 1st Marine Division is
  sent to G1923, out of any HQ's command radius, for two more; four of the scenario's pieces are
  isolated from the start and stay so. Upkeep of a cut-off piece: an Air Transport [31.3] paid in
  CP, named after the piece.
* apto, July 1937 with no scenario: home supply sources at Tokyo and Chungking [7.0]; the 2nd Army
  holds Canton, beyond any Japanese source, for four months, the Chinese 5th Army Hakodate for four (on Honshu it
  would cut Tokyo's home source from Kure's, isolating both [7.8]);
  the 23rd Army stays at Canton throughout. Upkeep: an Air Supply chit [7.7] paid in EP.

Every turn each side records an income line; about every third turn a loss that names no piece; and in
the first turn a spend that names a piece in supply: lines an analysis of cut-offs must not count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

TURNS = 12


@dataclass(frozen=True)
class Game:
    """How one game's campaign is built: what to place, where each moving piece is in supply
    (``home``) and where it is cut off (``away``, with the turn positions it stands there)."""

    game: str
    scenario: Optional[str]
    place: tuple[tuple[str, str, str, str, str], ...]  # side, kind, hex, name, nation
    moves: tuple[tuple[str, str, str, tuple[int, ...]], ...]  # unit, home hex, away hex, positions away
    cut_by: dict[str, tuple[str, ...]]  # a moving piece -> the pieces cut off while it is away (itself included)
    always_cut: tuple[str, ...]  # cut off in every turn
    account: dict[str, str]  # side -> the account its income and upkeep go through
    income: int
    upkeep_item: str  # "{unit}" is the piece's id
    upkeep_rule: str
    loss_item: str
    sides: dict[str, str] = field(default_factory=dict)  # piece -> side, for the pieces the plan names


WITP = Game(
    game="witp", scenario="guadalcanal-1942", place=(),
    moves=(("us-sw-pacific-hq", "E1737", "F3342", (3, 4, 5, 6)),
           ("1st-marine-division", "E2418", "G1923", (8, 9))),
    cut_by={"us-sw-pacific-hq": ("1st-marine-division", "37th-infantry-division", "lunga-airfield", "cactus-f4f"),
            "1st-marine-division": ("1st-marine-division",)},
    always_cut=("7th-defense-battalion", "ijn-construction-units", "6th-base-force", "kwajalein-g4m"),
    account={"allies": "CP", "japan": "CP"}, income=20,
    upkeep_item="Air Transport to {unit}", upkeep_rule="[31.3]", loss_item="shipping sunk",
    sides={"1st-marine-division": "allies", "37th-infantry-division": "allies", "lunga-airfield": "allies",
           "cactus-f4f": "allies", "7th-defense-battalion": "allies", "ijn-construction-units": "japan",
           "6th-base-force": "japan", "kwajalein-g4m": "japan"},
)

APTO = Game(
    game="apto", scenario=None,
    place=(("japan", "Home supply source", "W 4533", "Tokyo source", "japan"),
           ("japan", "Land unit", "W 4533", "1st Army", "japan"),
           ("japan", "Land unit", "W 4533", "2nd Army", "japan"),
           ("japan", "Land unit", "W 3716", "23rd Army", "japan"),
           ("allies", "Home supply source", "W 4113", "Chungking source", "china"),
           ("allies", "Land unit", "W 4113", "5th Army", "china")),
    moves=(("2nd-army", "W 4533", "W 3716", (2, 3, 4, 5)),
           ("5th-army", "W 4113", "W 5033", (5, 6, 9, 10))),
    cut_by={"2nd-army": ("2nd-army",), "5th-army": ("5th-army",)},
    always_cut=("23rd-army",),
    account={"japan": "EP", "allies": "EP:china"}, income=10,
    upkeep_item="Air Supply chit for {unit}", upkeep_rule="[7.7]", loss_item="strategic bombing",
    sides={"2nd-army": "japan", "23rd-army": "japan", "5th-army": "allies"},
)

GAMES = {"witp": WITP, "apto": APTO}


@dataclass
class Plan:
    """What ``generate`` did: the turns played (calendar indexes, oldest first, and their labels),
    the turns each piece was out of supply, and every ledger line naming a piece
    (``turn, side, unit, kind, account, amount, cut``: ``cut`` whether the piece was out of supply
    in that turn)."""

    game: str
    path: Path
    turns: list[int] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    cut: dict[str, list[int]] = field(default_factory=dict)
    side: dict[str, str] = field(default_factory=dict)
    named: list[dict] = field(default_factory=list)

    def turns_out(self) -> dict[str, int]:
        """Piece -> the number of turns it was out of supply."""
        return {u: len(t) for u, t in self.cut.items()}

    def cost(self) -> dict[tuple[str, str], float]:
        """(piece, account) -> what the lines naming the piece in its cut-off turns took from it."""
        out: dict[tuple[str, str], float] = {}
        for line in self.named:
            if line["cut"]:
                key = (line["unit"], line["account"])
                out[key] = out.get(key, 0) + line["amount"]
        return out


def cut_at(spec: Game, position: int) -> set[str]:
    """The pieces out of supply at the end of the turn at ``position`` (0: the first turn)."""
    out = set(spec.always_cut)
    for unit, _home, _away, positions in spec.moves:
        if position in positions:
            out |= set(spec.cut_by[unit])
    return out


def generate(path, game: str, turns: int = TURNS) -> Plan:
    """Build the campaign at ``path`` (a new file) for ``game`` (a key of ``GAMES``) over
    ``turns`` turns, close it and return its ``Plan``."""
    from assistant.campaign import Campaign

    spec = GAMES[game]
    path = Path(path)
    c = Campaign.create(path, game=game, scenario=spec.scenario)
    try:
        for side, kind, hex_, name, nation in spec.place:
            c.place_unit(side, kind, hex_, name=name, nation=nation)
        plan = Plan(game=game, path=path, side=dict(spec.sides))
        for p in range(turns):
            if p:
                c.advance()
            turn = c.state.turn.index
            plan.turns.append(turn)
            plan.labels.append(c.state.turn.label)
            for unit, home, away, positions in spec.moves:
                want = away if p in positions else home
                if c.state.units[unit].hex != want:
                    c.move_unit(unit, want)
            cut = cut_at(spec, p)
            for unit in cut:
                plan.cut.setdefault(unit, []).append(turn)
            for side, account in spec.account.items():
                c.ledger.add(side, "income", spec.income, account=account, item="income")
            for i, unit in enumerate(sorted(cut)):
                if (p + i) % 2 == 0:  # upkeep paid in every other turn a piece is cut off
                    _named(c, plan, spec, turn, unit, 1 + p % 3, spec.upkeep_item.format(unit=unit),
                           f"upkeep while cut off {spec.upkeep_rule}", True)
            if p % 3 == 2 and c.state.turn.kind != "seasonal":  # apto: losses fall in a monthly turn [8.2]
                for side, account in spec.account.items():
                    c.ledger.add(side, "loss", 2, account=account, item=spec.loss_item)
            if p == 0:  # a piece in supply named by a line: not a cost of being cut off
                unit = spec.moves[0][0]
                plan.side.setdefault(unit, c.state.units[unit].side)
                _named(c, plan, spec, turn, unit, 3, f"refit of {unit}", "in supply", False)
        return plan
    finally:
        c.close()


def _named(c, plan: Plan, spec: Game, turn: int, unit: str, amount: int, item: str, note: str, cut: bool) -> None:
    """A spend naming ``unit`` (in its item), recorded and added to the plan."""
    side = c.state.units[unit].side
    account = spec.account[side]
    c.ledger.add(side, "spend", amount, account=account, item=item, note=note)
    plan.named.append({"turn": turn, "side": side, "unit": unit, "kind": "spend", "account": account,
                       "amount": amount, "cut": cut, "item": item})
