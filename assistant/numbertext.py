"""Numbers as a player types them: the one reader of every number that comes in as text (a command
line's argument, a page's box, a CSV cell of an imported table, map or order of battle).

The rule, one for every field: **a number is written with the ASCII digits 0-9**, an optional
leading ``+`` or ``-`` and, where the field takes parts of a unit, a decimal point (``2.5``, ``.5``)
or, where it says so, a fraction (``1/2``). Blanks around it are ignored. Anything else is refused,
not guessed at: other scripts' digits (``١٢``, ``１２``), exponents (``1e3``), ``1_000``, ``0x10``,
``nan``, ``inf``. A value is never rounded: one finer than the field's unit (``0.004`` where the
unit is a whole point) is refused. The text's length and shape are checked before it is converted,
so no input costs more than a few microseconds whatever its size.

``NumberField`` declares a field (its name in messages, bounds, unit and the rule that bounds it);
``NumberField.read`` returns the exact value, an ``int`` or (for a part of a unit) a ``Fraction``,
or raises ``NumberTextError``: one line naming the field, the value as typed and what is allowed,
e.g. ``amount '1e100000000' is not a whole number: write it without an exponent (a whole number
of EP from -99999 to 99999)``. ``NumberTextError`` is a ``ValueError``; its ``reason`` is the message
without the field's name and value, for a caller that names the place itself (a table's line and
column). Pure: no campaign, no game data.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Optional

MAX_CHARS = 32  # longer than any number a field takes (12 digits, a point, 12 places): refused unread
_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)")
_SLASH = re.compile(r"[+-]?[0-9]+/[0-9]*[1-9][0-9]*")
_EXPONENT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)[eE][+-]?[0-9]+")

_NUMERAL = re.compile(r"[+-]?\d+")  # digits of any script: a whole number as someone may mean one

Value = int | Fraction


def is_numeral(text: Any) -> bool:
    """``text`` is meant as a whole number (a sign and digits of any script): for a box that takes
    a number or a name, such as a turn's index or its label. Its reading then refuses other
    scripts' digits, so ``٣`` is refused as a number, not looked up as a name."""
    return isinstance(text, str) and bool(_NUMERAL.fullmatch(text.strip()[:MAX_CHARS * 4]))


class NumberTextError(ValueError):
    """A number the field does not take: one line naming the field, the value and what is allowed."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


def shown(value: Any, limit: int = 40) -> str:
    """``value`` as a message shows it: its text, control characters escaped, a long one cut. An
    integer too long to print (Python refuses beyond 4300 digits) is named by its size."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    if isinstance(value, Fraction) and max(value.numerator.bit_length(), value.denominator.bit_length()) > 128:
        return "a fraction of very large numbers"
    text = value.strip() if isinstance(value, str) else str(value)
    text = "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in text[: limit + 1])
    return text if len(text) <= limit else text[: limit - 3] + "..."


def text_of(x: Value) -> str:
    """An exact value written as this module reads it back: ``12``, ``-2.5``; a fraction with no
    finite decimal as ``1/3``."""
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    d = x.denominator
    twos = fives = 0
    while d % 2 == 0:
        d, twos = d // 2, twos + 1
    while d % 5 == 0:
        d, fives = d // 5, fives + 1
    if d != 1:
        return f"{x.numerator}/{x.denominator}"
    places = max(twos, fives)
    scaled = abs(x) * 10**places
    whole, part = divmod(int(scaled), 10**places)
    return f"{'-' if x < 0 else ''}{whole}.{part:0{places}d}"


@dataclass(frozen=True)
class NumberField:
    """A number field as a rule or table declares it. ``step`` is the field's unit: ``1`` a whole
    number (no decimal point), ``Fraction(1, 2)`` halves, ``None`` any decimal of up to ``places``
    places. ``rule`` is the rule that bounds it (``[17.2.2]``), shown with a refusal; where no rule
    bounds a field its declaration says why its bounds are what they are."""

    what: str
    low: Optional[Value] = None
    high: Optional[Value] = None
    step: Optional[Value] = 1
    unit: str = ""
    rule: str = ""
    places: int = 12
    fractions: bool = False  # also takes 1/2

    def __post_init__(self) -> None:
        for name in ("low", "high", "step"):  # a float bound is the decimal it prints as (0.6, not 0.59999...)
            x = getattr(self, name)
            if isinstance(x, float):
                object.__setattr__(self, name, Fraction(repr(x)))
        if self.step is not None and Fraction(self.step) <= 0:
            raise ValueError(f"step {self.step} must be above 0")
        if self.low is not None and self.high is not None and self.low > self.high:
            raise ValueError(f"low {self.low} is above high {self.high}")

    @property
    def whole(self) -> bool:
        return self.step is not None and Fraction(self.step) == 1

    # ----- what the field takes, in words ---------------------------------------------------------
    def allowed(self) -> str:
        """``a whole number of EP from -99999 to 99999``, ``a number from 0.6 to 1.1 in steps of 0.1``."""
        what = "a whole number" if self.whole else "a number"
        if self.unit:
            what += f" of {self.unit}"
        lo = None if self.low is None else text_of(Fraction(self.low))
        hi = None if self.high is None else text_of(Fraction(self.high))
        if lo is not None and hi is not None:
            what += f" from {lo} to {hi}"
        elif lo is not None:
            what += f", {lo} or more"
        elif hi is not None:
            what += f", {hi} or less"
        if self.step is not None and not self.whole:
            what += f" in steps of {text_of(Fraction(self.step))}"
        return what

    def _range(self) -> str:
        """`` (a whole number of EP from -99999 to 99999)``: what is allowed, where it says more
        than the refusal itself."""
        what = self.allowed()
        return "" if what in ("a whole number", "a number") else f" ({what})"

    def _refuse(self, value: Any, reason: str) -> NumberTextError:
        reason = reason + (f" {self.rule}" if self.rule else "")
        return NumberTextError(f"{self.what} '{shown(value)}' {reason}", reason)

    # ----- the check -----------------------------------------------------------------------------
    def read(self, value: Any) -> Value:
        """``value`` (text as typed; or an int, a finite float or a Fraction from Python or stored
        JSON) as the exact number it is, checked against the field."""
        if isinstance(value, str):
            x = self._parse(value)
        elif isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
            raise self._refuse(value, f"is not a number{self._range()}")
        elif isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                raise self._refuse(value, f"is not a number{self._range()}")
            x = Fraction(repr(value))  # the decimal it prints as, not the binary fraction
        else:
            x = Fraction(value)
        if (self.low is not None and x < self.low) or (self.high is not None and x > self.high):
            raise self._refuse(value, f"is out of range{self._range()}")
        if not isinstance(value, str) and (max(x.numerator.bit_length(), x.denominator.bit_length()) > 128
                                           or len(text_of(x)) > MAX_CHARS):  # as its text would be read
            raise self._refuse(value, f"is too long{self._range()}")
        if self.step is not None and x % Fraction(self.step):
            unit = f" of {self.unit}" if self.unit else ""
            why = (f"is not a whole number{unit}" if self.whole
                   else f"is not a multiple of {text_of(Fraction(self.step))}{' ' + self.unit if self.unit else ''}")
            raise self._refuse(value, why)
        if self.step is None and (not self.fractions or isinstance(value, float)) and (x * 10**self.places).denominator != 1:
            raise self._refuse(value, f"has more than {self.places} decimal places")
        return x.numerator if x.denominator == 1 else x

    def argtype(self) -> Callable[[str], Value]:
        """The field as an argparse ``type`` (its refusal an ArgumentTypeError, which argparse
        prints as it is: ``argument --strength: strength '١٢' is not a whole number: ...``)."""

        def conv(text: str) -> Value:
            try:
                return self.read(text)
            except NumberTextError as e:
                raise argparse.ArgumentTypeError(str(e)) from None

        conv.__name__ = self.what
        return conv

    def _parse(self, value: str) -> Fraction:
        t = value.strip()
        if t and len(t) <= MAX_CHARS:
            if _WHOLE.fullmatch(t):
                return Fraction(int(t))
            if _DECIMAL.fullmatch(t):
                if self.whole and Fraction(t) % 1 == 0:
                    raise self._refuse(value, f"is not a whole number: write it without a decimal point{self._range()}")
                return Fraction(t)
            if self.fractions and _SLASH.fullmatch(t):
                return Fraction(t)
        if any(ch.isdigit() and not "0" <= ch <= "9" for ch in t[:MAX_CHARS * 4]):
            hint = ": use the digits 0-9"
        elif _EXPONENT.fullmatch(t[:MAX_CHARS]) or (len(t) > MAX_CHARS and _EXPONENT.match(t[:MAX_CHARS])):
            hint = ": write it without an exponent"
        elif not t:
            hint = ": it is empty"
        elif len(t) > MAX_CHARS and _DECIMAL.fullmatch(t[:MAX_CHARS]):
            raise self._refuse(value, f"is too long{self._range()}")
        else:
            hint = ""
        raise self._refuse(value, f"is not {'a whole number' if self.whole else 'a number'}{hint}{self._range()}")

