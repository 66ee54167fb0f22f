"""A game's whole hex grid: printed labels <-> one global axial lattice, across map sections.

Everything game-specific (label style, which pair is the column, orientation, offset parity, how
each section is turned, where it sits, overlaps, the east-west wrap) comes from a ``GridSpec``;
nothing here knows a game. Hexes are ``Axial`` values in the global grid; labels are parsed and
printed only at the edges (in ``parse`` and ``label``).
"""

from __future__ import annotations

import re
from functools import cached_property
from itertools import combinations
from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from . import axial as ax
from .axial import Axial
from .layout import CORNER_RADIUS, from_pixel, to_pixel
from .offset import Orientation, Parity, axial_to_offset, offset_to_axial
from .search import astar, within


class HexError(ValueError):
    """A hex label or hex that is malformed or not on this game's map. Message is one line."""


class SectionSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[A-Z]$")
    name: str = ""
    cols: tuple[int, int]
    rows: tuple[int, int]
    # How the printed numbering is turned relative to the board (north up, east right).
    transform: Literal["none", "flip_v", "flip_h", "rot180"] = "none"
    # Axial translation of this section's hexes into the global grid (from calibration).
    offset: tuple[int, int] = (0, 0)
    # A straight map edge across staggered lines cuts every other line half a hex short: the
    # staggered lines (pointy: rows; flat: columns) of this parity end one hex earlier at the
    # high end (apto's W map: odd rows reach column 34, even rows 33).
    trim_high: Optional[Literal["even", "odd"]] = None
    overlays: list[str] = []  # sections this one lies on top of
    joins: list[str] = []  # sections it meets at a seam


def in_section(s: SectionSpec, col: int, row: int, orientation: str) -> bool:
    """Whether printed (col, row) lies inside section s's extent."""
    if not (s.cols[0] <= col <= s.cols[1] and s.rows[0] <= row <= s.rows[1]):
        return False
    if s.trim_high is None:
        return True
    line, along, top = (row, col, s.cols[1]) if orientation == "pointy" else (col, row, s.rows[1])
    return not (along == top and (line & 1) == (0 if s.trim_high == "even" else 1))


def section_axial(spec: "GridSpec", s: SectionSpec, col: int, row: int) -> Axial:
    """Printed (col, row) of section s on the section's own turned lattice (before its offset)."""
    loc = offset_to_axial(col, row, spec.orientation, spec.shifted)
    return ax.TRANSFORMS[(spec.orientation, s.transform)](loc)


class GridSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str
    label: Literal["compact", "spaced"]  # "B2048" or "W 4533"
    first_pair: Literal["col", "row"]
    orientation: Orientation
    shifted: Parity
    sections: list[SectionSpec]
    # In an overlap, the label of the first section here that contains the hex is canonical.
    precedence: list[str] = []
    # Axial translation that maps the grid onto itself (east-west cylinder), or None.
    wrap: Optional[tuple[int, int]] = None
    # Adjacencies the rulebook states across a seam that no placement of straight map edges
    # reproduces: explicit extra hexsides, as label pairs (see maps/calibration.py).
    links: list[tuple[str, str]] = []


_LABEL = re.compile(r"^([A-Za-z])\s*([0-9]{2})([0-9]{2})$")


def _exit(px: float, py: float, dx: float, dy: float, x0: float, y0: float, x1: float, y1: float) -> float:
    """For a point inside the box moving by (dx, dy) per unit t, the t in [0, 1] where it leaves
    the box (1.0 if it does not)."""
    t = 1.0
    if dx > 0:
        t = min(t, (x1 - px) / dx)
    elif dx < 0:
        t = min(t, (x0 - px) / dx)
    if dy > 0:
        t = min(t, (y1 - py) / dy)
    elif dy < 0:
        t = min(t, (y0 - py) / dy)
    return t


class Grid:
    """Geometry of one game's map: printed labels <-> global ``Axial`` hexes, sections and their
    overlaps, seams and the east-west wrap, all read from a ``GridSpec`` (nothing game-specific in
    code). ``distance`` is the game's one metric (hexes counted across the map); ``neighbors``,
    ``line``, ``ring``, ``range`` and the pixel conversions are the other queries. Immutable; cheap
    queries; build once per game (a ``GameMap`` holds one as ``grid``)."""

    def __init__(self, spec: GridSpec):
        self.spec = spec
        self.orientation: Orientation = spec.orientation
        self._sections = {s.id: s for s in spec.sections}
        order = spec.precedence or [s.id for s in spec.sections]
        self._order = [self._sections[i] for i in order] + [
            s for s in spec.sections if s.id not in order
        ]
        self._wrap = Axial(*spec.wrap) if spec.wrap else None
        self._paths: dict[tuple[Axial, Axial], list[Axial]] = {}

    @property
    def sections_by_precedence(self) -> list[SectionSpec]:
        """Sections in the order their labels win where they overlap."""
        return list(self._order)

    # ----- labels -------------------------------------------------------------------------
    @property
    def section_ids(self) -> list[str]:
        return [s.id for s in self.spec.sections]

    def format(self, section: str, col: int, row: int) -> str:
        a, b = (col, row) if self.spec.first_pair == "col" else (row, col)
        sep = " " if self.spec.label == "spaced" else ""
        return f"{section}{sep}{a:02d}{b:02d}"

    def split(self, label: str) -> tuple[str, int, int]:
        """Parse a label into (section, col, row) without checking the map extents."""
        text = str(label).strip()
        m = _LABEL.match(text)
        if not m:
            example = self.format(self.spec.sections[0].id, 20, 18)
            raise HexError(f"{label!r} is not a {self.spec.game} hex label (expected like {example!r})")
        section, a, b = m.group(1).upper(), int(m.group(2)), int(m.group(3))
        if section not in self._sections:
            raise HexError(
                f"{label!r}: no map section {section!r} in {self.spec.game} "
                f"(sections: {', '.join(self.section_ids)})"
            )
        col, row = (a, b) if self.spec.first_pair == "col" else (b, a)
        return section, col, row

    def parse(self, label: str) -> Axial:
        """The global hex a printed label names. Raises HexError (one line) if malformed/off-map."""
        section, col, row = self.split(label)
        s = self._sections[section]
        if not in_section(s, col, row, self.orientation):
            raise HexError(
                f"{label!r} is off the {self.spec.game} map (section {section} has columns "
                f"{s.cols[0]:02d}-{s.cols[1]:02d}, rows {s.rows[0]:02d}-{s.rows[1]:02d})"
            )
        return self._to_global(s, col, row)

    def label(self, h: Axial) -> str:
        """The canonical printed label of a global hex (the top section where sections overlap)."""
        found = self._locate(h)
        if not found:
            raise HexError(f"hex {tuple(h)} is off the {self.spec.game} map")
        s, col, row = found[0]
        return self.format(s.id, col, row)

    def labels(self, h: Axial) -> list[str]:
        """Every label the hex carries (several where map sections overlap), canonical first."""
        return [self.format(s.id, c, r) for s, c, r in self._locate(h)]

    def section_of(self, h: Axial) -> str:
        found = self._locate(h)
        if not found:
            raise HexError(f"hex {tuple(h)} is off the {self.spec.game} map")
        return found[0][0].id

    def local(self, h: Axial, section: str) -> tuple[int, int]:
        """(col, row) that section ``section`` would print for h (may be off that section)."""
        s = self._sections[section]
        loc = ax.TRANSFORMS[(self.orientation, s.transform)](h - s.offset)
        return axial_to_offset(loc, self.orientation, self.spec.shifted)

    def local_pixel(self, h: Axial, section: str) -> tuple[float, float]:
        """h's centre on section's own (turned, unplaced) board plane: the plane its
        calibration fits geography to."""
        return to_pixel(h - self._sections[section].offset, self.orientation)

    # ----- membership and wrap ------------------------------------------------------------
    def _to_global(self, s: SectionSpec, col: int, row: int) -> Axial:
        return section_axial(self.spec, s, col, row) + s.offset

    def _locate(self, h: Axial) -> list[tuple[SectionSpec, int, int]]:
        for cand in self._representatives(h):
            hits = []
            for s in self._order:
                col, row = self.local(cand, s.id)
                if in_section(s, col, row, self.orientation):
                    hits.append((s, col, row))
            if hits:
                return hits
        return []

    def _representatives(self, h: Axial) -> list[Axial]:
        h = Axial(*h)
        if self._wrap is None:
            return [h]
        return [h, h + self._wrap, h - self._wrap]

    def canonical(self, h: Axial) -> Optional[Axial]:
        """The representative of h that lies on the map (wrap applied), or None if off-map."""
        for cand in self._representatives(h):
            if cand in self._hexset:
                return cand
        return None

    @cached_property
    def _hexset(self) -> frozenset[Axial]:
        return frozenset(self.all_hexes)

    def contains(self, h: Axial) -> bool:
        return self.canonical(h) is not None

    # ----- metric -------------------------------------------------------------------------
    # THE metric of a game, one for the ruler, the hex graph and the CLI so that they never disagree:
    # the number of hexes counted across the map, i.e. an on-map shortest path (section joins,
    # stated seam links and the wrap included). The O(1) lattice distance is a lower bound; where a
    # shortest lattice path (the straight line) stays on the map it is the answer, otherwise an exact
    # A* search with that bound finds it.
    def _nearest_image(self, a: Axial, b: Axial) -> Axial:
        """The copy of b (under the wrap) closest to a."""
        return min(self._representatives(b), key=lambda c: ax.distance(a, c))

    def _lattice_distance(self, a: Axial, b: Axial) -> int:
        if self._wrap is None:
            return ax.distance(a, b)
        return min(ax.distance(a, c) for c in self._representatives(b))

    @cached_property
    def _links(self) -> list[tuple[Axial, Axial]]:
        pairs = [(self.parse(x), self.parse(y)) for x, y in self.spec.links]
        return pairs + [(y, x) for x, y in pairs]

    @cached_property
    def _link_map(self) -> dict[Axial, list[Axial]]:
        out: dict[Axial, list[Axial]] = {}
        for x, y in self._links:
            out.setdefault(x, []).append(y)
        return out

    @cached_property
    def _link_closure(self) -> dict[tuple[Axial, Axial], int]:
        """Lower bound of the steps between any two seam-link ends (lattice steps and links),
        by Floyd-Warshall over the few link ends."""
        ends = list(dict.fromkeys(h for pair in self._links for h in pair))
        d = {(u, v): self._lattice_distance(u, v) for u in ends for v in ends}
        for x, y in self._links:
            d[(x, y)] = min(d[(x, y)], 1)
        for k in ends:
            for u in ends:
                for v in ends:
                    if d[(u, k)] + d[(k, v)] < d[(u, v)]:
                        d[(u, v)] = d[(u, k)] + d[(k, v)]
        return d

    def _bound(self, a: Axial, b: Axial) -> tuple[int, Optional[tuple[Axial, Axial]]]:
        """A lower bound of the on-map distance, and the link (x, y) it goes through, if any:
        no on-map path is shorter (each is lattice runs joined by seam links)."""
        best = self._lattice_distance(a, b)
        via = None
        for (u, v), duv in self._link_closure.items():
            d = self._lattice_distance(a, u) + duv + self._lattice_distance(v, b)
            if d < best:
                # Only a route through one link has a ready straight-line witness.
                best, via = d, ((u, v) if duv == 1 and (u, v) in self._direct_links else None)
        return best, via

    @cached_property
    def _direct_links(self) -> frozenset[tuple[Axial, Axial]]:
        return frozenset(self._links)

    def _straight_on_map(self, a: Axial, b: Axial) -> Optional[list[Axial]]:
        """The straight lattice line a..b (shorter way round a wrap) if every hex of it is on the
        map, as canonical hexes; else None. The hexes are ``axial.line``'s (same nudge, same
        cube rounding, inlined: this loop is the hot path of ``distance``), stopped at the first
        one off the map."""
        hexset = self._hexset
        b = self._nearest_image(a, b)
        n = ax.distance(a, b)
        aq, ar = a[0] + ax._NUDGE[0], a[1] + ax._NUDGE[1]
        dq = (b[0] + ax._NUDGE[0] - aq) / n if n else 0.0
        dr = (b[1] + ax._NUDGE[1] - ar) / n if n else 0.0
        out = []
        for i in range(n + 1):
            qf, rf = aq + dq * i, ar + dr * i
            sf = -qf - rf
            q, r, s_ = round(qf), round(rf), round(sf)
            eq, er, es = abs(q - qf), abs(r - rf), abs(s_ - sf)
            if eq > er and eq > es:
                q = -r - s_
            elif er > es:
                r = -q - s_
            h = Axial(q, r)
            if h not in hexset:
                h = self.canonical(h) if self._wrap is not None else None
                if h is None:
                    return None
            out.append(h)
        return out

    def _fast_path(self, a: Axial, b: Axial) -> tuple[int, Optional[list[Axial]]]:
        """(lower bound, an on-map path of that length or None)."""
        bound, via = self._bound(a, b)
        if via is None:
            if bound == self._lattice_distance(a, b):
                return bound, self._straight_on_map(a, b)
            return bound, None
        first, second = self._straight_on_map(a, via[0]), self._straight_on_map(via[1], b)
        if first is None or second is None:
            return bound, None
        return bound, first + second

    def _search(self, a: Axial, b: Axial) -> list[Axial]:
        key = (a, b)
        path = self._paths.get(key)
        if path is None:
            if self._links:
                bound = lambda h: self._bound(h, b)[0]  # noqa: E731
            elif self._wrap is not None:
                bound = lambda h: self._lattice_distance(h, b)  # noqa: E731
            else:
                bq, br = b
                bound = lambda h: (abs(h[0] - bq) + abs(h[1] - br) + abs(h[0] + h[1] - bq - br)) // 2  # noqa: E731
            path = astar(a, b, self._adjacent, bound)
            if path is None:  # a map in pieces; no game here is one
                raise HexError(f"no on-map path from {self.label(a)} to {self.label(b)}")
            if len(self._paths) > 20_000:
                self._paths.clear()
            self._paths[key] = path
        return path

    def _checked(self, h: Axial) -> Axial:
        c = self.canonical(h)
        if c is None:
            raise HexError(f"hex {tuple(h)} is off the {self.spec.game} map")
        return c

    # Rectangles of the board plane that hold map hexes only, shrunk so that a straight line
    # between two points inside one of them never rounds to a hex outside it: there the lattice
    # distance is the answer in O(1). Built after BLOCKS_AFTER calls (a Grid asked a few
    # questions, e.g. one placement tried by the calibration, never pays for them).
    BLOCKS_AFTER = 64
    _calls = 0

    @cached_property
    def _blocks(self) -> list[tuple[float, float, float, float]]:
        hexset = self._hexset
        outside = {n for h in hexset for n in ax.neighbors(h) if n not in hexset}
        edge = [to_pixel(n, self.orientation) for n in outside]
        boxes = {}
        for s in self._order:
            pts = [to_pixel(self._to_global(s, c, r), self.orientation)
                   for c in s.cols for r in s.rows]  # the four corners span the section
            boxes[s.id] = (min(x for x, _ in pts), min(y for _, y in pts),
                           max(x for x, _ in pts), max(y for _, y in pts))
        ids = list(boxes)
        found = []
        for k in range(1, min(3, len(ids)) + 1):
            for combo in combinations(ids, k):
                lo_x = [boxes[i][0] for i in combo]
                lo_y = [boxes[i][1] for i in combo]
                hi_x = [boxes[i][2] for i in combo]
                hi_y = [boxes[i][3] for i in combo]
                # The sections' bounding box, and the bands where they share rows or columns.
                for x0, y0, x1, y1 in ((min(lo_x), min(lo_y), max(hi_x), max(hi_y)),
                                       (min(lo_x), max(lo_y), max(hi_x), min(hi_y)),
                                       (max(lo_x), min(lo_y), min(hi_x), max(hi_y))):
                    # A line's hexes have their centres within CORNER_RADIUS of it: the box
                    # grown by that much must hold no off-map centre (checking the off-map
                    # hexes next to the map suffices: the box's hexes are connected). A
                    # staggered edge leaves notches: then step inside.
                    e = CORNER_RADIUS + 0.01
                    for m in (0.0, 0.5, 1.0, 1.5):
                        if not any(x0 + m - e <= x <= x1 - m + e and y0 + m - e <= y <= y1 - m + e
                                   for x, y in edge):
                            if x0 + m < x1 - m and y0 + m < y1 - m:
                                found.append((x0 + m, y0 + m, x1 - m, y1 - m))
                            break
        found = list(dict.fromkeys(found))
        return [b for b in found if not any(o != b and o[0] <= b[0] and o[1] <= b[1] and o[2] >= b[2]
                                            and o[3] >= b[3] for o in found)]

    def _in_blocks(self, a: Axial, b: Axial) -> bool:
        """Whether the segment a..b lies inside one block, or inside two it crosses from the one
        into the other (each block is convex: the part in the first ends where the part in the
        second has begun)."""
        if self._calls < self.BLOCKS_AFTER:
            self._calls += 1
            return False
        ax_, ay = to_pixel(a, self.orientation)
        bx, by = to_pixel(b, self.orientation)
        dx, dy = bx - ax_, by - ay
        leave = []  # for each block holding a: where the segment leaves it (1.0: it does not)
        enter = []  # for each block holding b: where the segment enters it
        for x0, y0, x1, y1 in self._blocks:
            in_a = x0 <= ax_ <= x1 and y0 <= ay <= y1
            in_b = x0 <= bx <= x1 and y0 <= by <= y1
            if in_a and in_b:
                return True
            if in_a:
                leave.append(_exit(ax_, ay, dx, dy, x0, y0, x1, y1))
            elif in_b:
                enter.append(1.0 - _exit(bx, by, -dx, -dy, x0, y0, x1, y1))
        return bool(leave and enter) and min(enter) <= max(leave)

    def distance(self, a: Axial, b: Axial) -> int:
        """Hexes from a to b counted across the map (origin exclusive, target inclusive): an
        on-map shortest path, the shorter way round a wrap and through stated seam links."""
        a, b = self._checked(a), self._checked(b)
        if not self._links and self._wrap is None:
            if self._in_blocks(a, b):  # O(1): the straight line stays on the map
                return ax.distance(a, b)
        else:
            bound, via = self._bound(a, b)
            image = self._nearest_image(a, b)
            if via is None and bound == ax.distance(a, image) and self._in_blocks(a, image):
                return bound
        bound, path = self._fast_path(a, b)
        if path is not None:
            return bound
        return len(self._search(a, b)) - 1

    def lattice_distance(self, a: Axial, b: Axial) -> int:
        """The O(1) lower bound: hexes on the infinite lattice (wrap and seam links included),
        ignoring map edges. Equal to ``distance`` where the straight line stays on the map."""
        return self._bound(self._checked(a), self._checked(b))[0]

    @cached_property
    def _adjacency(self) -> dict[Axial, list[Axial]]:
        return {}  # filled by _adjacent as searches visit hexes

    def _adjacent(self, h: Axial) -> list[Axial]:
        out = self._adjacency.get(h)
        if out is None:
            out = self._adjacency[h] = self.neighbors(h)
        return out

    def neighbors(self, h: Axial) -> list[Axial]:
        """On-map adjacent hexes (across section joins, seam links and the wrap)."""
        hexset = self._hexset
        out = []
        q, r = h
        for dq, dr in ax.DIRECTIONS:
            n = Axial(q + dq, r + dr)
            if n in hexset:
                out.append(n)
            elif self._wrap is not None:
                c = self.canonical(n)
                if c is not None:
                    out.append(c)
        for y in self._link_map.get(h, ()):
            if y not in out:
                out.append(y)
        return out

    def line(self, a: Axial, b: Axial) -> list[Axial]:
        """An on-map path a..b of ``distance(a, b)`` steps, both ends included: the straight
        lattice line where it stays on the map, else a shortest path found by search."""
        a, b = self._checked(a), self._checked(b)
        _, path = self._fast_path(a, b)
        return path if path is not None else list(self._search(a, b))

    def ring(self, center: Axial, radius: int) -> list[Axial]:
        """Every on-map hex at exactly ``radius`` hexes (this metric) from center."""
        return [h for h, d in self._within(center, radius).items() if d == radius]

    def range(self, center: Axial, radius: int) -> list[Axial]:
        """Every on-map hex within ``radius`` hexes (this metric) of center, center included."""
        return list(self._within(center, radius))

    def _within(self, center: Axial, radius: int) -> dict[Axial, int]:
        return within(self._checked(center), radius, self.neighbors)

    # ----- whole map and pixels ----------------------------------------------------------
    @cached_property
    def all_hexes(self) -> list[Axial]:
        """Every hex on the map once (overlaps merged), in section order then column, row."""
        seen: dict[Axial, None] = {}
        for s in self._order:
            for col in range(s.cols[0], s.cols[1] + 1):
                for row in range(s.rows[0], s.rows[1] + 1):
                    if in_section(s, col, row, self.orientation):
                        seen.setdefault(self._to_global(s, col, row), None)
        return list(seen)

    def pixel(self, h: Axial) -> tuple[float, float]:
        """Board-plane centre of h (unit hex spacing, y down = south)."""
        return to_pixel(h, self.orientation)

    def hex_at(self, x: float, y: float) -> Optional[Axial]:
        """The on-map hex under board point (x, y), or None."""
        return self.canonical(from_pixel(x, y, self.orientation))
