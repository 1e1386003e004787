"""Colours, sizes and the point-to-pixel geometry shared by every part of the renderer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.jarmo.position import Side

Perspective = Literal["white", "black"]
RGB = tuple[int, int, int]

COLUMNS = "ABCDE"
ROWS = "12345"

# Layout of the image, top to bottom: header, the far player's bar, the board, the near
# player's bar. All sizes are final pixels; static parts are drawn at SUPERSAMPLE times this.
WIDTH = 640
HEADER_H = 48
BAR_H = 72
SPACING = 112  # between neighbouring points
BOARD_MARGIN_X = (WIDTH - 4 * SPACING) // 2
BOARD_MARGIN_Y = 76
BOARD_H = 4 * SPACING + 2 * BOARD_MARGIN_Y
BOARD_TOP = HEADER_H + BAR_H
HEIGHT = BOARD_TOP + BOARD_H + BAR_H
PIECE_R = 36
SUPERSAMPLE = 4  # sprites; the big background is drawn at 2x (enough, and 4x the speed)


@dataclass(frozen=True, slots=True, eq=False)
class Theme:
    """Everything colour-related; one per family of rulesets (hashed by identity, for caches)."""

    name: str
    side_names: dict[Side, str]
    piece_fill: dict[Side, RGB]
    piece_edge: dict[Side, RGB]  # outline, contrasting with both the fill and the board
    piece_ring: dict[Side, RGB]  # black's inner ring: the shape cue that is not colour
    camp: dict[Side, RGB]
    camp_label: dict[Side, RGB]
    stripe: RGB = (238, 120, 20)  # a marked piece's band: bright on white and on black
    frame: RGB = (35, 38, 44)  # header and player bars
    frame_text: RGB = (240, 241, 243)
    frame_muted: RGB = (160, 166, 176)
    active: RGB = (255, 176, 32)  # the bar of the side to move
    board: RGB = (236, 222, 193)
    board_edge: RGB = (196, 174, 134)
    line: RGB = (120, 93, 62)
    dot: RGB = (92, 68, 42)
    coord: RGB = (120, 93, 62)
    last_move: RGB = (255, 140, 0)
    arrow_edge: RGB = (110, 52, 0)
    capture: RGB = (222, 36, 36)
    placed: RGB = (168, 60, 220)


CLASSIC = Theme(
    name="classic",
    side_names={"white": "White", "black": "Black"},
    piece_fill={"white": (250, 250, 246), "black": (30, 30, 32)},
    piece_edge={"white": (24, 24, 26), "black": (12, 12, 12)},
    piece_ring={"white": (24, 24, 26), "black": (214, 214, 210)},
    camp={"white": (250, 246, 236), "black": (200, 182, 148)},
    camp_label={"white": (150, 130, 100), "black": (110, 90, 62)},
)

LUDOS = Theme(
    name="ludos",
    side_names={"white": "Green", "black": "Blue"},
    piece_fill={"white": (70, 190, 100), "black": (36, 84, 190)},
    piece_edge={"white": (14, 60, 28), "black": (10, 24, 70)},
    piece_ring={"white": (14, 60, 28), "black": (225, 235, 255)},
    camp={"white": (214, 236, 200), "black": (196, 210, 236)},
    camp_label={"white": (70, 120, 70), "black": (60, 80, 140)},
)


def theme_for(ruleset: str) -> Theme:
    """The theme a ruleset is shown in (ludos has its own colours, the others are classic)."""
    return LUDOS if ruleset == "ludos" else CLASSIC


def point_center(point: str, perspective: Perspective = "white") -> tuple[int, int]:
    """Pixel centre of ``point`` (e.g. ``"C2"``) in a rendered image seen from ``perspective``.

    Raises ``ValueError`` for a name that is not a point of the 5x5 board.
    """
    if len(point) != 2 or point[0] not in COLUMNS or point[1] not in ROWS:
        raise ValueError(f"not a board point: {point!r} (expected A1 to E5)")
    col, row = COLUMNS.index(point[0]), ROWS.index(point[1])
    if perspective == "black":  # a half turn: column A on the right, row 5 at the bottom
        col, row = 4 - col, 4 - row
    elif perspective != "white":
        raise ValueError(f"perspective must be 'white' or 'black', not {perspective!r}")
    return BOARD_MARGIN_X + col * SPACING, BOARD_TOP + BOARD_MARGIN_Y + (4 - row) * SPACING
