"""Run by Python at start-up when this folder is on ``PYTHONPATH``: blocks the aids named in
``$CAMPAIGN_TEST_BLOCK_AIDS`` in this process too (tests only; see ``blockaid.py``)."""

import blockaid

blockaid.install_from_env()
