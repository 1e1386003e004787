"""Board layouts: which points are joined by lines. A layout is data, nothing more."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from .board import POINT_COUNT, POINT_INDEX, POINT_NAMES, column_of, row_of

# The published board: 12 tall knight lines, 18 wide ones and 9 short lines in the inner square
# (its ring and one spoke from the centre to B3). Not symmetric: this is how the diagram draws it.
TRADITIONAL_LINES: Final = """
A1-B3 B1-A3 C1-D3 D1-C3 E1-D3 B2-C4 E2-D4 A3-B5 B3-A5 B3-C5 D3-E5 E3-D5
A1-C2 B1-D2 C1-A2 C1-E2 D1-B2 E1-C2 A2-C3 C2-E3 D2-B3 C3-A4 C3-E4 D3-B4
A4-C5 B4-D5 C4-A5 C4-E5 D4-B5 E4-C5
B2-C2 C2-D2 D2-D3 D3-D4 D4-C4 C4-B4 B4-B3 B3-B2 B3-C3
"""

# The project's earlier reconstruction (24 tall lines plus 12 wide ones), kept so that games
# stored with it load, replay and finish. New games never use it.
BOW_LINES: Final = """
A1-B3 A1-C2 A2-B4 A2-C3 A3-B1 A3-B5 A4-B2 A4-C3 A5-B3 A5-C4 B1-C3 B1-D2
B2-C4 B2-D3 B3-C1 B3-C5 B4-C2 B4-D3 B5-C3 B5-D4 C1-D3 C1-E2 C2-D4 C2-E3
C3-D1 C3-D5 C4-D2 C4-E3 C5-D3 C5-E4 D1-E3 D2-E4 D3-E1 D3-E5 D4-E2 D5-E3
"""


def _knight_lines() -> str:
    pairs = []
    for a in range(POINT_COUNT):
        for b in range(a + 1, POINT_COUNT):
            steps = {abs(column_of(a) - column_of(b)), abs(row_of(a) - row_of(b))}
            if steps == {1, 2}:
                pairs.append(f"{POINT_NAMES[a]}-{POINT_NAMES[b]}")
    return " ".join(pairs)


@dataclass(frozen=True)
class Layout:
    """A named set of lines; ``neighbours[i]`` lists the points joined to point ``i``, sorted."""

    name: str
    lines: tuple[tuple[str, str], ...]
    neighbours: tuple[tuple[int, ...], ...] = field(repr=False, compare=False)

    @classmethod
    def from_text(cls, name: str, text: str) -> Layout:
        """Build a layout from whitespace-separated lines such as ``"A1-C2 B1-D2"``.

        Raises ``ValueError`` for an unknown point, a line from a point to itself or a repeat.
        """
        lines: set[tuple[str, str]] = set()
        for token in text.split():
            a, sep, b = token.upper().partition("-")
            if not sep or a not in POINT_INDEX or b not in POINT_INDEX or a == b:
                raise ValueError(f"layout {name!r}: {token!r} is not a line between two points")
            line = (a, b) if POINT_INDEX[a] < POINT_INDEX[b] else (b, a)
            if line in lines:
                raise ValueError(f"layout {name!r}: line {token!r} is listed twice")
            lines.add(line)
        joined: list[list[int]] = [[] for _ in range(POINT_COUNT)]
        for a, b in lines:
            joined[POINT_INDEX[a]].append(POINT_INDEX[b])
            joined[POINT_INDEX[b]].append(POINT_INDEX[a])
        return cls(
            name=name,
            lines=tuple(sorted(lines, key=lambda ln: (POINT_INDEX[ln[0]], POINT_INDEX[ln[1]]))),
            neighbours=tuple(tuple(sorted(n)) for n in joined),
        )

    def joined(self, a: str, b: str) -> bool:
        """True when a line joins the two (canonical) points."""
        return POINT_INDEX[b] in self.neighbours[POINT_INDEX[a]]


LAYOUTS: Final[dict[str, Layout]] = {
    "traditional": Layout.from_text("traditional", TRADITIONAL_LINES),
    "bow": Layout.from_text("bow", BOW_LINES),
    "knight": Layout.from_text("knight", _knight_lines()),
}
DEFAULT_LAYOUT: Final = "traditional"
#: Layouts that only stored games use: never offered for a new game.
RETIRED_LAYOUTS: Final = frozenset({"bow", "knight"})


def register_layout(layout: Layout) -> None:
    """Make a layout available to ``Game.new(layout=...)`` by its name."""
    LAYOUTS[layout.name] = layout


def get_layout(name: str) -> Layout:
    """The layout called ``name``; ``ValueError`` naming the known ones otherwise."""
    try:
        return LAYOUTS[name]
    except KeyError:
        known = ", ".join(sorted(LAYOUTS))
        raise ValueError(f"unknown layout {name!r}; choose one of {known}") from None
