"""The production ledger's dashboard view.

No rules here: prices come from the game's economy (``catalogue``), every check from
``AddEntry.draft`` (the economy's findings, shown BEFORE anything is recorded), the record from
``AddEntry``/``CloseTurn`` through the campaign, the statements, forecast and DataFrame from
``engine`` and ``views``. Pick a side and a turn: that turn's statement per account (opening, income,
spending and losses, carry-over/expiry, closing), the forecast of the turn in force, the build
queue with arrival turns, charts of balances, income and losses over the campaign (matplotlib,
small PNGs) and an export of ``frame()`` to CSV or Excel (written beside the campaign file, and
offered as a download). Entries always go to the turn in force. The kit's poller calls
``refresh(state)`` when another page or the CLI changes the campaign.
"""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any, Optional

import ipywidgets as w

from ...campaign import validate
from ...campaign.commands import Context
from ...campaign.errors import CampaignError
from ...rules.ledger import KINDS, Book, Priced, Statement, account_name, priced_amount
from ...ui.errors import ErrorPanel
from ...ui.html import error_line, esc, findings_html, num, rule_ref
from ...ui.page import Page, side_label, text_style
from ...words import counted
from .commands import AddEntry, CloseTurn, RuleRefusal
from .engine import (
    accounts_of,
    book_of,
    booked_note,
    context_of,
    economy,
    forecast,
    forecast_needs,
    frame,
    go_to,
    need_head,
    statements_frame,
    statements_of,
)
from .views import ARRIVES, SECTION_TITLES, arrival_turn, build_queue, history, sections, unscheduled

FORM_WIDTH = "440px"
CHART_SIZE = (5.6, 5.0)  # inches at CHART_DPI: three small panels, shown 1:1
CHART_DPI = 100
MAX_CHART_ACCOUNTS = 6
NONE = ""
TABLES_PAGE = "tables.ipynb"  # the Rule tables page, where the player enters a printed table
ARRIVES_PLACEHOLDER = "turn label (builds)"


def tables_link(text: str = "Rule tables") -> str:
    """A link to the Rule tables page, opened beside this one."""
    return (f"<a href='{TABLES_PAGE}' target='_blank' class='ca-ledger-tables-link' "
            f"style='text-decoration:underline;color:#0d47a1'><b>{esc(text)}</b></a>")


def signed(x: Any) -> str:
    s = num(x)
    return s if s.startswith("-") or s == "0" else "+" + s


def statement_html(st: Statement, title: str = "") -> str:
    """One statement as a table: opening, each section's lines (item, kind, amount, rule, note), closing."""
    head = title or f"{st.side} {st.account}, {st.turn_label}"  # the page gives the rules' names
    rows = [f"<tr class='ca-ledger-opening'><td colspan=2>Opening balance</td>"
            f"<td class='ca-num'>{num(st.opening)}</td><td></td><td></td></tr>"]
    for key, lines in sections(st).items():
        total = sum((line.amount for line in lines), 0)
        rows.append(f"<tr class='ca-ledger-sec'><td colspan=2>{SECTION_TITLES[key]}</td>"
                    f"<td class='ca-num'>{signed(total) if lines else ''}</td><td></td><td></td></tr>")
        for line in lines:
            rows.append(f"<tr class='ca-ledger-line ca-ledger-{esc(line.kind)}'><td>{esc(line.item or '')}</td>"
                        f"<td>{esc(line.kind)}</td><td class='ca-num'>{signed(line.amount)}</td>"
                        f"<td class='ca-rule'>{esc(rule_ref(line.rule))}</td><td>{esc(line.note or '')}</td></tr>")
        if not lines:
            rows.append("<tr><td colspan=5 style='color:#888'>none</td></tr>")
    rows.append(f"<tr class='ca-ledger-total'><td colspan=2>Closing balance</td>"
                f"<td class='ca-num ca-ledger-closing'>{num(st.closing)}</td><td></td><td></td></tr>")
    steps = ("<details><summary>working</summary><ul>" + "".join(f"<li>{esc(s)}</li>" for s in st.steps)
             + "</ul></details>") if st.steps else ""
    return (f"<div class='ca-ledger-statement' data-account='{esc(st.account)}'><b>{esc(head)}</b>"
            "<table><tr><th>item</th><th>kind</th><th class='ca-num'>amount</th><th>rule</th><th>note</th></tr>"
            + "".join(rows) + "</table>" + steps + "</div>")


def statements_html(sts: list[Statement], prefix: str = "", named=lambda side, account: f"{side} {account}") -> str:
    """The side's statements: its main account's and every account with an opening balance or a
    line in full; the quiet ones (nothing at all) in one line. ``named(side, account)`` is how the
    page says a side's account ("Japanese Strategic Reserve")."""
    full = [st for i, st in enumerate(sts) if i == 0 or st.lines or st.opening != 0]
    quiet = [st for st in sts if st not in full]
    out = "".join(statement_html(st, f"{prefix}{named(st.side, st.account)}, {st.turn_label}") for st in full)
    if quiet:
        out += ("<div class='ca-ledger-quiet' style='color:#666'>No entries, balance 0: "
                + ", ".join(esc(named(None, st.account)) for st in quiet) + "</div>")
    return out


def chart_png(df, side: str, side_name: str, accounts: tuple[str, ...]) -> bytes:
    """A small PNG (matplotlib, Agg) of one side over the campaign: per account with any line (the
    main one always), the closing balance, the income and the losses of every turn of ``df`` (the
    statements, ``engine.statements_frame``; ``views.history``; each panel a ``plots.balance_plot``).
    Empty bytes for no data."""
    h = history(df)
    h = h[h["side"] == side] if len(h) else h
    if len(h) == 0:
        return b""
    active = set(h[(h["income"] != 0) | (h["spending"] != 0) | (h["losses"] != 0) | (h["closing"] != 0)]["account"])
    shown = [a for a in accounts if a == accounts[0] or a in active][:MAX_CHART_ACCOUNTS]
    from ...figures import figure_png, new_figure
    from .plots import balance_plot

    fig = new_figure(CHART_SIZE, CHART_DPI, layout="constrained")
    axes = fig.subplots(3, 1, sharex=True)
    for i, (ax, col, title) in enumerate(zip(axes, ("closing", "income", "losses"),
                                             (f"{side_name}: balance at the close", "income", "losses"))):
        balance_plot(h, ax, accounts=shown, column=col, title=title, legend=i == 0)
    return figure_png(fig)


def download_link(data: bytes, filename: str, mime: str, text: str) -> str:
    """An HTML link that downloads ``data`` as ``filename`` (a data URI: no server needed)."""
    b64 = base64.b64encode(data).decode()
    return (f"<a class='ca-ledger-download' download='{esc(filename)}' href='data:{mime};base64,{b64}' "
            f"target='_blank'>{esc(text)}</a>")


def export_bytes(df, fmt: str) -> bytes:
    """``frame()`` as CSV or Excel bytes (text a spreadsheet would run as a formula neutralised)."""
    from ...campaign.csvout import frame_csv, neutralise
    from ...campaign.export import excel_safe

    if fmt == "csv":
        return frame_csv(df).encode("utf-8")
    if fmt == "xlsx":
        buf = io.BytesIO()
        excel_safe(neutralise(df)).to_excel(buf, index=False, sheet_name="ledger")
        return buf.getvalue()
    raise CampaignError(f"export format {fmt!r} is not csv or xlsx")


class LedgerWidget(Page):
    """The production ledger's page: a side's statement per turn and account, the forecast, the
    build queue, charts and exports; an entry form checked by the rules before it is recorded."""

    NAME = "Production ledger"
    CSS = "ledger"
    STYLE = text_style("ca-ledger", cell_padding="8px") + (
        ".ca-ledger td.ca-num, .ca-ledger th.ca-num { text-align: right; font-variant-numeric: tabular-nums; }\n"
        ".ca-ledger .ca-ledger-sec td { font-weight: bold; padding-top: 4px; border-bottom: 1px solid #ddd; }\n"
        ".ca-ledger .ca-ledger-total td { font-weight: bold; border-top: 1px solid #888; }\n")
    SAMPLES = True
    SAMPLE_NOTE = "the rulebook text does not give these values; enter your own."  # units and entries alike
    READ_ONLY = ": the ledger can be read and exported, not written."
    FIELDS = {"to-side": "To side", "to-account": "To acct", "amount": "Amount", "item": "Item",
              "account": "Account", "note": "Note", "data": "Values"}

    def __init__(self, campaign, errors: Optional[ErrorPanel] = None, *, log_path: Optional[Path] = None):
        super().__init__(campaign, errors, log_path=log_path)
        self.findings: list = []  # the last draft's findings
        self.draft_entry = None
        self._auto_amount: Optional[str] = None  # the Amount the page set from a price (not typed)
        self._ctx = None  # the rules' context the priced items were read in
        self._followed_turn: Optional[int] = None  # the turn in force when the picker last followed it
        # The priced items and the forecast are computed on the rules' world, which needs the map
        # graph (~1 s to build): in a kernel (a running loop) the page is shown first, saying
        # "working out", and they follow on the loop's next turn; elsewhere (tests, scripts) at once.
        self._working = self.after_shown(self._rules_ready, "ledger forecast")
        self._build()
        self.refresh()

    # ----- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        self.side_chooser("300px")
        self.turn = self.part(w.Dropdown(description="Turn", options=[], layout=w.Layout(width="260px")), "turn")
        self.on_change(self.turn, lambda _c: self._show_statement(), "choose turn")
        # The entry form.
        self.kind = w.Dropdown(description="Kind", options=list(KINDS), value="income", layout=w.Layout(width="215px"))
        self.kind.add_class("ca-ledger-kind")
        self.account = w.Dropdown(description="Account", options=[], layout=w.Layout(width="215px"))
        self.account.add_class("ca-ledger-account")
        self.item = w.Combobox(description="Item", placeholder="a priced item or your own line name",
                               options=[], ensure_option=False, continuous_update=False,
                               layout=w.Layout(width=FORM_WIDTH))
        self.item.add_class("ca-ledger-item")
        self.amount = w.Text(description="Amount", placeholder="points", layout=w.Layout(width="215px"))
        self.amount.add_class("ca-ledger-amount")
        self.arrives = w.Text(description="Arrives", placeholder="turn label (builds)", layout=w.Layout(width="215px"))
        self.arrives.add_class("ca-ledger-arrives")
        self.to_side = w.Dropdown(description="To side", options=[("-", NONE)], layout=w.Layout(width="215px"))
        self.to_side.add_class("ca-ledger-to-side")
        self.to_account = w.Text(description="To acct", placeholder="account", layout=w.Layout(width="215px"))
        self.to_account.add_class("ca-ledger-to-account")
        self.note = w.Text(description="Note", layout=w.Layout(width=FORM_WIDTH))
        self.note.add_class("ca-ledger-note")
        self.values = self.part(w.Text(description="Values", layout=w.Layout(width=FORM_WIDTH),
                                       placeholder="key=value … the entry's values the rules ask for"), "values")
        for x in (self.amount, self.arrives, self.to_account, self.note, self.values):
            x.continuous_update = False  # checked when the player leaves the field or presses Enter
        for x in (self.kind, self.account, self.item, self.amount, self.arrives, self.to_side, self.to_account,
                  self.values):
            self.on_change(x, self._on_form, "check entry")
        self.price_note = self.part(w.HTML(), "price")
        self.booked = self.part(w.HTML(), "booked")  # what the strike plotter booked: which figure to type
        self.check_note = self.part(w.HTML(), "findings")
        # A refusal of the calendar offers to go where the entry is allowed (advance events, undoable).
        self.goto_place = None
        self.goto_btn = self.button("go-to", self.go_to_allowed, "go to the turn allowed", description="Go there",
                                    icon="forward", layout=w.Layout(width="auto", display="none"))
        self.check_btn = self.button("check", self.check, "check entry",
                                     description="Check", icon="search", button_style="info")
        self.record_btn = self.button("record", self.record, "record entry",
                                      description="Record", icon="check", button_style="success")
        self.close_btn = self.button(
            "close-turn", self.ask_close, "close turn", description="Close turn…", icon="lock",
            layout=w.Layout(width="auto"),
            tooltip="Apply the rules' carry-over and expiry for this side (one undoable event; asks first)")
        # Closing a turn ends it for the side: it asks first, naming the side and the turn.
        self.confirm_text = w.HTML()
        self.confirm_yes = self.button("confirm-yes", self._confirm_close, "close turn", description="Yes, close",
                                       icon="lock", button_style="danger", layout=w.Layout(width="auto"))
        self.confirm_no = self.button("confirm-no", self._drop_confirm, "cancel closing", description="Cancel",
                                      layout=w.Layout(width="auto"))
        self.confirm_box = self.part(w.VBox([self.confirm_text, w.HBox([self.confirm_yes, self.confirm_no])],
                                            layout=w.Layout(display="none")), "confirm-close")
        form = w.VBox([w.HTML("<b>New entry</b> (recorded in the turn in force)"),
                       w.HBox([self.kind, self.account]), self.item, self.price_note,
                       w.HBox([self.amount, self.arrives]), w.HBox([self.to_side, self.to_account]), self.values,
                       self.note, self.booked, w.HBox([self.check_btn, self.record_btn]), self.check_note,
                       self.goto_btn,
                       w.HTML("<hr style='margin:6px 0'>"), self.close_btn, self.confirm_box, self.message],
                      layout=w.Layout(width="460px", min_width="460px", padding="0 8px 0 0"))
        form.add_class("ca-ledger-form")
        # The views.
        self.statement = self.part(w.HTML(), "statements")
        self.forecast_box = self.part(w.HTML(), "forecast")
        self.queue = self.part(w.HTML(), "queue")
        self.chart = self.part(w.Image(format="png", layout=w.Layout(width=f"{int(CHART_SIZE[0] * CHART_DPI)}px",
                                                                     max_width="100%", display="none")),  # 1:1
                               "chart")
        self.chart_note = self.part(w.HTML(), "chart-note")
        self.export_csv = self.button("export-csv", lambda: self.export("csv"), "export CSV",
                                      description="Export CSV", icon="download")
        self.export_xlsx = self.button("export-xlsx", lambda: self.export("xlsx"), "export Excel",
                                       description="Export Excel", icon="download")
        self.export_note = self.part(w.HTML("<div style='color:#666'>The whole history (<code>campaign.ledger.frame()"
                                            "</code>), one row per statement line, written beside the campaign "
                                            "file.</div>"), "export-note")
        self.tabs = self.tab_set({"Statement": self.statement, "Forecast": self.forecast_box, "Build queue": self.queue,
                                  "Charts": w.VBox([self.chart_note, self.chart]),
                                  "Export": w.VBox([w.HBox([self.export_csv, self.export_xlsx]), self.export_note])})
        self.on_change(self.tabs, self._on_tab, "show tab", names="selected_index")
        body = w.HBox([form, w.VBox([self.tabs], layout=w.Layout(flex="1 1 0", min_width="0"))],
                      layout=w.Layout(width="100%"))
        self.frame(w.HBox([self.side, self.turn]), body)

    # ----- the rules' view -----------------------------------------------------------------
    def _rules_ready(self) -> None:
        """The priced items and the forecast, once the page is shown (see ``__init__``)."""
        if not self._working:
            return
        self._working = False
        self._fill_form()
        self._show_forecast()
        if self.item.value.strip():  # an item typed meanwhile: priced and checked now, as if typed now
            self._on_form({"owner": self.item})

    def account_word(self, account: str) -> str:
        """An account as the game's rules name it (witp's "Strategic Reserve", globalwar's "Germany PP")."""
        return account_name(economy(self.campaign.game), account) if account else ""

    def side_word(self, side) -> str:
        """A side as the game names it ("Japanese"), its id where the campaign has no such side."""
        return next((s.name for s in self.campaign.state.sides if s.id == side), side or "")

    def named(self, side, account: str) -> str:
        """A side's account in a statement's head ("Japanese Strategic Reserve"); the account alone without a side."""
        return f"{self.side_word(side)} {self.account_word(account)}" if side else self.account_word(account)

    def current_book(self) -> Book:
        """The campaign's book now (rebuilt when the campaign changed)."""
        return self.per_state("book", book_of)

    def catalogue(self) -> list[Priced]:
        side = self.side.value
        if not side or self._working:
            return []
        state = self.campaign.state
        self._ctx = context_of(state, self.campaign.graph())
        return list(economy(state.game).catalogue(side, self._ctx))

    def form_values(self) -> dict:
        """The Values field as the entry's data; {} while it does not read (the check says why)."""
        try:
            return validate.key_values(self.values.value.replace(",", " ").split(), "value")
        except CampaignError:
            return {}

    def price_of(self, p: Priced) -> Optional[str]:
        """The amount the rules fix for the priced item ``p`` with the form's values (its price
        times qty; globalwar's maintenance per SP), as the Amount field shows it; None if none."""
        try:
            amount, _ = priced_amount(economy(self.campaign.game), p, self.form_values(), self._ctx)
        except (ValueError, AttributeError):
            return None
        return None if amount is None else num(amount)

    def priced(self) -> Optional[Priced]:
        name = (self.item.value or "").strip().lower()
        return next((p for p in self._catalogue if p.item.lower() == name), None) if name else None

    def command(self) -> AddEntry:
        """The entry the form describes (checked by ``AddEntry``)."""
        amount = self.amount.value.strip() or None
        data = validate.key_values(self.values.value.replace(",", " ").split(), "value") or None
        if self.arrives.value.strip():
            text = self.arrives.value.strip()
            arrival_turn(self.campaign.state, text, "arrives")  # a bad label is named now
            data = {**(data or {}), ARRIVES: text}
        return AddEntry(side=self.side.value, kind=self.kind.value, amount=amount, account=self.account.value or None,
                        item=self.item.value.strip() or None, note=self.note.value.strip() or None,
                        to_side=self.to_side.value or None, to_account=self.to_account.value.strip() or None,
                        data=data)

    WARM_SEARCH = False  # an entry's check searches no map

    def warm_steps(self) -> list:
        """The side's price list and a draft entry checked by the rules, as the Check button
        checks one; nothing is recorded or shown (``ui/warm.py``)."""
        return [*super().warm_steps(), self._warm_check]

    def _warm_check(self) -> None:
        side = self.side.value
        account = next((v for _, v in self.account.options if v), None)
        if side and account:
            self.catalogue()
            AddEntry(side=side, kind="income", amount="1", account=account).draft(
                self.campaign.state, Context(map=self.campaign.map, event=lambda seq: None))

    def check(self):
        """Draft the entry and show the rules' findings; nothing is recorded. Returns (entry, findings)
        or None when the input itself is bad (one line on the page). A refusal of the calendar shows
        Go there: the next turn (and phase) the rules allow the entry in."""
        self.draft_entry, self.findings = None, []
        self.check_note.value = ""
        self._show_goto(None)
        self.arrives.placeholder = ARRIVES_PLACEHOLDER
        try:
            entry, findings, place = self.command().assess(self.campaign.state, Context(map=self.campaign.map,
                                                                                        event=lambda seq: None))
        except CampaignError as e:
            self.fail(e, "Cannot check")
            return None
        self.draft_entry, self.findings = entry, list(findings)
        self._show_goto(place)
        self._show_arrival(entry)
        errors = [f for f in findings if f.level == "error"]
        verdict = ("<div class='ca-ledger-verdict ca-ledger-error'><b>The rules forbid this entry</b></div>" if errors
                   else "<div class='ca-ledger-verdict' style='color:#2e7d32'><b>The rules allow this entry</b>"
                   + (" (see the advice)" if findings else "") + "</div>")
        self.check_note.value = (f"<div>{esc(self.side_word(entry.side))} {esc(entry.kind)} <b>{num(entry.amount)}</b> "
                                 f"{esc(self.account_word(entry.account))}" + (f" ({esc(entry.item)})" if entry.item else "")
                                 + (f" <span class='ca-rule'>{esc(rule_ref(entry.rule))}</span>" if entry.rule else "")
                                 + "</div>" + verdict + findings_html(findings, self.prefix))
        self.ok()
        return entry, findings

    def record(self):
        """Record the form's entry; a refusal of the rules or bad input is one line on the page,
        nothing recorded. Returns the event record or None."""
        try:
            rec = self.campaign.execute(self.command())
        except RuleRefusal as r:
            self.findings = list(r.findings)
            self.check_note.value = findings_html(r.findings, self.prefix)
            self._show_goto(r.allowed_at)
            self.fail(CampaignError("; ".join(f"{f.ref} {f.text}" for f in r.findings if f.level == "error")),
                       "Refused by the rules")
            return None
        except CampaignError as e:
            self.fail(e)
            return None
        e0 = rec.body.entries[0]
        said = [f for f in getattr(rec.body, "findings", ()) if f.level in ("warning", "question")]
        self.ok(f"<div class='ca-ledger-recorded'>Recorded {esc(self.side_word(e0['side']))} {esc(e0['kind'])} "
                 f"{num(e0['amount'])} {esc(self.account_word(e0['account']))}" + (f" ({esc(e0['item'])})" if e0.get("item") else "")
                 + f" (#{rec.seq}); undo it from the campaign dashboard's history.</div>"
                 + (f"<div class='{self.css('recorded-findings')}'>"
                    + findings_html(said, self.prefix, "The rules ask or warn of the recorded entry:") + "</div>"
                    if said else ""))
        with self.quietly():  # a recorded entry leaves no form behind to record twice
            self.item.value = self.amount.value = self.note.value = self.arrives.value = self.values.value = ""
        self._auto_amount = None
        self.amount.placeholder = "points"
        self.arrives.placeholder = ARRIVES_PLACEHOLDER
        self.check_note.value = self.price_note.value = ""
        self._show_goto(None)
        return rec

    # ----- where the calendar allows a refused entry -------------------------------------------
    def _show_goto(self, place) -> None:
        """Offer Go there for ``place`` (a calendar position), or hide it (None)."""
        self.goto_place = place
        if place is None:
            self.goto_btn.layout.display = "none"
            return
        ahead = place.index - self.campaign.state.turn.index
        phase = f", {place.phase.name}" if place.phase is not None and place.phase_index else ""
        self.goto_btn.description = f"Go to {place.label}{phase} ({ahead} turn{'' if ahead == 1 else 's'} ahead)"
        self.goto_btn.tooltip = ("Advance the campaign there, one event per turn or phase, each undoable from the "
                                 "campaign dashboard's history; the form is kept")
        self.goto_btn.layout.display = None

    def go_to_allowed(self):
        """Advance the campaign to where the calendar allows the refused entry (``goto_place``),
        through its advance command: one event per turn or phase, each undoable. The form keeps
        the entry, checked again there. Returns the event records, or None (one line on the page)."""
        place = self.goto_place
        if place is None:
            return None
        try:
            recs = go_to(self.campaign, place.index, place.phase_index)
        except CampaignError as e:
            self.fail(e, "Cannot go there")
            return None
        self._show_goto(None)
        n = len(recs)
        went = (f"<div class='ca-ledger-went'>Advanced to <b>{esc(self.campaign.state.turn.title)}</b> "
                f"({n} advance{'' if n == 1 else 's'} recorded, #{recs[0].seq if recs else '-'}"
                f"{'-#' + str(recs[-1].seq) if n > 1 else ''}: undo each from the campaign dashboard's history); "
                "the entry is checked again here.</div>")
        self.check()  # the form's entry, as the rules judge it where it is allowed
        self.message.value = went + (self.message.value or "")
        return recs

    def _show_arrival(self, entry) -> None:
        """The Arrives field says the turn the rules fix (written into the entry), or that the rules
        ask for it (a build whose delay the player's tables do not give)."""
        if self.arrives.value.strip():
            return
        at = entry.data.get(ARRIVES)
        if isinstance(at, int):
            self.arrives.placeholder = f"{self.campaign.state.calendar.turn(at).label} (the rules')"
            return
        awaits = getattr(economy(self.campaign.game), "awaits_arrival", None)
        if awaits is not None and awaits(entry):
            self.arrives.placeholder = "needed: the turn it appears"

    def _show_booked(self) -> None:
        """What the strike plotter booked for the side this turn, and which figure to type (income, loss)."""
        side = self.side.value
        note = ""
        if side and self.kind.value in ("income", "loss"):
            try:
                note = booked_note(self.campaign.state, side, self.kind.value, self.current_book())
            except CampaignError:
                note = ""
        self.booked.value = (f"<div class='ca-ledger-booked' style='background:#fff3e0;border:1px solid #ffb74d;"
                             f"padding:3px 8px'>{esc(note)}</div>" if note else "")

    def ask_close(self) -> None:
        """Close turn asks first, naming the side and the turn it ends."""
        self.confirm_text.value = (f"Close <b>{esc(self.campaign.state.turn.label)}</b> for "
                                   f"<b>{esc(self.side_name(self.side.value))}</b>? The rules' carry-over and expiry "
                                   "are recorded (undo from the campaign dashboard's history).")
        self.confirm_box.layout.display = None

    def _drop_confirm(self) -> None:
        self.confirm_box.layout.display = "none"
        self.confirm_text.value = ""

    def _confirm_close(self):
        self._drop_confirm()
        return self.close_turn()

    def close_turn(self):
        """Close the chosen side's turn in force: the carry-over/expiry the rules compute, recorded
        as one undoable event. Returns the event record or None (one line on the page)."""
        try:
            rec = self.campaign.execute(CloseTurn(side=self.side.value))
        except CampaignError as e:
            self.fail(e, "Cannot close")
            return None
        lines = "; ".join(f"{e['kind']} {signed(e['amount'])} {self.account_word(e['account'])}" + (f" ({e['item']})" if e.get("item") else "")
                          + (f" {rule_ref(e['rule'])}" if e.get("rule") else "") for e in rec.body.entries)
        self.ok(f"<div class='ca-ledger-closed'>Closed {esc(self.campaign.state.turn.label)} for "
                 f"{esc(self.side.value)} (#{rec.seq}): {esc(lines)}</div>")
        return rec

    def export(self, fmt: str) -> Optional[Path]:
        """Write ``frame()`` as CSV or Excel beside the campaign file (atomically) and offer it as a
        download; where the folder is read-only, the download only. Returns the file written."""
        df = frame(self.campaign.state, book=self.current_book())
        data = export_bytes(df, fmt)
        name = f"{Path(self.campaign.path).stem}-ledger.{fmt}"
        mime = "text/csv" if fmt == "csv" else "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        link = download_link(data, name, mime, f"download {name}")
        path: Optional[Path] = Path(self.campaign.path).parent / name
        try:
            from ...campaign.export import atomic_write

            atomic_write(path, lambda p: p.write_bytes(data))
            where = f"written to <code class='ca-ledger-export-path'>{esc(path)}</code>"
        except OSError as e:
            path = None
            where = f"not written beside the campaign ({esc(e.strerror or e)})"
        self.export_note.value = (f"<div class='ca-ledger-exported'>{len(df)} rows {where}; {link}</div>")
        return path

    # ----- reactions -----------------------------------------------------------------------
    def _on_side(self, _change) -> None:
        if self._quiet:
            return
        self._fill_form()
        self._show()

    def _on_form(self, change) -> None:
        if self._quiet:
            return
        owner = change.get("owner") if change is not None else None
        if owner is self.item or owner is self.values:
            self._price_amount(owner is self.item)
        self._show_price()
        self._show_booked()
        if self.amount.value.strip() or self.priced() is not None:
            self.check()
        else:
            self.check_note.value = ""
            self._show_goto(None)

    def _price_amount(self, chosen: bool) -> None:
        """A priced item sets the form: its kind, its account and the Amount its price fixes (times
        the Values' qty); a later Values change recounts an Amount the page set. An Amount the page
        set for another item is cleared when the item has no price, so it never carries over."""
        p = self.priced()
        leftover = self.amount.value.strip() == (self._auto_amount or "\0")
        with self.quietly():
            if p is not None and chosen:
                self.kind.value = p.kind
                if p.account in {v for _, v in self.account.options}:
                    self.account.value = p.account
            price = self.price_of(p) if p is not None else None
            if price is not None and (chosen or leftover):
                self.amount.value = price
                self._auto_amount = price
            elif chosen and leftover:
                self.amount.value = ""
                self._auto_amount = None

    def _on_tab(self, _change) -> None:
        if self.tabs.selected_index == 3:
            self._show_chart()

    def _show_price(self) -> None:
        p = self.priced()
        if p is None:
            self.price_note.value = ""
            return
        price = (f"<b>{num(p.amount)}</b> {esc(p.account)}" if p.amount is not None
                 else f"{esc(p.account)}, no printed price: enter the amount from your table")
        kind = "" if p.kind.lower() in p.item.lower() else f" ({esc(p.kind)})"  # "PP income", not "PP income (income)"
        self.price_note.value = (f"<div class='ca-ledger-priced'><b>{esc(p.item)}</b>{kind}: {price} "
                                 f"<span class='ca-rule'>{esc(rule_ref(p.rule))}</span>"
                                 + (f" <span style='color:#666'>{esc(p.doc)}</span>" if p.doc else "") + "</div>")
        if p.amount is not None:
            self.amount.placeholder = f"{num(p.amount)} (priced)"

    def _fill_form(self) -> None:
        state = self.campaign.state
        side = self.side.value
        try:
            self._catalogue = self.catalogue()
            accounts = list(accounts_of(state, [side]).get(side, ())) if side else []
        except CampaignError as e:
            self._catalogue, accounts = [], []
            self.fail(e, "No ledger")
        with self.quietly():
            choices = [(self.account_word(a), a) for a in accounts]
            if list(self.account.options) != choices:
                self.account.options = choices
                self.account.value = accounts[0] if accounts else None
            self.item.options = tuple(p.item for p in self._catalogue)
            self.item.placeholder = ("working out the priced items…" if self._working
                                     else "a priced item or your own line name")
            others = [("-", NONE)] + [(side_label(s.name, s.id), s.id) for s in state.sides if s.id != side]
            if list(self.to_side.options) != others:
                self.to_side.options = others
                self.to_side.value = NONE
        self._show_price()

    def _show(self) -> None:
        self._show_statement()
        self._show_forecast()
        self._show_queue()
        self._show_booked()
        if self.tabs.selected_index == 3:
            self._show_chart()

    def _show_statement(self) -> None:
        if self._quiet:
            return
        side, turn = self.side.value, self.turn.value
        if not side or turn is None:
            self.statement.value = ""
            return
        try:
            sts = statements_of(self.campaign.state, [side], [turn], book=self.current_book())
        except CampaignError as e:
            self.fail(e, "No ledger")
            self.statement.value = ""
            return
        closed = any(e.side == side and e.turn == turn and e.data.get("close") for e in self.current_book().entries)
        head = ("<div class='ca-ledger-closed-mark'>This turn is closed for this side.</div>" if closed else "")
        self.statement.value = head + statements_html(sts, named=self.named)

    def _show_forecast(self) -> None:
        side = self.side.value
        if not side:
            self.forecast_box.value = ""
            return
        if self._working:
            self.forecast_box.value = ("<div class='ca-ledger-working' style='color:#666'>Working out the forecast "
                                       "of the turn in force…</div>")
            return
        try:
            sts = forecast(self.campaign.state, self.campaign.graph(), side, surface="page")
            needs = forecast_needs(self.campaign.state, self.campaign.graph(), side)
            booked = booked_note(self.campaign.state, side, "income", self.current_book())
        except CampaignError as e:
            self.forecast_box.value = error_line(self.css("error"), self.one_line(e))
            return
        label = self.campaign.state.turn.label
        said = "".join(
            f"<div class='ca-ledger-need' style='background:#e3f2fd;border:1px solid #90caf9;padding:3px 8px'>"
            f"{esc(need_head(n)[0].upper() + need_head(n)[1:])}: enter it on the {tables_link()} page.</div>"
            for n in needs)
        if booked:
            said += (f"<div class='ca-ledger-booked' style='background:#fff3e0;border:1px solid #ffb74d;"
                     f"padding:3px 8px'>{esc(booked)}</div>")
        self.forecast_box.value = (f"<div style='color:#666'>{esc(label)} as the rules compute it: the recorded "
                                   "entries, the income the rules fix and the turn's close — nothing recorded.</div>"
                                   + said + statements_html(sts, "Forecast: ", named=self.named))

    def _show_queue(self) -> None:
        side = self.side.value
        try:
            items = build_queue(self.campaign.state, side, book=self.current_book()) if side else []
        except CampaignError as e:
            self.queue.value = error_line(self.css("error"), self.one_line(e))
            return
        try:
            waiting = unscheduled(self.campaign.state, side, book=self.current_book()) if side else []
        except CampaignError:
            waiting = []
        lacking = ""
        if waiting:  # builds the rules cannot place: never an empty queue that hides them
            lacking = ("<div class='ca-ledger-queue-unscheduled' style='color:#b00020'>"
                       f"{len(waiting)} build{'' if len(waiting) == 1 else 's'} with no arrival turn, so not in the "
                       "queue: " + ", ".join(f"#{e.id} {esc(e.item or '')} ({esc(self.current_book().labels.get(e.turn, e.turn))})"
                                           for e in waiting)
                       + ". Their delay is in the Production Cost Table: enter it on the " + tables_link()
                       + " page, or record the build again with Arrives.</div>")
        if not items:
            self.queue.value = lacking + ("<div class='ca-ledger-queue-empty' style='color:#666'>Nothing on order: an "
                                          "entry with an arrival turn (the form's Arrives) shows here.</div>")
            return
        rows = "".join(
            f"<tr class='ca-ledger-queue-row{' ca-ledger-due' if q.due else ''}'><td>{esc(q.item or '')}</td>"
            f"<td class='ca-num'>{num(q.amount)} {esc(q.account)}</td><td>{esc(q.ordered_label)}</td>"
            f"<td><b>{esc(q.arrives_label)}</b>{' (due)' if q.due else ''}</td>"
            f"<td class='ca-rule'>{esc(rule_ref(q.rule))}</td></tr>" for q in items)
        self.queue.value = lacking + ("<table><tr><th>item</th><th class='ca-num'>cost</th><th>ordered</th>"
                                      f"<th>arrives</th><th>rule</th></tr>{rows}</table>")

    def _show_chart(self) -> None:
        state = self.campaign.state
        side = self.side.value
        if not side:
            return
        try:
            book = self.current_book()  # the turns with a line and the turn in force, as the page shows them
            df = statements_frame(state, book=book, turns=sorted(set(book.turns()) | {state.turn.index}))
            names = {s.id: s.name for s in state.sides}
            has_entries = any(e.side == side or e.to_side == side for e in self.current_book().entries)
            png = chart_png(df, side, names.get(side, side), accounts_of(state, [side])[side]) if has_entries else b""
        except CampaignError as e:
            self.chart_note.value = error_line(self.css("error"), self.one_line(e))
            return
        self.chart.value = png
        self.chart.layout.display = "block" if png else "none"
        turns = df["turn"].nunique() if len(df) else 0
        self.chart_note.value = (f"<div class='ca-ledger-chart-summary'>{esc(side)} over {counted(turns, 'turn')}: "
                                 "closing balance, income, losses of each account in use.</div>" if png
                                 else "<div style='color:#666'>No entries yet.</div>")

    def write_buttons(self) -> list[w.Button]:
        return [self.confirm_yes, self.record_btn, self.close_btn, self.goto_btn]

    def refresh(self, state=None) -> None:
        """Redraw from the campaign's state: sides, turns (following the turn in force), the views."""
        state = state if state is not None else self.campaign.state
        self.show_header(state)
        now = state.turn.index
        first = min([now] + (self.current_book().turns() if self._economy_ok() else []))
        turns = [(state.calendar.turn(i).label, i) for i in range(max(0, min(first, now)), now + 1)]
        changed_side = self.fill_sides(state)
        with self.quietly():
            if list(self.turn.options) != turns:
                keep = self.turn.value
                self.turn.options = turns
                follow = keep is None or keep == self._followed_turn or keep not in {i for _, i in turns}
                self.turn.value = now if follow else keep
            self._followed_turn = now
        if changed_side or not hasattr(self, "_catalogue"):
            self._fill_form()
        n_sample = sum(u.sample for u in state.units.values())
        n_sample_entries = sum(bool(e.data.get("sample")) for e in self.current_book().entries) if self._economy_ok() else 0
        self.show_samples(state, f"{counted(n_sample, 'unit')} and {counted(n_sample_entries, 'ledger entry')}"
                          if n_sample or n_sample_entries else "")
        self._show()
        if self.check_note.value and not self._quiet:
            self.check()  # the shown verdict follows the ledger (another page may have changed a balance)

    def _economy_ok(self) -> bool:
        try:
            self.current_book()
            return True
        except CampaignError as e:
            self.fail(e, "No ledger")
            return False


ledger_dashboard = LedgerWidget.open  # the page on a campaign file (default: $CAMPAIGN_FILE, the demo)
