"""Visible errors: Voila hides tracebacks and swallows callback exceptions, so every widget
callback in the dashboards goes through ``ErrorPanel.guard`` and every error lands in a panel on
the page and in a log file, never nowhere.

A rejected command (the project's own one-line errors: ``ValueError`` subclasses such as
``CampaignError`` and ``HexError``) is shown as its one line; anything else is a bug and is shown
with its traceback, folded.
"""

from __future__ import annotations

import datetime as _dt
import functools
import html
import re
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Optional

import ipywidgets as w

MAX_SHOWN = 5

# The panel floats over what follows it (the map) instead of pushing it down, and scrolls when
# errors stack (pushed down, five errors moved the map ~230 px). A page that is only the panel (the
# kit's error page) keeps it in the flow. The rules travel with the panel, so every page has them.
STYLE = """<style>
.ca-dashboard, .ca-page { position: relative; }
.ca-error-panel { position: absolute !important; left: 0; right: 0; z-index: 1200;
  max-height: 40vh; overflow-y: auto !important; background: #fdecee;
  box-shadow: 0 3px 10px rgba(0, 0, 0, 0.35); }
.ca-error-panel.ca-error-page { position: relative !important; max-height: none; box-shadow: none; }
</style>"""


@dataclass(frozen=True)
class ErrorRecord:
    time: str
    context: str
    message: str
    kind: str  # "rejected" (bad input, one line) or "bug" (unexpected exception)
    traceback: str = ""


def is_rejection(exc: BaseException) -> bool:
    """Bad input the user can fix: the project's domain errors are one-line ValueErrors."""
    return isinstance(exc, (ValueError, KeyError, LookupError)) and not isinstance(exc, UnicodeError)


def one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    msg = text[0] if text else ""
    if isinstance(exc, KeyError) and msg.startswith(("'", '"')):
        msg = msg.strip("'\"")
    return msg or type(exc).__name__


FLAG = re.compile(r"(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)")


def page_words(text: str, fields: Optional[Mapping[str, str]] = None) -> str:
    """A message shared with the CLI, as a page says it: each CLI flag (``--to-side``) becomes the
    page's field that gives it (``fields["to-side"]``, "To side"), else the flag's own words ("to
    side"). The CLI shows its flags; a page shows its fields."""
    return FLAG.sub(lambda m: (fields or {}).get(m.group(1)) or m.group(1).replace("-", " "), text)


@dataclass
class ErrorPanel:
    """The page's error panel plus its log file. One per dashboard (no global state)."""

    log_path: Optional[Path] = None
    records: list[ErrorRecord] = field(default_factory=list)
    fields: Mapping[str, str] = field(default_factory=dict)  # CLI flag -> the page's field (``page_words``)

    def __post_init__(self):
        self._list = w.HTML(value="")
        self._list.add_class("ca-error-list")
        self._clear = w.Button(description="Dismiss", layout=w.Layout(width="90px"))
        self._clear.add_class("ca-error-dismiss")
        self._clear.on_click(lambda _b: self.clear())
        title = w.HTML("<b>Error</b>")
        style = w.HTML(STYLE, layout=w.Layout(display="none"))
        self.widget = w.VBox([w.HBox([title, self._clear]), self._list, style],
                             layout=w.Layout(display="none", border="2px solid #b00020",
                                             padding="4px 8px", margin="4px 0"))
        self.widget.add_class("ca-error-panel")

    # ----- reporting -----------------------------------------------------------------------
    def report(self, exc: BaseException, context: str = "") -> ErrorRecord:
        kind = "rejected" if is_rejection(exc) else "bug"
        tb = "" if kind == "rejected" else "".join(
            traceback.format_exception(type(exc), exc, exc.__traceback__))
        msg = (page_words(one_line(exc), self.fields) if kind == "rejected"
               else f"{type(exc).__name__}: {one_line(exc)}")
        rec = ErrorRecord(time=_dt.datetime.now().isoformat(timespec="seconds"), context=context,
                          message=msg, kind=kind, traceback=tb)
        self.records = (self.records + [rec])[-50:]
        self._log(rec)
        self._render()
        return rec

    def guard(self, fn: Callable, context: str = "") -> Callable:
        """``fn`` wrapped so that any exception is reported here instead of vanishing."""
        ctx = context or getattr(fn, "__name__", "callback")

        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except Exception as e:  # noqa: BLE001 - the whole point: nothing disappears
                self.report(e, ctx)
                return None

        return wrapped

    def clear(self) -> None:
        self.records = []
        self._render()

    # ----- internals -----------------------------------------------------------------------
    def _log(self, rec: ErrorRecord) -> None:
        if self.log_path is None:
            return
        try:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.log_path, "a", encoding="utf-8") as f:
                f.write(f"{rec.time} [{rec.kind}] {rec.context}: {rec.message}\n")
                if rec.traceback:
                    f.write(rec.traceback.rstrip("\n") + "\n")
        except OSError as e:  # the panel still shows it; say the log failed too
            self.records = self.records + [ErrorRecord(
                rec.time, "error log", f"could not write {self.log_path}: {e}", "bug")]

    def _render(self) -> None:
        shown = self.records[-MAX_SHOWN:]
        items = []
        for r in reversed(shown):
            ctx = f"<span style='color:#555'>{html.escape(r.context)}:</span> " if r.context else ""
            tb = (f"<details><summary>details</summary><pre style='font-size:11px;white-space:pre-wrap'>"
                  f"{html.escape(r.traceback)}</pre></details>") if r.traceback else ""
            items.append(f"<div class='ca-error ca-error-{r.kind}'>{html.escape(r.time[11:])} {ctx}"
                         f"<span class='ca-error-message'>{html.escape(r.message)}</span>{tb}</div>")
        if self.log_path is not None and shown:
            items.append(f"<div style='color:#777;font-size:11px'>logged to {html.escape(str(self.log_path))}</div>")
        self._list.value = "".join(items)
        self.widget.layout.display = "flex" if shown else "none"
