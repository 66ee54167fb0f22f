"""The PPs a Major Power's Industrial Hexes produce [18.0.D], with the pipeline conditions of 18.7.

"The number of PPs available to a Major Power is equal to the number of home country Industrial
Centers currently operating under friendly control and conforming to the Pipeline requirements
(18.7) multiplied by the Production Multiple (for that country on that turn) plus 1 PP per captured
Industrial Hex linked by pipeline to the home country Industrial Hexes" [18.0.D]; Lend-Lease and
LRB losses are their own ledger lines (transfers, and the strike plotter's losses).

Industrial Hex attributes read (kinds.toml): ``pipeline`` (two port hexes ``W1234-W2345``: the Merchant
Ship Pipeline 18.7 names for this IH, traced with the supply tracer's pipelines [18.6.3]-[18.6.4]);
``pipeline_ms`` (MS needed in each Holding Area, default 1 [18.7.1]-[18.7.4]); ``pipeline_use``
(``condition``: below ``pipeline_ms`` the IH does not produce [18.7.1]-[18.7.4]; ``transfer``: the
PPs pooled with the Major Power are capped by the pipeline's capacity and the rest is produced
independently [18.7.6]-[18.7.8]); ``needs_control`` (a nation all of whose IHs the side must control,
[18.7.2.B]); ``recaptured`` (produces on Mode 1 [18.4.2]); ``captured_by``/``captured_turn``/``linked``
for a captured IH (1 PP from the turn after capture, if linked by pipeline [18.4.1], [18.7.8.A]);
``eliminated`` / ``nuclear_destruction`` (no production [17.6.5]); ``region`` (the country it
stands in: ``uk``, ``canada``, ``india``, ``manchukuo`` [18.7.6.E]).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..hexnet import truthy
from ..world import Piece, World
from . import economy_tables as T

#: The seven Major Powers [18.0.C] by side; the first of each side is its main account.
POWERS = {"axis": ("germany", "italy", "japan"), "allies": ("commonwealth", "us", "ussr", "france")}
#: Nations whose IHs are a Major Power's home IHs: Romania's is German [18.7.2.C], [19.9.C];
#: Manchukuo's Japanese [18.7.7].
HOME = {"germany": ("germany", "romania"), "japan": ("japan", "manchukuo")}
USES = ("condition", "transfer")


def home_nations(power: str) -> tuple[str, ...]:
    return HOME.get(power, (power,))


def region_of(p: Piece) -> str:
    """The country an IH stands in (attr ``region``: uk, canada, india; manchukuo ...), where the
    units its independent PPs pay for appear [18.7.6.B-C]; the nation without it."""
    return str(p.attr("region") or p.nation or p.id)


def power_of_ih(p: Piece, side: Optional[str]) -> Optional[str]:
    """The Major Power of ``side`` whose PPs an Industrial Hex produces: its home power (Romania's
    IH is German [18.7.2.C]), or the capturing power (``captured_by``) [18.7.8]; None if unknown."""
    for power in POWERS.get(side or "", ()):
        if p.nation in home_nations(power) or p.attr("captured_by") == power:
            return power
    return None


@dataclass(frozen=True)
class HexOutput:
    """One Industrial Hex's part of a Major Power's production: ``pooled`` PPs in the power's pool,
    ``independent`` PPs it produces on its own [18.7.6.C], and why."""

    piece: str
    hex: str
    region: str
    status: str  # home | recaptured | captured
    pp: int
    pooled: int
    independent: int
    rule: str
    reason: str


@dataclass
class Production:
    """A Major Power's production on one turn, with its working."""

    power: str
    turn: int
    multiple: Optional[int]
    hexes: list[HexOutput] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)

    @property
    def pooled(self) -> int:
        return sum(h.pooled for h in self.hexes)

    @property
    def independent(self) -> int:
        return sum(h.independent for h in self.hexes)

    def independent_by_region(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for h in self.hexes:
            if h.independent:
                out[h.region] = out.get(h.region, 0) + h.independent
        return out

    def steps(self) -> list[str]:
        return [f"{h.piece} at {h.hex} ({h.status}): {h.reason} [{h.rule}]" for h in self.hexes] + self.questions


def _int_attr(p: Piece, key: str, default: int, low: int = 0) -> int:
    v = p.attr(key, default)
    try:
        n = int(v)
    except (TypeError, ValueError):
        raise ValueError(f"piece {p.id}: {key} {v!r} is not a whole number") from None
    if n < low or isinstance(v, float) and not float(v).is_integer():
        raise ValueError(f"piece {p.id}: {key} {v!r} must be a whole number of at least {low}")
    return n


def pipelines_of(world: World, side: str):
    """``side``'s Merchant Ship Pipelines as the supply tracer builds them [18.6.3]-[18.6.4]."""
    from .supply import _Run

    return _Run(world, side).pipes


def pipeline_capacity(world: World, side: str, ends: str, piece_id: str = "", pipes=None) -> tuple[int, str]:
    """The capacity (MS in the smallest Holding Area [18.6.4.B]) of ``side``'s Merchant Ship
    Pipeline between the two port hexes ``ends`` (``A-B``), traced as the supply tracer does; 0
    when there is none. With the pipeline's description."""
    parts = [x.strip() for x in str(ends).split("-")]
    if len(parts) != 2 or not all(parts):
        raise ValueError(f"piece {piece_id}: pipeline {ends!r} must name two port hexes as A-B")
    for h in parts:
        if h not in world.net.index:
            raise ValueError(f"piece {piece_id}: pipeline hex {h!r} is not on the map")
    net = pipes if pipes is not None else pipelines_of(world, side)
    best = max((p for p in net.pipelines if set(p.ends) == set(parts)), key=lambda p: p.capacity, default=None)
    if best is None:
        return 0, f"no Merchant Ship Pipeline {parts[0]}-{parts[1]} (friendly ports, MS within reach [18.6.3])"
    return best.capacity, best.describe()


def production(world: World, side: str, power: str, turn: int) -> Production:
    """``power``'s production on Game-Turn ``turn`` [18.0.D] (``turn`` is the Game-Turn number)."""
    mult = T.multiple(world.tables, turn, power)
    out = Production(power=power, turn=turn, multiple=mult)
    ihs = [p for p in world.pieces if p.role == "industrial_hex"]
    cache: dict = {}

    def capacity(ends: str, piece_id: str) -> tuple[int, str]:
        if "pipes" not in cache:
            cache["pipes"] = pipelines_of(world, side)
        return pipeline_capacity(world, side, ends, piece_id, cache["pipes"])

    for p in ihs:
        if truthy(p.attr("eliminated")) or truthy(p.attr("nuclear_destruction")):
            continue
        home = p.nation in home_nations(power)
        captured = not home and p.attr("captured_by") == power
        if not (home or captured):
            continue
        if world.control.owner(p.hex) != side:
            if home:
                out.hexes.append(HexOutput(p.id, p.hex, region_of(p), "home", 0, 0, 0, "18.0.D",
                                           f"not under friendly control ({world.control.owner(p.hex) or 'nobody'} holds it)"))
            continue
        if captured:
            out.hexes.append(_captured(world, side, p, turn, capacity))
            continue
        recaptured = truthy(p.attr("recaptured"))
        if recaptured:
            pp, status, rule = 1, "recaptured", "18.4.2"
        elif mult is None:
            out.questions.append(f"{p.id} at {p.hex}: no Production Multiple for {power} on Turn {turn} "
                                 f"(enter the table {T.MULTIPLES} on the Rule tables page) [18.0.D]")
            continue
        else:
            pp, status, rule = mult, "home", "18.0.D"
        out.hexes.append(_conditions(world, side, p, pp, status, rule, ihs, capacity))
    return out


def _conditions(world: World, side: str, p: Piece, pp: int, status: str, rule: str, ihs, capacity) -> HexOutput:
    """A home IH's output under the pipeline requirements of 18.7."""
    why = f"{pp} PP" + (" (Production Mode 1)" if status == "recaptured" else "")
    need_ctl = p.attr("needs_control")
    if need_ctl:
        missing = [q.hex for q in ihs if q.nation == need_ctl and world.control.owner(q.hex) != side]
        if missing:
            return HexOutput(p.id, p.hex, region_of(p), status, pp, 0, 0, "18.7.2.B",
                             f"needs control of every {need_ctl} Industrial Hex; not {', '.join(missing)}")
        why += f"; every {need_ctl} Industrial Hex held"
    ends = p.attr("pipeline")
    if not ends:
        return HexOutput(p.id, p.hex, region_of(p), status, pp, pp, 0, rule, why)
    use = p.attr("pipeline_use", "condition")
    if use not in USES:
        raise ValueError(f"piece {p.id}: pipeline_use {use!r} must be one of {', '.join(USES)}")
    cap, desc = capacity(ends, p.id)
    if use == "transfer":
        moved = min(pp, cap)
        return HexOutput(p.id, p.hex, region_of(p), status, pp, moved, pp - moved, "18.7.6.B",
                         f"{why}; {desc}: {moved} PP pooled"
                         + (f", {pp - moved} PP produced independently [18.7.6.C]" if moved < pp else ""))
    need = _int_attr(p, "pipeline_ms", 1, 1)
    if cap < need:
        return HexOutput(p.id, p.hex, region_of(p), status, pp, 0, 0, "18.7",
                         f"needs {need} MS in each Holding Area of {ends}; {desc}: no production")
    return HexOutput(p.id, p.hex, region_of(p), status, pp, pp, 0, rule, f"{why}; {desc}")


def _captured(world: World, side: str, p: Piece, turn: int, capacity) -> HexOutput:
    """A captured IH: 1 PP [18.4.1] from the turn after capture, if linked by pipeline [18.7.8.A]."""
    if p.attr("captured_turn") is None:
        return HexOutput(p.id, p.hex, region_of(p), "captured", 1, 0, 0, "18.7.8.A",
                         "captured_turn not set: enter the Game-Turn of capture (it counts from the next)")
    when = _int_attr(p, "captured_turn", 0, 1)
    if when >= turn:
        return HexOutput(p.id, p.hex, region_of(p), "captured", 1, 0, 0, "18.7.8.A",
                         f"captured on Turn {when}: counts from Turn {when + 1}")
    ends = p.attr("pipeline")
    if ends:
        cap, desc = capacity(ends, p.id)
        if cap < 1:
            return HexOutput(p.id, p.hex, region_of(p), "captured", 1, 0, 0, "18.7.8.A", f"not linked: {desc}")
        return HexOutput(p.id, p.hex, region_of(p), "captured", 1, 1, 0, "18.4.1", f"1 PP; linked by {desc}")
    if p.attr("linked") is None:
        return HexOutput(p.id, p.hex, region_of(p), "captured", 1, 0, 0, "18.7.8.A",
                         "is a pipeline linking it to the home IHs? set linked=yes|no (or pipeline=A-B)")
    if truthy(p.attr("linked")):
        return HexOutput(p.id, p.hex, region_of(p), "captured", 1, 1, 0, "18.4.1", "1 PP; linked by a pipeline (player's word)")
    return HexOutput(p.id, p.hex, region_of(p), "captured", 1, 0, 0, "18.7.8.A", "no pipeline links it: no production")
