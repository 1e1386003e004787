"""A server's web page through the service: nothing while the server has it off; its
leaderboards, its own latest games and its tournaments' tables while on; and every position of
one of its ended games, the same as the game's own."""

from __future__ import annotations

import pytest

from bot.service import Code, JarmoService, Place, Refusal, read_action
from bot.service.errors import NoStats, NotAllowed
from tests.ratings.ratings_helpers import ANN, BOB, CAT, GUILD, HERE, play_resign, start
from tests.tournament.event_service import (
    LOBBY,
    MODERATOR,
    RecordingHost,
    always,
    play_current_round,
    sign_up,
)

OTHER_SERVER = Place(2, 20)


async def page_on(service: JarmoService, guild_id: int = GUILD) -> None:
    await service.servers.set_web_pages(guild_id, True, can_manage=True)


async def test_the_page_shows_nothing_until_the_server_turns_it_on_and_after_it_turns_it_off(
    service: JarmoService,
) -> None:
    report = await play_resign(service, winner=ANN, loser=BOB)
    for read in (
        lambda: service.server_pages.overview(GUILD),
        lambda: service.server_pages.replay(GUILD, report.board.game.id),
    ):
        with pytest.raises(NotAllowed) as refused:
            await read()
        assert refused.value.code == Code.WEB_PAGES_OFF
    await page_on(service)
    assert (await service.server_pages.overview(GUILD)).games
    await service.servers.set_web_pages(GUILD, False, can_manage=True)
    with pytest.raises(NotAllowed):
        await service.server_pages.overview(GUILD)


async def test_only_managers_turn_the_page_on(service: JarmoService) -> None:
    with pytest.raises(NotAllowed) as refused:
        await service.servers.set_web_pages(GUILD, True, can_manage=False)
    assert refused.value.code == Code.SETTINGS_NEED_MANAGER
    assert not (await service.servers.settings(GUILD)).web_pages


async def test_the_overview_ranks_the_servers_players_and_lists_its_own_games_newest_first(
    service: JarmoService,
) -> None:
    first = await play_resign(service, winner=ANN, loser=BOB)
    await play_resign(service, winner=ANN, loser=CAT, place=OTHER_SERVER)
    second = await play_resign(service, winner=ANN, loser=CAT)
    await start(service, BOB, CAT)  # in play: not listed
    await page_on(service)
    overview = await service.server_pages.overview(GUILD)

    [classic] = overview.leaderboards  # nobody is rated in ludos here
    assert classic.ruleset == "classic"
    assert (classic.rows[0].rank, classic.rows[0].name) == (1, "Ann")
    assert {row.name for row in classic.rows} == {"Ann", "Bob", "Cat"}
    assert [game.result.id for game in overview.games] == [
        second.board.game.id,
        first.board.game.id,
    ]
    assert overview.games[0].names == {"white": "Cat", "black": "Ann"}
    assert overview.tournaments == ()


async def test_the_overview_shows_a_running_tournaments_table(service: JarmoService) -> None:
    host = RecordingHost()
    service.tournaments.attach(host)
    tournament_id = await sign_up(service, 3, format="round-robin")
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    await play_current_round(service, tournament_id)
    await page_on(service)

    [table] = (await service.server_pages.overview(GUILD)).tournaments
    assert table.tournament.id == tournament_id and table.tournament.status == "running"
    assert len(table.standings.rows) == 3 and table.names[1] == "P1"
    played = [cell for row in table.standings.rows for cell in row.rounds if cell is not None]
    assert {cell.outcome for cell in played} == {"draw", "bye"}  # 1 and 2 draw; 3 sits out


async def test_a_replay_has_every_position_of_the_game_as_it_was_played(
    service: JarmoService,
) -> None:
    await start(service, ANN, BOB)
    for mover, move in ((ANN, "A1-C2"), (BOB, "A5-B3")):
        await service.play.move(HERE, mover, read_action(move))
    report = await service.play.resign(HERE, ANN)
    await page_on(service)

    replay = await service.server_pages.replay(GUILD, report.board.game.id)
    assert replay.moves == ("A1-C2", "A5-B3")
    assert [p.ply for p in replay.positions] == [0, 1, 2]
    assert replay.positions[0].piece_at("A1") is not None
    after_first = replay.positions[1]
    assert after_first.piece_at("A1") is None and after_first.piece_at("C2") is not None
    assert after_first.last is not None and after_first.last.notation == "A1-C2"
    assert replay.game.result.status == "resigned" and replay.game.result.winner == "black"


@pytest.mark.parametrize("whose", ["another server's", "in play", "unknown"])
async def test_a_replay_is_only_of_an_ended_game_of_this_server(
    service: JarmoService, whose: str
) -> None:
    await page_on(service)
    if whose == "another server's":
        game_id = (await play_resign(service, ANN, BOB, place=OTHER_SERVER)).board.game.id
    elif whose == "in play":
        await start(service, ANN, BOB)
        record = await service.kit.store.games.active(HERE.channel_id)
        assert record is not None
        game_id = record.id
    else:
        game_id = 999
    with pytest.raises(NoStats) as refused:
        await service.server_pages.replay(GUILD, game_id)
    assert isinstance(refused.value, Refusal)
    assert refused.value.code == Code.GAME_NOT_IN_HISTORY
