"""Bad input to tournaments: each is a refusal with its code, and nothing changes."""

from __future__ import annotations

import pytest

from bot.service import Code, JarmoService, NotAllowed, Place, Refusal
from bot.service.tournaments.cases import IsMember
from bot.service.tournaments.views import RoundView, TournamentRequest
from bot.store import EntryRecord, PairingRecord, SqliteStore, TournamentRecord
from tests.tournament.event_service import (
    LOBBY,
    MODERATOR,
    RecordingHost,
    always,
    player,
    sign_up,
)


async def start(service: JarmoService, is_member: IsMember = always) -> RoundView:
    return await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=is_member)


async def snapshot(
    store: SqliteStore, tournament_id: int
) -> tuple[TournamentRecord, list[EntryRecord], list[PairingRecord]]:
    return (
        await store.tournaments.get(tournament_id),
        await store.tournaments.entries(tournament_id),
        await store.tournaments.pairings(tournament_id),
    )


async def test_fewer_than_three_players_cannot_start(
    service: JarmoService, store: SqliteStore, host: RecordingHost
) -> None:
    tournament_id = await sign_up(service, 2, format="swiss")
    before = await snapshot(store, tournament_id)

    with pytest.raises(Refusal) as refused:
        await start(service)

    assert refused.value.code == Code.TOO_FEW_PLAYERS and refused.value.fields["count"] == 2
    assert await snapshot(store, tournament_id) == before and not host.opened


async def test_more_rounds_than_a_round_robin_allows_cannot_start(
    service: JarmoService, store: SqliteStore, host: RecordingHost
) -> None:
    tournament_id = await sign_up(service, 4, format="round-robin", rounds=4)
    before = await snapshot(store, tournament_id)

    with pytest.raises(Refusal) as refused:
        await start(service)

    assert refused.value.code == Code.TOO_MANY_ROUNDS
    assert refused.value.fields == {"rounds": 4, "most": 3, "count": 4}
    assert await snapshot(store, tournament_id) == before and not host.opened


async def test_a_second_tournament_in_one_channel_is_refused_until_the_first_ends(
    service: JarmoService,
) -> None:
    await sign_up(service, 3, format="swiss")
    request = TournamentRequest("Second", "swiss")

    with pytest.raises(Refusal) as refused:
        await service.tournaments.create(LOBBY, MODERATOR, request, moderator=True)

    assert refused.value.code == Code.TOURNAMENT_IN_CHANNEL
    other = Place(LOBBY.guild_id, 11)
    assert (
        await service.tournaments.create(other, MODERATOR, request, moderator=True)
    ).entries == ()


async def test_a_player_who_left_the_server_stops_the_start_by_name(
    service: JarmoService, store: SqliteStore, host: RecordingHost
) -> None:
    tournament_id = await sign_up(service, 4, format="swiss")
    before = await snapshot(store, tournament_id)

    async def gone_three(user_id: int) -> bool:
        return user_id != 3

    with pytest.raises(Refusal) as refused:
        await start(service, gone_three)

    assert refused.value.code == Code.PLAYER_LEFT_SERVER and refused.value.fields == {"name": "P3"}
    assert await snapshot(store, tournament_id) == before and not host.opened
    # A moderator takes them off the list, and then it starts.
    await service.tournaments.leave(LOBBY, MODERATOR, player=3, moderator=True)
    assert (await start(service, gone_three)).number == 1


async def test_join_and_leave_buttons_pressed_after_the_start_are_refused(
    service: JarmoService, store: SqliteStore
) -> None:
    tournament_id = await sign_up(service, 3, format="round-robin")
    await start(service)
    before = await snapshot(store, tournament_id)

    for press in (service.tournaments.join, service.tournaments.unjoin):
        with pytest.raises(Refusal) as refused:
            await press(tournament_id, player(9))
        assert refused.value.code == Code.SIGNUP_CLOSED
    assert await snapshot(store, tournament_id) == before


async def test_only_moderators_create_start_force_or_withdraw_others(service: JarmoService) -> None:
    request = TournamentRequest("Cup", "swiss")
    with pytest.raises(NotAllowed):
        await service.tournaments.create(LOBBY, player(1), request, moderator=False)
    await sign_up(service, 3, format="swiss")
    with pytest.raises(NotAllowed):
        await service.tournaments.start(LOBBY, player(1), moderator=False, is_member=always)
    with pytest.raises(NotAllowed):
        await service.tournaments.leave(LOBBY, player(1), player=2)


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        (TournamentRequest("Cup", "knockout"), Code.BAD_TOURNAMENT_FORMAT),
        (TournamentRequest("Cup", "swiss", games=3), Code.BAD_TOURNAMENT_GAMES),
        (TournamentRequest("Cup", "swiss", rounds=0), Code.BAD_TOURNAMENT_ROUNDS),
        (TournamentRequest("   ", "swiss"), Code.BAD_TOURNAMENT_NAME),
        (TournamentRequest("Cup", "swiss", ruleset="chess"), Code.UNKNOWN_RULESET),
        (TournamentRequest("Cup", "swiss", time_per_move="soon"), Code.BAD_TIME_LIMIT),
    ],
)
async def test_bad_options_are_refused_and_nothing_is_created(
    service: JarmoService, store: SqliteStore, request_: TournamentRequest, code: Code
) -> None:
    with pytest.raises(Refusal) as refused:
        await service.tournaments.create(LOBBY, MODERATOR, request_, moderator=True)

    assert refused.value.code == code
    assert await store.tournaments.latest_in(LOBBY.channel_id) is None


async def test_pairings_of_a_round_not_played_yet_are_refused(service: JarmoService) -> None:
    await sign_up(service, 4, format="swiss")
    await start(service)

    with pytest.raises(Refusal) as refused:
        await service.tournaments.pairings(LOBBY, 2)

    assert refused.value.code == Code.NO_SUCH_ROUND
    assert (await service.tournaments.pairings(LOBBY)).number == 1
