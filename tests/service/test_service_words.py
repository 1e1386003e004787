"""What players read: one naming of the sides per ruleset (ludos says Green and Blue, as its
pictures do), one name for the board in every language, real example moves, singular counts,
and no "your move" to the computer."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from bot.cogs.replies import report_message
from bot.cogs.stats import export_caption
from bot.console import board_diagram
from bot.jarmo import RULESETS, SIDES, Game, get_layout, side_name
from bot.jarmo.notation import EXPECTED_ACTION
from bot.render._theme import theme_for
from bot.service import (
    Actor,
    BadMove,
    ChallengeRequest,
    JarmoService,
    NotAllowed,
    NotYourTurn,
    Report,
    read_action,
)
from bot.service.computer import ComputerOpponent, think_in_thread
from bot.store import ChallengeOptions, NewChallenge, SqliteStore
from bot.words import (
    Voice,
    challenge_text,
    game_title,
    history_option,
    move_list_text,
    position_line,
    refusal_text,
    report_text,
    shared_catalogue,
    standings_text,
)
from tests.fakes import FakeClock
from tests.service.service_helpers import ANN, BOB, HERE, start_match
from tests.wording import refused, voice

ROBOT = Actor(999, "Jarmo Bot", is_bot=True)
NAMES = {ANN.user_id: "Ann", BOB.user_id: "Bob", ROBOT.user_id: "Jarmo Bot"}


WORDS = voice(NAMES.get)


def test_each_ruleset_names_its_sides_as_its_pictures_do() -> None:
    names = {ruleset: tuple(side_name(side, ruleset) for side in SIDES) for ruleset in RULESETS}
    assert names == {
        "classic": ("White", "Black"),
        "jasir": ("White", "Black"),
        "ludos": ("Green", "Blue"),
    }
    for ruleset, shown in names.items():
        assert shown == tuple(theme_for(ruleset).side_names[side] for side in SIDES)


async def test_ludos_texts_say_green_and_blue(service: JarmoService) -> None:
    view = await service.challenges.post(
        HERE, ANN, ChallengeRequest(BOB, ruleset="ludos", side="white")
    )
    assert "Ann plays Green first" in challenge_text(view, WORDS, expires="soon")
    board = await service.challenges.accept(BOB, view.challenge.id)
    line = position_line(board, WORDS)
    assert line.startswith("Green Ann 5 – 5 Bob Blue") and "Ann to move (Green)" in line
    with refused(NotYourTurn, r"Ann's turn \(Green\)"):
        await service.play.move(HERE, BOB, read_action("A5-C4"))
    with refused(BadMove, "The piece on A5 is Blue's, not yours"):
        await service.play.move(HERE, ANN, read_action("A5-C4"))
    standings = standings_text(await service.standings.current(HERE), WORDS)
    assert "Ann (Green) v Bob (Blue) — in play" in standings
    for text in (line, standings):
        assert "White" not in text and "Black" not in text


async def test_an_open_challenge_names_nobody_and_nobody_can_decline_it(
    service: JarmoService, store: SqliteStore, clock: FakeClock
) -> None:
    new = NewChallenge(
        guild_id=HERE.guild_id,
        channel_id=HERE.channel_id,
        challenger_id=ANN.user_id,
        challenged_id=None,
        options=ChallengeOptions(),
        expires_at=clock() + timedelta(minutes=10),
    )
    posted = await store.challenges.create(new, now=clock())
    view = await service.challenges.view(posted.id)
    assert view.challenged_name == ""
    assert challenge_text(view, WORDS, expires="soon").startswith("Ann challenges anyone to")
    with pytest.raises(NotAllowed):  # nobody was asked, so nobody declines
        await service.challenges.decline(BOB, posted.id)
    with pytest.raises(NotAllowed):  # anyone may accept but its challenger
        await service.challenges.accept(ANN, posted.id)
    assert (await store.challenges.get(posted.id)).status == "pending"


async def test_the_next_ludos_game_names_green(service: JarmoService) -> None:
    await start_match(service, games=2, ruleset="ludos")
    offer = await service.play.offer_stop(HERE, ANN)
    report = await service.play.accept_stop(HERE, BOB, offer)
    assert "Bob has Green now; Bob to move." in report_text(report, WORDS)


async def test_classic_texts_keep_white_and_black(service: JarmoService) -> None:
    board = await start_match(service)
    assert position_line(board, WORDS).startswith("White Ann 5 – 5 Bob Black")
    assert "Ann to move (White)" in position_line(board, WORDS)


async def test_a_ludos_move_list_and_its_caption(service: JarmoService) -> None:
    await start_match(service, ruleset="ludos")
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    await service.play.resign(HERE, BOB)
    (line,) = (await service.stats.history(HERE.guild_id, ANN.user_id)).lines
    export = await service.stats.export_game(HERE.guild_id, line.game.id)
    moves = move_list_text(export.game, export.actions, WORDS, white_name="Ann", black_name="Bob")
    assert "Green: Ann\nBlue: Bob\n" in moves
    assert "  1. Green (Ann): A1-C2" in moves
    caption = export_caption(export)
    assert "Ann (Green) v Bob (Blue), 1 move." in caption


# The board every new game is played on, as the README and the rules call it.
PUBLISHED_BOARD = {
    "en": ("published board", "on the published board"),
    "de": ("veröffentlichtes Brett", "Auf dem veröffentlichten Brett"),
    "eo": ("publikigita tabulo", "sur la publikigita tabulo"),
    "pl": ("opublikowana plansza", "Na opublikowanej planszy"),
}


@pytest.mark.parametrize("language", PUBLISHED_BOARD)
async def test_the_board_has_one_name_in_the_readers_language(
    service: JarmoService, language: str
) -> None:
    name, on_it = PUBLISHED_BOARD[language]
    words = Voice(shared_catalogue(language), name=lambda user_id: NAMES[user_id])
    view = await service.challenges.post(HERE, ANN, ChallengeRequest(BOB, side="white"))
    board = await service.challenges.accept(BOB, view.challenge.id)
    with pytest.raises(BadMove) as no_line:
        await service.play.move(HERE, ANN, read_action("A1-A2"))
    standings = standings_text(await service.standings.current(HERE), words)
    await service.play.resign(HERE, BOB)
    (line,) = (await service.stats.history(HERE.guild_id, ANN.user_id)).lines
    export = await service.stats.export_game(HERE.guild_id, line.game.id)
    texts = {
        "challenge": challenge_text(view, words, expires="soon"),
        "title": game_title(board, words),
        "standings": standings,
        "history": history_option(1, line, words)[1],
        "move list": move_list_text(
            export.game, export.actions, words, white_name="Ann", black_name="Bob"
        ),
    }
    for what, text in texts.items():
        assert name in text, (what, text)
    refusal = refusal_text(no_line.value, words)
    assert on_it in refusal
    for text in (*texts.values(), refusal):
        assert "traditional" not in text  # the layout's identifier, for configuration only


def test_the_console_diagram_of_ludos_says_green_and_blue() -> None:
    game = Game.new(ruleset="ludos")
    text = board_diagram(game.position())
    assert "Green camp" in text and "Blue camp" in text and "Green lost 0" in text
    assert text.splitlines()[5].split()[1:6] == ["G"] * 5


def test_the_parsers_example_is_a_real_line_into_the_enemy_camp() -> None:
    (example,) = re.findall(r"[A-E][1-5]-[A-E][1-5]@[A-E][1-5]", EXPECTED_ACTION)
    assert example == "D3-E5@B1"
    step = tuple(sorted(example[:5].split("-")))
    for layout in ("bow", "knight"):  # the layouts players can choose
        assert step in {tuple(sorted(line)) for line in get_layout(layout).lines}, layout


async def test_your_move_is_never_addressed_to_the_computer(service: JarmoService) -> None:
    service = service.with_computer(ROBOT)
    computer = ComputerOpponent(service, think_in_thread)
    request = ChallengeRequest(ROBOT, side="black", level="easy")
    board = await computer.start(HERE, ANN, request)  # the computer has White
    assert (await report_message(Report(ANN.user_id, None, board)))["content"] is None
    first = await computer.reply(HERE)
    assert first is not None
    message = await report_message(first)
    assert message["content"] == f"<@{ANN.user_id}>, your move."
    # Named, but not pinged: the computer answers while its player is looking.
    assert message["allowed_mentions"].users == []
    moves = await service.play.move_suggestions(HERE, ANN.user_id, "")
    answered = await report_message(await service.play.move(HERE, ANN, read_action(moves[0])))
    assert answered["content"] is None and answered["allowed_mentions"].users == []
