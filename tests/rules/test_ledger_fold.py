"""The ledger's fold: each kind's effect on the balances, and the one-pass
statements equal the balances entry by entry (property test)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.rules.ledger import KINDS, Book, Entry, statements


def test_each_kind_moves_the_balances_as_documented():
    b = Book((Entry("us", 1, "income", 77, "EP", id=1), Entry("us", 1, "loss", 47, "EP", id=2),   # apto [8.2]: 30
              Entry("us", 2, "spend", 5, "EP", id=3), Entry("us", 2, "transfer", 10, "EP", to_side="uk", id=4),
              Entry("us", 2, "reserve", 4, "EP", id=5), Entry("us", 2, "adjust", -1, "EP", id=6),
              Entry("us", 3, "reserve", -2, "EP", id=7)), {1: "T1", 2: "T2", 3: "T3"})
    assert b.balance("us", "EP", through=1) == 30
    assert b.balance("us", "EP", through=2) == 30 - 5 - 10 - 4 - 1
    assert b.balance("uk", "EP") == 10 and b.balance("us", "reserve") == 4 - 2
    st2 = b.statement("us", "EP", 2)
    assert (st2.opening, [line.amount for line in st2.lines], st2.closing) == (30, [-5, -10, -4, -1], 10)
    assert st2.to_json()["lines"][0] == {"kind": "spend", "amount": -5, "rule": "", "note": None, "item": None,
                                         "entry": 3}


entries = st.lists(st.tuples(st.sampled_from(["a", "b"]), st.integers(0, 5), st.sampled_from(KINDS),
                             st.integers(-50, 50), st.sampled_from(["X", "Y"]), st.sampled_from([None, "a", "b"])),
                   max_size=40)


@settings(max_examples=150, deadline=None)
@given(entries)
def test_one_pass_statements_equal_the_balances(rows):
    es = tuple(Entry(side=s, turn=t, kind=k, amount=a, account=acc, to_side=to if k == "transfer" else None,
                     id=i + 1) for i, (s, t, k, a, acc, to) in enumerate(rows))
    book = Book(es)
    accounts = {"a": ["X", "Y", "reserve"], "b": ["X", "Y", "reserve"]}
    sts = statements(book, ["a", "b"], accounts, turns=range(0, 6))
    for s in sts:
        assert s.opening == book.balance(s.side, s.account, s.turn - 1)
        assert s.closing == book.balance(s.side, s.account, s.turn)
        assert [line.amount for line in s.lines] == [line.amount for line in book.statement(s.side, s.account, s.turn).lines]
