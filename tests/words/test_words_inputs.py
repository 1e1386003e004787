"""What players typed comes back to them cut short, and the rules' refusals say what each
ruleset forbids."""

from __future__ import annotations

import random

import pytest

from bot.console._words import console_voice
from bot.jarmo import Game, IllegalMove
from bot.jarmo.board import POINT_NAMES
from bot.jarmo.errors import Problem
from bot.service.errors import Code, Field, Refusal
from bot.service.servers import LANGUAGES
from bot.words import Voice, move_refusal_text, refusal_text, shared_catalogue
from tests.words.test_words_refusals import FIELDS

DISCORD_MESSAGE_LIMIT = 2000
TYPED = "5" * 10_000  # what a modified client (or a paste) may send as an option's text
# The fields that carry what a player typed, or a name they chose.
ECHOED = ("text", "name", "opponent", "ruleset", "level", "side")


def voices() -> list[Voice]:
    return [Voice(shared_catalogue(language), name=str) for language in LANGUAGES] + [
        console_voice(str)
    ]


@pytest.mark.parametrize("code", list(Code), ids=str)
def test_no_refusal_repeats_more_than_a_move_of_what_was_typed(code: Code) -> None:
    fields: dict[str, Field] = FIELDS | dict.fromkeys(ECHOED, TYPED)
    for voice in voices():
        text = refusal_text(Refusal(code, cause=None, **fields), voice)
        assert len(text) < DISCORD_MESSAGE_LIMIT
        assert "5" * 41 not in text, text


def test_an_echoed_text_is_cut_with_a_mark() -> None:
    refusal = Refusal(Code.BAD_TIME_LIMIT, text=TYPED)
    assert refusal_text(refusal, Voice(shared_catalogue(), name=str)).startswith(
        f"'{'5' * 40}…' is not a time per move."
    )
    short = Refusal(Code.BAD_TIME_LIMIT, text="5 parsecs")
    assert refusal_text(short, Voice(shared_catalogue(), name=str)).startswith("'5 parsecs' is")


def white_steps(game: Game) -> tuple[list[str], list[str]]:
    """White's legal sideways steps, and the backward steps along a line to an empty point
    (which jasir forbids), in ``game``."""
    sideways, backwards = [], []
    for move in game.legal_moves():
        if "-" in move and move[1] == move[4]:
            sideways.append(move)
    for origin in POINT_NAMES:
        piece = game.piece_at(origin)
        if piece is None or piece.side != "white":
            continue
        for target in POINT_NAMES:
            if int(target[1]) < int(origin[1]) and game.piece_at(target) is None:
                try:
                    game.copy().play(f"{origin}-{target}")
                except IllegalMove as refused:
                    if refused.problem is Problem.BACKWARDS:
                        backwards.append(f"{origin}-{target}")
    return sideways, backwards


def test_jasir_refuses_a_step_back_as_backwards_and_lets_sideways_steps_be() -> None:
    rng = random.Random(3)
    game = Game.new(ruleset="jasir")
    sideways: list[str] = []
    backwards: list[str] = []
    for _ in range(40):  # White's turns of one random game, until both kinds are found
        if game.over:
            break
        if game.turn == "white":
            found_sideways, found_backwards = white_steps(game)
            sideways = sideways or found_sideways
            backwards = backwards or found_backwards
            if sideways and backwards:
                break
        game.play(rng.choice(game.legal_moves()))
    assert sideways and backwards, "the game never offered both kinds of step"
    with pytest.raises(IllegalMove) as refused:
        game.copy().play(backwards[0])
    for voice in voices():
        words = move_refusal_text(refused.value, voice)
        assert "sideways" not in words and "seitwärts" not in words and "w bok" not in words
    english = move_refusal_text(refused.value, Voice(shared_catalogue(), name=str))
    assert (
        f"In jasir, pieces never step back, away from the enemy camp; {backwards[0]} goes "
        "backwards." in english
    )
