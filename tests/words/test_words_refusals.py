"""Every refusal has words, in Discord's and in the console's voice, and the rules engine's
reasons read the same through the catalogue as the engine says them."""

from __future__ import annotations

import random

import pytest

from bot.console._words import console_voice
from bot.jarmo import RULESETS, Game, IllegalMove, NotationError, parse_point
from bot.jarmo.board import POINT_NAMES
from bot.jarmo.errors import JarmoError, Problem
from bot.service.errors import Code, Field, Refusal
from bot.words import move_refusal_text, refusal_text
from tests.wording import english

# Values for every field any refusal carries (the service fills them in for real).
FIELDS: dict[str, Field] = {
    "player": 101,
    "side": "white",
    "ruleset": "ludos",
    "name": "Ann",
    "opponent": "Bob",
    "known": "bow, knight",
    "text": "5 parsecs",
    "status": "declined",
    "answer": "decline",
    "games": 3,
    "level": "grandmaster",
    "game": 7,
    # open challenges
    "rating": 1412,
    "lowest": 1000,
    "highest": 1300,
    # tournaments
    "count": 2,
    "least": 3,
    "most": 3,
    "rounds": 4,
    "round": 2,
    "current": 1,
    # vacations
    "days": 14,
    # a claim on time
    "seconds": 5_400,
}


def every_refusal() -> list[Refusal]:
    # cause=None said outright, so that the type checker knows FIELDS cannot carry one.
    refusals = [Refusal(code, cause=None, **FIELDS) for code in Code]
    game = Game.new()
    for text in ("A1-A3", "hello"):
        try:
            game.play(text)
        except JarmoError as refused:
            code = Code.ILLEGAL_MOVE if isinstance(refused, IllegalMove) else Code.UNREADABLE_MOVE
            refusals.append(Refusal(code, cause=refused))
    return refusals


@pytest.mark.parametrize("refusal", every_refusal(), ids=lambda refusal: refusal.code.value)
def test_every_refusal_says_what_happened_in_discord_and_at_the_console(refusal: Refusal) -> None:
    discord = refusal_text(refusal, english({101: "Ann"}))
    console = refusal_text(refusal, console_voice({101: "Ann"}.__getitem__))
    for text in (discord, console):
        assert text.endswith((".", "!", ")")) and "{" not in text and "}" not in text, text
    assert "/jarmo" not in console and "autocomplete" not in console.lower(), console


def test_commands_are_named_the_way_each_front_end_types_them() -> None:
    refusal = Refusal(Code.COMPUTER_PLAYS_ON)
    assert "Use /jarmo resign to give up." in refusal_text(refusal, english())
    assert "Use 'resign' to give up." in refusal_text(refusal, console_voice(str))
    turn = Refusal(Code.NOT_YOUR_TURN, player=101, name="Ann", side="white", ruleset="ludos")
    assert refusal_text(turn, english()) == "It is Ann's turn (Green). Wait for their move."


def refused_actions(ruleset: str, seed: int) -> list[JarmoError]:
    """The engine's refusals of random texts in random positions of ``ruleset``."""
    rng = random.Random(seed)
    game = Game.new(ruleset=ruleset)
    found: list[JarmoError] = []
    for _ in range(60):
        moves = game.legal_moves()
        if not moves:
            break
        p, q, r = (rng.choice(POINT_NAMES) for _ in range(3))
        for text in (f"{p}-{q}", f"@{r}", f"{p}-{q}@{r}", f"{p}{p}", "Z9-A1", "x" * 50):
            try:
                game.copy().play(text)
            except JarmoError as refused:
                found.append(refused)
        game.play(rng.choice(moves))
    return found


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_catalogue_says_each_engine_refusal_as_the_engine_does(ruleset: str) -> None:
    problems = set()
    for refused in refused_actions(ruleset, seed=len(ruleset)):
        problems.add(refused.problem)
        assert move_refusal_text(refused, english()).startswith(str(refused)), refused.problem
    assert len(problems) >= 6


def test_a_bad_point_reads_the_same_as_a_bad_move() -> None:
    with pytest.raises(NotationError) as caught:
        parse_point("B9")
    assert caught.value.problem is Problem.NOT_A_POINT
    assert move_refusal_text(caught.value, english()).startswith(str(caught.value))
