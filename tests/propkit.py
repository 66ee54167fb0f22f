"""How many examples a property test runs (the profiles themselves are registered in conftest.py).

The default profile, ``ci``, keeps the whole suite within minutes; ``nightly`` is the long run:

    HYPOTHESIS_PROFILE=nightly python -m pytest tests/campaign/test_campaign_properties.py
    python -m pytest --hypothesis-profile=nightly

A test whose examples are slow (a fresh campaign file each) states both counts; the property it
checks is the same in both profiles, only how many inputs it is tried on differs::

    @settings(max_examples=examples(nightly=250, ci=12), deadline=None)
"""

from __future__ import annotations

from hypothesis import settings

CI, NIGHTLY = "ci", "nightly"


def examples(nightly: int, ci: int) -> int:
    """``nightly`` examples under the nightly profile, ``ci`` under any other."""
    return nightly if settings.get_current_profile_name() == NIGHTLY else ci
