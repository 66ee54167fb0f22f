"""Every command family of ``campaign`` under hostile argument values, run in this process
(``clikit.run_cli``: ``assistant.cli.main``) on a copy of one small campaign.

The contract, for every run: no exception escapes but ``SystemExit`` and stderr holds no
"Traceback"; exit 0 (the value was fine), or 2 with exactly one ``error: ...`` line on stderr (1
only where a family documents it: ``ledger add`` when the rules forbid the entry); and a refusal
wrote nothing: the campaign file's events (the highest seq and their count) and its bytes (with
its write-ahead log) are as they were, and no file appeared in the working folder.

One hypothesis test per family (``test_fuzz_<family>``), each with its argument templates, the
seed corpus as ``@example`` (the tries of a careful tester: the region Nowhere, an "enemy" of the
tracing side, an unknown strike option, ``--table NAME=/etc/passwd``, a turn that does not exist,
a header claiming 60000x60000 pixels, ``/dev/zero`` ...) and generated values: control
characters, huge numbers, non-ASCII digits, paths, empty and very long text. The families are
read from the CLI's parser: one without a test here fails ``test_every_family_is_fuzzed``.

The seeds the game must refuse, not only survive, are also run on their own
(``test_the_tries_are_refused_naming_the_value``), the number reader's (``numbertext``) among
them: an exponent that would take minutes to expand, a part finer than the game's unit, another
script's digits.
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import struct
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from assistant.campaign import Campaign
from clikit import run_cli

EXAMPLES = 5  # generated values per family, beyond its seeds (the ci profile; nightly explores more)

# ----- hostile values ---------------------------------------------------------------------------
HOSTILE_SAMPLES = [
    "", " ", "-", "--", "-5", "0", "-0", "1e999999", "1e400", "9" * 5000, "-" + "9" * 40, "nan", "inf",
    "\u0663", "\uff11\uff12", "\u0665\u0660", "\x00", "a\x00b", "\x1b[31mred", "a\nb", "\r\n", "\t", "\u202e",
    "\udcff", "Nowhere", "E2418", "E2418:", "E2418:allies", ":allies", "x=y", "=", "a=b=c", "key=",
    "/etc/passwd", "/dev/zero", "/", "..", "../../etc/shadow", "~", "@bomb", "@passwd", "@table",
    "x" * 10_000, "é" * 300, "<script>alert(1)</script>", "=2+2", "@SUM(1,1)", "'; DROP TABLE events; --",
    "%s%s%n", "{0}", "allies", "japan", "1st-marine-division", "ground_mp", "air_point_availability",
]
HOSTILE = st.one_of(
    st.sampled_from(HOSTILE_SAMPLES),
    st.text(max_size=24),
    st.text(st.characters(categories=["Cc", "Zs", "Nd", "No", "Sm"]), max_size=12),
    st.integers(-(10**30), 10**30).map(str),
    st.builds(lambda a, e: f"{a}e{e}", st.integers(-9, 9), st.integers(-400, 400)),
)


def header_only_png(path: Path, width: int, height: int) -> Path:
    """A PNG of a few dozen bytes whose header claims ``width`` x ``height`` pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))
    return path


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """The template campaign (witp, the Guadalcanal sample: sides, units, a turn advanced, a
    ledger entry, a note) and the files the templates read, all in one folder."""
    d = tmp_path_factory.mktemp("cli-fuzz")
    with Campaign.create(d / "c.campaign", game="witp", scenario="guadalcanal-1942") as c:
        c.add_note("before the fuzz")
        c.advance("turn")
        c.export(d / "export", "json")
    header_only_png(d / "bomb.png", 60000, 60000)
    (d / "passwd").write_text("root:x:0:0:secret-line:/root:/bin/bash\n")
    (d / "table.csv").write_text("terrain,mp\nclear,1\n")
    return d


@dataclass
class Call:
    """What a template builds one command line from: the campaign copy ``F``, the working folder
    ``D``, the hostile value ``x`` (``path``: with the base's named files for @bomb, @passwd,
    @table; ``name``: fit to be one file name in D)."""

    F: str
    D: Path
    base: Path
    x: str

    @property
    def path(self) -> str:
        named = {"@bomb": "bomb.png", "@passwd": "passwd", "@table": "table.csv"}
        return str(self.base / named[self.x]) if self.x in named else self.x

    @property
    def name(self) -> str:
        safe = "".join(ch if ch.isprintable() and ch not in "/\\" else "_" for ch in self.x)[:80]
        return str(self.D / f"out-{safe}")

    def file(self, text: str) -> str:
        """A file in D holding ``text`` (the value inside a CSV, an orders file, a JSON document)."""
        p = self.D / f"in-{hashlib.sha1(text.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"
        p.write_bytes(text.encode("utf-8", "surrogatepass"))
        return str(p)


Template = Callable[[Call], list]


# ----- the families -------------------------------------------------------------------------------
# family -> argument templates; a template's index is what @example(which=...) names.
POINTS = ["--point", "E2418:10,10", "--point", "E2818:50,12", "--point", "E2621:30,40"]
FAMILIES: dict[str, list[Template]] = {
    "new": [lambda c: ["new", c.name, "--game", c.x],
            lambda c: ["new", c.name, "--game", "witp", "--scenario", c.x],
            lambda c: ["new", c.name, "--game", "witp", "--set", c.x]],
    "info": [lambda c: ["info", c.path], lambda c: ["info", c.F, c.x]],
    "units": [lambda c: ["units", c.path], lambda c: ["units", c.F, "--json", c.x]],
    "place": [lambda c: ["place", c.F, "--side", c.x, "--kind", "Infantry", "--hex", "E2418"],
              lambda c: ["place", c.F, "--side", "allies", "--kind", c.x, "--hex", "E2418"],
              lambda c: ["place", c.F, "--side", "allies", "--kind", "Infantry", "--hex", c.x],
              lambda c: ["place", c.F, "--side", "allies", "--kind", "Infantry", "--hex", "E2418", "--attr", c.x]],
    "kinds": [lambda c: ["kinds", c.x], lambda c: ["kinds", "witp", "--kind", c.x]],
    "move": [lambda c: ["move", c.F, "1st-marine-division", c.x], lambda c: ["move", c.F, c.x, "E2419"]],
    "remove": [lambda c: ["remove", c.F, c.x]],
    "update": [lambda c: ["update", c.F, "1st-marine-division", c.x],
               lambda c: ["update", c.F, "1st-marine-division", f"strength={c.x}"]],
    "note": [lambda c: ["note", c.F, c.x]],
    "log": [lambda c: ["log", c.F, "--since", c.x]],
    "undo": [lambda c: ["undo", c.path]],
    "redo": [lambda c: ["redo", c.path]],
    "advance": [lambda c: ["advance", c.path]],
    "export": [lambda c: ["export", c.F, "--to", c.name], lambda c: ["export", c.F, "--to", c.name, "--format", c.x]],
    "demo": [lambda c: ["demo", c.x]],
    "backup": [lambda c: ["backup", c.F, c.name], lambda c: ["backup", c.path, str(c.D / "copy.campaign")]],
    "import": [lambda c: ["import", c.path, str(c.D / "imported.campaign")],
               lambda c: ["import", c.file(c.x), str(c.D / "imported.campaign")],
               lambda c: ["import", str(c.base / "export" / "c.json"), c.name]],
    "control": [lambda c: ["control", c.F, "--region", c.x, "--side", "allies"],
                lambda c: ["control", c.F, "--hex", c.x, "--side", "allies"],
                lambda c: ["control", c.F, "--hex", "E2418", "--side", c.x],
                lambda c: ["control", c.F, "--at", c.x]],
    "board": [lambda c: ["board", c.F, "--kind", c.x, "--hex", "E2418"],
              lambda c: ["board", c.F, "--kind", "mapedge_area", "--hex", c.x],
              lambda c: ["board", c.F, "--kind", "mapedge_area", "--hex", "E2418", "--value", c.x],
              lambda c: ["board", c.F, "--kind", c.x, "--adopt"]],
    "games": [lambda c: ["games", c.x]],
    "hex": [lambda c: ["hex", "distance", "witp", "E2418", c.x], lambda c: ["hex", "neighbors", c.x, "E2418"],
            lambda c: ["hex", "locate", "witp", c.x, "160"], lambda c: ["hex", "where", "witp", c.x]],
    "map": [lambda c: ["map", "info", c.x], lambda c: ["map", "set", c.F, "E2418", c.x],
            lambda c: ["map", "side", c.F, "E2418", c.x, "road=true"],
            lambda c: ["map", "import", c.F, c.path],
            lambda c: ["map", "import", c.F, c.file(f"hex,ground_mp\nE2418,{c.x}\n")],
            lambda c: ["map", "import", c.F, c.file(f"hex,{c.x}\nE2418,1\n"), "--dry-run"],
            lambda c: ["map", "geojson", c.x], lambda c: ["map", "geojson", "globalwar", "--campaign", c.path],
            lambda c: ["map", "geojson", "globalwar", "--out", c.name]],
    "orders": [lambda c: ["orders", c.F, c.path], lambda c: ["orders", c.F, c.file(f"move 1st-marine-division {c.x}\n")],
               lambda c: ["orders", c.F, c.file(c.x)]],
    "roll": [lambda c: ["roll", c.F, c.x], lambda c: ["roll", c.F, "1D6", "--values", c.x],
             lambda c: ["roll", c.F, "2D6", "--seed", c.x]],
    "rolls": [lambda c: ["rolls", c.path]],
    "ledger": [lambda c: ["ledger", c.F, "--turn", c.x], lambda c: ["ledger", c.F, "--side", c.x],
               lambda c: ["ledger", c.F, "add", "--side", "allies", "--kind", "income", "--amount", "3", "--note", c.x],
               lambda c: ["ledger", c.F, "add", "--side", "allies", "--kind", c.x, "--amount", "3"],
               lambda c: ["ledger", c.F, "add", "--side", "japan", "--kind", "spend", "--item", c.x, "--amount", "3"],
               lambda c: ["ledger", c.F, c.x, "--side", "allies"]],
    "oob": [lambda c: ["oob", "import", c.F, c.path],
            lambda c: ["oob", "import", c.F, c.file(f"unit_type,kind,nation\n{c.x},Infantry,us\n")],
            lambda c: ["oob", "place", c.F, c.x, "E2418"]],
    "scan": [lambda c: ["scan", "align", c.F, c.path, *POINTS],
             lambda c: ["scan", "align", c.F, str(c.base / "bomb.png"), "--point", c.x, *POINTS[2:]],
             lambda c: ["scan", "remove", c.F, c.x]],
    "strike": [lambda c: ["strike", c.F, "--target", c.x, "--side", "japan"],
               lambda c: ["strike", c.F, "--target", "E2418", "--side", "japan", "--option", c.x],
               lambda c: ["strike", c.F, "--target", "E2418", "--side", "japan", "--table", c.x],
               lambda c: ["strike", c.F, "--target", "E2418", "--side", "japan", "--table",
                          f"air_point_availability={c.path}", "--resolve", "--dice", "3"],
               lambda c: ["strike", c.F, "--target", "E2418", "--unit", "kwajalein-g4m", "--mission", c.x],
               lambda c: ["strike", c.F, "--target", "E2418", "--unit", "kwajalein-g4m", "--resolve", "--dice", c.x]],
    "strikes": [lambda c: ["strikes", c.path]],
    "odds": [lambda c: ["odds", "apto", "air-attack", "--strength", "3", "--quality", c.x],
             lambda c: ["odds", "globalwar", "raid", "--lrbs", "2", "--lrb-attack", "3", "--table", c.x],
             lambda c: ["odds", "globalwar", "raid", "--lrbs", c.x, "--lrb-attack", "3"],
             lambda c: ["odds", c.x, "raid"]],
    "trace": [lambda c: ["trace", c.F, "--side", "allies", "--all", "--with-enemy", c.x],
              lambda c: ["trace", c.F, "--unit", c.x],
              lambda c: ["trace", c.F, "--unit", "1st-marine-division", "--set", c.x],
              lambda c: ["trace", c.F, "--hex", c.x, "--side", "allies"],
              lambda c: ["trace", c.F, "--unit", "1st-marine-division", "--without", c.x]],
    "table": [lambda c: ["table", "import", c.F, c.x, str(c.base / "table.csv")],
              lambda c: ["table", "import", c.F, "ground_mp", c.path],
              lambda c: ["table", "import", c.F, "ground_mp", c.file(f"terrain,mp\n{c.x},1\n")],
              lambda c: ["table", "show", c.F, c.x], lambda c: ["table", "remove", c.F, c.x]],
}
# commands whose arguments are not fuzzed here, and why (each must say where they are checked)
NOT_FUZZED = {
    "serve": "a value it accepts starts a server that runs until stopped; its bad arguments are one-line errors "
             "that start nothing in tests/ui/test_serve.py (bad input, --cull-after, --allow-host)",
}
# number inputs (numbertext), fuzzed with their families and run as the tries below
NUMBER_TEMPLATES: dict[str, Template] = {
    "amount": lambda c: ["ledger", c.F, "add", "--side", "allies", "--kind", "income", "--amount", c.x],
    "strength": lambda c: ["odds", "apto", "air-attack", "--strength", c.x],
    "mp": lambda c: ["table", "import", c.F, "ground_mp", c.file(f"terrain,mp\nclear,{c.x}\n")],
}


FAMILIES["ledger"].append(NUMBER_TEMPLATES["amount"])
FAMILIES["odds"].append(NUMBER_TEMPLATES["strength"])
FAMILIES["table"].append(NUMBER_TEMPLATES["mp"])
# families whose refusal may exit 1 (documented in their help)
EXIT_1 = {"ledger": "add: the rules forbid the entry ('refused: ...' on stdout)"}
# families whose error line may be followed by indented lines, each naming one refused item
ITEMISED = {"orders": "the error line, then each refused order as '  line N: why'"}


def families_in_the_parser() -> set[str]:
    from assistant.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return set(sub.choices)


def test_every_family_is_fuzzed():
    """A command added to the CLI without a fuzz test here fails this test."""
    found = families_in_the_parser()
    assert found == set(FAMILIES) | set(NOT_FUZZED), (
        f"fuzz these families too: {sorted(found - set(FAMILIES) - set(NOT_FUZZED))}; "
        f"gone from the CLI: {sorted((set(FAMILIES) | set(NOT_FUZZED)) - found)}")
    for family in FAMILIES:
        assert callable(globals().get(f"test_fuzz_{family.replace('-', '_')}")), family


# ----- the contract -------------------------------------------------------------------------------
def written(path: Path) -> tuple:
    """What a write would change: the events' highest seq and count, and the bytes of the file and
    its write-ahead log."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        seq = con.execute("SELECT max(seq), count(*) FROM events").fetchone()
    finally:
        con.close()
    wal = path.with_name(path.name + "-wal")
    digest = hashlib.sha256(path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")).hexdigest()
    return seq, digest


def attempt(base: Path, family: str, template: Template, x: str):
    """Run ``template`` of ``family`` with value ``x`` on a fresh copy of the campaign and check
    the contract; returns the run (exit code, stdout, stderr)."""
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        d = Path(tmp)
        f = d / "c.campaign"
        shutil.copy(base / "c.campaign", f)
        call = Call(F=str(f), D=d, base=base, x=x)
        argv = template(call)
        before = written(f)  # (reading it leaves SQLite's -shm and -wal beside it)
        made = {p.name for p in d.iterdir()}
        r = run_cli(*argv, home=d / "home", stdin=x)
        assert "Traceback" not in r.stderr, r.stderr
        if r.returncode == 0:
            return r
        allowed = {2} | ({1} if family in EXIT_1 else set())
        assert r.returncode in allowed, (argv, r.returncode, r.stderr)
        if r.returncode == 2:
            lines = r.stderr.splitlines()
            items = lines[1:] if family in ITEMISED else []
            assert len(lines) == 1 + len(items) and lines[0].startswith("error: ") and r.stderr.endswith("\n"), (
                argv, r.stderr)
            assert all(line.startswith("  line ") for line in items), (argv, r.stderr)
        assert written(f) == before, (argv, "a refused command wrote to the campaign")
        assert {p.name for p in d.iterdir()} - made <= {"home"}, (argv, "a refused command left a file")
        return r


def _fuzz(family: str, *seeds: tuple[int, str], examples: int = EXAMPLES):
    """The hypothesis test of ``family``: its seeds (``(template, value)``) and ``examples`` more."""
    count = len(FAMILIES[family])

    @settings(max_examples=examples, deadline=None)
    @given(which=st.integers(0, count - 1), x=HOSTILE)
    def test(base, which, x):
        attempt(base, family, FAMILIES[family][which], x)

    for which, x in reversed(seeds):
        test = example(which=which, x=x)(test)
    test.__name__ = f"test_fuzz_{family}"
    return test


# each family's seeds: the tester's tries where the family had one, else a few of the nastiest
test_fuzz_new = _fuzz("new", (0, "wi\ntp"), (1, "../../etc/passwd"), (2, "x=y"))
test_fuzz_info = _fuzz("info", (0, "/dev/zero"), (0, "@passwd"), (1, "a\nb"))
test_fuzz_units = _fuzz("units", (0, "/"), (0, "a\x00b"), (1, "\udcff"))  # NUL in a path: was a ValueError
test_fuzz_place = _fuzz("place", (0, "martians"), (2, "B99999"), (3, "strength=1e999999"), (3, "x" * 10_000))
test_fuzz_kinds = _fuzz("kinds", (0, "\x00"), (1, "x" * 10_000))
test_fuzz_move = _fuzz("move", (0, "E2418\r\nx"), (1, "\u202e"))
test_fuzz_remove = _fuzz("remove", (0, ""), (0, "1st-marine-division\n"))
test_fuzz_update = _fuzz("update", (0, "=1"), (1, "\u0663"), (1, "9" * 5000))
test_fuzz_note = _fuzz("note", (0, "\x1b[31mred"), (0, "x" * 10_000))
test_fuzz_log = _fuzz("log", (0, "99999999999999999999"), (0, "-1"), (0, "\uff11\uff12"))
test_fuzz_undo = _fuzz("undo", (0, "/dev/zero"))
test_fuzz_redo = _fuzz("redo", (0, "@passwd"))
test_fuzz_advance = _fuzz("advance", (0, ".."))
test_fuzz_export = _fuzz("export", (0, "x" * 300), (1, "csv; rm -rf /"))
test_fuzz_demo = _fuzz("demo", (0, "a\nb"))
test_fuzz_backup = _fuzz("backup", (0, "x" * 300), (1, "/dev/zero"))
test_fuzz_import = _fuzz("import", (0, "/dev/zero"), (1, '{"format": "campaign-assistant/campaign-export"}'), (2, "x" * 300))
test_fuzz_control = _fuzz("control", (0, "Nowhere"), (0, "\x00"), (1, "Q9999"), (2, "martians"), (3, "E2418:"))
test_fuzz_board = _fuzz("board", (0, "\x00"), (1, "Q9999"), (1, "Nowhere"), (2, "x" * 10_000), (3, "nonsense"))
test_fuzz_games = _fuzz("games", (0, "--json"))
test_fuzz_hex = _fuzz("hex", (0, "E2418:allies"), (1, "lava"), (2, "1e999999"), (2, "nan"))
test_fuzz_map = _fuzz("map", (0, "\u0663"), (1, "surface=lava"), (3, "/dev/zero"), (3, "@passwd"), (5, "\x00"),
                      (6, "witp\n"), (7, "/dev/zero"), (7, "@passwd"), (8, "x" * 300), (8, "\x00"))
test_fuzz_orders = _fuzz("orders", (0, "/dev/zero"), (0, "-"), (1, "E2418:allies"), (2, "control Nowhere allies"))
test_fuzz_roll = _fuzz("roll", (0, "999999D999999"), (1, "\u0663"), (2, "9" * 5000))
test_fuzz_rolls = _fuzz("rolls", (0, "/"))
test_fuzz_ledger = _fuzz("ledger", (0, "-5"), (0, "99"), (0, "\u0663"), (2, "=2+2"), (3, "income\n"), (5, "close"))
test_fuzz_oob = _fuzz("oob", (0, "/dev/zero"), (1, "=HYPERLINK(x)"), (2, "\x00"))
test_fuzz_scan = _fuzz("scan", (0, "@bomb"), (0, "/dev/zero"), (1, "E2418:1e999999,0"), (2, "\x00"))
test_fuzz_strike = _fuzz("strike", (1, "x=y"), (2, "air_point_availability=/etc/passwd"), (2, "nonsense=/etc/passwd"),
                         (3, "@passwd"), (3, "/dev/zero"), (5, "\u0663"))
test_fuzz_strikes = _fuzz("strikes", (0, ".."))
test_fuzz_odds = _fuzz("odds", (0, "\u0663"), (1, "lrb_crt=/etc/passwd"), (1, "ad_lrb_crt=/dev/zero"), (2, "1e999999"))
test_fuzz_trace = _fuzz("trace", (0, "E2418:allies"), (0, "E2418:"), (0, ":allies"), (2, "supply_x=\x00"),
                        (3, "E2418\x00"))
test_fuzz_table = _fuzz("table", (0, "nonsense"), (1, "/dev/zero"), (1, "@passwd"), (2, "=2+2"), (4, "\u0663"))


# ----- the tries the game must refuse, one case each ----------------------------------------------
MUST_REFUSE = [
    pytest.param("control", 0, "Nowhere", "region Nowhere", id="control-region-Nowhere"),
    pytest.param("trace", 0, "E2418:allies", "E2418:allies", id="trace-enemy-of-own-side"),
    pytest.param("trace", 0, "E2418:", "'E2418:'", id="trace-enemy-empty-side"),
    pytest.param("strike", 1, "x=y", "option 'x'", id="strike-option-x=y"),
    pytest.param("strike", 3, "@passwd", "is not that table", id="strike-table-passwd"),
    pytest.param("strike", 2, "nonsense=/etc/passwd", "no table 'nonsense'", id="strike-table-unknown-name"),
    pytest.param("odds", 1, "lrb_crt=/etc/passwd", "'/etc/passwd' is not that table", id="odds-table-passwd"),
    pytest.param("ledger", 0, "-5", "--turn '-5'", id="ledger-turn-minus-5"),
    pytest.param("ledger", 0, "\u0663", "--turn '\u0663'", id="ledger-turn-arabic-indic-3"),
    pytest.param("scan", 0, "@bomb", "60000x60000 pixels", id="scan-60000x60000"),
    pytest.param("table", 1, "/dev/zero", "/dev/zero", id="table-import-dev-zero"),
    pytest.param("orders", 0, "/dev/zero", "/dev/zero", id="orders-dev-zero"),
    pytest.param("orders", 0, "a\x00b", "NUL character", id="orders-nul-in-path"),
    # numbers as a player types them (numbertext): bounded before any arithmetic, nothing rounded
    pytest.param("ledger", "amount", "1e100000000", "1e100000000", id="ledger-amount-1e100000000"),
    pytest.param("ledger", "amount", "1e10000000", "1e10000000", id="ledger-amount-1e10000000"),
    pytest.param("ledger", "amount", "1e999999", "1e999999", id="ledger-amount-1e999999"),
    pytest.param("ledger", "amount", "0.004", "0.004", id="ledger-amount-below-the-unit"),
    pytest.param("ledger", "amount", "\u0663", "\u0663", id="ledger-amount-arabic-indic-3"),
    pytest.param("odds", "strength", "\u0661\u0662", "\u0661\u0662", id="odds-strength-arabic-indic-12"),
    pytest.param("table", "mp", "\u0663", "\u0663", id="table-int-column-arabic-indic-3"),
    pytest.param("map", 4, "\uff11\uff12", "\uff11\uff12", id="map-import-ground_mp-fullwidth-12"),
]
@pytest.mark.parametrize("family, which, x, named", MUST_REFUSE)
def test_the_tries_are_refused_naming_the_value(base, family, which, x, named):
    r = attempt(base, family, NUMBER_TEMPLATES[which] if isinstance(which, str) else FAMILIES[family][which], x)
    assert r.returncode == 2 and named in r.stderr, (r.returncode, r.stdout[-300:], r.stderr)
    assert "secret-line" not in r.stderr  # a file that is not a table is named, never quoted
