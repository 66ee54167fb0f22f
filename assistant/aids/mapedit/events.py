"""The map editor's event: many hex corrections and hexside settings recorded as one.

``MapEdited`` holds the ``HexCorrected``/``HexsideCorrected`` bodies a run of ``SetHex``/
``SetHexside`` commands would have made (each with its ``before``, source=user), so a painted run
or an imported CSV is undone and redone as one step and the fold applies exactly what the
per-hex events apply. It has no state slice of its own: it changes the campaign's map corrections.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from ...campaign.events import EventBody, FoldError, HexCorrected, HexsideCorrected, register_event

How = Literal["painted", "imported"]


@register_event
class MapEdited(EventBody):
    """Hexes and hexsides set at once: ``how`` painted in the editor or imported from ``origin``
    (a CSV's file name). Undo restores every ``before``; redo sets them again."""

    type: ClassVar[str] = "map_edited"
    how: How
    origin: str = ""
    hexes: tuple[HexCorrected, ...] = ()
    hexsides: tuple[HexsideCorrected, ...] = ()

    def apply(self, b, rec):
        if not self.hexes and not self.hexsides:
            raise FoldError("a map edit changes nothing")
        for h in self.hexes:
            h.apply(b, rec)
        for s in self.hexsides:
            s.apply(b, rec)

    def inverse(self):
        return MapEdited(how=self.how, origin=self.origin, hexes=tuple(h.inverse() for h in self.hexes),
                         hexsides=tuple(s.inverse() for s in self.hexsides))

    def changed(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The hex labels and hexside ids this edit touches (what the map redraws)."""
        return tuple(h.hex for h in self.hexes), tuple(s.hexside for s in self.hexsides)

    def summary(self, cal=None):
        hexes, sides = self.changed()
        parts = []
        if hexes:
            parts.append(f"{len(hexes)} hex{'es' if len(hexes) != 1 else ''} ({', '.join(hexes[:4])}"
                         + (" ..." if len(hexes) > 4 else "") + ")")
        if sides:
            parts.append(f"{len(sides)} hexside{'s' if len(sides) != 1 else ''}")
        keys = sorted({k for h in self.hexes for k in h.set} | {k for s in self.hexsides for k in s.set})
        where = f" from {self.origin}" if self.origin else ""
        return f"map {self.how}{where}: {' and '.join(parts)}: {', '.join(keys[:6])}"
