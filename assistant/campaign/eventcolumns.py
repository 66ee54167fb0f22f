"""The ``events`` table's payload columns: every scalar field of every registered event type.

An event type is a pydantic model (``events.EventBody``); each field that holds one value (a whole
number, a number, text, yes/no, one of a few words; optional or not) is a column of the same name,
shared by every type that has it (``hex`` of unit_moved and of hex_corrected). A field that is a
model of its own is read field by field, its name joined with an underscore (unit_placed's
``unit.hex`` is ``unit_hex``, ``unit.id`` is ``unit_id`` like unit_moved's). A name the types give
different kinds is text (undo's ``target`` is an event number, a strike's a hex): a number or a
yes/no written as JSON. A name taken by one of the table's own columns gets the prefix ``p_``.
What holds several values (lists, mappings: dice values, a unit's attributes, a nested event)
stays in the ``payload`` column as JSON, without the fields the columns hold.

The columns are the types registered when the table is asked for (the aids load first): an aid
that is not installed adds none of its own.
"""

from __future__ import annotations

import copy
import json
import types
import typing
from functools import lru_cache
from typing import Any, Literal, Optional, Union

from pydantic import BaseModel

from .exporttables import Column

PREFIX = "p_"
MAX_DEPTH = 3  # models inside models an event carries (a scan's points are lists: they stay JSON)
SCALARS = {bool: "bool", int: "int", float: "float", str: "text"}

Path = tuple[str, ...]


def _scalar_kind(annotation: Any) -> Optional[str]:
    """The column kind of a one-value annotation (``Optional`` and pydantic's ``Strict`` types
    unwrapped), ``"model"`` for a pydantic model, None for anything holding several values."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _scalar_kind(typing.get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        kinds = {_scalar_kind(a) for a in typing.get_args(annotation) if a is not type(None)}
        if len(kinds) == 1:
            return kinds.pop()
        return "text" if kinds and None not in kinds and "model" not in kinds else None
    if origin is Literal:
        return "category" if all(isinstance(a, str) for a in typing.get_args(annotation)) else "text"
    if isinstance(annotation, type):
        if issubclass(annotation, BaseModel):
            return "model"
        for t, kind in SCALARS.items():
            if annotation is t:
                return kind
    return None


def _model_of(annotation: Any) -> type[BaseModel]:
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated or origin in (Union, types.UnionType):
        return next(_model_of(a) for a in typing.get_args(annotation) if _scalar_kind(a) == "model")
    return annotation


def _fields(model: type[BaseModel], path: Path = ()) -> list[tuple[Path, str]]:
    """``(path in the payload, column kind)`` of every scalar field of ``model``, models inside read
    field by field."""
    out = []
    for name, f in model.model_fields.items():
        key = f.alias or name
        kind = _scalar_kind(f.annotation)
        if kind == "model" and len(path) < MAX_DEPTH:
            out += _fields(_model_of(f.annotation), (*path, key))
        elif kind is not None and kind != "model":
            out.append(((*path, key), kind))
    return out


@lru_cache(maxsize=8)
def _layout(registered: tuple[tuple[str, type], ...], own: frozenset[str]):
    by_name: dict[str, dict[str, Any]] = {}
    paths: dict[str, list[tuple[Path, str]]] = {}
    for type_, cls in registered:
        for path, kind in _fields(cls):
            name = "_".join(path)
            name = PREFIX + name if name in own else name
            d = by_name.setdefault(name, {"kinds": set(), "where": {}})
            d["kinds"].add(kind)
            d["where"].setdefault((".".join(path), kind), []).append(type_)
            paths.setdefault(type_, []).append((path, name))
    columns = []
    for name in sorted(by_name):
        d = by_name[name]
        mixed = len(d["kinds"]) > 1
        kind = "text" if mixed else next(iter(d["kinds"]))
        where = "; ".join(f"{p}{f' ({k})' if mixed else ''} of {', '.join(ts)}" for (p, k), ts in d["where"].items())
        note = " (kinds differ: a number or a yes/no is written as JSON)" if mixed else ""
        columns.append(Column(name, kind, f"payload field: {where}{note}"))
    return tuple(columns), {t: tuple(p) for t, p in paths.items()}


def layout(own: frozenset[str]) -> tuple[tuple[Column, ...], dict[str, tuple[tuple[Path, str], ...]]]:
    """(payload columns, for each event type its ``(path, column)`` pairs) of the event types
    registered now; ``own`` are the table's own column names (a field named so gets ``p_``)."""
    from .events import EVENT_TYPES

    return _layout(tuple(sorted(EVENT_TYPES.items())), own)


def _cell(kind: str, value: Any) -> tuple[bool, Any]:
    if kind == "text":
        return True, value if isinstance(value, str) else json.dumps(value)
    ok = {"bool": lambda x: isinstance(x, bool), "category": lambda x: isinstance(x, str),
          "int": lambda x: isinstance(x, int) and not isinstance(x, bool),
          "float": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool)}[kind](value)
    return ok, value


def flatten(payload: dict[str, Any], paths: tuple[tuple[Path, str], ...],
            kinds: dict[str, str]) -> tuple[dict[str, Any], Optional[str]]:
    """(the columns' values, the rest of ``payload`` as JSON or None when nothing is left)."""
    cells: dict[str, Any] = {}
    rest = copy.deepcopy(payload)
    for path, name in paths:
        holder, value = rest, None
        for i, key in enumerate(path):
            if not isinstance(holder, dict) or key not in holder:
                break
            if holder[key] is None:  # an absent model (or value): its columns are empty
                del holder[key]
                break
            if i == len(path) - 1:
                ok, value = _cell(kinds[name], holder[key])
                if ok:
                    cells[name] = value
                    del holder[key]
            else:
                holder = holder[key]
        _prune(rest, path)
    return cells, (json.dumps(rest, sort_keys=True, ensure_ascii=False) if rest else None)


def _prune(rest: dict[str, Any], path: Path) -> None:
    """Drop the mappings along ``path`` that emptying its leaf left empty."""
    chain = [rest]
    for key in path[:-1]:
        nxt = chain[-1].get(key) if isinstance(chain[-1], dict) else None
        if not isinstance(nxt, dict):
            break
        chain.append(nxt)
    for i in range(len(chain) - 1, 0, -1):
        if not chain[i]:
            del chain[i - 1][path[i - 1]]
