"""Finished tournaments stay on show: a player's placings in their history, the
final table of any finished event by id, and a channel's last final table while the next
event signs up. Whole events played through the service on a real SQLite file."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import timedelta

import pytest

from bot.service import Code, JarmoService, Place, Refusal
from bot.service.errors import NoStats
from bot.service.stats_models import TournamentPlacing
from bot.service.tournaments.draw import Pairing, PlayerId
from bot.service.tournaments.views import TournamentRequest
from bot.words import refusal_text
from tests.fakes import FakeClock
from tests.tournament.event_service import (
    GUILD,
    LOBBY,
    MODERATOR,
    RecordingHost,
    always,
    play_current_round,
    player,
)
from tests.wording import english


def weaker_wins(round_number: int, pairing: Pairing) -> PlayerId | None:
    """The higher id wins; neighbouring ids draw."""
    a, b = pairing.players
    return None if abs(a - b) == 1 else max(a, b)


async def signed_up(service: JarmoService, name: str, players: range, place: Place = LOBBY) -> int:
    request = TournamentRequest(name, "round-robin")
    view = await service.tournaments.create(place, MODERATOR, request, moderator=True)
    for number in players:
        await service.tournaments.join(view.tournament.id, player(number))
    return view.tournament.id


async def play_event(
    service: JarmoService,
    host: RecordingHost,
    name: str,
    players: range,
    decide: Callable[[int, Pairing], PlayerId | None] | None = None,
    place: Place = LOBBY,
) -> int:
    """A whole round robin of ``players`` in ``place``; its id once its final table is out."""
    tournament_id = await signed_up(service, name, players, place)
    await service.tournaments.start(place, MODERATOR, moderator=True, is_member=always)
    tables = len(host.tables)
    while len(host.tables) == tables:
        if decide is None:
            await play_current_round(service, tournament_id)
        else:
            await play_current_round(service, tournament_id, decide)
    return tournament_id


def placings_of(placings: Iterable[TournamentPlacing]) -> list[tuple[str, int, int]]:
    return [(p.tournament.name, p.rank, p.players) for p in placings]


async def test_a_players_finished_tournaments_are_listed_newest_first_with_their_place(
    service: JarmoService, host: RecordingHost, clock: FakeClock
) -> None:
    await play_event(service, host, "Spring cup", range(1, 5))
    clock.advance(timedelta(days=1).total_seconds())
    await play_event(service, host, "Summer cup", range(1, 4), decide=weaker_wins)
    await signed_up(service, "Autumn cup", range(1, 5))  # not played: not listed

    history = service.tournaments.history
    # Spring: the lower id wins (1st to 4th in seed order). Summer: 3 beats 1 and both draw
    # with 2, each has a bye: 3 (5 match points) ahead of 2 (4) ahead of 1 (3).
    assert placings_of(await history.placings(GUILD, 1)) == [
        ("Summer cup", 3, 3),
        ("Spring cup", 1, 4),
    ]
    assert placings_of(await history.placings(GUILD, 4)) == [("Spring cup", 4, 4)]
    assert placings_of(await history.placings(GUILD, 1, limit=1)) == [("Summer cup", 3, 3)]
    assert await history.placings(GUILD + 1, 1) == ()
    assert await history.placings(GUILD, 99) == ()


async def test_the_final_table_of_a_finished_tournament_is_the_one_posted_at_its_end(
    service: JarmoService, host: RecordingHost
) -> None:
    first = await play_event(service, host, "Spring cup", range(1, 5))
    await play_event(service, host, "Summer cup", range(1, 4))

    spring = await service.tournaments.history.final_table(GUILD, first)

    assert spring == host.tables[0] and spring.final
    assert [row.player for row in spring.standings.rows] == [1, 2, 3, 4]


@pytest.mark.parametrize("asked", ["unknown", "elsewhere", "running"])
async def test_a_table_that_is_not_in_this_servers_history_is_refused(
    service: JarmoService, host: RecordingHost, asked: str
) -> None:
    finished = await play_event(service, host, "Spring cup", range(1, 5))
    running = await signed_up(service, "Summer cup", range(1, 5), Place(GUILD, 11))
    await service.tournaments.start(Place(GUILD, 11), MODERATOR, moderator=True, is_member=always)
    guild, tournament_id = {
        "unknown": (GUILD, running + 1),
        "elsewhere": (GUILD + 1, finished),
        "running": (GUILD, running),
    }[asked]

    with pytest.raises(NoStats) as refused:
        await service.tournaments.history.final_table(guild, tournament_id)

    assert refused.value.code == Code.TOURNAMENT_NOT_IN_HISTORY
    assert refused.value.fields == {"tournament": tournament_id}
    assert refusal_text(refused.value, english()) == (
        "That tournament is not in this server's history (it may not have finished yet). "
        "Pick one from /jarmo history."
    )


async def test_standings_show_the_last_final_table_while_the_next_event_signs_up(
    service: JarmoService, host: RecordingHost
) -> None:
    await play_event(service, host, "Spring cup", range(1, 5))
    await play_event(service, host, "Summer cup", range(1, 4))
    await signed_up(service, "Autumn cup", range(1, 3))

    shown = await service.tournaments.standings(LOBBY)

    assert shown == host.tables[1] and shown.tournament.name == "Summer cup" and shown.final


async def test_standings_refuse_a_channel_without_a_table_to_show(service: JarmoService) -> None:
    with pytest.raises(Refusal) as never:
        await service.tournaments.standings(LOBBY)
    await signed_up(service, "Spring cup", range(1, 5))
    with pytest.raises(Refusal) as not_started:
        await service.tournaments.standings(LOBBY)

    assert never.value.code == Code.NO_TOURNAMENT
    assert not_started.value.code == Code.TOURNAMENT_NOT_RUNNING


async def test_the_history_page_carries_the_tournaments_even_without_counted_games(
    service: JarmoService,
) -> None:
    placings: tuple[TournamentPlacing, ...] = ()
    with pytest.raises(NoStats) as refused:
        await service.stats.history(GUILD, 1, tournaments=placings)
    assert refused.value.code == Code.NO_HISTORY

    await signed_up(service, "Spring cup", range(1, 4))
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    # Everyone leaves before a game ends: the event finishes on walkovers, no game counted.
    for number in (1, 2, 3):
        await service.tournaments.leave(LOBBY, player(number))
    await service.tournaments.rounds.advance_all()
    placings = await service.tournaments.history.placings(GUILD, 1)
    page = await service.stats.history(GUILD, 1, tournaments=placings)

    assert page.lines == [] and placings_of(page.tournaments) == [("Spring cup", 1, 3)]
