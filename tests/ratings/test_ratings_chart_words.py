"""The rating chart and the replay are drawn in the words the front end passes: the service
holds no wording of its own (the chart's title included)."""

from __future__ import annotations

from bot.render import ResultBanner, render_rating_chart, render_replay
from bot.service import JarmoService
from bot.store import SqliteStore
from bot.words import image_words, shared_catalogue
from tests.ratings.ratings_helpers import ANN, BOB, GUILD, play_resign

GERMAN = image_words(shared_catalogue("de"))


async def test_the_chart_and_its_title_speak_the_readers_language(service: JarmoService) -> None:
    await play_resign(service, winner=ANN, loser=BOB)
    await play_resign(service, winner=ANN, loser=BOB)
    english = await service.stats.profile(GUILD, ANN.user_id, viewer_id=BOB.user_id)
    german = await service.stats.profile(GUILD, ANN.user_id, viewer_id=BOB.user_id, words=GERMAN)
    assert english.chart == render_rating_chart(english.trend, title="Ann · classic rating")
    title = GERMAN.chart_title.format(name="Ann", ruleset="classic")
    assert german.chart == render_rating_chart(german.trend, title=title, words=GERMAN)
    assert german.chart != english.chart


async def test_the_replay_speaks_the_readers_language(
    service: JarmoService, store: SqliteStore
) -> None:
    await play_resign(service, winner=ANN, loser=BOB)
    [game] = await store.results.recent_games(GUILD, ANN.user_id, limit=1)
    export = await service.stats.export_game(GUILD, game.id, words=GERMAN)
    record = await store.games.get(game.id)
    banner = ResultBanner("resigned", "black", record.engine.points())
    expected = render_replay(record.engine, players=("Bob", "Ann"), result=banner, words=GERMAN)
    assert export.gif == expected
