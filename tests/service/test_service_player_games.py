"""A player's unfinished games in every server (``service.player_games``): their moves first,
soonest deadline first, the opponent and the match's score, ten a page."""

from __future__ import annotations

from datetime import timedelta

from bot.service import ChallengeRequest, JarmoService, Place
from bot.service.player_games import PAGE_SIZE
from tests.service.service_helpers import ANN, BOB, CAT


async def _match(service: JarmoService, place: Place, *, side: str, time: str | None = None) -> int:
    request = ChallengeRequest(BOB, games=2, side=side, time_per_move=time)
    view = await service.challenges.post(place, ANN, request)
    return (await service.challenges.accept(BOB, view.challenge.id)).game.id


async def test_their_moves_first_by_soonest_deadline_across_servers(
    service: JarmoService,
) -> None:
    waiting_long = await _match(service, Place(1, 10), side="white", time="3d")
    not_mine = await _match(service, Place(2, 20), side="black", time="1d")
    waiting_soon = await _match(service, Place(3, 30), side="white", time="1h")
    untimed = await _match(service, Place(4, 40), side="white")

    page = await service.player_games.page(ANN.user_id)

    assert [line.game_id for line in page.lines] == [waiting_soon, waiting_long, untimed, not_mine]
    assert [line.guild_id for line in page.lines] == [3, 1, 4, 2]
    assert (page.total, page.waiting, page.pages) == (4, 3, 1)
    first = page.lines[0]
    assert (first.opponent_id, first.opponent_name, first.ruleset) == (
        BOB.user_id,
        "Bob",
        "classic",
    )
    assert (first.game_number, first.game_count, first.score, first.to_move) == (1, 2, (0, 0), True)
    assert first.time_left == timedelta(hours=1)
    assert page.lines[2].time_left is None
    assert not page.lines[3].to_move
    assert [line.to_move for line in (await service.player_games.page(BOB.user_id)).lines] == [
        True, False, False, False,
    ]  # fmt: skip


async def test_only_the_servers_asked_for_and_pages_of_ten(service: JarmoService) -> None:
    for guild in range(1, 13):
        await _match(service, Place(guild, guild * 10), side="white")

    first = await service.player_games.page(ANN.user_id)
    last = await service.player_games.page(ANN.user_id, page=5)
    some = await service.player_games.page(ANN.user_id, servers={2, 3})

    assert (first.pages, len(first.lines), first.total) == (2, PAGE_SIZE, 12)
    assert (last.page, len(last.lines)) == (1, 2)
    assert {line.guild_id for line in some.lines} == {2, 3}
    assert (await service.player_games.page(CAT.user_id)).empty
