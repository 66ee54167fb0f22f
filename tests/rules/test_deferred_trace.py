"""``DeferredTrace`` (assistant/rules/supply.py): a side-wide trace gives every
piece's status at once and works out a trace's path, reasons, steps and figures only when one of
them is first read -- once, with what was queued after it (``later``) in order."""

import pytest

from assistant.rules.supply import DeferredTrace, Reason, Trace


def test_the_working_is_worked_out_once_when_first_read_then_what_was_queued():
    calls = []

    def finish(t, hexes):
        calls.append(hexes)
        t.path = list(hexes)
        t.reasons.append(Reason("[1.0]", "why"))
        t.steps.append("worked")
        t.extra["x"] = 1

    t = DeferredTrace(finish, (("A", "B"),), unit="u", hex="A", side="s", supplied=True, status="linked",
                      source={"unit": None, "hex": "B"}, length=1)
    t.later(lambda t: t.steps.append("what-if note"))
    assert calls == [] and not t.complete and t.status == "linked" and t.length == 1
    assert t.worked() is t and t.complete and calls == [("A", "B")]  # worked out now, once
    assert t.steps == ["worked", "what-if note"] and calls == [("A", "B")] and t.complete
    assert t.path == ["A", "B"] and t.extra == {"x": 1} and calls == [("A", "B")]
    t.later(lambda t: t.steps.append("after"))  # complete: at once
    assert t.steps[-1] == "after"


def test_a_deferred_trace_reads_like_a_plain_one():
    def finish(t):
        t.path = ["A"]
        t.steps.append("s")

    lazy = DeferredTrace(finish, (), unit="u", hex="A", side="s", supplied=False, status="isolated")
    plain = Trace(unit="u", hex="A", side="s", supplied=False, status="isolated", path=["A"], steps=["s"])
    assert lazy.to_json() == plain.to_json() and lazy.explain() == plain.explain()



def test_a_bad_value_met_in_the_working_is_the_callers_one_line_error_and_keeps_nothing_half_worked():
    class OneLine(Exception):
        pass

    calls = []

    def finish(t):
        calls.append(1)
        t.steps.append("half")
        raise ValueError("msu-1: load 'abc' is not a number >= 0")

    t = DeferredTrace(finish, (), unit="u", hex="A", side="s", supplied=True, status="linked")
    t.errors_as(OneLine)
    for read in ("steps", "path"):  # every reading fails the same way: nothing half-worked is shown
        with pytest.raises(OneLine, match=r"^msu-1: load 'abc' is not a number >= 0$"):
            getattr(t, read)
    with pytest.raises(OneLine):
        t.worked()  # the same, asked for at once
    assert calls == [1, 1, 1] and not t.complete and t.status == "linked"
    bare = DeferredTrace(finish, (), unit="u", hex="A", side="s")  # no caller's error: the ValueError
    with pytest.raises(ValueError, match="load 'abc'"):
        bare.reasons
