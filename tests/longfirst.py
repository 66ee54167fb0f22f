"""The long test files first, so that the pytest-xdist workers finish together.

With ``-n`` and ``--dist loadfile`` each file runs whole on one worker, in the order the files are
collected (``--no-loadscope-reorder`` keeps xdist from putting the files with the most tests first).
A file that drives a browser, starts servers of its own (``serves``) or holds a test marked
``slow`` takes minutes where most take seconds: started last, it would run alone at the end while
the other workers wait. They start first instead; otherwise the order is the collected one. No test depends on this order.
"""

from __future__ import annotations

import pytest

LONG = ("browser", "slow", "serves")


def is_long(item) -> bool:
    return any(item.get_closest_marker(m) is not None for m in LONG)


@pytest.hookimpl(specname="pytest_collection_modifyitems", trylast=True)
def pytest_collection_modifyitems_long_files_first(config, items) -> None:
    long_files = {item.path for item in items if is_long(item)}
    items.sort(key=lambda item: item.path not in long_files)  # a stable sort: each group keeps its order
