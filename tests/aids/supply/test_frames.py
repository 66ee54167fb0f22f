"""The current report as a table (``trace_frame``) and the bases at risk (``bases_frame``), with
a stand-in for the game's rules whose answers are set by hand:
each base's figures come from its own attributes, so the order can be checked exactly."""

from __future__ import annotations

import pandas as pd
import pytest

import assistant.aids.supply.engine as supply_engine
from assistant.aids.supply.engine import WhatIf
from assistant.aids.supply.frames import COLUMNS, bases_frame, trace_frame
from assistant.campaign import Campaign, CampaignError
from assistant.rules.supply import Reason, Trace


class HandRules:
    """A piece is linked unless its ``cut`` attribute is set (then with one reason); a piece with a
    ``base`` attribute carries witp's y/x/tsd/category figures [32.1.1] from its attributes (y or x
    absent: figures unknown; no ``cat``: no penalty)."""

    game = "witp"

    def trace(self, world, side, pieces):
        out = []
        for p in pieces:
            cut = bool(p.attr("cut"))
            extra = {"unit": "hexes"}
            if p.attr("base"):
                y, x = p.attr("y"), p.attr("x")
                extra.update(y=y, x=x, tsd=None if y is None or x is None else 2 * y * x, category=p.attr("cat"))
            out.append(Trace(unit=p.id, hex=p.hex, side=side, supplied=not cut,
                             status="isolated" if cut else "linked", kind=p.kind, role=p.role,
                             path=[] if cut else [p.hex], source=None if cut else {"unit": None, "hex": p.hex},
                             length=None if cut else 0.0, limit=20,
                             reasons=[Reason("[29.8.2]", f"{p.hex} is cut")] if cut else [], extra=extra))
        return out


@pytest.fixture
def campaign(tmp_path, monkeypatch):
    monkeypatch.setattr(supply_engine, "rules_for", lambda game: HandRules())
    c = Campaign.create(tmp_path / "f.campaign", game="witp")
    # Jaluit's figures from [32.1.1]: y 47, x 19 -> TSD 1,786 -> category A.
    c.place_unit("allies", "airfield", "E2519", id="a-a", attrs={"base": True, "cat": "A", "y": 47, "x": 19})
    c.place_unit("allies", "airfield", "E2418", id="a-c-small", attrs={"base": True, "cat": "C", "y": 10, "x": 20})
    c.place_unit("allies", "airfield", "E2419", id="a-c-big", attrs={"base": True, "cat": "C", "y": 30, "x": 40})
    c.place_unit("allies", "airfield", "E2618", id="a-a-cut", attrs={"base": True, "cat": "A", "y": 5, "x": 5, "cut": True})
    c.place_unit("allies", "airfield", "E2520", id="a-none", attrs={"base": True, "y": 10, "x": 5})  # TSD 100
    c.place_unit("allies", "airfield", "E2619", id="a-unknown", attrs={"base": True, "y": 10})
    c.place_unit("allies", "infantry division", "E2518", id="inf", attrs={"cut": True})
    c.place_unit("japan", "airfield", "B3327", id="j-f", attrs={"base": True, "cat": "F", "y": 90, "x": 90})
    yield c
    c.close()


def test_trace_frame_has_the_shared_columns_then_the_working(campaign):
    df = trace_frame(campaign)
    assert tuple(df.columns[:len(COLUMNS)]) == COLUMNS
    assert {"limit", "length_unit", "role", "path", "reasons", "y", "x", "tsd", "category"} <= set(df.columns)
    assert set(df.length_unit) == {"hexes"}
    assert "unit" not in list(df.columns)[len(COLUMNS):]  # extra["unit"] is the length unit, not a column
    row = df.set_index("unit").loc["a-a"]
    assert (row.y, row.x, row.tsd, row.category) == (47, 19, 1786, "A")
    assert df.set_index("unit").loc["inf", "reasons"] == "[29.8.2] E2518 is cut"
    assert pd.isna(df.set_index("unit").loc["inf", "category"])
    assert set(trace_frame(campaign, sides="japan").unit) == {"j-f"}


def test_bases_at_risk_isolated_first_then_farthest_category_then_largest_tsd(campaign):
    df = bases_frame(campaign, sides="allies")
    assert list(df.units) == ["a-a-cut", "a-c-big", "a-c-small", "a-a", "a-unknown", "a-none"]
    assert list(df.hex) == ["E2618", "E2419", "E2418", "E2519", "E2619", "E2520"]
    assert df.set_index("units").loc["a-none", "tsd"] == 100
    assert df.loc[0, "reasons"] == "[29.8.2] E2618 is cut" and df.loc[0, "status"] == "isolated"
    assert df.set_index("hex").loc["E2519", "place"] == "Guadalcanal"  # the map's place name
    assert "inf" not in ", ".join(df.units)  # not a base: no supply figures
    assert list(bases_frame(campaign).units)[:2] == ["a-a-cut", "j-f"]


def test_a_base_is_one_row_per_hex_cut_when_any_piece_there_is(campaign):
    campaign.place_unit("allies", "airfield", "E2419", id="a-c-big-2",
                        attrs={"base": True, "cat": "C", "y": 30, "x": 40, "cut": True})
    df = bases_frame(campaign, sides="allies")
    assert list(df.hex[:2]) == ["E2419", "E2618"]  # C is farther than A: first among the cut bases
    row = df.iloc[0]
    assert row.units == "a-c-big, a-c-big-2" and row.status == "linked/isolated" and not row.supplied
    assert len(df) == 6


def test_bases_frame_takes_a_whatif_and_refuses_an_unknown_side(campaign):
    assert "a-c-big" not in set(bases_frame(campaign, whatif=WhatIf(without=("a-c-big",))).units)
    with pytest.raises(CampaignError, match="'axis'"):
        bases_frame(campaign, sides="axis")


def test_bases_frame_is_empty_with_its_columns_when_no_trace_has_a_category(campaign):
    df = bases_frame(campaign, sides="japan", whatif=WhatIf(without=("j-f",)))
    assert df.empty and {"category", "tsd", "y", "x", "status", "units"} <= set(df.columns)
