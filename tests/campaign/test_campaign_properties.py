"""Property tests (hypothesis): malformed commands only ever raise the project's own clear error and
change nothing; any sequence of commands folds to the same state on replay; undo walks back."""

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.campaign import Campaign, CampaignError
from assistant.campaign.model import state_to_json
from propkit import examples

junk = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=30),
    st.text(alphabet=st.characters(codec="utf-8", categories=["Cc", "Cs", "Zs", "So"]), max_size=10),
    st.sampled_from(["E2519", "b2048", "B 2048", "E9999", "Z0101", "", " ", "allies", "japan", "us", "kido-butai",
                     "1st-marine-division", "turn", "phase", "=1+1", "\x00", "\ud800"]),
    st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
attrs = st.one_of(junk, st.dictionaries(st.one_of(st.text(max_size=8), st.sampled_from(["steps", "name", "bad key"])),
                                        junk, max_size=3))

calls = st.one_of(
    st.tuples(st.just("place_unit"), st.tuples(junk, junk, junk),
              st.fixed_dictionaries({}, optional={"name": junk, "nation": junk, "attrs": attrs, "sample": junk,
                                                  "category": junk, "id": junk})),
    st.tuples(st.just("move_unit"), st.tuples(junk, junk), st.just({})),
    st.tuples(st.just("remove_unit"), st.tuples(junk), st.just({})),
    st.tuples(st.just("update_unit"), st.tuples(junk),
              st.dictionaries(st.sampled_from(["steps", "name", "side", "nation", "kind", "sample", "category",
                                               "hex", "id", "x-y", "bad key"]), junk, max_size=3)),
    st.tuples(st.just("set_hex"), st.tuples(junk),
              st.dictionaries(st.sampled_from(["surface", "terrain", "source", "port"]), junk, max_size=3)),
    st.tuples(st.just("add_note"), st.tuples(junk), st.just({})),
    st.tuples(st.just("advance"), st.tuples(junk), st.just({})),
    st.tuples(st.just("state_at"), st.tuples(), st.fixed_dictionaries({}, optional={"seq": junk, "turn": junk})),
    st.tuples(st.just("undo"), st.tuples(), st.just({})),
    st.tuples(st.just("redo"), st.tuples(), st.just({})),
)


@settings(max_examples=examples(nightly=250, ci=40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(calls, min_size=1, max_size=6))
def test_malformed_commands_raise_only_campaign_error_and_change_nothing(seq):
    with tempfile.TemporaryDirectory() as d:
        with Campaign.create(Path(d) / "p.campaign", game="witp", scenario="guadalcanal-1942") as c:
            for name, args, kwargs in seq:
                before, n = c.state, c.state.last_seq
                try:
                    getattr(c, name)(*args, **kwargs)
                except CampaignError as e:
                    msg = str(e)
                    assert msg and "\n" not in msg
                    assert c.state is before and c._store.last_seq() == n
            assert state_to_json(c.replay()) == state_to_json(c.state)


valid = st.one_of(
    st.tuples(st.just("place"), st.sampled_from(["allies", "japan"]), st.sampled_from(["E2519", "E2418", "B3327"]),
              st.sampled_from([None, "A", "B"])),
    st.tuples(st.just("move"), st.sampled_from(["E2519", "E2619", "F3342"])),
    st.tuples(st.just("remove")),
    st.tuples(st.just("update"), st.integers(0, 9)),
    st.tuples(st.just("hex"), st.sampled_from(["land", "sea", None])),
    st.tuples(st.just("note"), st.text(min_size=1, max_size=20).filter(lambda t: t.strip() != "" and t.strip().isprintable())),
    st.tuples(st.just("advance"), st.sampled_from(["turn", "phase"])),
    st.tuples(st.just("undo")),
    st.tuples(st.just("redo")),
)


def _run(c, op):
    units = sorted(c.state.units)
    kind = op[0]
    if kind == "place":
        taken = {u.name for u in c.state.units.values()}
        c.place_unit(op[1], "division", op[2], name=None if op[3] in taken else op[3])  # names are unique
    elif kind in ("move", "remove", "update") and units:
        u = units[0]
        if kind == "move" and c.state.units[u].hex != op[1]:
            c.move_unit(u, op[1])
        elif kind == "remove":
            c.remove_unit(u)
        elif kind == "update" and c.state.units[u].attrs.get("steps") != op[1]:
            c.update_unit(u, steps=op[1])
    elif kind == "hex" and (op[1] is not None or "E2519" in c.state.map_corrections):
        c.set_hex("E2519", surface=op[1])
    elif kind == "note":
        c.add_note(op[1])
    elif kind == "advance":
        c.advance(op[1])
    elif kind == "undo" and c.state.can_undo:
        c.undo()
    elif kind == "redo" and c.state.can_redo:
        c.redo()


@settings(max_examples=examples(nightly=120, ci=30), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(valid, min_size=1, max_size=25))
def test_replay_equals_state_and_full_undo_returns_to_the_start(ops):
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "p.campaign"
        with Campaign.create(p, game="witp", snapshot_every=4) as c:
            start = state_to_json(c.state)
            for op in ops:
                _run(c, op)
            assert state_to_json(c.replay()) == state_to_json(c.state)
            end = state_to_json(c.state)
        with Campaign.open(p) as c:
            assert state_to_json(c.state) == end  # snapshot + tail == live state
            while c.state.can_undo:
                c.undo()
            now = state_to_json(c.state)
            for k in ("units", "notes", "map_corrections", "turn"):
                assert now[k] == start[k]
            assert c.state.last_seq == c._store.count()  # nothing was ever deleted
