"""Use cases on a real store: challenges, moves, errors that change nothing, match flow."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.service import (
    Actor,
    BadMove,
    ChallengeRequest,
    ChallengeUnavailable,
    ChannelBusy,
    GameChanged,
    JarmoService,
    NoGameHere,
    NotAllowed,
    NotAPlayer,
    NotYourTurn,
    Place,
    Refusal,
    Report,
    StopOffer,
    read_action,
)
from bot.store import SqliteStore
from bot.words import report_text, standings_text
from tests.fakes import FakeClock
from tests.service.service_helpers import ANN, BOB, CAT, HERE, start_match
from tests.wording import refused, voice


async def stored_state(
    store: SqliteStore, place: Place = HERE
) -> tuple[int, dict[str, Any]] | None:
    record = await store.games.active(place.channel_id)
    return None if record is None else (record.version, record.engine.to_dict())


async def test_challenge_accept_starts_game_with_requested_sides(service: JarmoService) -> None:
    view = await start_match(service, side="black")
    assert view.game.white_id == BOB.user_id and view.game.black_id == ANN.user_id
    assert (await view.image.png()).startswith(b"\x89PNG")
    assert view.turn_user_id == BOB.user_id
    assert view.white_name == "Bob" and view.black_name == "Ann"


async def test_challenge_refusals(service: JarmoService) -> None:
    with refused(ChallengeUnavailable, "yourself"):
        await service.challenges.post(HERE, ANN, ChallengeRequest(ANN))
    from bot.service import Actor

    with refused(ChallengeUnavailable, "bot"):
        await service.challenges.post(HERE, ANN, ChallengeRequest(Actor(9, "Robo", is_bot=True)))
    with refused(ChallengeUnavailable, "1, 2, 4 or 6"):
        await service.challenges.post(HERE, ANN, ChallengeRequest(BOB, games=3))
    with refused(ChallengeUnavailable, "ruleset"):
        await service.challenges.post(HERE, ANN, ChallengeRequest(BOB, ruleset="chess"))


async def test_one_challenge_or_game_per_channel(service: JarmoService) -> None:
    view = await service.challenges.post(HERE, ANN, ChallengeRequest(BOB))
    with refused(ChannelBusy, "pending challenge"):
        await service.challenges.post(HERE, CAT, ChallengeRequest(BOB))
    await service.challenges.accept(BOB, view.challenge.id)
    with refused(ChannelBusy, "game in progress"):
        await service.challenges.post(HERE, CAT, ChallengeRequest(ANN))
    other = Place(1, 11)
    assert (
        await service.challenges.post(other, CAT, ChallengeRequest(ANN))
    ).challenge.channel_id == 11


async def test_only_the_challenged_player_answers_and_only_the_challenger_cancels(
    service: JarmoService,
) -> None:
    view = await service.challenges.post(HERE, ANN, ChallengeRequest(BOB))
    with pytest.raises(NotAllowed):
        await service.challenges.accept(CAT, view.challenge.id)
    with pytest.raises(NotAllowed):
        await service.challenges.accept(ANN, view.challenge.id)
    with pytest.raises(NotAllowed):
        await service.challenges.cancel(BOB, view.challenge.id)
    declined = await service.challenges.decline(BOB, view.challenge.id)
    assert declined.challenge.status == "declined"
    with refused(ChallengeUnavailable, "already declined"):
        await service.challenges.accept(BOB, view.challenge.id)


async def test_expired_challenge_cannot_be_accepted(
    service: JarmoService, clock: FakeClock
) -> None:
    view = await service.challenges.post(HERE, ANN, ChallengeRequest(BOB))
    clock.advance(601)
    with refused(ChallengeUnavailable, "expired"):
        await service.challenges.accept(BOB, view.challenge.id)
    # the channel is free again
    await service.challenges.post(HERE, ANN, ChallengeRequest(BOB))


async def test_move_reports_and_persists(service: JarmoService, store: SqliteStore) -> None:
    await start_match(service)
    report = await service.play.move(HERE, ANN, read_action("a1 c2"))
    assert report.action == "A1-C2" and report.ended is None
    assert report.board.turn_user_id == BOB.user_id
    active = await store.games.active(HERE.channel_id)
    assert active is not None and active.engine.history == ["A1-C2"]
    text = report_text(report, voice({101: "@Ann", 202: "@Bob"}.get))
    assert "@Ann played **A1-C2**" in text and "@Bob to move" in text


@pytest.mark.parametrize(
    ("actor", "move", "error", "words"),
    [
        (BOB, "A5-C4", NotYourTurn, "Ann's turn"),
        (CAT, "A1-C2", NotAPlayer, "not playing"),
        (ANN, "A1-A2", BadMove, "No line joins A1 and A2"),
        (ANN, "Z9-A1", BadMove, "Z9"),
        (ANN, "A5-C4", BadMove, "not yours"),
    ],
)
async def test_refused_moves_change_nothing(
    service: JarmoService,
    store: SqliteStore,
    actor: Actor,
    move: str,
    error: type[Refusal],
    words: str,
) -> None:
    await start_match(service)
    before = await stored_state(store)
    with refused(error, words):
        await service.play.move(HERE, actor, read_action(move))
    assert await stored_state(store) == before


async def test_no_game_here(service: JarmoService) -> None:
    with refused(NoGameHere, "/jarmo challenge"):
        await service.play.move(HERE, ANN, read_action("A1-C2"))
    with pytest.raises(NoGameHere):
        await service.play.board(HERE)
    with pytest.raises(NoGameHere):
        await service.standings.current(HERE)


async def test_bad_redeploy_point(service: JarmoService) -> None:
    await start_match(service)
    with refused(BadMove, "B1"):
        await service.play.redeploy(HERE, ANN, "B9")
    with refused(BadMove, "no captured piece"):
        await service.play.redeploy(HERE, ANN, "b1")


async def test_concurrent_moves_for_one_channel_apply_once(
    service: JarmoService, store: SqliteStore
) -> None:
    await start_match(service)
    results = await asyncio.gather(
        service.play.move(HERE, ANN, read_action("A1-C2")),
        service.play.move(HERE, ANN, read_action("B1-D2")),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(applied) == 1 and len(refused) == 1
    assert isinstance(refused[0], NotYourTurn)
    active = await store.games.active(HERE.channel_id)
    assert active is not None and active.version == 1


async def test_autocomplete_offers_only_the_movers_legal_moves(service: JarmoService) -> None:
    await start_match(service)
    moves = await service.play.move_suggestions(HERE, ANN.user_id, "")
    assert moves[:2] == ["A1-B3", "A1-C2"] and len(moves) == 11
    assert await service.play.move_suggestions(HERE, ANN.user_id, "b1") == ["B1-A3", "B1-D2"]
    assert await service.play.move_suggestions(HERE, ANN.user_id, "c1 d") == ["C1-D3"]
    assert await service.play.move_suggestions(HERE, BOB.user_id, "") == []
    assert await service.play.move_suggestions(HERE, CAT.user_id, "") == []


async def play_until_over(service: JarmoService, place: Place = HERE) -> Report:
    """Both players play their first legal move until the current game ends."""
    while True:
        view = await service.play.board(place)
        mover = ANN if view.turn_user_id == ANN.user_id else BOB
        moves = await service.play.move_suggestions(place, mover.user_id, "")
        report = await service.play.move(place, mover, read_action(moves[0]))
        if report.ended:
            return report


async def test_two_game_match_swaps_sides_and_totals(
    service: JarmoService, store: SqliteStore
) -> None:
    await start_match(service, games=2)
    first = await play_until_over(service)
    assert first.next_board is not None
    assert first.next_board.game.white_id == BOB.user_id and first.next_board.game.index == 1
    assert first.standings is not None
    assert first.standings.games_left == 1 and not first.standings.over
    second = await play_until_over(service)
    assert second.standings is not None
    assert second.next_board is None and second.standings.over
    standings = await service.standings.current(HERE)
    first_points, second_points = [line.points_by_player for line in standings.games]
    assert first_points is not None and second_points is not None
    assert standings.totals == {
        uid: first_points[uid] + second_points[uid] for uid in (ANN.user_id, BOB.user_id)
    }
    text = standings_text(standings, voice({101: "Ann", 202: "Bob"}.get))
    assert "Game 2: Bob (White)" in text and "Total: Ann" in text
    assert await store.games.active(HERE.channel_id) is None


async def test_resign_forfeits_the_match(service: JarmoService, store: SqliteStore) -> None:
    await start_match(service, games=4)
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    report = await service.play.resign(HERE, ANN)
    assert report.ended is not None
    assert report.ended.status == "resigned" and report.ended.winner_id == BOB.user_id
    assert report.standings is not None
    assert report.standings.over and report.standings.winner_id == BOB.user_id
    assert report.standings.match.state == "forfeited" and report.next_board is None
    assert await store.games.active(HERE.channel_id) is None
    bob = await store.results.player_stats(1, BOB.user_id)
    assert (bob.overall.wins, bob.match_wins) == (1, 1)


async def test_agreed_stop_scores_the_game_and_continues_the_match(service: JarmoService) -> None:
    await start_match(service, games=2)
    offer = await service.play.offer_stop(HERE, ANN)
    assert offer == StopOffer(offer.game_id, 0, ANN.user_id, BOB.user_id)
    with pytest.raises(NotAllowed):
        await service.play.accept_stop(HERE, ANN, offer)
    report = await service.play.accept_stop(HERE, BOB, offer)
    assert report.ended is not None
    assert report.ended.status == "stopped" and report.ended.winner_id is None  # 5 v 5
    assert report.next_board is not None


async def test_stale_stop_offer_is_refused(service: JarmoService) -> None:
    await start_match(service)
    offer = await service.play.offer_stop(HERE, ANN)
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    with refused(GameChanged, "offer again"):
        await service.play.accept_stop(HERE, BOB, offer)


async def test_abort_needs_permission_and_counts_for_nobody(
    service: JarmoService, store: SqliteStore
) -> None:
    await start_match(service, games=2)
    with refused(NotAllowed, "manage"):
        await service.play.abort(HERE, CAT, can_manage=False)
    report = await service.play.abort(HERE, CAT, can_manage=True)
    assert isinstance(report, Report)  # not a damaged game
    assert report.standings is not None
    assert report.ended is not None
    assert report.ended.status == "aborted" and report.standings.match.state == "aborted"
    assert await store.games.active(HERE.channel_id) is None
    assert (await store.results.player_stats(1, ANN.user_id)).overall.games == 0


async def test_board_from_the_viewers_side(service: JarmoService) -> None:
    await start_match(service)
    white_view = await service.play.board(HERE, viewer_id=ANN.user_id)
    black_view = await service.play.board(HERE, viewer_id=BOB.user_id)
    white_image = await white_view.image.png()
    assert white_image != await black_view.image.png()
    onlooker_view = await service.play.board(HERE, viewer_id=CAT.user_id)
    assert await onlooker_view.image.png() == white_image
