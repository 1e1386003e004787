"""The final image of an ended game: who won, why, and the score."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image

from bot.jarmo import Outcome, Side, Termination
from bot.render import ResultBanner, render_position, render_replay
from bot.render._result import reason_text
from bot.render._status import result_text
from bot.render._theme import BAR_H, BOARD_H, BOARD_TOP, HEADER_H, WIDTH, theme_for
from tests.render.render_helpers import close, open_gif, pixel, position, random_game, rgb

CLASSIC = theme_for("classic")
NAMES = CLASSIC.side_names
POINTS: dict[Side, int] = {"white": 7, "black": 4}
PIECES = "A1:w C2:wm D3:w B5:b C4:b"


@pytest.mark.parametrize(
    ("banner", "headline", "why"),
    [
        (ResultBanner("resigned", "white", POINTS), "White wins 7–4", "Black resigned"),
        (ResultBanner("timeout", "black", POINTS), "Black wins 4–7", "White lost on time"),
        (
            ResultBanner("stopped", "white", POINTS),
            "White wins 7–4",
            "stopped by agreement, scored as it stood",
        ),
        (
            ResultBanner("stopped", None, {"white": 5, "black": 5}),
            "Draw 5–5",
            "stopped by agreement, scored as it stood",
        ),
        (
            ResultBanner("aborted", None, POINTS),
            "Aborted",
            "aborted by a moderator, nothing counts",
        ),
        (ResultBanner(Termination.CAMP, "white", POINTS), "White wins 7–4", "all pieces in camp"),
        (
            ResultBanner(Termination.PLY_LIMIT, None, {"white": 3, "black": 3}),
            "Draw 3–3",
            "move limit reached",
        ),
    ],
)
def test_the_result_is_worded_from_the_banner(
    banner: ResultBanner, headline: str, why: str
) -> None:
    assert result_text(position(PIECES, turn="black"), CLASSIC, banner) == headline
    assert reason_text(banner, NAMES) == why


def test_ludos_names_its_sides_in_the_result() -> None:
    banner = ResultBanner("resigned", "black", POINTS)
    assert reason_text(banner, theme_for("ludos").side_names) == "Green resigned"


def test_an_ended_game_no_longer_shows_whose_move_it_was() -> None:
    pos = position(PIECES, turn="black")
    running = rgb(render_position(pos))
    resigned = rgb(render_position(pos, result=ResultBanner("resigned", "white", POINTS)))
    header = (0, 0, WIDTH, HEADER_H)
    assert running.crop(header).tobytes() != resigned.crop(header).tobytes()
    board = (0, BOARD_TOP, WIDTH, BOARD_TOP + BOARD_H)
    assert running.crop(board).tobytes() == resigned.crop(board).tobytes()


def outlined(image: Image.Image, top: int) -> bool:
    """Whether the bar starting at ``top`` has the accent outline (turn or winner)."""
    return close(pixel(image, (9, top + BAR_H // 2)), CLASSIC.active, 30)


@pytest.mark.parametrize(
    ("banner", "near_lit", "far_lit"),
    [
        (ResultBanner("resigned", "white", POINTS), True, False),  # White is near (perspective)
        (ResultBanner("timeout", "black", POINTS), False, True),
        (ResultBanner("aborted", None, POINTS), False, False),  # nobody won: nothing lit
        (ResultBanner("stopped", None, POINTS), False, False),
    ],
)
def test_the_winners_bar_is_outlined_and_nobody_elses(
    banner: ResultBanner, near_lit: bool, far_lit: bool
) -> None:
    image = rgb(render_position(position(PIECES, turn="black"), result=banner))
    assert outlined(image, BOARD_TOP + BOARD_H) == near_lit
    assert outlined(image, HEADER_H) == far_lit


def test_the_loser_on_time_gets_another_label_than_by_resigning() -> None:
    pos = position(PIECES, turn="black")
    bar = (0, HEADER_H, WIDTH, HEADER_H + BAR_H)  # black's bar, seen from white
    resigned = rgb(render_position(pos, result=ResultBanner("resigned", "white", POINTS)))
    on_time = rgb(render_position(pos, result=ResultBanner("timeout", "white", POINTS)))
    assert resigned.crop(bar).tobytes() != on_time.crop(bar).tobytes()


def test_without_a_banner_a_finished_position_shows_its_own_outcome() -> None:
    outcome = Outcome(Termination.CAMP, POINTS, "white")
    pos = position(PIECES, outcome=outcome)
    assert render_position(pos) == render_position(
        pos, result=ResultBanner(Termination.CAMP, "white", POINTS)
    )


def test_the_last_frame_of_a_replay_shows_the_result() -> None:
    game = random_game("classic", 4)
    banner = ResultBanner("resigned", "black", game.points())
    plain = open_gif(render_replay(game))
    ended = open_gif(render_replay(game, result=banner))
    for frame in range(ended.n_frames):
        plain.seek(frame)
        ended.seek(frame)
        same = plain.convert("RGB").tobytes() == ended.convert("RGB").tobytes()
        assert same == (frame < ended.n_frames - 1), frame


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("forfeited", "white", POINTS), "unknown reason"),
        (("resigned", None, POINTS), "has a winner"),
        (("stopped", "red", POINTS), "winner"),
        (("stopped", None, {"white": 3}), "both sides"),
    ],
)
def test_a_banner_refuses_what_cannot_be(
    args: tuple[Any, ...],  # deliberately outside what the types allow
    message: str,
) -> None:
    with pytest.raises(ValueError, match=message):
        ResultBanner(*args)


def test_a_stored_reason_becomes_a_termination() -> None:
    assert ResultBanner.from_record("ply_limit", None, POINTS).reason is Termination.PLY_LIMIT
    assert ResultBanner.from_record("stopped", None, POINTS).reason == "stopped"
    with pytest.raises(ValueError):
        ResultBanner.from_record("gave up", None, POINTS)
