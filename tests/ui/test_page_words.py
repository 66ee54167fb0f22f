"""Pages speak the game, not the code: whatever a page shows -- its refusals, the rules' findings
and questions, the error panel, its labels and choices -- holds no CLI flag (``--to-side``), no
Python ``None``, dict or list repr, no traceback, no exception class and no source path.

The pages are driven headless (no kernel, no browser) over every game: the demo (witp's
Guadalcanal scenario) and a new campaign of witp, apto and globalwar, where every kind of the game
is placed for every side (placements the rules refuse are refusals to read too). Each page is put
through a corpus of bad and ordinary input (every strike mission against every occupied hex, dice
that are not dice, every ledger kind and priced item, bad amounts and turns, bad hexes, bad
values); every text the page shows after each step is collected and scanned.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

import ipywidgets as w
import pytest

from assistant.campaign import Campaign
from assistant.rules.kinds import load_kinds
from assistant.ui.errors import page_words
from assistant.ui.kit import attach

pytestmark = pytest.mark.timeout(900)

# What a page must never show, each with what it is.
CODE = {
    "a CLI flag": re.compile(r"(?<![\w-])--[a-z]"),
    "Python None": re.compile(r"\bNone\b"),
    "a Python bool": re.compile(r"\b(?:True|False)\b"),
    "a dict repr": re.compile(r"\{\s*['\"]?\w+['\"]?\s*:|\{\s*\}"),
    "a list or tuple repr": re.compile(r"[\[(]\s*'[^']*'\s*,"),
    "a traceback": re.compile(r"Traceback|File \"", re.I),
    "an exception class": re.compile(r"\b(?:Key|Value|Type|Attribute|Index|Lookup|Runtime|Campaign|Hex)Error\b"),
    "a source path": re.compile(r"\.py\b|assistant/"),
    "an object repr": re.compile(r"<[\w.]+ object at 0x"),
}
TAGS = re.compile(r"<style>.*?</style>|<[^>]+>", re.S)


def code_in(text: str) -> list[str]:
    """What of the code ``text`` shows (empty: it speaks the game)."""
    return [what for what, pat in CODE.items() if pat.search(text)]


def test_the_scan_finds_the_code_it_looks_for():
    """The scan itself can fail: each pattern catches what it names, and game words pass."""
    for text in ("a transfer needs --to-side or --to-account", "type None must be F, FB, N, B or ATP",
                 "bad {'a': 1}", "one of ('x', 'y')", "Traceback (most recent call last)",
                 "KeyError: 'x'", "see assistant/rules/control.py", "<foo.Bar object at 0x7f>", "consumes False"):
        assert code_in(text), text
    for text in ("G/T 4/8/42 -- 2-5 column [2.8]", "Strike 3 on E2418 recorded (#12); dice 4 6",
                 "mission 'sweep' needs altitude High", "enter Extended range (Low) [5.2.3]"):
        assert code_in(text) == [], text


def test_a_page_says_a_cli_flag_as_its_field():
    """A message shared with the CLI names the page's field where the CLI names its flag."""
    assert page_words("a transfer needs --to-side or --to-account", {"to-side": "To side"}) == \
        "a transfer needs To side or to account"
    assert page_words("see --without 'x'", {}) == "see without 'x'"
    assert page_words("G/T 4/8/42 -- 2-5", {}) == "G/T 4/8/42 -- 2-5"


# ----- the pages, driven -------------------------------------------------------------------------
@dataclass
class Seen:
    """Every text the pages showed, with where it was seen."""

    texts: dict[str, str] = field(default_factory=dict)  # text -> where

    def add(self, text, where: str) -> None:
        text = html.unescape(TAGS.sub(" ", str(text))).strip()
        if text and text not in self.texts:
            self.texts[text] = where

    def page(self, page, where: str) -> None:
        self.tree(page.view.widget, where)
        for r in page.errors.records:
            self.add(r.message, f"{where} (error panel)")

    def tree(self, x, where: str) -> None:
        if isinstance(x, (w.HTML, w.HTMLMath, w.Label)):
            self.add(x.value, where)
        if isinstance(x, w.DOMWidget):
            for name in ("description", "placeholder", "tooltip"):
                self.add(getattr(x, name, "") or "", where)
        if isinstance(x, (w.Dropdown, w.Select, w.SelectMultiple, w.ToggleButtons, w.Combobox, w.RadioButtons)):
            labels = getattr(x, "_options_labels", None) or getattr(x, "options", ())
            for o in labels:
                self.add(o, f"{where} (choice)")
        for child in getattr(x, "children", ()) or ():
            self.tree(child, where)

    def code(self, ids: tuple[str, ...] = ()) -> list[str]:
        """What of the code the texts show; ``ids``: raw ids (a mission's ``cover_cap``) that a
        page names by the rule's name."""
        raw = re.compile(r"\b(?:" + "|".join(map(re.escape, ids)) + r")\b") if ids else None
        return [f"{where}: {what}: {text[:300]}" for text, where in self.texts.items()
                for what in code_in(text) + (["a raw id"] if raw is not None and raw.search(text) else [])]


def try_(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except Exception:  # noqa: BLE001 - a page's callbacks go through its error panel; here we only read
        return None


def campaign_of(tmp_path, game: str, scenario, seen: Seen) -> Campaign:
    c = Campaign.create(tmp_path / f"{game}-{scenario or 'new'}.campaign", game=game, scenario=scenario)
    if scenario is None:
        gm = c.map
        land = list(dict.fromkeys(gm.gazetteer["hex"]))[:6]  # named places: land, ports, bases
        for i, side in enumerate(c.state.sides):
            for j, kind in enumerate(load_kinds(game).values()):
                at = land[(i * 3 + j) % len(land)]
                try:  # bare: a kind that asks for values is refused, naming them
                    c.place_unit(side.id, kind.kind, at, category=kind.category)
                    continue
                except Exception as e:  # noqa: BLE001 - a refusal is a text the page would show
                    seen.add(page_words(str(e)), f"{game}: place {kind.kind}")
                values = {k: (kind.choices.get(k) or ("2",))[0] for k in kind.requires if k != "nation"}
                nation = side.nations[0].id if "nation" in kind.requires and side.nations else None
                try:  # with what it asks for: the rules have a piece to read
                    c.place_unit(side.id, kind.kind, at, nation=nation, category=kind.category, attrs=values)
                except Exception as e:  # noqa: BLE001
                    seen.add(page_words(str(e)), f"{game}: place {kind.kind} {values}")
    return c


def drive_strike(c, seen: Seen, where: str) -> None:
    from assistant.aids.strike.widget import StrikeWidget

    p = attach(StrikeWidget, c, interval=60)
    v = p.view
    seen.page(p, where)
    targets = sorted({u.hex for u in c.state.units.values()})[:8] + ["Z9999", "nowhere"]
    for side in [s for _, s in v.side.options]:
        v.side.value = side
        for mission in [m for _, m in v.mission.options]:
            v.mission.value = mission
            for t in targets:
                v.choose_target(t)
                seen.page(p, f"{where} strike {mission} at {t}")
                if v.target is None:
                    continue
                v.assess()
                seen.page(p, f"{where} strike assess {mission} at {t}")
                for dice in ("x", "", "1,2"):
                    v.resolve(dice)
                    seen.page(p, f"{where} strike resolve {dice!r} {mission} at {t}")
        for opts, back in (("foo", ""), ("apat_percent=abc", "Z9999"), ("a=b, c", "nowhere")):
            v.options.value, v.return_base.value = opts, back
            v.assess()
            seen.page(p, f"{where} strike options {opts!r} return {back!r}")
        v.options.value = v.return_base.value = ""
        for h in targets:
            try_(v.show_base_range, h)
            seen.page(p, f"{where} strike range {h}")
    p.close()


def drive_ledger(c, seen: Seen, where: str) -> None:
    from assistant.aids.ledger.widget import LedgerWidget

    p = attach(LedgerWidget, c, interval=60)
    v = p.view
    seen.page(p, where)
    for side in [s for _, s in v.side.options]:
        v.side.value = side
        for kind in list(v.kind.options):
            v.kind.value = kind
            for item in [o for o in v.item.options][:12] + ["no such item"]:
                v.item.value = item
                v.check()
                seen.page(p, f"{where} ledger check {kind} {item}")
            for amount, arrives, to_acct in (("abc", "", ""), ("-5", "never", "nowhere"), ("", "", ""),
                                             ("3", "", "")):
                v.item.value = ""
                v.kind.value = kind  # a priced item chose its own kind
                v.amount.value, v.arrives.value, v.to_account.value = amount, arrives, to_acct
                v.check()
                seen.page(p, f"{where} ledger check {kind} {amount!r} {arrives!r}")
                v.record()
                seen.page(p, f"{where} ledger record {kind} {amount!r} {arrives!r}")
        v.close_turn()
        seen.page(p, f"{where} ledger close turn")
    p.close()


def drive_supply(c, seen: Seen, where: str) -> None:
    from assistant.aids.supply.widget import SupplyWidget

    p = attach(SupplyWidget, c, interval=60)
    v = p.view
    seen.page(p, where)
    for uid in list(c.state.units)[:20]:
        try_(v.choose_unit, uid)
        seen.page(p, f"{where} supply unit {uid}")
    for h in sorted({u.hex for u in c.state.units.values()})[:6] + ["Z9999"]:
        try_(v.trace_at, h)
        seen.page(p, f"{where} supply trace {h}")
        try_(v.toggle_enemy, h, "nobody")
        seen.page(p, f"{where} supply enemy at {h}")
    try_(v.leave_out, "no-such-unit")
    seen.page(p, f"{where} supply leave out")
    p.close()


def drive_dashboard(c, seen: Seen, where: str) -> None:
    from assistant.ui.dashboard import CampaignDashboard

    p = attach(CampaignDashboard, c, interval=60)
    v = p.view
    seen.page(p, where)
    for hex_, kind, values in (("Z9999", "infantry", ""), ("", "", ""), (None, "no such kind", "x"),
                               (None, "infantry", "a=b c"), (None, "", "=1")):
        if hex_ is not None:
            v.hex_field.value = hex_
        v.kind.value, v.place_attrs.value = kind, values
        v.place_btn.click()
        seen.page(p, f"{where} place {hex_!r} {kind!r} {values!r}")
    v.attrs_field.value = "=5"
    v.attrs_btn.click()
    v.move_btn.click()
    seen.page(p, f"{where} move/set with no unit")
    if c.state.units:
        v.unit_list.value = v.unit_list.options[0][1] if isinstance(v.unit_list.options[0], tuple) else v.unit_list.options[0]
        for attrs in ("=5", "type=", "range=abc", "x", "embarked=true"):
            v.attrs_field.value = attrs
            v.attrs_btn.click()
            seen.page(p, f"{where} set {attrs!r}")
        v.hex_field.value = "nowhere at all"
        v.move_btn.click()
        seen.page(p, f"{where} move to nowhere")
    p.close()


def drive_mapedit(c, seen: Seen, where: str) -> None:
    from assistant.aids.mapedit.widget import MapEditor

    p = attach(MapEditor, c, interval=60)
    v = p.view
    seen.page(p, where)
    try_(v.import_text, "hex,terrain\nZ9999,swamp\n,\nE2418,nonsense\n")
    seen.page(p, f"{where} map import")
    try_(v.import_text, "not a csv at all")
    seen.page(p, f"{where} map import junk")
    p.close()


def drive_tables(c, seen: Seen, where: str) -> None:
    from assistant.aids.tables.widget import TableEditor

    p = attach(TableEditor, c, interval=60)
    v = p.view
    for name in list(v.picker.options):
        v.picker.value = name
        try_(v.load)
        seen.page(p, f"{where} table {name}")
        for row in (["x"] * len(v.header), [""] * len(v.header)):
            v._fill(v.header, [row])
            try_(v.save_table)
            seen.page(p, f"{where} table {name} row {row[:2]}")
        v.csv.value = "not,a\ntable"
        try_(v._csv_to_grid)
        seen.page(p, f"{where} table {name} csv")
    p.close()


def drive_oob(c, seen: Seen, where: str) -> None:
    from assistant.aids.oob.widget import OobWidget

    p = attach(OobWidget, c, interval=60)
    v = p.view
    for kind in list(v.kind.options):
        v.kind.value = kind
        try_(v.add_row)
        try_(v.save)
        seen.page(p, f"{where} oob {kind}")
    v.place_hex.value = "Z9999"
    try_(v.place)
    seen.page(p, f"{where} oob place")
    p.close()


def drive_board(c, seen: Seen, where: str) -> None:
    from assistant.ui.boardsetup import BoardSetup
    from assistant.ui.page import board_note_html

    seen.add(board_note_html(c.board.report()), f"{where} board note")
    p = attach(BoardSetup, c, interval=60)
    v = p.view
    for kind in [k for _, k in v.kind.options]:
        v.kind.value = kind
        seen.page(p, f"{where} board {kind}")
        for text in ("", "Z9999", "Nowhere, E2418", "x" * 300):
            v.hexes.value = text
            try_(v._mark)
            seen.page(p, f"{where} board {kind} mark {text[:10]!r}")
        v.hexes.value = "Z9999"
        try_(v._mark, clear=True)
        try_(v._adopt)
        seen.page(p, f"{where} board {kind} adopt")
    p.close()


GAMES = [("witp", "guadalcanal-1942"), ("witp", None), ("apto", None), ("globalwar", None)]
DRIVERS = {"strike": drive_strike, "ledger": drive_ledger, "supply": drive_supply,
           "campaign": drive_dashboard, "map editor": drive_mapedit, "tables": drive_tables, "oob": drive_oob,
           "board": drive_board}


@pytest.mark.parametrize("game,scenario", GAMES, ids=[f"{g}-{s or 'new'}" for g, s in GAMES])
def test_no_page_shows_code(tmp_path, game, scenario):
    seen = Seen()
    c = campaign_of(tmp_path, game, scenario, seen)
    try:
        for name, drive in DRIVERS.items():
            drive(c, seen, f"{game} {name}")
    finally:
        c.close()
    assert len(seen.texts) > 50  # the corpus reached the pages' refusals and the rules' findings
    from assistant.aids.strike.engine import air_rules

    problems = seen.code(tuple(m for m in air_rules(game).missions if "_" in m))
    assert problems == [], f"{len(problems)} text(s) show code:\n" + "\n".join(problems)


def test_strike_missions_are_named_as_the_rules_name_them():
    """The Mission choice shows the rule's name of each mission with its rule, never the raw id."""
    from assistant.aids.strike.engine import air_rules

    for game in ("witp", "apto", "globalwar"):
        rules = air_rules(game)
        names = rules.mission_names
        assert set(names) == set(rules.missions), game
        for mid, name in names.items():
            assert "_" not in name and re.search(r"\[[\d.]+[A-Z]?\]", name), (game, mid, name)


# ----- the CLI's refusals ---------------------------------------------------------------------------
def cli_corpus(f: str, game: str, hex_: str, unit: str, side: str) -> list[list[str]]:
    """Bad and doubtful commands a player types: every one's refusal is scanned."""
    return [
        ["place", f, "--side", side, "--kind", "no such kind", "--hex", hex_],
        ["place", f, "--side", "nobody", "--kind", "HQ", "--hex", hex_],
        ["place", f, "--side", side, "--kind", "HQ", "--hex", "Z9999"],
        ["place", f, "--side", side, "--kind", "HQ", "--hex", hex_, "--attr", "=1"],
        ["move", f, "no-such-unit", hex_], ["move", f, unit, "nowhere"], ["remove", f, "no-such-unit"],
        ["update", f, unit, "x"], ["update", f, unit, "range="], ["update", f, "no-such-unit", "a=1"],
        ["map", "set", f, hex_, "surface=maybe"], ["map", "set", f, "Z9999", "surface=land"],
        ["control", f, "--hex", "Z9999", "--side", side], ["control", f, "--hex", hex_, "--side", "nobody"],
        ["control", f, "--at", hex_], ["control", f, "--region", "Atlantis", "--side", side],
        ["trace", f, "--unit", "no-such-unit"], ["trace", f, "--hex", hex_, "--side", "nobody"],
        ["trace", f, "--unit", unit, "--without", "no-such-unit"], ["trace", f, "--hex", hex_, "--side", side,
                                                                     "--with-enemy", "Z9999"],
        ["strike", f, "--target", "Z9999", "--side", side], ["strike", f, "--target", hex_, "--side", side,
                                                              "--mission", "no_such_mission"],
        ["strike", f, "--target", hex_, "--side", side, "--option", "foo"],
        ["strike", f, "--target", hex_, "--side", side, "--resolve", "--dice", "x"],
        ["strike", f, "--target", hex_, "--side", side, "--altitude", "Stratosphere"],
        ["strike", f, "--target", hex_, "--from", hex_],
        ["ledger", f, "add", "--side", side, "--kind", "transfer", "--amount", "3"],
        ["ledger", f, "add", "--side", side, "--kind", "spend", "--amount", "lots"],
        ["ledger", f, "add", "--side", side, "--kind", "income", "--amount", "1", "--data", "x"],
        ["ledger", f, "--side", side, "--turn", "never"], ["ledger", f, "close-turn", "--side", "nobody"],
        ["table", "show", f, "no_such_table"], ["oob", "place", f, "--type", "nothing", "--hex", hex_],
        ["roll", f, "3q7"], ["roll", f, "2d6", "--values", "9", "9"], ["advance", f, "--phase", "--phase"],
        ["undo", f], ["undo", f], ["redo", f], ["redo", f],
    ]


@pytest.mark.parametrize("game,scenario", GAMES, ids=[f"{g}-{s or 'new'}" for g, s in GAMES])
def test_no_cli_refusal_shows_code(tmp_path, game, scenario):
    """The CLI's refusals (and its answers to the same commands) may name its flags, never Python:
    no None, repr, traceback or source path."""
    from clikit import run_cli

    seen = Seen()
    c = campaign_of(tmp_path, game, scenario, seen)
    state, f = c.state, str(c.path)
    c.close()
    unit = next(iter(state.units), "no-unit")
    hex_ = state.units[unit].hex if unit in state.units else "W 1617"
    side = state.sides[0].id
    refused = 0
    for args in cli_corpus(f, game, hex_, unit, side):
        r = run_cli(*args, home=tmp_path / "home")
        refused += r.returncode != 0
        for line in ((r.stderr or "") + "\n" + (r.stdout or "")).splitlines():  # refusals and answers
            seen.add(line, " ".join(args[:1] + args[2:]))
    assert refused >= 25  # the corpus reached the refusals
    problems = [p for p in seen.code() if ": a CLI flag: " not in p]
    assert problems == [], f"{len(problems)} refusal(s) show code:\n" + "\n".join(problems)


def test_the_campaign_dashboard_says_a_shared_refusal_in_its_fields(tmp_path):
    """A refusal the campaign shares with the CLI that names a flag (``--attr``) shows on the
    dashboard naming its field (Values), in the error panel as in a one-line refusal."""
    from assistant.ui.dashboard import CampaignDashboard

    c = Campaign.create(tmp_path / "w.campaign", game="witp")
    try:
        p = attach(CampaignDashboard, c, interval=60)
        p.errors.report(ValueError("give the counter's values with --attr type=F"), "place unit")
        assert p.errors.records[-1].message == "give the counter's values with Values type=F"
        assert p.view.one_line(ValueError("--hex Z9999 is off the map")) == "Hex Z9999 is off the map"
        p.close()
    finally:
        c.close()
