"""A pairing's match starts as an accepted challenge does: the same records as a challenge
accepted in the place the venue opened, with the pairing's first player White in game 0."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import pytest

from bot.jarmo import DEFAULT_LAYOUT
from bot.service import ChannelBusy, Code, JarmoService
from bot.service.venues import NewMatch
from bot.store import Store
from tests.fakes import FakeClock
from tests.tournament.event_service import (
    LOBBY,
    MODERATOR,
    RecordingHost,
    always,
    make_service,
    sign_up,
)


async def test_each_pairing_starts_its_match_and_first_game_in_the_place_opened_for_it(
    service: JarmoService, host: RecordingHost, store: Store
) -> None:
    tournament_id = await sign_up(service, 4, format="round-robin", games=4)
    service.kit.signals.deadlines_changed.clear()
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)

    now = service.now()
    tournament = await store.tournaments.get(tournament_id)
    pairings = await store.tournaments.pairings(tournament_id)
    assert host.opened == [(f"P{p.first_id}", f"P{p.second_id}") for p in pairings]
    for place, pairing in enumerate(pairings, start=1001):
        assert pairing.match_id is not None and pairing.second_id is not None
        match = await store.games.match(pairing.match_id)
        assert (match.guild_id, match.channel_id) == (LOBBY.guild_id, place)
        assert (match.first_white_id, match.first_black_id) == (
            pairing.first_id,
            pairing.second_id,
        )
        assert (match.ruleset, match.layout, match.game_count, match.max_plies) == (
            tournament.ruleset,
            DEFAULT_LAYOUT,
            4,
            tournament.max_plies,
        )
        assert match.time_per_move_seconds == tournament.time_per_move_seconds
        assert (match.state, match.winner_id, match.created_at) == ("running", None, now)
        assert match.challenge_id is not None
        challenge = await store.challenges.get(match.challenge_id)
        assert challenge.status == "accepted" and challenge.channel_id == place
        assert (challenge.challenger_id, challenge.challenged_id) == (
            pairing.first_id,
            pairing.second_id,
        )
        (game,) = await store.games.match_games(match.id)
        assert (game.index, game.channel_id, game.status, game.version) == (0, place, "active", 0)
        assert (game.white_id, game.black_id) == (pairing.first_id, pairing.second_id)
        assert (game.engine.ruleset, game.engine.layout.name) == (
            tournament.ruleset,
            DEFAULT_LAYOUT,
        )
        assert game.started_at == now
        assert await store.games.active(place) == game
    # As for an accepted challenge, the deadline job hears of the new games if they are timed.
    timed = tournament.time_per_move_seconds is not None
    assert service.kit.signals.deadlines_changed.is_set() == timed


async def test_a_pairing_whose_place_cannot_open_starts_no_match_until_it_can(
    service: JarmoService, host: RecordingHost, store: Store
) -> None:
    tournament_id = await sign_up(service, 3, format="round-robin")
    host.refuse = True
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    (pairing,) = [p for p in await store.tournaments.pairings(tournament_id) if not p.decided]
    assert pairing.match_id is None and host.opened == []

    host.refuse = False
    await service.tournaments.rounds.advance_all()
    (pairing,) = [p for p in await store.tournaments.pairings(tournament_id) if not p.decided]
    assert pairing.match_id is not None and host.opened
    assert (await store.games.match(pairing.match_id)).channel_id == 1001


@dataclass
class OnePlaceHost(RecordingHost):
    """A venue that offers the same channel for every match while ``broken`` (a faulty front
    end), and then a new one each time."""

    broken: bool = True

    async def open(self, match: NewMatch) -> int | None:
        opened = await super().open(match)
        return 1001 if self.broken else opened


async def test_a_place_that_already_has_a_game_is_refused_as_for_a_challenge(
    store: Store, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    service = make_service(store, clock)
    host = OnePlaceHost()
    service.tournaments.attach(host)
    tournament_id = await sign_up(service, 4, format="round-robin")
    with caplog.at_level(logging.ERROR, "bot.service.tournaments.rounds"):
        await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    # The second board is refused as a challenge would be, and only that board waits.
    (refusal,) = [r.exc_info[1] for r in caplog.records if r.exc_info is not None]
    assert isinstance(refusal, ChannelBusy) and refusal.code == Code.CHANNEL_HAS_GAME
    assert f"tournament {tournament_id}: could not start board 2 of round 1" in caplog.text

    first, second = await store.tournaments.pairings(tournament_id)
    assert first.match_id is not None and second.match_id is None  # one game in 1001 only
    assert (await store.games.match(first.match_id)).channel_id == 1001
    host.broken = False
    await service.tournaments.rounds.advance_all()  # a working venue: the match starts now
    first, second = await store.tournaments.pairings(tournament_id)
    assert second.match_id is not None
    assert (await store.games.match(second.match_id)).channel_id == 1003  # a place of its own
