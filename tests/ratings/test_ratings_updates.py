"""Rating updates through the service: who goes up and down, what counts and what does not."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.service import Actor, JarmoService
from bot.service.ratings import new_skill, rate_game
from bot.store import EndedGameStatus, GameEnding, MatchOver, RatingRecord, Skill, SqliteStore
from bot.words import report_text, standings_text
from tests.fakes import FakeClock
from tests.ratings.ratings_helpers import (
    ANN,
    BOB,
    CAT,
    GUILD,
    HERE,
    THERE,
    play_draw,
    play_resign,
    start,
)
from tests.wording import voice


async def find_rating(
    store: SqliteStore, user: Actor, ruleset: str = "classic"
) -> RatingRecord | None:
    for row in await store.ratings.player_ratings(GUILD, user.user_id):
        if row.ruleset == ruleset:
            return row
    return None


async def rating(store: SqliteStore, user: Actor, ruleset: str = "classic") -> RatingRecord:
    """The player's rating in ``ruleset``; the test fails if they have none."""
    row = await find_rating(store, user, ruleset)
    assert row is not None, f"{user.display_name} has no {ruleset} rating"
    return row


def test_model_winner_up_loser_down_and_a_draw_moves_them_closer() -> None:
    start_ = new_skill()
    assert round(start_.rating) == 1000
    white, black = rate_game(start_, start_, "white")
    assert white.rating > start_.rating > black.rating
    assert white.mu > start_.mu > black.mu
    strong, weak = Skill(30.0, 4.0, 0.0), Skill(22.0, 4.0, 0.0)
    after_strong, after_weak = rate_game(strong, weak, None)
    assert after_strong.mu < strong.mu and after_weak.mu > weak.mu
    assert after_strong.mu - after_weak.mu < strong.mu - weak.mu
    assert rate_game(strong, weak, "black") == rate_game(strong, weak, "black")  # deterministic


async def test_a_win_raises_the_winner_and_lowers_the_loser(
    service: JarmoService, store: SqliteStore
) -> None:
    await play_resign(service, winner=ANN, loser=BOB)
    ann, bob = await rating(store, ANN), await rating(store, BOB)
    assert ann.skill.rating > new_skill().rating > bob.skill.rating
    assert (ann.games, ann.wins, ann.losses, ann.match_wins) == (1, 1, 0, 1)
    assert (bob.games, bob.wins, bob.losses, bob.match_wins) == (1, 0, 1, 0)
    history = await store.ratings.history(GUILD, ANN.user_id, "classic", limit=10)
    assert [h.after for h in history] == [ann.skill]
    assert history[0].before == new_skill()


async def test_a_draw_by_agreement_moves_unequal_players_closer(
    service: JarmoService, store: SqliteStore
) -> None:
    await play_resign(service, winner=ANN, loser=BOB)
    ann, bob = await rating(store, ANN), await rating(store, BOB)
    await play_draw(service, ANN, BOB)
    ann2, bob2 = await rating(store, ANN), await rating(store, BOB)
    assert ann2.skill.mu < ann.skill.mu and bob2.skill.mu > bob.skill.mu
    assert (ann2.draws, bob2.draws, ann2.games) == (1, 1, 2)


async def test_ratings_are_kept_per_ruleset(service: JarmoService, store: SqliteStore) -> None:
    await play_resign(service, winner=ANN, loser=BOB, ruleset="classic")
    await play_resign(service, winner=BOB, loser=ANN, ruleset="ludos")
    assert (await rating(store, ANN, "classic")).wins == 1
    assert (await rating(store, ANN, "ludos")).losses == 1
    assert await find_rating(store, ANN, "jasir") is None
    classic = await store.ratings.leaderboard(GUILD, "classic", offset=0, limit=10)
    ludos = await store.ratings.leaderboard(GUILD, "ludos", offset=0, limit=10)
    assert [r.rating.user_id for r in classic] == [ANN.user_id, BOB.user_id]
    assert [r.rating.user_id for r in ludos] == [BOB.user_id, ANN.user_id]


async def test_an_aborted_game_changes_nothing(service: JarmoService, store: SqliteStore) -> None:
    await start(service, ANN, BOB)
    await service.play.abort(HERE, CAT, can_manage=True)
    assert await store.ratings.player_ratings(GUILD, ANN.user_id) == []
    assert await store.ratings.rated_games() == []
    assert (await service.standings.current(HERE)).rating_changes == ()


async def test_resigning_counts_as_a_loss_for_the_one_who_resigned(
    service: JarmoService, store: SqliteStore
) -> None:
    await start(service, ANN, BOB, games=4)  # resigning forfeits the rest of the match
    await service.play.resign(HERE, BOB)
    assert (await rating(store, BOB)).losses == 1
    assert (await rating(store, ANN)).wins == 1
    assert (await rating(store, ANN)).match_wins == 1


async def test_games_against_an_unrated_player_change_no_rating(
    store: SqliteStore, clock: FakeClock
) -> None:
    service = JarmoService(
        store, clock=clock, rng=random.Random(0), unrated_players=frozenset({BOB.user_id})
    )
    await play_resign(service, winner=ANN, loser=BOB)
    assert await store.ratings.player_ratings(GUILD, ANN.user_id) == []
    assert (await store.results.player_stats(GUILD, ANN.user_id)).overall.wins == 1  # still counted


async def test_standings_and_the_final_report_show_the_rating_change(
    service: JarmoService, store: SqliteStore
) -> None:
    report = await play_resign(service, winner=ANN, loser=BOB)
    standings = await service.standings.current(HERE)
    shifts = {s.user_id: s.delta for s in standings.rating_changes}
    assert shifts[ANN.user_id] > 0 > shifts[BOB.user_id]
    text = standings_text(standings, voice({101: "Ann", 202: "Bob"}.get))
    *_, last, note = text.splitlines()
    assert last.startswith("Ratings (classic): ")
    assert f"Ann {round((await rating(store, ANN)).skill.rating)}? (+" in last  # provisional
    assert "Bob" in last and "(−" in last
    assert note.startswith("? marks a provisional rating")
    assert "Ratings (classic)" in report_text(report, voice())


async def test_the_standings_of_a_running_match_show_no_rating_change(
    service: JarmoService,
) -> None:
    await start(service, ANN, BOB, games=2)
    offer = await service.play.offer_stop(HERE, ANN)
    await service.play.accept_stop(HERE, BOB, offer)  # game 1 rated, the match goes on
    assert (await service.standings.current(HERE)).rating_changes == ()


async def test_two_games_of_one_player_ending_at_once_are_both_rated(
    service: JarmoService, store: SqliteStore
) -> None:
    await start(service, ANN, BOB, place=HERE)
    await start(service, ANN, CAT, place=THERE)
    await asyncio.gather(service.play.resign(HERE, ANN), service.play.resign(THERE, ANN))
    ann = await rating(store, ANN)
    assert (ann.games, ann.losses) == (2, 2)
    history = await store.ratings.history(GUILD, ANN.user_id, "classic", limit=10)
    assert history[1].before == history[0].after  # the second started from the first


@pytest.mark.parametrize("status", ["aborted"])
async def test_the_store_refuses_ratings_for_an_aborted_game(
    service: JarmoService, store: SqliteStore, status: EndedGameStatus
) -> None:
    from bot.service.ratings import Ratings

    await start(service, ANN, BOB)
    record = await store.games.active(HERE.channel_id)
    assert record is not None
    match = await store.games.match(record.match_id)
    update = await Ratings().plan(store.ratings, record, match, status="finished", winner="white")
    with pytest.raises(ValueError, match="cannot be rated"):
        await store.games.end(
            record.id,
            GameEnding(
                status=status,
                winner=None,
                points=record.engine.points(),
                termination="aborted",
                game=record.engine,
                then=MatchOver("aborted"),
                ratings=update,
            ),
            expected_version=0,
            now=record.started_at,
        )
    still = await store.games.active(HERE.channel_id)
    assert still is not None and still.id == record.id  # nothing was written
