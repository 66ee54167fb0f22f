"""The error panel: nothing a callback raises may vanish (Voila hides tracebacks)."""

from __future__ import annotations

from assistant.hexes import HexError
from assistant.ui.errors import ErrorPanel


def test_rejected_input_shows_one_line_and_is_logged(tmp_path):
    log = tmp_path / "logs" / "dashboard.log"
    panel = ErrorPanel(log_path=log)
    assert panel.widget.layout.display == "none"

    def place():
        raise HexError("'Z9999': no map section 'Z' in witp")

    assert panel.guard(place, "place unit")() is None
    assert panel.widget.layout.display == "flex"
    assert "ca-error-panel" in panel.widget._dom_classes
    html = panel._list.value
    assert "Z9999" in html and "ca-error-rejected" in html and "Traceback" not in html
    text = log.read_text()
    assert "[rejected] place unit: 'Z9999'" in text


def test_bug_shows_type_and_folded_traceback():
    panel = ErrorPanel()

    def broken(x):
        return x / 0

    panel.guard(broken, "compute")(1)
    (rec,) = panel.records
    assert rec.kind == "bug" and rec.message.startswith("ZeroDivisionError")
    assert "Traceback" in rec.traceback and "<details>" in panel._list.value


def test_dismiss_hides_the_panel_and_html_is_escaped():
    panel = ErrorPanel()
    panel.report(ValueError("<script>alert(1)</script>"), "x")
    assert "<script>" not in panel._list.value
    panel._clear.click()
    assert panel.records == [] and panel.widget.layout.display == "none"


def test_unwritable_log_is_itself_reported(tmp_path):
    blocker = tmp_path / "f"
    blocker.write_text("")
    panel = ErrorPanel(log_path=blocker / "dashboard.log")
    panel.report(ValueError("bad hex"), "move")
    assert any("could not write" in r.message for r in panel.records)


def test_guard_returns_the_value_when_nothing_fails():
    panel = ErrorPanel()
    assert panel.guard(lambda a, b=1: a + b)(2, b=3) == 5
    assert panel.records == []


def test_the_panel_carries_its_floating_style():
    """The panel floats over what follows it and scrolls (stacked errors once pushed the map
    down ~230 px; tests/ui/test_browser.py measures that the map stays put)."""
    from assistant.ui.errors import STYLE

    panel = ErrorPanel()
    assert any(getattr(c, "value", "") == STYLE for c in panel.widget.children)
    assert "position: absolute" in STYLE and "max-height" in STYLE and "overflow-y: auto" in STYLE
