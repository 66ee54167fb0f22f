"""A finding: one check's result with the rule that decides it -- ``error`` (the rules forbid it),
``warning``, ``info``, or ``question`` (the state cannot decide: what the players check at the
table). Every aid reports its checks this way: it advises, never enforces (the physical table is the
authority).
"""

from __future__ import annotations

from dataclasses import dataclass

LEVELS = ("error", "warning", "info", "question")  # question: the state cannot decide; ask the player


@dataclass(frozen=True)
class Finding:
    """One check of a plan: ``error`` (illegal), ``warning``, ``info``, or ``question`` (the
    state cannot decide it: what the player must check at the table), with its rule."""

    level: str
    rule: str
    text: str

    def __post_init__(self):
        if self.level not in LEVELS:
            raise ValueError(f"finding level {self.level!r} is not one of {', '.join(LEVELS)}")

    @property
    def ref(self) -> str:
        return self.rule if self.rule.startswith("[") else f"[{self.rule}]"

    def to_json(self) -> dict[str, str]:
        return {"level": self.level, "rule": self.rule, "text": self.text}
