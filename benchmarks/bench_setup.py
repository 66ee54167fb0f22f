"""From a new campaign to a first correct answer of each aid, in-process: the steps of the browser
test tests/ui/test_browser_first_answer.py (its set-up in tests/ui/firstanswer.py) driven on the
pages' widgets (``assistant.ui.kit.attach``, the same values set as the browser's fills, choices
and clicks), against a baseline of the same state changes and answers made through the Python API
(``Campaign.place_unit``, the supply tracer, the strike engine, ``Campaign.execute(AddEntry)``).

Each round starts from a new campaign (``Campaign.create`` and its hex graph, not timed) and times every step; the
ratio pages / API says what the pages cost over the work (building each page, its map and its
views included: a page opened is part of the player's step).

Run: python -m pytest benchmarks/bench_setup.py -p no:cacheprovider -s
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "ui"))

from assistant.aids.ledger.commands import AddEntry  # noqa: E402
from assistant.aids.ledger.engine import statements_of  # noqa: E402
from assistant.aids.ledger.widget import LedgerWidget  # noqa: E402
from assistant.aids.strike.commands import ResolveStrike  # noqa: E402
from assistant.aids.strike.engine import assess, plan_of, reach  # noqa: E402
from assistant.aids.strike.widget import StrikeWidget  # noqa: E402
from assistant.aids.supply.engine import trace_units, world_of  # noqa: E402
from assistant.aids.supply.widget import SupplyWidget  # noqa: E402
from assistant.campaign import Campaign  # noqa: E402
from assistant.campaign.orders import read_orders  # noqa: E402
from assistant.campaign.places import find_hex  # noqa: E402
from assistant.rules.kinds import find_kind  # noqa: E402
from assistant.ui import CampaignDashboard  # noqa: E402
from assistant.ui.kit import attach  # noqa: E402
from firstanswer import GAMES  # noqa: E402

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
STEPS = ("set-up", "supply", "strike", "ledger")
TIMES: dict[tuple[str, str], dict[str, list[float]]] = {}  # (game, path) -> step -> seconds per round

# What the pages resolve from the player's words, said to the API as ids and accounts.
API = {
    "witp": {"unit": "5th-division", "side": "allies", "target": "D0326", "mission": "port_mining",
             "options": {"port": "major"}, "dice": [5], "ledger_side": "japan",
             "entries": [dict(kind="income", account="strategic_reserve", item="Strategic Reserve at start")]},
    "apto": {"unit": "kwantung-army", "side": "allies", "target": "W 3825", "ledger_side": "japan",
             "entries": [dict(kind="loss", account="EP", item="Strategic Warfare", amount=47), "turn", "turn", "turn",
                         dict(kind="income", account="EP", item="Seasonal income", amount=77)]},
    "globalwar": {"unit": "finnish-infantry", "side": "allies", "target": "W3020", "mission": "bombing",
                  "ledger_side": "axis",
                  "entries": [dict(kind="income", account="germany", item="Production", amount=8),
                              dict(kind="loss", account="germany", item="LRB losses", amount=3)]},
}


@pytest.fixture(scope="module", autouse=True)
def quiet_home(tmp_path_factory):
    """A home of its own (the board cache the pages draw into), as the tests have."""
    before = os.environ.get("CAMPAIGN_ASSISTANT_HOME")
    os.environ["CAMPAIGN_ASSISTANT_HOME"] = str(tmp_path_factory.mktemp("bench-setup-home"))
    yield
    if before is None:
        os.environ.pop("CAMPAIGN_ASSISTANT_HOME", None)
    else:
        os.environ["CAMPAIGN_ASSISTANT_HOME"] = before


class Clock:
    def __init__(self, game: str, path: str):
        self.times = TIMES.setdefault((game, path), {s: [] for s in STEPS})
        self.round: dict[str, float] = {}

    def step(self, name: str, fn):
        t0 = time.perf_counter()
        out = fn()
        self.round[name] = time.perf_counter() - t0
        return out

    def keep(self) -> None:
        for k, v in self.round.items():
            self.times[k].append(v)


# ----- the pages, in-process -----------------------------------------------------------------
def pages_path(c: Campaign, game: str, clock: Clock) -> dict:
    g, api = GAMES[game], API[game]
    opened = []

    def page(factory):
        p = attach(factory, c, interval=3600)
        opened.append(p)
        return p.view

    def set_up():
        d = page(CampaignDashboard)
        d.orders_text.value = g.orders
        d.orders_btn.click()
        return d

    dash = clock.step("set-up", set_up)

    def supply():
        v = page(SupplyWidget)
        v.side.value = g.supply["side"].strip("()")
        v.unit.value = api["unit"]
        return v.trace

    trace = clock.step("supply", supply)

    def strike():
        v = page(StrikeWidget)
        v.side.value = g.strike["side"].strip("()")
        v.hex_field.value = g.strike["target"]  # typed and Enter: the hex box selects the target
        if g.strike.get("mission"):
            v.mission.value = g.strike["mission"]
            v.options.value = g.strike.get("options", "")
            v.assess_btn.click()
        if g.strike.get("dice"):
            v.dice.value = g.strike["dice"]
            v.resolve_btn.click()
        # read now: a later step's change redraws the page
        return {"reach": v.items, "findings": v.findings.value, "message": v.message.value}

    sv = clock.step("strike", strike)

    def ledger():
        v = page(LedgerWidget)
        v.side.value = g.ledger["side"].strip("()")
        for item, amount in g.ledger["entries"]:
            if item == "next turns":
                for _ in range(amount):
                    dash.turn_btn.click()
                continue
            v.item.value = item
            if amount is not None:
                v.amount.value = amount
            v.record_btn.click()
        return v

    lv = clock.step("ledger", ledger)
    for p in opened:
        p.close()
    return {"trace": trace, **sv, "statement": lv.statement.value}


# ----- the baseline: the same state changes and answers through the Python API ----------------
def api_path(c: Campaign, game: str, clock: Clock, places: list) -> dict:
    api = API[game]

    def set_up():
        for p in places:
            c.place_unit(**p)

    clock.step("set-up", set_up)
    trace = clock.step("supply", lambda: trace_units(world_of(c.state, c.graph()), [api["unit"]])[0].worked())

    def strike():
        world = world_of(c.state, c.graph())
        items = reach(world, api["side"], api["target"])
        out = {"reach": items}
        if api.get("mission"):
            plan = plan_of(c.state, c.map, side=api["side"], target=api["target"],
                           units=[i.unit for i in items if i.legal], mission=api["mission"],
                           options=api.get("options"))
            out["assessment"] = assess(world, plan)
            if api.get("dice"):
                out["record"] = c.execute(ResolveStrike(plan=plan, dice=api["dice"]))
        return out

    struck = clock.step("strike", strike)

    def ledger():
        for e in api["entries"]:
            if e == "turn":
                c.advance("turn")
            else:
                c.execute(AddEntry(side=api["ledger_side"], **e))
        return statements_of(c.state, sides=[api["ledger_side"]])

    statements = clock.step("ledger", ledger)
    return {"trace": trace, "strike": struck, "statements": statements}


def _places(c: Campaign, game: str) -> list[dict]:
    """The set-up's placements as ``Campaign.place_unit`` arguments, their hexes and categories
    resolved as the orders box resolves them (not timed: the API is told ids and hexes)."""
    orders, bad = read_orders(GAMES[game].orders)
    assert not bad, bad
    out = []
    for o in orders:
        p = o.command
        declared = find_kind(game, p.kind)
        out.append(dict(side=p.side, kind=p.kind, hex=find_hex(c.map, p.hex), name=p.name, nation=p.nation,
                        attrs=p.attrs or None, sample=p.sample,
                        category="installation" if p.installation or (declared and declared.category == "installation")
                        else "unit"))
    return out


def _fresh(tmp_path: Path, game: str, n=[0]) -> Campaign:  # noqa: B006 - a counter of files
    n[0] += 1
    return Campaign.create(tmp_path / f"{game}-{n[0]}.campaign", game=game)


def _run(benchmark, tmp_path, game: str, path: str):
    clock = Clock(game, path)
    opened: list[Campaign] = []

    def setup():
        for c in opened:
            c.close()
        opened.clear()
        c = _fresh(tmp_path, game)
        c.graph()  # the campaign's hex graph, built once whichever path asks first: not a step's cost
        opened.append(c)
        return (c,), {}

    def run(c):
        clock.round = {}
        out = (pages_path(c, game, clock) if path == "pages"
               else api_path(c, game, clock, _places(c, game)))
        clock.keep()
        return out

    out = benchmark.pedantic(run, setup=setup, rounds=ROUNDS, warmup_rounds=1)
    for c in opened:
        c.close()
    return out


@pytest.mark.parametrize("game", list(GAMES))
def test_baseline_the_same_state_changes_and_answers_through_the_api(benchmark, tmp_path, game):
    out = _run(benchmark, tmp_path, game, "api")
    assert out["trace"].supplied
    if game == "apto":
        assert [i.distance for i in out["strike"]["reach"]] == [8]
    closing = {"witp": 200, "apto": 30, "globalwar": 5}[game]
    assert any(st.closing == closing for st in out["statements"]), out["statements"]


@pytest.mark.parametrize("game", list(GAMES))
def test_the_pages_in_process_from_set_up_to_the_answers(benchmark, tmp_path, game):
    out = _run(benchmark, tmp_path, game, "pages")
    assert out["trace"] is not None and out["trace"].supplied
    closing = {"witp": "200", "apto": "30", "globalwar": "5"}[game]
    assert f"<td class='ca-num ca-ledger-closing'>{closing}</td>" in out["statement"]
    if game == "witp":
        assert "8 MSP" in out["message"]
    elif game == "apto":
        assert [i.distance for i in out["reach"]] == [8]
    else:
        assert "= +8 on the AD-to-LRB CRT" in out["findings"]


def test_report_pages_against_the_api_per_step():
    """Prints the medians per game and step, and the ratio pages / API (run after the two above)."""
    rows = []
    for game in GAMES:
        api, pages = TIMES.get((game, "api")), TIMES.get((game, "pages"))
        if not api or not pages:
            continue
        for step in (*STEPS, "whole"):
            a = statistics.median(sum(r) for r in zip(*api.values())) if step == "whole" else statistics.median(api[step])
            p = (statistics.median(sum(r) for r in zip(*pages.values())) if step == "whole"
                 else statistics.median(pages[step]))
            rows.append(f"{game:<10} {step:<7} api {a * 1000:9.1f} ms   pages {p * 1000:9.1f} ms   {p / a:6.1f}x")
    print("\n" + "\n".join(rows))
