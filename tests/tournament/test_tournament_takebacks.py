"""Tournament games allow no takebacks: the request is refused and nothing changes."""

from __future__ import annotations

from bot.service import JarmoService, NotAllowed, Place, read_action
from bot.store import SqliteStore
from tests.tournament.event_service import GUILD, LOBBY, MODERATOR, always, player, sign_up
from tests.wording import refused


async def test_a_takeback_in_a_tournament_game_is_refused(
    service: JarmoService, store: SqliteStore
) -> None:
    tournament_id = await sign_up(service, 4, format="round-robin")
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    pairing = next(p for p in await store.tournaments.pairings(tournament_id) if p.match_id)
    assert pairing.match_id is not None
    match = await store.games.match(pairing.match_id)
    here = Place(GUILD, match.channel_id)
    game = await store.games.active(match.channel_id)
    assert game is not None
    white = player(game.white_id)
    await service.play.move(here, white, read_action(game.engine.legal_moves()[0]))
    before = await store.games.active(match.channel_id)
    with refused(NotAllowed, "tournament games"):
        await service.takebacks.ask(here, white)
    assert await store.games.active(match.channel_id) == before
