"""The board renderer: geometry, pixels where pieces and marks must be, limits, determinism."""

from __future__ import annotations

import io
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import cast

import pytest
from PIL import Image, ImageChops

from bot.jarmo import Game, Outcome, Position, Side, Termination
from bot.render import _fonts, _pieces, _status, render_board, render_position, render_replay
from bot.render._theme import (
    BAR_H,
    BOARD_H,
    BOARD_TOP,
    HEADER_H,
    HEIGHT,
    PIECE_R,
    WIDTH,
    point_center,
    theme_for,
)
from tests.render.render_helpers import (
    at,
    close,
    open_gif,
    pixel,
    place,
    position,
    random_game,
    rgb,
    step,
)

CLASSIC, LUDOS = theme_for("classic"), theme_for("ludos")
MIDGAME = "A1:w C2:wm D3:w E1:w B5:b C5:bm D4:b B3:b"
BELOW = (0, 18)  # straight down from a centre: no knight-move line passes there


def blend(top: Sequence[int], under: Sequence[int], alpha: int) -> tuple[int, ...]:
    """``top`` laid over ``under`` with opacity ``alpha`` (0-255)."""
    pairs = zip(top, under, strict=True)
    return tuple(round(t * alpha / 255 + u * (255 - alpha) / 255) for t, u in pairs)


# --- geometry -----------------------------------------------------------------------------------


def test_point_centres_follow_the_board_from_white() -> None:
    a1, e1, a5 = point_center("A1"), point_center("E1"), point_center("A5")
    assert a1[1] == e1[1] and a1[0] < e1[0]  # columns run left to right
    assert a1[0] == a5[0] and a1[1] > a5[1]  # row 1 at the bottom
    assert point_center("C3") == (WIDTH // 2, (a1[1] + a5[1]) // 2)


@pytest.mark.parametrize("point", ["A1", "B4", "C3", "E2", "D5"])
def test_black_perspective_is_a_half_turn(point: str) -> None:
    mirrored = chr(ord("E") - (ord(point[0]) - ord("A"))) + str(6 - int(point[1]))
    assert point_center(point, "black") == point_center(mirrored, "white")


@pytest.mark.parametrize("bad", ["F1", "A0", "A6", "a1", "A", "A10", ""])
def test_point_center_rejects_non_points(bad: str) -> None:
    with pytest.raises(ValueError, match="not a board point"):
        point_center(bad)


def test_point_center_rejects_unknown_perspective() -> None:
    with pytest.raises(ValueError, match="perspective"):
        point_center("A1", cast(Side, "red"))  # deliberately not a side


# --- pieces -------------------------------------------------------------------------------------


@pytest.mark.parametrize("perspective", ["white", "black"])
def test_pieces_stand_where_the_position_says(perspective: Side) -> None:
    pos = position("A1:w B2:w E1:w A5:b C3:b D4:b")
    image = rgb(render_position(pos, perspective=perspective))
    for col in "ABCDE":
        for row in "12345":
            point = col + row
            piece = pos.piece_at(point)
            colour = at(image, point, perspective)
            if piece is None:
                assert not close(colour, CLASSIC.piece_fill["white"], 40), point
                assert not close(colour, CLASSIC.piece_fill["black"], 40), point
            else:
                assert close(colour, CLASSIC.piece_fill[piece.side]), (point, colour)


def test_black_view_is_the_white_view_turned_half_round() -> None:
    pos = Game.new().position()
    white = rgb(render_position(pos, perspective="white"))
    black = rgb(render_position(pos, perspective="black"))
    cx, cy = point_center("C3")
    half = 2 * 112 + 50  # the points, the camps and the lines, not the coordinate labels
    box = (cx - half, cy - half, cx + half, cy + half)
    turned = white.crop(box).rotate(180)
    diff = ImageChops.difference(turned, black.crop(box)).convert("L")
    assert sum(diff.histogram()[25:]) < 0.002 * diff.width * diff.height
    assert white.crop(box).tobytes() != black.crop(box).tobytes()  # the flip is real


def test_ludos_sides_are_green_and_blue() -> None:
    pos = position("A1:w E5:b", ruleset="ludos")
    image = rgb(render_position(pos))
    assert close(at(image, "A1"), LUDOS.piece_fill["white"])
    assert close(at(image, "E5"), LUDOS.piece_fill["black"])


def test_black_pieces_carry_a_ring_white_ones_do_not() -> None:
    # The ring is the cue that does not depend on telling colours apart.
    image = rgb(render_position(position("A1:w E5:b", ruleset="ludos")))
    ring = (0, -round(PIECE_R * 0.58) + 1)  # on the ring, not its anti-aliased inner edge
    assert close(at(image, "E5", offset=ring), LUDOS.piece_ring["black"], 40)
    assert close(at(image, "A1", offset=ring), LUDOS.piece_fill["white"])


def test_marked_piece_has_a_stripe() -> None:
    image = rgb(render_position(position("B2:w C2:wm B4:b C4:bm")))
    assert close(at(image, "C2"), CLASSIC.stripe)
    assert close(at(image, "C4"), CLASSIC.stripe)
    assert close(at(image, "B2"), CLASSIC.piece_fill["white"])
    assert close(at(image, "B4"), CLASSIC.piece_fill["black"])


@pytest.mark.parametrize("side", ["white", "black"])
def test_guard_has_another_outline_than_an_archer(side: Side) -> None:
    code = "w" if side == "white" else "b"
    image = rgb(render_position(position(f"B3:{code} D3:{code}g", ruleset="ludos")))
    shoulder = (-28, -28)  # inside a guard's shield, outside an archer's disc
    assert close(at(image, "D3", offset=shoulder), LUDOS.piece_fill[side])
    assert not close(at(image, "B3", offset=shoulder), LUDOS.piece_fill[side], 40)


# --- last action --------------------------------------------------------------------------------


@pytest.mark.parametrize("perspective", ["white", "black"])
def test_last_step_marks_origin_destination_and_path(perspective: Side) -> None:
    plain = position("C2:w B5:b")
    moved = position("C2:w B5:b", last=step("A1", "C2"))
    before = rgb(render_position(plain, perspective=perspective))
    after = rgb(render_position(moved, perspective=perspective))
    under = at(before, "A1", perspective, BELOW)
    assert close(
        at(after, "A1", perspective, BELOW),
        blend(CLASSIC.last_move, under, _pieces.ORIGIN_ALPHA),
        20,
    )
    halo = (0, PIECE_R + 4)
    assert close(at(after, "C2", perspective, halo), CLASSIC.last_move)
    assert not close(at(before, "C2", perspective, halo), CLASSIC.last_move, 60)
    (x0, y0), (x1, y1) = point_center("A1", perspective), point_center("C2", perspective)
    assert close(pixel(after, ((x0 + x1) // 2, (y0 + y1) // 2)), CLASSIC.last_move, 30)
    assert close(at(after, "C2", perspective), CLASSIC.piece_fill["white"])  # not covered


@pytest.mark.parametrize("perspective", ["white", "black"])
def test_capture_shows_a_red_halo_and_badge(perspective: Side) -> None:
    image = rgb(
        render_position(
            position("C2:wm B5:b", last=step("A1", "C2", capture=True)), perspective=perspective
        )
    )
    assert close(at(image, "C2", perspective, (0, PIECE_R + 4)), CLASSIC.capture)
    badges = [
        (sx * _pieces.BADGE_OFFSET, sy * _pieces.BADGE_OFFSET + 8)
        for sx in (-1, 1)
        for sy in (-1, 1)
    ]
    assert any(close(at(image, "C2", perspective, b), CLASSIC.capture) for b in badges)


def test_quiet_step_has_no_capture_mark() -> None:
    image = rgb(render_position(position("C2:w B5:b", last=step("A1", "C2"))))
    for x in range(-60, 61, 3):
        for y in range(-60, 61, 3):
            assert not close(at(image, "C2", offset=(x, y)), CLASSIC.capture, 30)


def test_redeploy_marks_the_placed_piece() -> None:
    image = rgb(render_position(position("B1:w E5:wm A5:b", last=place("B1"))))
    assert close(at(image, "B1", offset=(0, PIECE_R + 4)), CLASSIC.placed)
    assert close(at(image, "B1"), CLASSIC.piece_fill["white"])


def test_ludos_step_and_place_marks_both() -> None:
    pos = position("C5:w B1:w A5:b", ruleset="ludos", last=step("D3", "C5", placed="B1"))
    image = rgb(render_position(pos))
    assert close(at(image, "C5", offset=(0, PIECE_R + 4)), LUDOS.last_move)
    assert close(at(image, "B1", offset=(0, PIECE_R + 4)), LUDOS.placed)


# --- status strip -------------------------------------------------------------------------------


def bar_edge(image: Image.Image, top: int) -> tuple[int, int, int]:
    """A pixel on the left edge of the accent outline of the bar starting at ``top``."""
    return pixel(image, (9, top + BAR_H // 2))


@pytest.mark.parametrize(
    ("perspective", "turn", "lit"),
    [
        ("white", "white", "near"),
        ("white", "black", "far"),
        ("black", "black", "near"),
        ("black", "white", "far"),
    ],
)
def test_the_bar_of_the_side_to_move_is_outlined(perspective: Side, turn: Side, lit: str) -> None:
    image = rgb(render_position(position("A1:w A5:b", turn=turn), perspective=perspective))
    near, far = bar_edge(image, BOARD_TOP + BOARD_H), bar_edge(image, HEADER_H)
    assert close(near if lit == "near" else far, CLASSIC.active, 30)
    assert not close(far if lit == "near" else near, CLASSIC.active, 60)


@pytest.mark.parametrize(
    ("points", "winner", "text"),
    [
        ({"white": 7, "black": 4}, "white", "White wins 7–4"),
        ({"white": 5, "black": 6}, "black", "Black wins 6–5"),
        ({"white": 5, "black": 5}, None, "Draw 5–5"),
    ],
)
def test_result_text(points: dict[Side, int], winner: Side | None, text: str) -> None:
    pos = position("A1:w", outcome=Outcome(Termination.CAMP, points, winner))
    assert _status.result_text(pos, CLASSIC) == text


def test_turn_and_ludos_side_names() -> None:
    assert _status.result_text(position(turn="black"), CLASSIC) == "Black to move"
    assert _status.result_text(position(ruleset="ludos"), LUDOS) == "Green to move"


def test_finished_game_differs_from_running_one_in_the_header_only_area() -> None:
    running = rgb(render_position(position("A5:w E1:b")))
    over = rgb(
        render_position(
            position("A5:w E1:b", outcome=Outcome(Termination.CAMP, {"white": 2, "black": 2}, None))
        )
    )
    header = (0, 0, WIDTH, HEADER_H)
    assert running.crop(header).tobytes() != over.crop(header).tobytes()
    board = (0, BOARD_TOP, WIDTH, BOARD_TOP + BOARD_H)
    assert running.crop(board).tobytes() == over.crop(board).tobytes()


@pytest.mark.parametrize(
    "name",
    [
        "李小龙 the 🐉 dragon",
        "👨‍👩‍👧‍👦",
        "مرحبا بالعالم",
        "Zalgo Z̷̡̛a̶l̷g̸o̵",
        "\u202etxet\u202c",
        "a\x00b\tc\nd",
        "",
        "   ",
        "W" * 300,
        "Ä" * 80,
        "\U0010fffd\ufffd",
    ],
)
def test_any_display_name_renders(name: str) -> None:
    png = render_position(position(MIDGAME), players=(name, name))
    assert rgb(png).size == (WIDTH, HEIGHT)


def test_long_names_are_cut_with_an_ellipsis() -> None:
    face = _fonts.font(22, bold=True)
    cut = _fonts.fit("Bartholomew " * 10, face, 200)
    assert cut.endswith("…") and _fonts.length(cut, face) <= 200
    assert _fonts.fit("Ann", face, 200) == "Ann"


def test_names_lose_control_characters_and_extra_spaces() -> None:
    assert _fonts.clean("Ann\u200b\x07") == "Ann"
    assert _fonts.clean("Émile  Zola") == "Émile Zola"


def test_names_appear_in_their_bars() -> None:
    plain = rgb(render_position(position(MIDGAME), players=("", "")))
    named = rgb(render_position(position(MIDGAME), players=("Ann", "Bob Bobson")))
    for top in (HEADER_H, BOARD_TOP + BOARD_H):
        box = (0, top, WIDTH, top + BAR_H)
        assert plain.crop(box).tobytes() != named.crop(box).tobytes()


# --- output format, limits, determinism --------------------------------------------------------


def busy_position() -> Position:
    """Every kind of mark at once, long names aside: the largest PNG we expect."""
    return position(
        "A1:w B2:wm C3:w D4:wm E5:w A5:bm B4:b C5:bm D1:b E2:b",
        last=step("B3", "D4", capture=True),
        captured={"white": 0, "black": 0},
        ply=199,
    )


def test_png_limits() -> None:
    png = render_position(busy_position(), players=("W" * 200, "李" * 200))
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(png) <= 100 * 1024
    assert Image.open(io.BytesIO(png)).width >= 600


@pytest.mark.parametrize("ruleset", ["classic", "jasir", "ludos"])
def test_same_input_same_bytes(ruleset: str) -> None:
    pos = position(MIDGAME, ruleset=ruleset, last=step("B1", "C3", capture=True))
    assert render_position(pos) == render_position(pos)


def test_threads_render_the_same_bytes() -> None:
    positions = [
        position(MIDGAME, ruleset=r, turn=t)
        for r in ("classic", "ludos")
        for t in ("white", "black")
    ] * 4
    alone = [render_position(p, perspective="black") for p in positions]
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(lambda p: render_position(p, perspective="black"), positions))
    assert together == alone


def test_render_board_draws_the_games_position() -> None:
    game = Game.new()
    game.play(game.legal_moves()[0])
    assert render_board(game, perspective="black") == render_position(
        game.position(), perspective="black"
    )


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="perspective"):
        render_position(position(), perspective=cast(Side, "up"))  # deliberately not a side
    with pytest.raises(ValueError, match="players"):
        render_position(position(), players=cast(tuple[str, str], ("only one",)))  # one name short
    with pytest.raises(ValueError, match="frame_ms"):
        render_replay(Game.new(), frame_ms=0)


@pytest.mark.parametrize("ruleset", ["classic", "ludos"])
def test_replay_of_sixty_plies(ruleset: str) -> None:
    game = random_game(ruleset, 60)
    gif = render_replay(game, players=("Ann", "Bob"), frame_ms=500)
    assert len(gif) <= 1024 * 1024
    image = open_gif(gif)
    assert image.format == "GIF" and image.width >= 600
    assert image.n_frames == game.ply + 1
    durations = []
    for i in range(image.n_frames):
        image.seek(i)
        durations.append(image.info["duration"])
    assert durations[0] == 500 and durations[-1] > 500


def test_replay_frames_show_the_positions() -> None:
    game = random_game("classic", 6)
    image = open_gif(render_replay(game))
    for i, pos in enumerate(game.positions()):
        image.seek(i)
        frame = image.convert("RGB")
        for piece in pos.pieces:
            colour = CLASSIC.stripe if piece.kind == "marked" else CLASSIC.piece_fill[piece.side]
            assert close(at(frame, piece.point), colour), (i, piece)


def test_replay_is_deterministic_and_a_new_game_is_one_frame() -> None:
    game = random_game("ludos", 12)
    assert render_replay(game) == render_replay(game)
    assert open_gif(render_replay(Game.new())).n_frames == 1


@pytest.mark.parametrize("perspective", ["white", "black"])
def test_every_line_of_the_published_board_shows_between_the_pieces(perspective: Side) -> None:
    # Pieces on all nine inner points, so that each short line of the centre runs between two
    # discs: the middle of every one of the 39 lines must still be the line's colour.
    inner = "B2:w C2:w D2:w B3:w C3:w D3:b B4:b C4:b D4:b A5:b"
    pos = position(inner)
    image = rgb(render_position(pos, perspective=perspective))
    assert len(pos.lines) == 39
    for a, b in pos.lines:
        (ax, ay), (bx, by) = point_center(a, perspective), point_center(b, perspective)
        middle = ((ax + bx) // 2, (ay + by) // 2)
        assert close(pixel(image, middle), CLASSIC.line, 30), (a, b, pixel(image, middle))
