"""``assistant.numbertext``: the one reader of numbers a player types. Each hostile input a tester
tried has a decided answer here (refused with one line naming the value and the range, or read
exactly); a refusal costs no big-number arithmetic (the issue's bound: under 0.1 s, even for a
100-million-character input); and a property test over any text: ``read`` returns a value in the
field's bounds and unit, or raises ``NumberTextError`` and nothing else, and what it accepts reads
back from its own text."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.numbertext import MAX_CHARS, NumberField, NumberTextError, is_numeral, text_of

WHOLE = NumberField("amount", -99999, 99999, unit="EP")
HALVES = NumberField("amount", -99999, 99999, step=Fraction(1, 2), unit="PP", rule="[9.9]")
DECIMAL = NumberField("multiple", Fraction(6, 10), Fraction(11, 10), step=None, places=6)
SLASH = NumberField("strength", 0, 99, step=None, fractions=True)
PYTHONISMS = ("Fraction(", "Decimal(", "ValueError", "invalid literal", "Exceeds the limit", "\\x", "None",
              "int(", "float(", "Traceback")

# input -> what the whole-EP field answers: a value, or words its one-line refusal holds
DECIDED = [
    ("1e100000000", "'1e100000000' is not a whole number: write it without an exponent"),
    ("1e10000000", "'1e10000000' is not a whole number: write it without an exponent"),
    ("1e999999", "'1e999999' is not a whole number: write it without an exponent"),
    ("1e3", "'1e3' is not a whole number: write it without an exponent"),
    ("0.004", "'0.004' is not a whole number of EP"),          # refused, never rounded to 0
    ("\u0663", "'\u0663' is not a whole number: use the digits 0-9"),          # Arabic-Indic three
    ("\uff11\uff12", "'\uff11\uff12' is not a whole number: use the digits 0-9"),  # fullwidth 12
    ("1_000", "'1_000' is not a whole number"),                # Python's int() would take it
    ("nan", "'nan' is not a whole number"),
    ("inf", "'inf' is not a whole number"),
    ("-inf", "'-inf' is not a whole number"),
    ("0x10", "'0x10' is not a whole number"),
    ("5.0", "'5.0' is not a whole number: write it without a decimal point"),
    ("", "'' is not a whole number: it is empty"),
    ("100000", "'100000' is out of range"),
    ("-100000", "'-100000' is out of range"),
    ("1" * 10**8, "is too long"),
    (" 5 ", 5),      # blanks around a number are not part of it
    ("-0", 0),       # minus zero is zero
    ("+7", 7),
    ("007", 7),
    ("-99999", -99999),
    ("99999", 99999),
]


@pytest.mark.parametrize("text, want", DECIDED, ids=[repr(t[:12]) for t, _ in DECIDED])
def test_each_tried_input_has_its_decided_answer(text, want):
    if isinstance(want, str):
        with pytest.raises(NumberTextError) as e:
            WHOLE.read(text)
        msg = str(e.value)
        assert msg.startswith("amount '") and want in msg and "\n" not in msg and len(msg) < 200
        assert "from -99999 to 99999" in msg or "is not a whole number of EP" in msg  # the range, or the unit
        assert not any(p in msg for p in PYTHONISMS), msg
        assert msg == f"amount '{msg.split(chr(39))[1]}' {e.value.reason}"  # reason: the message past the value
    else:
        got = WHOLE.read(text)
        assert got == want and type(got) is int


HUGE = ["1e100000000", "1e10000000", "1e999999", "9" * 5000, "1" * 10**8, "1e" + "9" * 10**7, "\u0663" * 10**6]


@pytest.mark.parametrize("text", [t for t, w in DECIDED if isinstance(w, str)] + HUGE[3:], ids=lambda t: repr(t[:12]))
def test_a_refusal_converts_no_text_longer_than_a_number_can_be(text, monkeypatch):
    """The text's length and shape are checked before any conversion: ``int``, ``Fraction`` and
    ``float`` are never handed more than ``MAX_CHARS`` characters, so a refusal costs a length
    check and a short regex whatever the size (timed as a ratio in benchmarks/bench_numbertext.py)."""
    import assistant.numbertext as nt

    handed = []

    def spy(convert):
        class Watched(type):  # calls counted; isinstance answered by the real type
            def __call__(cls, *args, **kw):
                handed.extend(len(a) for a in args if isinstance(a, str))
                return convert(*args, **kw)

            def __instancecheck__(cls, obj):
                return isinstance(obj, convert)

        return Watched(convert.__name__, (), {})

    for name, convert in (("int", int), ("Fraction", Fraction), ("float", float)):
        monkeypatch.setattr(nt, name, spy(convert), raising=False)
    for field in (WHOLE, HALVES, DECIMAL, SLASH) if text in HUGE else (WHOLE,):
        with pytest.raises(NumberTextError):
            field.read(text)
    assert all(n <= MAX_CHARS for n in handed), (text[:20], max(handed))


def test_parts_of_a_unit_are_read_exactly_and_one_finer_than_the_unit_is_refused():
    assert HALVES.read("2.5") == Fraction(5, 2) and HALVES.read(".5") == Fraction(1, 2)
    assert HALVES.read("3") == 3 and type(HALVES.read("3.0")) is int
    with pytest.raises(NumberTextError, match=r"^amount '0\.004' is not a multiple of 0\.5 PP \[9\.9\]$"):
        HALVES.read("0.004")
    with pytest.raises(NumberTextError, match=r"'2\.25' is not a multiple of 0\.5 PP"):
        HALVES.read("2.25")
    assert DECIMAL.read("0.7") == Fraction(7, 10)  # exact: not the float 0.7
    with pytest.raises(NumberTextError, match="more than 6 decimal places"):
        DECIMAL.read("0.6000001")
    with pytest.raises(NumberTextError, match=r"'1\.2' is out of range \(a number from 0\.6 to 1\.1\)"):
        DECIMAL.read("1.2")
    assert SLASH.read("1/2") == Fraction(1, 2)
    for bad in ("1/0", "1/", "/2", "1//2"):
        with pytest.raises(NumberTextError):
            SLASH.read(bad)
    with pytest.raises(NumberTextError):
        WHOLE.read("1/2")  # only a field that says so takes a fraction


def test_a_float_bound_is_the_decimal_it_prints_as():
    """0.6 typed against a declared high of 0.6 (a float from a TOML file) is in range."""
    f = NumberField("multiple", 0.6, 1.1, step=None)
    assert f.read("0.6") == Fraction(3, 5) and f.read("1.1") == Fraction(11, 10)
    assert "from 0.6 to 1.1" in f.allowed()
    assert NumberField("x", None, 0.6, step=None).read("0.6") == Fraction(3, 5)


def test_values_that_are_not_text():
    assert WHOLE.read(12) == 12 and HALVES.read(2.5) == Fraction(5, 2) and HALVES.read(Fraction(1, 2)) == Fraction(1, 2)
    assert DECIMAL.read(0.7) == Fraction(7, 10)  # a float is read as the decimal it prints as
    for bad in (True, None, float("nan"), float("inf"), [1], b"1"):
        with pytest.raises(NumberTextError) as e:
            WHOLE.read(bad)
        assert "\n" not in str(e.value)
    with pytest.raises(NumberTextError) as e:
        WHOLE.read(10**100000)  # too long for Python to print: named by its size, at once
    assert "a number of about 100001 digits" in str(e.value) and "is out of range" in str(e.value)


def test_a_control_character_is_shown_escaped_on_the_one_line():
    with pytest.raises(NumberTextError) as e:
        WHOLE.read("1\n2")
    assert "\n" not in str(e.value) and "1\\u000a2" in str(e.value)


def test_is_numeral_routes_digits_of_any_script_to_the_number_reader():
    assert is_numeral("12") and is_numeral(" -3 ") and is_numeral("\u0663") and is_numeral("\uff11\uff12")
    assert not is_numeral("0/1/44") and not is_numeral("Strategic 1/42") and not is_numeral("") and not is_numeral(3)


def test_text_of_writes_what_read_reads_back():
    for x in (0, -7, Fraction(5, 2), Fraction(-1, 8), Fraction(1, 3), Fraction(63, 5)):
        assert NumberField("x", step=None, fractions=True).read(text_of(x)) == x
    assert text_of(Fraction(-1, 8)) == "-0.125" and text_of(Fraction(63, 5)) == "12.6" and text_of(Fraction(1, 3)) == "1/3"


FIELDS = st.sampled_from([WHOLE, HALVES, DECIMAL, SLASH, NumberField("n"), NumberField("n", 1, None, step=Fraction(1, 10))])
NUMBERISH = st.from_regex(r"\A[ +\-]?[0-9\u0660-\u0669\uff10-\uff19.eE/_x ]{0,40}\Z")


@settings(max_examples=400, deadline=None)
@given(field=FIELDS, text=st.one_of(st.text(max_size=60), NUMBERISH, st.integers(), st.floats(), st.fractions(),
                                    st.booleans(), st.none()))
def test_any_text_is_read_within_the_field_or_refused_in_one_line(field, text):
    try:
        got = field.read(text)
    except NumberTextError as e:
        assert "\n" not in str(e) and str(e).startswith(field.what + " ")
        return
    assert isinstance(got, (int, Fraction)) and not isinstance(got, bool)
    assert field.low is None or got >= field.low
    assert field.high is None or got <= field.high
    if field.step is not None:
        assert Fraction(got) % Fraction(field.step) == 0
    if isinstance(text, str):
        assert all(ch in "0123456789+-./" or ch.isspace() for ch in text)  # no other script's digit taken
    assert field.read(text_of(got)) == got  # what it accepts reads back from its own text


@settings(max_examples=200, deadline=None)
@given(n=st.integers(-99999, 99999), halves=st.integers(-199998, 199998))
def test_every_value_in_range_is_accepted_exactly(n, halves):
    assert WHOLE.read(str(n)) == n and WHOLE.read(f"  {n} ") == n
    x = Fraction(halves, 2)
    assert HALVES.read(text_of(x)) == x


def test_the_length_limit_leaves_room_for_every_field_the_package_declares():
    assert len("-" + "9" * 12 + "." + "9" * 12) <= MAX_CHARS
