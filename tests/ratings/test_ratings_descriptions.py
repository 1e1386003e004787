"""The alternative text of a game's replay and of a rating chart: what a screen reader says in
place of the picture."""

from __future__ import annotations

from bot.service import JarmoService, read_action
from bot.store import SqliteStore
from bot.words import shared_catalogue
from bot.words.descriptions import chart_description, replay_description
from bot.words.voice import Voice
from tests.ratings.ratings_helpers import ANN, BOB, GUILD, HERE, play_resign, start
from tests.wording import voice


async def test_a_replay_is_described_by_its_game_players_length_and_score(
    service: JarmoService, store: SqliteStore
) -> None:
    await start(service, ANN, BOB)
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    await service.play.resign(HERE, BOB)
    game_id = (await store.results.recent_games(GUILD, ANN.user_id, limit=1))[0].id
    export = await service.stats.export_game(GUILD, game_id)
    points = export.game.points
    text = replay_description(export, voice())
    assert text == (
        f"Animated replay of game {game_id}, move by move: Ann (White) against Bob (Black), "
        f"1 move, final score {points['white']}–{points['black']}."
    )
    polish = replay_description(export, Voice(shared_catalogue("pl"), str))
    assert "Ann" in polish and "Bob" in polish and "Animated" not in polish


async def test_a_rating_chart_is_described_by_its_course(service: JarmoService) -> None:
    await play_resign(service, winner=ANN, loser=BOB)
    await play_resign(service, winner=ANN, loser=BOB)
    profile = await service.stats.profile(GUILD, ANN.user_id, viewer_id=BOB.user_id)
    first, last = round(profile.trend[0]), round(profile.trend[-1])
    assert chart_description(profile, voice()) == (
        f"Ann's classic rating over 2 games, from {first} to {last}."
    )
    assert last > first
