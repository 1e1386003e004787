"""A damaged game (its stored record cannot be loaded) stays inside its channel: players there
are told privately, a moderator can end it, and background work goes on with everything else."""

from __future__ import annotations

import json
import logging
import sqlite3
from contextlib import closing
from datetime import timedelta
from pathlib import Path

import pytest

from bot.service import Place, read_action
from bot.service.computer import ComputerOpponent
from bot.service.errors import GameDamaged, NotAllowed
from bot.service.models import ChallengeRequest, DamagedGameAborted
from bot.words import refusal_text
from tests.clock.clock_helpers import (
    ANN,
    BOB,
    COMPUTER,
    ELSEWHERE,
    HERE,
    Bot,
    play_one,
    start_match,
)
from tests.fakes import FakeClock
from tests.wording import english

THIRD = Place(guild_id=1, channel_id=12)


def damage(
    db_path: Path, channel_id: int, column: str = "snapshot", value: str = "{not json"
) -> int:
    """Spoil a column of the channel's active game, as a bad disk or hand edit would; its id."""
    with closing(sqlite3.connect(db_path)) as db, db:
        game_id: int
        (game_id,) = db.execute(
            "SELECT id FROM games WHERE channel_id = ? AND status = 'active'", (channel_id,)
        ).fetchone()
        db.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (value, game_id))
    return game_id


def raw_game(db_path: Path, game_id: int) -> tuple[object, ...]:
    with closing(sqlite3.connect(db_path)) as db:
        row: tuple[object, ...] = db.execute(
            "SELECT * FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        return row


async def test_every_command_in_a_damaged_channel_answers_privately(
    bot: Bot, db_path: Path
) -> None:
    await start_match(bot.service, None)
    damage(db_path, HERE.channel_id)
    for attempt in (
        lambda: bot.service.play.board(HERE),
        lambda: play_one(bot.service),
        lambda: bot.service.play.resign(HERE, ANN),
        lambda: bot.service.play.offer_stop(HERE, BOB),
        lambda: bot.service.play.redeploy(HERE, ANN, "B1"),
    ):
        with pytest.raises(GameDamaged) as refused:
            await attempt()
        assert "/jarmo abort" in refusal_text(refused.value, english())
    assert await bot.service.play.move_suggestions(HERE, ANN.user_id, "") == []


async def test_a_moderator_aborts_a_damaged_game_and_the_record_is_kept(
    bot: Bot, db_path: Path
) -> None:
    await start_match(bot.service, "1d")
    await play_one(bot.service)
    game_id = damage(db_path, HERE.channel_id)
    before = raw_game(db_path, game_id)
    with pytest.raises(NotAllowed):
        await bot.service.play.abort(HERE, ANN, can_manage=False)
    assert raw_game(db_path, game_id) == before  # a refusal changes nothing

    aborted = await bot.service.play.abort(HERE, ANN, can_manage=True)
    assert aborted == DamagedGameAborted(game_id, ANN.user_id)
    with closing(sqlite3.connect(db_path)) as db:
        kept, actions = db.execute(
            "SELECT game_row, actions FROM quarantined_games WHERE game_id = ?", (game_id,)
        ).fetchone()
        state = db.execute(
            "SELECT g.status, g.termination, g.rated, m.state FROM games g"
            " JOIN matches m ON m.id = g.match_id WHERE g.id = ?",
            (game_id,),
        ).fetchone()
    assert json.loads(kept)["snapshot"] == "{not json"  # the damaged bytes, as they were
    assert len(json.loads(actions)) == 1
    assert state == ("aborted", "damaged", 0, "aborted")
    # The channel works again: its standings show, and a new match can start.
    assert (await bot.service.standings.current(HERE)).over
    await start_match(bot.service, None)
    assert (await bot.service.play.board(HERE)).game.version == 0


async def test_the_scheduler_skips_a_damaged_game_and_does_not_spin(
    bot: Bot, clock: FakeClock, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    await start_match(bot.service, "1h", place=HERE)
    await start_match(bot.service, "1h", place=ELSEWHERE)
    await start_match(bot.service, "1h", place=THIRD)
    spoilt = damage(db_path, HERE.channel_id)
    damage(db_path, THIRD.channel_id, "deadline_at", "not a time")
    clock.advance(3_600)
    with caplog.at_level(logging.DEBUG, logger="bot"):
        (event,) = await bot.scheduler.run_due(clock.now)
        assert (event.kind, event.channel_id) == ("timeout", ELSEWHERE.channel_id)
        for _ in range(3):  # later passes find nothing to do, and log nothing new at ERROR
            assert await bot.scheduler.run_due(clock.now + timedelta(minutes=1)) == []
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 2, errors  # once per damaged game
    assert any(f"game {spoilt} is damaged" in text for text in errors)
    # Nothing is due: waiting must not return at once for the damaged games' past deadlines.
    assert await bot.scheduler.next_due() is None


async def test_the_computer_catches_up_in_every_healthy_game(bot: Bot, db_path: Path) -> None:
    computer = ComputerOpponent(bot.service, think=first_legal_move)
    for place in (HERE, ELSEWHERE, THIRD):
        request = ChallengeRequest(COMPUTER, side="white")
        await computer.start(place, ANN, request)
        await bot.service.play.move(
            place,
            ANN,
            read_action((await bot.service.play.board(place)).game.engine.legal_moves()[0]),
        )
    damage(db_path, ELSEWHERE.channel_id)
    waiting = await bot.service.computer_turns.awaiting()
    assert sorted(p.channel_id for p in waiting) == [HERE.channel_id, THIRD.channel_id]
    assert await bot.service.computer_turns.to_move(ELSEWHERE) is None


async def first_legal_move(data: dict[str, object], level: str, seed: int) -> str:
    from bot.jarmo import Game

    return Game.from_dict(data).legal_moves()[0]
