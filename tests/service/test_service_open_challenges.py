"""Open challenges in the service: posting one to anyone, with or without a rating range; who
may accept it; the range's text; and two accepts at once giving one game."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as some

from bot.service import ChallengeRequest, JarmoService
from bot.service.challenges import parse_rating_range
from bot.service.errors import ChallengeUnavailable, ChannelBusy, NotAllowed
from bot.store import RatingRange, RatingTables, SqliteStore
from bot.words import challenge_text
from tests.fakes import FakeClock
from tests.ratings.ratings_helpers import rating_row
from tests.service.service_helpers import ANN, BOB, CAT, GUILD, HERE
from tests.wording import english, refused


def anyone(rating_range: str | None = None, **options: object) -> ChallengeRequest:
    return ChallengeRequest(None, rating_range=rating_range, **options)  # type: ignore[arg-type]  # the test's options


async def test_an_open_challenge_names_nobody_and_anyone_may_accept(
    service: JarmoService,
) -> None:
    posted = await service.challenges.post(HERE, ANN, anyone(side="white"))
    assert posted.challenge.challenged_id is None and posted.challenge.rating_range is None
    text = challenge_text(posted, english({ANN.user_id: "Ann"}), expires="soon")
    assert "challenges anyone to a game" in text
    board = await service.challenges.accept(CAT, posted.challenge.id)
    assert (board.game.white_id, board.game.black_id) == (ANN.user_id, CAT.user_id)
    assert (await service.challenges.view(posted.challenge.id)).challenged_name == "Cat"


async def test_the_challenger_cannot_accept_their_own(service: JarmoService) -> None:
    posted = await service.challenges.post(HERE, ANN, anyone())
    with refused(NotAllowed, "your own challenge"):
        await service.challenges.accept(ANN, posted.challenge.id)
    assert (await service.challenges.view(posted.challenge.id)).challenge.status == "pending"


async def test_a_rating_range_limits_who_may_accept(
    service: JarmoService, store: SqliteStore
) -> None:
    await store.ratings.replace(
        RatingTables([rating_row(BOB.user_id, 1412.4, 3)], []), expected_games=0
    )
    posted = await service.challenges.post(HERE, ANN, anyone("1000-1300", ruleset="classic"))
    assert posted.challenge.rating_range == RatingRange(1000, 1300)
    text = challenge_text(posted, english({ANN.user_id: "Ann"}), expires="soon")
    assert "anyone rated 1000-1300" in text
    with refused(NotAllowed, r"rated 1000-1300 in classic; your rating here is 1412"):
        await service.challenges.accept(BOB, posted.challenge.id)
    assert (await service.challenges.view(posted.challenge.id)).challenge.status == "pending"
    # Cat has no rated game: she counts at the starting rating, 1000, inside the range.
    board = await service.challenges.accept(CAT, posted.challenge.id)
    assert CAT.user_id in (board.game.white_id, board.game.black_id)


async def test_a_new_player_counts_at_1000(service: JarmoService) -> None:
    posted = await service.challenges.post(HERE, ANN, anyone("1100-1300"))
    with refused(NotAllowed, "your rating here is 1000"):
        await service.challenges.accept(CAT, posted.challenge.id)


async def test_a_rating_elsewhere_does_not_count(service: JarmoService, store: SqliteStore) -> None:
    rows = [rating_row(BOB.user_id, 1200.0, 3, guild=GUILD + 1)]
    await store.ratings.replace(RatingTables(rows, []), expected_games=0)
    posted = await service.challenges.post(HERE, ANN, anyone("1100-1300"))
    with refused(NotAllowed, "your rating here is 1000"):
        await service.challenges.accept(BOB, posted.challenge.id)


@pytest.mark.parametrize("text", ["abc", "1300-1000", "-5-20", "1000", "1000-", "10-20-30", ""])
async def test_a_rating_range_that_is_not_a_range_is_refused(
    service: JarmoService, text: str
) -> None:
    with refused(ChallengeUnavailable, "is not a rating range"):
        await service.challenges.post(HERE, ANN, anyone(text))
    assert await service.challenges.expire_overdue() == []
    posted = await service.challenges.post(HERE, ANN, anyone())  # the channel is still free
    assert posted.challenge.challenged_id is None


async def test_a_rating_range_needs_an_open_challenge(service: JarmoService) -> None:
    with refused(ChallengeUnavailable, "only for a challenge to anyone"):
        await service.challenges.post(HERE, ANN, ChallengeRequest(BOB, rating_range="1000-1300"))


async def test_a_channel_still_holds_one_pending_challenge(service: JarmoService) -> None:
    await service.challenges.post(HERE, ANN, anyone())
    with pytest.raises(ChannelBusy):
        await service.challenges.post(HERE, BOB, anyone())


async def test_an_open_challenge_expires_like_any(service: JarmoService, clock: FakeClock) -> None:
    posted = await service.challenges.post(HERE, ANN, anyone())
    clock.advance(601)
    with refused(ChallengeUnavailable, "expired"):
        await service.challenges.accept(BOB, posted.challenge.id)
    assert (await service.challenges.view(posted.challenge.id)).challenge.status == "expired"


async def test_two_accepts_at_once_give_one_game(service: JarmoService) -> None:
    posted = await service.challenges.post(HERE, ANN, anyone())
    results = await asyncio.gather(
        service.challenges.accept(BOB, posted.challenge.id),
        service.challenges.accept(CAT, posted.challenge.id),
        return_exceptions=True,
    )
    lost = [result for result in results if isinstance(result, ChallengeUnavailable)]
    assert len(lost) == 1, results
    with refused(ChallengeUnavailable, "already accepted"):
        raise lost[0]
    accepted = await service.challenges.view(posted.challenge.id)
    assert accepted.challenge.challenged_id in (BOB.user_id, CAT.user_id)


@given(lowest=some.integers(0, 99999), highest=some.integers(0, 99999), spaced=some.booleans())
def test_two_ratings_lowest_first_read_as_their_range(
    lowest: int, highest: int, spaced: bool
) -> None:
    text = f"{lowest} - {highest}" if spaced else f"{lowest}-{highest}"
    if lowest <= highest:
        assert parse_rating_range(text) == RatingRange(lowest, highest)
    else:
        with pytest.raises(ChallengeUnavailable):
            parse_rating_range(text)


@given(some.text(max_size=20))
def test_any_text_is_a_range_or_refused(text: str) -> None:
    try:
        limits = parse_rating_range(text)
    except ChallengeUnavailable as refusal:
        assert refusal.fields == {"text": text}
    else:
        assert 0 <= limits.lowest <= limits.highest <= 99999


def test_an_en_dash_reads_as_a_dash() -> None:
    assert parse_rating_range("1000–1300") == RatingRange(1000, 1300)
