"""A TOML data file read into typed models, so that a misspelt, missing or mistyped key fails as
the file loads, naming the file, the key and its line (``game.toml:212: settings.x.defualt:
unknown key``), instead of surfacing later as a wrong default deep inside a rules call.

``tomllib`` gives no positions, so ``key_line`` finds a key's line by scanning the file's text
(table headers, array-of-tables counts, dotted keys, inline tables and the elements of arrays
written inline; multi-line strings skipped).
"""

from __future__ import annotations

import difflib
import re
import types
import typing
from pathlib import Path
from typing import Annotated, Any, Callable, Optional, Sequence, TypeVar, Union

import tomllib
from pydantic import AfterValidator, BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")
Key = Sequence[Union[str, int]]


def _number(value: Any) -> Union[int, float]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("must be a number")
    return value


# A TOML number kept as written (1 stays an int, 1.5 a float) where a model field could be either:
# a ``Union[int, float]`` field would name its failed branch in the error's key ("min.int").
Number = Annotated[Any, AfterValidator(_number)]


class DataFileError(ValueError):
    """A data file that does not match its schema. ``path``, ``key`` (dotted, "" for the file
    itself) and ``line`` (1-based, None when not found) say where; ``problem`` says what."""

    def __init__(self, path: Path | str, key: str, line: Optional[int], problem: str):
        self.path, self.key, self.line, self.problem = Path(path), key, line, problem
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {key}: {problem}" if key else f"{where}: {problem}")


def dotted(key: Key) -> str:
    """``("sides", 1, "nations", 0, "nmae")`` -> ``"sides[1].nations[0].nmae"``."""
    out = ""
    for part in key:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def read_toml(path: Path) -> tuple[str, dict[str, Any]]:
    """The file's text and its parsed table; a syntax error is a DataFileError with its line."""
    text = path.read_text(encoding="utf-8")
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+)", str(e))
        raise DataFileError(path, "", int(m.group(1)) if m else None, f"not valid TOML: {e}") from None


def fail(path: Path, text: str, key: Key, problem: str) -> DataFileError:
    """The error for ``key`` of the file at ``path`` (raise it)."""
    return DataFileError(path, dotted(key), key_line(text, key), problem)


def validate(model: type[M], data: Any, path: Path, text: str, at: Key = ()) -> M:
    """``data`` (the table at ``at`` of the file) as ``model``; the first problem as a DataFileError
    (with how many more there are)."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        errors = _root_causes(e.errors())
        first = errors[0]
        key = (*at, *first["loc"])
        problem = _problem(first, model, tuple(first["loc"]))
        if len(errors) > 1:
            problem += f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})"
        raise fail(path, text, key, problem) from None


def load_model(model: type[M], path: Path) -> M:
    """The TOML file at ``path`` as ``model``."""
    text, data = read_toml(path)
    return validate(model, data, path, text)


def load_if_present(path: Path, load: Callable[[Path], T], empty: T, error: type[Exception]) -> T:
    """``load(path)`` for a file a game may do without (``empty`` where there is none). Its
    DataFileError comes out as ``error`` with the same one line, so a caller that catches its own
    kind of error (a rules or an aid error) catches a broken file too."""
    if not path.is_file():
        return empty
    try:
        return load(path)
    except DataFileError as e:
        raise error(str(e)) from None


# ----- what went wrong --------------------------------------------------------------------------
def _root_causes(errors: list) -> list:
    """Unknown keys first; a key missing from a table that has an unknown one is left out (the
    unknown one is probably it, misspelt)."""
    unknown = [e for e in errors if e["type"] == "extra_forbidden"]
    tables = {tuple(e["loc"][:-1]) for e in unknown}
    rest = [e for e in errors if e["type"] != "extra_forbidden"
            and not (e["type"] == "missing" and tuple(e["loc"][:-1]) in tables)]
    return unknown + rest


def _problem(err: dict, model: type[BaseModel], loc: tuple) -> str:
    kind = err["type"]
    if kind == "extra_forbidden":
        known = _fields_at(model, loc[:-1])
        hint = difflib.get_close_matches(str(loc[-1]), known, n=1)
        if hint:
            return f"unknown key {loc[-1]!r} (did you mean {hint[0]!r}?)"
        return f"unknown key {loc[-1]!r}" + (f" (keys: {', '.join(known)})" if known else "")
    if kind == "missing":
        return "missing key"
    msg = str(err["msg"])
    return msg.removeprefix("Value error, ")


def _fields_at(model: Any, loc: tuple) -> list[str]:
    """The keys the model allows at ``loc`` (for a hint; empty where it cannot tell)."""
    tp: Any = model
    for part in loc:
        tp = _unwrap(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            field = tp.model_fields.get(str(part))
            if field is None:
                return []
            tp = field.annotation
        else:
            args = typing.get_args(tp)
            origin = typing.get_origin(tp)
            if origin in (list, tuple, set, frozenset, Sequence) and args:
                tp = args[0]
            elif origin is dict and len(args) == 2:
                tp = args[1]
            else:
                return []
    tp = _unwrap(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [f.alias or name for name, f in tp.model_fields.items()]
    return []


def _unwrap(tp: Any) -> Any:
    """``Optional[X]`` -> X."""
    if typing.get_origin(tp) in (Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return tp


# ----- where it is ------------------------------------------------------------------------------
_BARE = r"[A-Za-z0-9_-]+"
_QUOTED = r'"(?:[^"\\]|\\.)*"|\'[^\']*\''
_PART = rf"(?:{_BARE}|{_QUOTED})"
_HEADER = re.compile(rf"^\s*(\[\[?)\s*({_PART}(?:\s*\.\s*{_PART})*)\s*\]\]?\s*(?:#.*)?$")
_KEYLINE = re.compile(rf"^\s*({_PART}(?:\s*\.\s*{_PART})*)\s*=")
_INLINE_KEY = re.compile(rf"({_PART}(?:\s*\.\s*{_PART})*)\s*=")
_LONG_QUOTES = ('"""', "'''")  # what opens a multi-line string


def _parts(keytext: str) -> list[str]:
    out = []
    for p in re.findall(_PART, keytext):
        out.append(p[1:-1] if p[:1] in "\"'" else p)
    return out


def key_line(text: str, key: Key) -> Optional[int]:
    """The 1-based line of ``key`` (a path of table names, keys and array-of-tables indices) in the
    TOML ``text``: its own line where it is written, else the line of the nearest enclosing table
    or key that is (a missing key: its table's header). None if nothing of it is found."""
    where = _positions(text)
    key = tuple(key)
    for n in range(len(key), 0, -1):
        line = where.get(key[:n])
        if line is None:
            continue
        rest = key[n:]
        if not rest:
            return line
        if _KEYLINE.match(text.splitlines()[line - 1]):  # inside the key's inline table or array
            return _inline_line(text, line, rest)
        names = [p for p in rest if isinstance(p, str)]  # a key its table's header does not show
        return (_name_below(text, line, names[0]) if names else None) or line
    return None


def _inline_line(text: str, line: int, rest: Key) -> int:
    """The line of ``rest`` (array indices and keys) inside the value of the key written on
    ``line`` (``columns = [{ name = "dr" }, ...]``): of the deepest part of it found."""
    lines = text.splitlines(keepends=True)
    start = sum(len(x) for x in lines[:line - 1])
    found = pos = start + _KEYLINE.match(lines[line - 1]).end()
    for part in rest:
        pos = _blank(text, pos)
        opener = "[" if isinstance(part, int) else "{"
        if not text.startswith(opener, pos):
            break
        items = list(_items(text, pos))
        if isinstance(part, int):
            if part >= len(items):
                break
            found = pos = items[part]
            continue
        for item in items:
            m = _INLINE_KEY.match(text, item)
            if m and _parts(m.group(1))[0] == part:
                found, pos = item, m.end()
                break
        else:
            break
    return text.count("\n", 0, found) + 1


def _blank(text: str, i: int) -> int:
    """``i`` moved past white space, line breaks and comments."""
    while i < len(text):
        if text[i] == "#":
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
        elif text[i].isspace():
            i += 1
        else:
            break
    return i


def _items(text: str, i: int):
    """Where each item of the array or inline table opening at ``i`` starts."""
    depth = 0
    start = True
    while i < len(text):
        c = text[i]
        if depth == 1 and start and not c.isspace() and c not in "#]}":
            yield i
            start = False
        end = _string_end(text, i)
        if end != i:
            i = len(text) if end is None else end
            continue
        if c == "#":
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
            if depth == 0:
                return
        elif c == "," and depth == 1:
            start = True
        i += 1


def _name_below(text: str, line: int, name: str) -> Optional[int]:
    pat = re.compile(rf"(?:^|[{{,\s]){re.escape(name)}\s*=")
    lines = text.splitlines()
    for i in range(line - 1, len(lines)):
        if i > line - 1 and _HEADER.match(lines[i]):
            return None
        if pat.search(lines[i]):
            return i + 1
    return None


def _positions(text: str) -> dict[tuple, int]:
    """Every table, array-of-tables element and key of ``text`` -> the line it first appears on."""
    where: dict[tuple, int] = {}
    counts: dict[tuple, int] = {}
    table: tuple = ()
    in_string: Optional[str] = None  # the quote of a multi-line string being skipped
    depth = 0  # open brackets of a multi-line array value

    def note(path: tuple, n: int) -> None:
        for i in range(1, len(path) + 1):
            where.setdefault(path[:i], n)

    def resolve(parts: list[str]) -> tuple:
        out: tuple = ()
        for p in parts:
            out += (p,)
            if out in counts:  # a table inside an array of tables belongs to its last element
                out += (counts[out] - 1,)
        return out

    for n, line in enumerate(text.splitlines(), start=1):
        if in_string is not None:
            end = line.find(in_string)
            if end < 0:
                continue
            in_string, delta = _scan(line[end + 3:])
            depth = max(0, depth + delta)
            continue
        if depth > 0:
            in_string, delta = _scan(line)
            depth = max(0, depth + delta)
            continue
        m = _HEADER.match(line)
        if m:
            parts = _parts(m.group(2))
            if m.group(1) == "[[":
                array = resolve(parts[:-1]) + (parts[-1],)
                counts[array] = counts.get(array, 0) + 1
                table = array + (counts[array] - 1,)
            else:
                table = resolve(parts)
            note(table, n)
            continue
        m = _KEYLINE.match(line)
        if m:
            note(table + tuple(_parts(m.group(1))), n)
            in_string, delta = _scan(line[m.end():])
            depth = max(0, delta)
    return where


def _string_end(s: str, i: int) -> Optional[int]:
    """Just past the string that opens at ``s[i]`` (basic, literal or multi-line): ``i`` itself
    where no string opens there, None where it does not close in ``s``."""
    if s.startswith(_LONG_QUOTES, i):
        end = s.find(s[i:i + 3], i + 3)
        return None if end < 0 else end + 3
    if s[i] == '"':
        i += 1
        while i < len(s) and s[i] != '"':
            i += 2 if s[i] == "\\" else 1
        return None if i >= len(s) else i + 1
    if s[i] == "'":
        end = s.find("'", i + 1)
        return None if end < 0 else end + 1
    return i


def _scan(s: str) -> tuple[Optional[str], int]:
    """A line's value read left to right: the quote of a multi-line string it leaves open (else
    None), and its opened minus closed square brackets outside strings and comments."""
    depth, i = 0, 0
    while i < len(s):
        end = _string_end(s, i)
        if end is None:  # a string that goes on past this line: only a multi-line one may
            return (s[i:i + 3] if s.startswith(_LONG_QUOTES, i) else None), depth
        if end != i:
            i = end
            continue
        c = s[i]
        if c == "#":
            break
        elif c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
        i += 1
    return None, depth
