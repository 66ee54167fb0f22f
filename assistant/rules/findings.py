"""A finding: one check's result with the rule that decides it -- ``error`` (the rules forbid it),
``warning``, ``info``, or ``question`` (the state cannot decide: what the players check at the
table). Every aid reports its checks this way: it advises, never enforces (the physical table is the
authority).

A prerequisite says where and when. A question about a value says where it is entered
(``Entry``: a value of a unit, of a hex, or a printed table) -- the page shows it as a link and the
page's own words, the CLI as its command; where a question names a unit and its attribute in
brackets (``"ap-1: air combat rating (air_combat, e.g. 4L) not entered"``), ``entry_in`` reads the
entry off the text, so the rules need not say it twice. A finding that depends on the calendar
(``When``: a kind of turn, a phase, a first turn) lets the surface name the next turn or phase where
it is allowed (``assistant.campaign.calendar.next_turn_where``) and offer to go there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping, Optional

LEVELS = ("error", "warning", "info", "question")  # question: the state cannot decide; ask the player


@dataclass(frozen=True)
class Entry:
    """Where the player enters what a question asks: ``attrs`` of the unit ``unit`` (the campaign
    page's Units tab; ``campaign update``), of the hex ``hex`` (the map editor; ``campaign map
    set``), or the printed table ``table`` (the Rule tables page; ``campaign table import``).
    ``values``: an example value per attribute ("4L"; "" where none is known)."""

    attrs: tuple[str, ...] = ()
    unit: str = ""
    hex: str = ""
    table: str = ""
    values: tuple[str, ...] = ()

    def pairs(self, page: bool = False) -> str:
        """``air_combat=4L count=N``: each attribute with its example value (``page``: a yes-or-no
        one both ways, "maintained=yes or maintained=no")."""
        vals = tuple(self.values) + ("",) * len(self.attrs)
        return " ".join(f"{a}=yes or {a}=no" if page and v == "yes" else f"{a}={v or 'VALUE'}"
                        for a, v in zip(self.attrs, vals))

    def command(self, file: str = "FILE", game: str = "") -> str:
        """The CLI command that enters it (a table's with its template file, given the ``game``)."""
        if self.table:
            return f"campaign table import {file} {self.table} CSV" + (
                f" (its template: data/games/{game}/templates/{self.table}.csv)" if game else "")
        if self.hex:
            return f"campaign map set {file} {_word(self.hex)} {self.pairs()}"
        return f"campaign update {file} {self.unit} {self.pairs()}"

    def words(self, unit_name: str = "") -> str:
        """Where a page enters it, in the page's words (no link): the unit by its name where it has
        one (``unit_name``; the Units list shows names), else its id."""
        if self.table:
            return f"enter table {self.table} on the Rule tables page"
        if self.hex:
            return f"enter {self.pairs(True)} for hex {self.hex} in the campaign page's Map editor tab"
        return (f"enter it on the campaign page: choose {unit_name or self.unit} in Units, type {self.pairs(True)} "
                "and press Set")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"command": self.command()}
        for k in ("unit", "hex", "table"):
            if getattr(self, k):
                out[k] = getattr(self, k)
        if self.attrs:
            out["attrs"] = list(self.attrs)
        return out


@dataclass(frozen=True)
class When:
    """Where on the calendar the rules allow what a finding refuses: a kind of turn (``kind``, the
    calendar's slot kind: witp "strategic"), a phase (``phase``: its id or name, any case; with
    ``kind`` the phase of that kind of turn), from a Game-Turn number on (``from_turn``, 1-based).
    ``says``: the rule's own words for it ("the Strategic Bombing Phase of a Strategic G/T")."""

    kind: str = ""
    phase: str = ""
    from_turn: Optional[int] = None
    says: str = ""

    def holds(self, turn: Any) -> bool:
        """Whether the position ``turn`` (a calendar ``TurnInfo``: kind, phase, number) is one."""
        if self.kind and str(getattr(turn, "kind", "")).lower() != self.kind.lower():
            return False
        if self.from_turn is not None and int(getattr(turn, "number", 0)) < self.from_turn:
            return False
        if self.phase:
            p = getattr(turn, "phase", None)
            if p is None or _norm(self.phase) not in (_norm(p.id), _norm(p.name), _norm(p.name).removesuffix(" phase")):
                return False
        return True

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in (("kind", self.kind), ("phase", self.phase), ("from_turn", self.from_turn),
                                  ("says", self.says)) if v not in ("", None)}


@dataclass(frozen=True)
class Finding:
    """One check of a plan: ``error`` (illegal), ``warning``, ``info``, or ``question`` (the
    state cannot decide it: what the player must check at the table), with its rule. ``enter``:
    where the value a question asks for is entered; ``when``: where on the calendar what it refuses
    is allowed. Neither is part of what the finding says (equal findings say the same)."""

    level: str
    rule: str
    text: str
    enter: Optional[Entry] = field(default=None, compare=False)
    when: Optional[When] = field(default=None, compare=False)

    def __post_init__(self):
        if self.level not in LEVELS:
            raise ValueError(f"finding level {self.level!r} is not one of {', '.join(LEVELS)}")

    @property
    def ref(self) -> str:
        return self.rule if self.rule.startswith("[") else f"[{self.rule}]"

    def to_json(self, told: bool = False) -> dict[str, Any]:
        """The finding as recorded (level, rule, text); ``told``: with where to enter what it asks
        and when it is allowed, as an answer tells them (never stored with a resolution)."""
        out: dict[str, Any] = {"level": self.level, "rule": self.rule, "text": self.text}
        if told and self.enter is not None:
            out["enter"] = self.enter.to_json()
        if told and self.when is not None:
            out["when"] = self.when.to_json()
        return out


# ----- where a question's value is entered, read off its text -----------------------------------
_BRACKETS = re.compile(r"\(([^()]*)\)")
_WORD = re.compile(r"[a-z][a-z0-9_]*")
_ID = re.compile(r"[a-z0-9][a-z0-9_.\-]*")
_EXAMPLE = re.compile(r"\be\.g\.\s*([^\s,;)]+)")
_SET = re.compile(r"^\s*set\s+(?=[a-z][a-z0-9_]*=)")  # "(set maintained=yes|no)": the verb, not an attribute
_TABLE = re.compile(r"\btable ([a-z][a-z0-9]*_[a-z0-9_]*[a-z0-9])")  # a printed table by its name: lrb_radius


def entry_in(text: str, units: Mapping[str, Any], game: str) -> Optional[Entry]:
    """Where the value a question asks for is entered, read off its text: the first unit of
    ``units`` (id -> kind name) the text names whose kind declares an attribute the text names in
    brackets ("(air_combat, e.g. 4L)", "(set maintained=yes|no)", "(ijn, roles)"), with those
    attributes and the example values the text gives; else the printed table it names ("table
    lrb_radius"); None if it names neither."""
    from .kinds import find_kind

    groups = [_SET.sub("", g) for g in _BRACKETS.findall(text)]
    words = [wd for g in groups for wd in _WORD.findall(g)]
    named = [t.rstrip(".-") for t in _ID.findall(text.lower())] if words else []
    for uid in dict.fromkeys(t for t in named if t in units):
        kind = find_kind(game, str(units[uid]))
        specs = kind.specs if kind is not None else {}
        attrs = tuple(dict.fromkeys(wd for wd in words if wd in specs))
        if attrs:
            return Entry(attrs=attrs, unit=uid, values=tuple(_example(text, a, specs[a]) for a in attrs))
    table = _TABLE.search(text)
    return Entry(table=table.group(1)) if table else None


def _example(text: str, attr: str, spec: Any) -> str:
    """The value a question suggests for ``attr`` ("e.g. 4L", "attr=yes|no": its first), else one
    its declaration allows (yes; its first choice); "" where neither says."""
    for g in _BRACKETS.findall(text):
        if attr not in _WORD.findall(g):
            continue
        m = re.search(rf"\b{re.escape(attr)}=([^\s,;)]+)", g)
        if m:
            return m.group(1).split("|")[0]
        m = _EXAMPLE.search(g)
        if m and len(_WORD.findall(g.split("e.g.")[0])) == 1:
            return m.group(1)
    if spec.type == "bool":
        return "yes"
    if spec.type == "choice" and spec.choices:
        return spec.choices[0]
    if spec.type in ("int", "number", "fraction"):
        return "N"
    return ""


def with_entries(findings: Iterable[Finding], units: Mapping[str, Any], game: str) -> list[Finding]:
    """``findings`` with each question that says none told where its value is entered
    (``entry_in``), the rest as they are."""
    out = []
    for f in findings:
        if f.level == "question" and f.enter is None:
            e = entry_in(f.text, units, game)
            if e is not None:
                f = replace(f, enter=e)
        out.append(f)
    return out


def _norm(s: Any) -> str:
    return " ".join(str(s).lower().replace("_", " ").replace("-", " ").split())


def _word(s: str) -> str:
    return f"'{s}'" if " " in s else s
