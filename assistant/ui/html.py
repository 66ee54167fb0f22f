"""The small pieces of HTML every page writes the same way: escaped text, a rule reference, the
rules' findings by level, an amount, a one-line error.

Pages build their HTML from these so that a rule reads "[29.6]" and a finding reads "error
[T 3] …" on every page alike.
"""

from __future__ import annotations

import html as _html
from typing import Any, Iterable, Optional

# A finding's level, as the rules grade it: the colour it is shown in, and the order (errors first).
LEVEL_COLOURS = {"error": "#b00020", "warning": "#e65100", "question": "#1565c0", "info": "#555"}
LEVEL_ORDER = {level: i for i, level in enumerate(LEVEL_COLOURS)}
MUTED = "#666"  # the grey of a page's hints ("No entries yet.")


def esc(x: Any) -> str:
    """``x`` as HTML text (None is empty)."""
    return _html.escape("" if x is None else str(x))


def muted(text: str) -> str:
    """A hint in the page's grey (``text`` is HTML already)."""
    return f"<span style='color:{MUTED}'>{text}</span>"


def rule_ref(rule: Any) -> str:
    """A rule reference as the rules wrote it, in brackets once ("[29.6]", "[apto 10.42]");
    empty when there is none."""
    rule = str(rule if rule is not None else "").strip()
    return "" if not rule else rule if rule.startswith("[") else f"[{rule}]"


def num(x: Any) -> str:
    """An amount as the rules print it: whole numbers bare, fractions to two places, "-" for none."""
    if x is None:
        return "-"
    x = float(x)
    return f"{int(x)}" if x.is_integer() else f"{x:.2f}"


def findings_html(findings: Iterable, css: str, title: str = "") -> str:
    """The rules' findings as a list, errors first, each with its level and rule reference.
    ``css`` is the page's class prefix (``ca-strike``): each item is ``<css>-finding <css>-<level>``."""
    findings = sorted(findings or (), key=lambda f: LEVEL_ORDER.get(f.level, len(LEVEL_ORDER)))
    if not findings:
        return ""
    rows = "".join(
        f"<li class='{css}-finding {css}-{esc(f.level)}'><b style='color:{LEVEL_COLOURS.get(f.level, '#555')}'>"
        f"{esc(f.level)}</b> <span class='ca-rule'>{esc(rule_ref(f.rule))}</span> {esc(f.text)}</li>"
        for f in findings)
    return (f"<div>{esc(title)}</div>" if title else "") + f"<ul>{rows}</ul>"


def error_line(cls: str, text: str, head: Optional[str] = None) -> str:
    """One line saying what went wrong, in the page's error class (``ca-strike-error``), with an
    optional bold head ("Cannot plot")."""
    head_html = f"<b>{esc(head)}</b>: " if head else ""
    return f"<div class='{cls}'>{head_html}{esc(text)}</div>"
