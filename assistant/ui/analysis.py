"""Which pieces and bases spent most turns out of supply, and what that cost in the ledger: the
question the analysis notebook (``notebooks/analysis.ipynb``) answers, from the analysts' tables
alone (``campaign.table``: ``supply_by_turn``, ``ledger_lines``, ``units``; docs/data.md) and
the game's list of kinds (which kinds are bases).

It spans two aids (the supply tracer's history and the ledger), so it lives here, above them, and
reads only their tables: it imports no aid.

* ``out_of_supply(supply)``: one row per piece ever out of supply at the end of a turn -- how many
  turns, the longest run of consecutive turns played, the first and the last.
* ``upkeep_lines(supply, lines)``: what being cut off cost. A ledger line (a spend or a loss) is
  counted against a piece when its item or note names the piece's id and that piece was out of
  supply at the end of the line's turn -- an Air Transport to an isolated base (witp [31.3]), an
  Air Supply chit for an army out of supply (apto [7.7]) -- and never against a piece in supply
  then; a line naming no piece is no piece's cost.
* ``SupplyCost`` (``supply_cost(campaign)``): the two joined, per turn, and as a figure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Optional, Union

from ..campaign.errors import CampaignError

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

COST_KINDS = ("spend", "loss")  # the ledger kinds that take points from an account (rules/ledger.py)
PIECE = ["side", "unit"]


def open_campaign(path: Union[str, Path, None] = None):
    """The campaign to analyse, opened read-only (nothing here writes): ``path``, else
    ``$CAMPAIGN_FILE`` (the file ``campaign serve`` serves), else the demo campaign."""
    from ..campaign import Campaign
    from .kit import campaign_path

    return Campaign.open(campaign_path(path), readonly=True)


def _cut_rows(supply: "pd.DataFrame") -> "pd.DataFrame":
    """The rows of ``supply`` (a ``supply_by_turn`` frame) whose piece was out of supply; an
    unknown status (<NA>) is not counted as cut off."""
    _need(supply, "supply", ("turn", "turn_label", "side", "unit", "kind", "hex", "supplied"))
    return supply[supply["supplied"].eq(False).fillna(False).astype(bool)]


def _need(frame: Any, what: str, columns) -> None:
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        raise CampaignError(f"{what} must be a DataFrame (campaign.table(...)), not {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise CampaignError(f"{what} has no column {', '.join(missing)} (it needs {', '.join(columns)})")


def out_of_supply(supply: "pd.DataFrame") -> "pd.DataFrame":
    """One row per piece (side, unit) out of supply at the end of at least one turn of ``supply``
    (the ``supply_by_turn`` table): its ``kind``, ``turns_out`` (how many turns), ``longest`` (the
    longest run of consecutive turns played in ``supply``), ``first_out`` / ``last_out`` (turn
    labels) and ``hexes`` (where it stood cut off, in play order). Most turns first."""
    import pandas as pd

    cut = _cut_rows(supply)
    order = {t: i for i, t in enumerate(sorted(supply["turn"].dropna().unique()))}  # turns played, in order
    rows = []
    for (side, unit), g in cut.sort_values("turn").groupby(PIECE, observed=True, sort=False):
        pos = [order[t] for t in g["turn"]]
        run = longest = 1
        for a, b in zip(pos, pos[1:]):
            run = run + 1 if b == a + 1 else 1
            longest = max(longest, run)
        rows.append({"side": side, "unit": unit, "kind": g["kind"].iloc[-1], "turns_out": len(g),
                     "longest": longest, "first_out": g["turn_label"].iloc[0], "last_out": g["turn_label"].iloc[-1],
                     "hexes": " ".join(dict.fromkeys(str(h) for h in g["hex"].dropna()))})
    cols = ["side", "unit", "kind", "turns_out", "longest", "first_out", "last_out", "hexes"]
    out = pd.DataFrame(rows, columns=cols)
    out = out.astype({"side": "category", "unit": "string", "kind": "category", "turns_out": "Int64",
                      "longest": "Int64", "first_out": "string", "last_out": "string", "hexes": "string"})
    return out.sort_values(["turns_out", "longest", "side", "unit"], ascending=[False, False, True, True],
                           ignore_index=True)


def _names(unit: str, text: str) -> bool:
    """Whether ``text`` names the piece ``unit`` (its id as a whole word, any case)."""
    return re.search(rf"(?<![\w-]){re.escape(unit)}(?![\w-])", text, re.IGNORECASE) is not None


def upkeep_lines(supply: "pd.DataFrame", lines: "pd.DataFrame") -> "pd.DataFrame":
    """The ledger lines (``ledger_lines``) of kind spend or loss that name a piece (its id in the
    item or the note) in a turn that piece was out of supply (``supply_by_turn``): each such line
    with the ``unit`` it names and its ``cost`` (the points it took, positive). A line naming two
    cut-off pieces counts for each."""
    import pandas as pd

    cut = _cut_rows(supply)
    _need(lines, "lines", ("turn", "turn_label", "side", "account", "kind", "amount", "item", "note"))
    paid = lines[lines["kind"].astype("string").isin(COST_KINDS).fillna(False).astype(bool)]
    text = (paid["item"].astype("string").fillna("") + " | " + paid["note"].astype("string").fillna(""))
    paid = paid.assign(_text=text.astype(object), _side=paid["side"].astype("string").astype(object))
    pieces = cut[["turn", "side", "unit"]].assign(_side=cut["side"].astype("string").astype(object),
                                                  unit=cut["unit"].astype("string").astype(object))
    both = paid.merge(pieces[["turn", "_side", "unit"]], on=["turn", "_side"], how="inner")
    keep = [_names(u, t) for u, t in zip(both["unit"], both["_text"])]
    both = both[pd.Series(keep, index=both.index, dtype=bool)] if len(both) else both
    cols = ["turn", "turn_label", "side", "unit", "account", "kind", "cost", "item", "note"]
    out = both.assign(cost=both["amount"].astype("Float64").abs(), unit=both["unit"].astype("string"))
    out = out.reindex(columns=cols).astype({"turn": "Int64", "cost": "Float64", "unit": "string"})
    return out.sort_values(["turn", "side", "unit"], ignore_index=True)


@dataclass
class SupplyCost:
    """The answer: ``ranking`` (``out_of_supply`` with each piece's name from the ``units`` table,
    its kind's ``role`` in the game's rules -- witp's bases [32.1] are role ``base`` -- and its
    upkeep per account, ``cost_<account>``), ``lines`` (``upkeep_lines``), ``by_turn`` (per turn
    -- ``turn, turn_label, date`` -- and side: ``out_of_supply`` pieces, their ``upkeep``) and ``figure()``."""

    supply: "pd.DataFrame"
    lines: "pd.DataFrame"
    ranking: "pd.DataFrame"
    by_turn: "pd.DataFrame"

    @classmethod
    def of(cls, supply: "pd.DataFrame", ledger: "pd.DataFrame", units: Optional["pd.DataFrame"] = None,
           roles: Optional[Mapping[str, str]] = None) -> "SupplyCost":
        """From the tables ``supply_by_turn``, ``ledger_lines`` and (for names) ``units``;
        ``roles``: kind -> its role in the game's rules (``kind_roles``)."""
        import pandas as pd

        ranking = out_of_supply(supply)
        paid = upkeep_lines(supply, ledger)
        if units is not None:
            _need(units, "units", ("id", "name"))
            info = units[["id", "name"]].astype({"id": "string"}).rename(columns={"id": "unit"})
            ranking = ranking.merge(info, on="unit", how="left")
            ranking.insert(2, "name", ranking.pop("name"))
        if roles is not None:
            role = ranking["kind"].astype(object).map(lambda k: roles.get(k) if isinstance(k, str) else None)
            ranking.insert(ranking.columns.get_loc("kind") + 1, "role", role.astype("category"))
        per = paid.groupby(["side", "unit", "account"], observed=True)["cost"].sum()
        for account in sorted(paid["account"].dropna().astype(str).unique()):
            col = per.xs(account, level="account").rename(f"cost_{account}").reset_index()
            col["unit"] = col["unit"].astype("string")
            col["side"] = col["side"].astype(ranking["side"].dtype)
            ranking = ranking.merge(col, on=["side", "unit"], how="left")
            ranking[f"cost_{account}"] = ranking[f"cost_{account}"].astype("Float64").fillna(0)
        cut = _cut_rows(supply)
        turn_cols = [c for c in ("turn", "turn_label", "date") if c in supply.columns]
        turns = supply[turn_cols + ["side"]].drop_duplicates().astype({"side": "string"})
        count = cut.groupby(["turn", "side"], observed=True).size().rename("out_of_supply").reset_index()
        cost = paid.groupby(["turn", "side"], observed=True)["cost"].sum().rename("upkeep").reset_index()
        by_turn = turns
        for part in (count, cost):
            by_turn = by_turn.merge(part.astype({"side": "string"}), on=["turn", "side"], how="left")
        by_turn = by_turn.astype({"out_of_supply": "Int64", "upkeep": "Float64"}).fillna(
            {"out_of_supply": 0, "upkeep": 0})
        by_turn = by_turn.sort_values(["turn", "side"], ignore_index=True).astype({"side": "category"})
        return cls(supply=supply, lines=paid, ranking=ranking, by_turn=pd.DataFrame(by_turn))

    def figure(self) -> "Figure":
        """Pieces out of supply (above) and their upkeep (below) per turn and side, as a matplotlib
        Figure to restyle or save (``fig.savefig``); a notebook shows it after ``%matplotlib inline``."""
        from matplotlib.figure import Figure

        fig = Figure(figsize=(9, 5.5), layout="constrained")
        top, bottom = fig.subplots(2, 1, sharex=True)
        labels = self.by_turn.drop_duplicates("turn").sort_values("turn")
        pos = {t: i for i, t in enumerate(labels["turn"])}
        sides = [s for s in self.by_turn["side"].cat.categories if (self.by_turn["side"] == s).any()]
        width = 0.8 / max(len(sides), 1)
        for k, side in enumerate(sides):
            g = self.by_turn[self.by_turn["side"] == side]
            x = [pos[t] for t in g["turn"]]
            top.step(x, g["out_of_supply"].astype(float), where="mid", label=side)
            bottom.bar([i - 0.4 + width * (k + 0.5) for i in x], g["upkeep"].astype(float), width, label=side)
        top.set_ylabel("pieces out of supply")
        bottom.set_ylabel("upkeep (points)")
        top.set_title("Out of supply at the end of each turn, and what it cost")
        bottom.set_xticks(range(len(pos)), [str(s) for s in labels["turn_label"]], rotation=45, ha="right",
                          fontsize="small")
        for ax in (top, bottom):
            if sides:
                ax.legend(title="side", fontsize="small")
            ax.grid(axis="y", alpha=0.3)
        return fig


def kind_roles(game: str, kinds) -> dict[str, str]:
    """Each of ``kinds`` (the game's words) -> its role in ``game``'s rules (its kinds.toml: witp's
    airfields, ports, anchorages, seaplane bases and MSBs are ``base`` [32.1]); a kind the game
    does not list is left out."""
    from ..rules.kinds import find_kind

    found = {k: find_kind(game, k) for k in {str(k) for k in kinds}}
    return {k: f.role for k, f in found.items() if f is not None}


def supply_cost(campaign) -> SupplyCost:
    """Which pieces and bases of ``campaign`` spent most turns out of supply, and what that cost in
    its ledger (``SupplyCost``), from its tables ``supply_by_turn``, ``ledger_lines`` and ``units``."""
    table = getattr(campaign, "table", None)
    if not callable(table):
        raise CampaignError(f"campaign must be an open Campaign (analysis.open_campaign(PATH)), not "
                            f"{type(campaign).__name__}")
    supply = table("supply_by_turn")
    roles = kind_roles(campaign.state.game, supply["kind"].dropna().unique())
    return SupplyCost.of(supply, table("ledger_lines"), table("units"), roles)
