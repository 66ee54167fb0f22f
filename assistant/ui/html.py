"""The small pieces of HTML every page writes the same way: escaped text, a rule reference, the
rules' findings by level, an amount, a one-line error.

Pages build their HTML from these so that a rule reads "[29.6]" and a finding reads "error
[T 3] …" on every page alike.
"""

from __future__ import annotations

import html as _html
from typing import Any, Callable, Iterable, Mapping, Optional

from ..words import named
from .pages import BOARD_PAGE, HOME

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


# The pages a message may send the player to, by the words that name them (a link on a page; the
# CLI names its command instead). Relative links: every page is served beside the others.
TABLES_PAGE = "tables.ipynb"  # Rule tables: the printed tables a player enters
PAGE_NAMES = {"the Rule tables page": TABLES_PAGE, "the campaign page": HOME, "Board set-up": BOARD_PAGE}
LINK_STYLE = "text-decoration:underline;color:#0d47a1"


# Who reads a value or a table, as a player knows it: a game's rules module (by its first word,
# ``economy_book`` is ``economy``) -> the aid that asks for it.
STRIKE, SUPPLY, LEDGER = "the strike plotter", "the supply tracer", "the production ledger"
AID_OF_MODULE = {
    **dict.fromkeys(("air", "airmap", "airmath", "airrange", "airunits", "apat", "asw", "legality", "mining",
                     "aircombat", "airnaval", "bombing", "airpath", "airtables"), STRIKE),
    **dict.fromkeys(("supply", "command", "blocking", "distance", "emergency", "layers", "route", "tables", "chits",
                     "island", "isolation", "lines", "pieces", "sources", "terrain", "zoc", "boardgaps", "pipelines",
                     "reach"), SUPPLY),
    "economy": LEDGER, "placement": "the Place and Move check", "odds": "the odds", "combat": "the odds",
}


def aids_reading(modules: Iterable[str]) -> list[str]:
    """The aids that read a value or a table (its rules modules, by name or path, said as the aids a
    player uses: ``assistant/rules/witp/apat.py`` is the strike plotter), in order, once each."""
    names = [AID_OF_MODULE.get(str(m).rsplit("/", 1)[-1].removesuffix(".py").split("_")[0], "the rules")
             for m in modules]
    return list(dict.fromkeys(names))


def page_link(page: str, text: str, css: str = "ca-page-link") -> str:
    """A link to another page of the site (``page``: its notebook, "tables.ipynb"), opened beside
    this one; ``text`` is HTML already."""
    return f"<a href='{esc(page)}' target='_blank' class='{esc(css)}' style='{LINK_STYLE}'>{text}</a>"


def linked(text: Any, names: Optional[Mapping[str, Any]] = None) -> str:
    """``text`` as HTML with each page it names (``PAGE_NAMES``: "the Rule tables page") a link to it
    and each unit it names by id said by its name (``names``: id -> name; ``words.named``)."""
    out = esc(named(str(text if text is not None else ""), names or {}))
    for words, page in PAGE_NAMES.items():
        out = out.replace(esc(words), page_link(page, esc(words)))
    return out


def enter_html(entry: Any, names: Optional[Mapping[str, Any]] = None) -> str:
    """Where the value a question asks for is entered (a ``rules.findings.Entry``), in the page's
    words with the page linked: the campaign page's Units tab (the unit by its name: ``names``, id
    -> name), its Map editor, the Rule tables page."""
    if entry is None:
        return ""
    name = (names or {}).get(entry.unit) or ""
    return f" <span class='ca-enter'>&rarr; {linked(entry.words(str(name)))}</span>"


def findings_html(findings: Iterable, css: str, title: str = "",
                  when: Optional[Callable[[Any], str]] = None, names: Optional[Mapping[str, Any]] = None) -> str:
    """The rules' findings as a list, errors first, each with its level and rule reference, where
    a question's value is entered (``enter``) and, given ``when`` (a finding -> HTML), where on the
    calendar what it refuses is allowed; ``names``: the units' names by id (a unit is chosen by
    its name). ``css`` is the page's class prefix (``ca-strike``): each
    item is ``<css>-finding <css>-<level>``."""
    findings = sorted(findings or (), key=lambda f: LEVEL_ORDER.get(f.level, len(LEVEL_ORDER)))
    if not findings:
        return ""
    rows = "".join(
        f"<li class='{css}-finding {css}-{esc(f.level)}'><b style='color:{LEVEL_COLOURS.get(f.level, '#555')}'>"
        f"{esc(f.level)}</b> <span class='ca-rule'>{esc(rule_ref(f.rule))}</span> {linked(f.text, names)}"
        + enter_html(getattr(f, "enter", None), names)
        + (when(f) if when is not None and getattr(f, "when", None) is not None else "") + "</li>"
        for f in findings)
    return (f"<div>{esc(title)}</div>" if title else "") + f"<ul>{rows}</ul>"


def error_line(cls: str, text: str, head: Optional[str] = None) -> str:
    """One line saying what went wrong, in the page's error class (``ca-strike-error``), with an
    optional bold head ("Cannot plot")."""
    head_html = f"<b>{esc(head)}</b>: " if head else ""
    return f"<div class='{cls}'>{head_html}{esc(text)}</div>"
