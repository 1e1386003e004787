"""Images drawn on the palette from cached parts, and replays that store little per move."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.jarmo import SIDES, Game, Position, Side
from bot.render import ENGLISH_WORDS, OffBoardEnd, ResultBanner, render_replay
from bot.render._compose import compose
from bot.render._encode import palette, quantize
from bot.render._indexed import indexed_frame
from bot.render._theme import BAR_H, BOARD_H, BOARD_TOP, HEADER_H, PIECE_R, WIDTH, theme_for
from tests.render.render_helpers import at, close, open_gif, position, random_game, step

NAMES: list[tuple[str, str]] = [
    ("White", "Black"),
    ("Ann", "Bob Bobson"),
    ("李小龙 🐉", "مرحبا 🇫🇷"),
    ("", "W" * 90),
]


def sample_positions(
    ruleset: str, seed: int
) -> Iterator[tuple[Position, Side, tuple[str, str], ResultBanner | None]]:
    """Every third position of a seeded random game, with names, sides and endings varied."""
    rng = random.Random(seed)
    game = Game.new(ruleset=ruleset)
    while not game.over and game.ply < 60:
        game.play(rng.choice(game.legal_moves()))
    for ply, pos in enumerate(game.positions()):
        if ply % 3 == 0:
            endings: tuple[OffBoardEnd, ...] = ("resigned", "timeout", "stopped", "aborted")
            ending = endings[ply % 4]
            winner = None if ending == "aborted" else SIDES[ply % 2]
            result = ResultBanner(ending, winner, pos.points) if ply % 9 == 6 else None
            yield pos, SIDES[ply % 2], NAMES[ply % 4], result


@pytest.mark.parametrize("ruleset", ["classic", "ludos", "jasir"])
@pytest.mark.parametrize("seed", [0, 1])
def test_a_palette_frame_is_the_full_colour_frame_quantised(ruleset: str, seed: int) -> None:
    """Drawing from quantised parts changes no pixel: the images look exactly as before."""
    for pos, perspective, players, result in sample_positions(ruleset, seed):
        theme = theme_for(pos.ruleset)
        expected = quantize(compose(pos, perspective, players, result), theme)
        drawn = indexed_frame(pos, perspective, players, result, ENGLISH_WORDS)
        assert drawn.tobytes() == expected.tobytes(), (pos.ply, perspective, players)


def test_the_short_palette_leaves_a_gif_index_free_and_starts_with_the_themes_colours() -> None:
    for ruleset in ("classic", "ludos"):
        theme = theme_for(ruleset)
        full, short = palette(theme).getpalette(), palette(theme, short=True).getpalette()
        assert full is not None and short is not None
        assert len(short) // 3 < 128
        assert short[: 3 * 64] == full[: 3 * 64]


def test_a_replay_fits_in_300_kb_and_keeps_its_frame_count() -> None:
    for ruleset in ("classic", "ludos"):
        game = random_game(ruleset, 60)
        gif = render_replay(game, players=("Ann", "Bob"))
        assert len(gif) <= 300 * 1024, ruleset
        assert open_gif(gif).n_frames == 61


def frames(gif: bytes) -> list[Image.Image]:
    image = open_gif(gif)
    out = []
    for i in range(image.n_frames):
        image.seek(i)
        out.append(image.convert("RGB"))
    return out


def test_a_replay_frame_changes_a_bar_only_when_its_score_or_tally_does() -> None:
    """No turn marks swap between the bars: a quiet move leaves both bars as they were."""
    game = random_game("classic", 24)
    shown = frames(render_replay(game))
    positions = game.positions()
    bars = {
        "far": (0, HEADER_H, WIDTH, BOARD_TOP),
        "near": (0, BOARD_TOP + BOARD_H, WIDTH, BOARD_TOP + BOARD_H + BAR_H),
    }
    quiet = 0
    for i in range(1, len(positions) - 1):  # the last frame is the still image
        before, after = positions[i - 1], positions[i]
        if (before.points, before.captured, before.reserve) != (
            after.points,
            after.captured,
            after.reserve,
        ):
            continue
        quiet += 1
        for box in bars.values():
            assert shown[i - 1].crop(box).tobytes() == shown[i].crop(box).tobytes(), i
    assert quiet >= 3


def test_replay_frames_leave_out_the_highlights_that_the_still_image_has() -> None:
    moved = position("C2:w C4:b", ply=5, turn="black", last=step("A1", "C2"))
    theme = theme_for("classic")
    above_the_piece = (0, -(PIECE_R + 3))  # on the halo's ring, away from the arrow
    kinds = {"still": {}, "replay": {"replay": True}}
    seen = {
        kind: indexed_frame(moved, "white", ("Ann", "Bob"), None, ENGLISH_WORDS, **options)
        for kind, options in kinds.items()
    }
    assert close(at(seen["still"].convert("RGB"), "C2", offset=above_the_piece), theme.last_move)
    assert close(at(seen["replay"].convert("RGB"), "C2", offset=above_the_piece), theme.board)
    header = (0, 0, WIDTH, HEADER_H)  # the move's name instead of whose turn it is
    assert seen["still"].crop(header).tobytes() != seen["replay"].crop(header).tobytes()


def test_the_last_frame_of_a_replay_is_the_still_image() -> None:
    game = random_game("classic", 8)
    last = frames(render_replay(game, players=("Ann", "Bob")))[-1]
    still = indexed_frame(game.position(), "white", ("Ann", "Bob"), None, ENGLISH_WORDS, short=True)
    assert last.tobytes() == still.convert("RGB").tobytes()


@pytest.mark.parametrize("ruleset", ["classic", "ludos"])
def test_every_replay_frame_decodes_to_the_frame_drawn(ruleset: str) -> None:
    """Stored as changed rectangles with transparency, each frame still shows exactly what
    was drawn for it, on the palette's colours."""
    game = random_game(ruleset, 30)
    banner = ResultBanner("timeout", "black", game.points())
    shown = frames(render_replay(game, players=("Ann", "李小龙 🐉"), result=banner))
    positions = game.positions()
    for i, pos in enumerate(positions):
        last = i == len(positions) - 1
        drawn = indexed_frame(
            pos, "white", ("Ann", "李小龙 🐉"), banner if last else None, ENGLISH_WORDS,
            replay=not last, short=True,
        )  # fmt: skip
        assert shown[i].tobytes() == drawn.convert("RGB").tobytes(), i
