"""Checks on command input. Each failure is a CampaignError naming the bad value in one sentence."""

from __future__ import annotations

import difflib
import math
import os
import re
import unicodedata
from typing import Any, Iterable, Optional

from ..hexes import HexError
from ..numbertext import MAX_CHARS, NumberField, NumberTextError, is_numeral
from .errors import CampaignError
from .model import CampaignState, Unit

_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]{0,63}$")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+)")
_ID = re.compile(r"^[a-z0-9][a-z0-9_.\-]{0,63}$")
MAX_TEXT = 10_000
MAX_INT = 2**53


def show(value: Any, limit: int = 60) -> str:
    """A short, printable rendering of a bad value for an error message."""
    r = repr(value)
    return r if len(r) <= limit else r[: limit - 3] + "..."


def one_line(e: BaseException) -> str:
    """An error's message on one line (newlines escaped), or its type name if it has none."""
    t = str(e).strip().replace("\r", "\\r").replace("\n", "\\n")
    return t or type(e).__name__


def text(value: Any, what: str, max_len: int = 200, multiline: bool = False) -> str:
    if not isinstance(value, str):
        raise CampaignError(f"{what} must be text, not {show(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise CampaignError(f"{what} {show(value)} is not valid Unicode text") from None
    v = value.strip()
    if not v:
        raise CampaignError(f"{what} must not be empty")
    allowed = "\n\t" if multiline else ""
    for ch in v:
        if ch not in allowed and unicodedata.category(ch) in ("Cc", "Cs"):
            raise CampaignError(f"{what} {show(value)} contains the control character {ch!r}")
    if len(v) > max_len:
        raise CampaignError(f"{what} is {len(v)} characters long; the limit is {max_len}")
    return v


def optional_text(value: Any, what: str, max_len: int = 200) -> Optional[str]:
    return None if value is None else text(value, what, max_len)


def key(value: Any, what: str = "attribute name") -> str:
    if not isinstance(value, str) or not _KEY.match(value):
        raise CampaignError(f"{what} {show(value)} is not a name (letters, digits, _ . -; starting with a letter)")
    return value


def scalar(value: Any, what: str) -> Any:
    """A JSON scalar: bool, int, finite float, or text (not a whole number in another script's
    digits, which ``numbertext`` refuses)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        if abs(value) > MAX_INT:
            raise CampaignError(f"{what} {show(value)} is too large (limit ±2**53)")
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise CampaignError(f"{what} {show(value)} is not a finite number")
        return value
    if isinstance(value, str):
        if is_numeral(value) and not value.isascii():  # ``٣``: refused, not kept as text a rule reads as 3
            _read(NumberField(what), value)
        return text(value, what, max_len=1000)
    raise CampaignError(f"{what} {show(value)} must be text, a number or true/false")


def parse_scalar(raw: str, what: str = "value") -> Any:
    """A command-line value: true/false, a whole number, a decimal number (each as ``numbertext``
    reads numbers: the digits 0-9, at most ±2**53), else the text itself. A whole number written in
    another script's digits (``٣``) is refused, not kept as text that reads as a number later."""
    t = raw.strip()
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    if is_numeral(t):
        return _read(NumberField(what), t)  # exact, never rounded: ``scalar`` refuses one beyond ±2**53
    if len(t) <= MAX_CHARS and _DECIMAL.fullmatch(t):
        return float(_read(NumberField(what, step=None), t))
    return raw


def _read(field: NumberField, text: str) -> Any:
    try:
        return field.read(text)
    except NumberTextError as e:
        raise CampaignError(str(e)) from None


def key_values(items: Iterable[str], what: str = "attribute") -> dict[str, Any]:
    """``key=value`` strings to a dict; ``key=`` (empty value) means delete (None)."""
    out: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise CampaignError(f"{what} {show(item)} is not key=value")
        k, v = item.split("=", 1)
        name = key(k.strip(), f"{what} name")
        out[name] = None if v == "" else parse_scalar(v, name)
    return out


def hex_label(gm: Any, value: Any) -> str:
    """The canonical label of a hex on this game's map."""
    if not isinstance(value, str):
        raise CampaignError(f"hex must be a hex label (text), not {show(value)}")
    try:
        return gm.grid.label(gm.grid.parse(value))
    except HexError as e:
        raise CampaignError(f"hex {str(e).splitlines()[0]}" if str(e) else f"bad hex {show(value)}") from None
    except (ValueError, TypeError, KeyError, IndexError):
        raise CampaignError(f"hex {show(value)} is not a hex label of {gm.game}") from None


def side(state: CampaignState, value: Any) -> str:
    if isinstance(value, str):
        for s in state.sides:
            if value.strip().lower() in (s.id.lower(), s.name.lower()):
                return s.id
    raise CampaignError(f"side {show(value)} is not a side of {state.game} "
                        f"(sides: {', '.join(s.id for s in state.sides)})")


def nation(state: CampaignState, value: Any) -> str:
    nations = state.nations()
    if isinstance(value, str):
        for n in nations.values():
            if value.strip().lower() in (n.id.lower(), n.name.lower()):
                return n.id
    raise CampaignError(f"nation {show(value)} is not a nation of {state.game} (nations: {', '.join(nations)})")


def unit(state: CampaignState, value: Any) -> Unit:
    if not isinstance(value, str):
        raise CampaignError(f"unit must be a unit's id (text, e.g. {next(iter(state.units), 'infantry-1')!r}), "
                            f"not {show(value)}")
    if value in state.units:
        return state.units[value]
    close = difflib.get_close_matches(value, list(state.units), n=3)
    if value in state.retired_ids:
        hint = " (it was removed)"
    elif close:
        hint = f" (did you mean {', '.join(close)}?)"
    elif state.units:
        ids = list(state.units)
        more = f" and {len(ids) - 5} more" if len(ids) > 5 else ""
        hint = f" (units: {', '.join(ids[:5])}{more})"
    else:
        hint = " (no units are in play)"
    raise CampaignError(f"unknown unit {show(value)}{hint}")


def campaign_arg(value: Any, what: str = "campaign") -> Any:
    """``value`` if it is an open ``Campaign``; else a CampaignError saying how to get one (a path
    given in its place above all), for every public function that takes a campaign."""
    from .campaign import Campaign  # below: campaign.py imports the commands that import this module

    if isinstance(value, Campaign):
        return value
    how = f"{what} must be an open Campaign (Campaign.open(path))"
    if isinstance(value, (str, os.PathLike)):
        raise CampaignError(f"{how}, not the path {os.fspath(value)!r}")
    raise CampaignError(f"{how}, not {type(value).__name__} {show(value)}")


def new_unit_id(state: CampaignState, value: Any) -> str:
    if not isinstance(value, str) or not _ID.match(value):
        raise CampaignError(f"unit id {show(value)} is not an id (lower-case letters, digits, _ . -)")
    if value in state.units or value in state.retired_ids:
        raise CampaignError(f"unit id {value!r} is taken")
    return value


def slug(s: str) -> str:
    s = unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")[:40] or "unit"


def unique_name(state: CampaignState, name: Optional[str], own_id: Optional[str] = None) -> Optional[str]:
    """``name`` if no other unit on the map has it (compared ignoring case and runs of spaces, as a
    player reads names); else an error naming the unit that has it. Removed units free their name."""
    if name is None:
        return None
    key = " ".join(name.split()).casefold()
    for u in state.units.values():
        if u.id != own_id and u.name is not None and " ".join(u.name.split()).casefold() == key:
            raise CampaignError(f"name {name!r} is taken by {u.name} at {u.hex} (id {u.id}); choose another name")
    return name


def auto_unit_id(state: CampaignState, name: Optional[str], kind: str) -> str:
    taken = set(state.units) | set(state.retired_ids)
    base = slug(name) if name else slug(kind)
    if name and base not in taken:
        return base
    n = 1 if name else len(taken) + 1
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def boolean(value: Any, what: str) -> bool:
    if isinstance(value, bool):
        return value
    raise CampaignError(f"{what} must be true or false, not {show(value)}")
