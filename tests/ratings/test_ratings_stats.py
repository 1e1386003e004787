"""/jarmo stats and /jarmo history through the service: profiles, streaks, exports, the chart."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render import render_rating_chart
from bot.service import JarmoService, read_action
from bot.service.errors import NoStats
from bot.service.models import Place
from bot.service.stats_models import Viewer
from bot.store import SqliteStore
from bot.words import history_option, history_text, move_list_text, profile_text
from tests.ratings.ratings_helpers import ANN, BOB, CAT, GUILD, HERE, play_draw, play_resign, start
from tests.wording import refused, voice


async def test_a_player_without_games_gets_a_friendly_message(service: JarmoService) -> None:
    await service.kit.names(GUILD, CAT.user_id)
    with refused(NoStats, "has not finished a game on this server yet"):
        await service.stats.profile(GUILD, CAT.user_id, viewer_id=ANN.user_id)
    with refused(NoStats, "no finished games"):
        await service.stats.history(GUILD, CAT.user_id)


async def test_profile_by_side_streak_head_to_head_and_chart(service: JarmoService) -> None:
    await play_resign(service, winner=ANN, loser=BOB)  # Bob White, resigns
    await play_resign(service, winner=ANN, loser=BOB)
    await play_draw(service, ANN, BOB)  # Ann White
    await play_resign(service, winner=CAT, loser=ANN)  # Ann White, loses
    profile = await service.stats.profile(GUILD, ANN.user_id, viewer_id=BOB.user_id)
    stats = profile.stats
    assert (stats.as_white.games, stats.as_white.draws, stats.as_white.losses) == (2, 1, 1)
    assert (stats.as_black.games, stats.as_black.wins) == (2, 2)
    assert (stats.matches, stats.match_wins, stats.match_losses) == (4, 2, 1)
    assert (stats.streak.result, stats.streak.length) == ("loss", 1)
    assert profile.head_to_head is not None
    assert (profile.head_to_head.wins, profile.head_to_head.draws) == (2, 1)
    assert [r.rating.ruleset for r in profile.ratings] == ["classic"]
    assert profile.trend_ruleset == "classic" and len(profile.trend) == 5
    assert profile.trend[0] == pytest.approx(1000.0)
    assert profile.chart is not None and profile.chart.startswith(b"\x89PNG")
    text = profile_text(profile, voice(lambda uid: f"<{uid}>"))
    assert "**As White** (Green in ludos): 2 games · 0W 1D 1L" in text
    assert "**Against <202>**: 3 games · 2W 1D 0L" in text
    assert "computer do not change ratings" in text
    own = await service.stats.profile(GUILD, ANN.user_id, viewer_id=ANN.user_id)
    assert own.head_to_head is None


async def test_streaks_count_equal_results_newest_first(
    service: JarmoService, store: SqliteStore
) -> None:
    for _ in range(3):
        await play_resign(service, winner=BOB, loser=ANN)
    stats = await store.results.player_stats(GUILD, BOB.user_id)
    assert (stats.streak.result, stats.streak.length) == ("win", 3)


async def test_history_lists_recent_games_and_filters_by_opponent(service: JarmoService) -> None:
    await play_resign(service, winner=ANN, loser=BOB)
    await play_resign(service, winner=CAT, loser=ANN)
    page = await service.stats.history(GUILD, ANN.user_id)
    assert [line.opponent_id for line in page.lines] == [CAT.user_id, BOB.user_id]  # newest first
    assert [line.result for line in page.lines] == ["loss", "win"]
    text = history_text(page, voice(date=lambda t: f"<t:{int(t.timestamp())}:d>"))
    assert "<t:" in text and "classic" in text and "**Lost**" in text
    label, description = history_option(1, page.lines[0], voice())
    assert "classic" in description
    assert label.startswith("1. Lost") and "Cat" in label and len(label) <= 100
    only_bob = await service.stats.history(GUILD, ANN.user_id, BOB.user_id)
    assert [line.opponent_id for line in only_bob.lines] == [BOB.user_id]


async def test_exporting_a_game_gives_its_moves_and_replay(
    service: JarmoService, store: SqliteStore
) -> None:
    await start(service, ANN, BOB)
    await service.play.move(HERE, ANN, read_action("A1-C2"))
    await service.play.resign(HERE, BOB)
    game_id = (await store.results.recent_games(GUILD, ANN.user_id, limit=1))[0].id
    export = await service.stats.export_game(GUILD, game_id)
    assert export.text_filename == f"game-{game_id}.txt"
    moves = move_list_text(export.game, export.actions, voice(), white_name="Ann", black_name="Bob")
    assert "  1. White (Ann): A1-C2" in moves.splitlines()
    assert "Result: Ann wins" in moves and "resignation" in moves
    assert export.gif.startswith(b"GIF8")
    with pytest.raises(NoStats):
        await service.stats.export_game(GUILD + 1, game_id)  # another server's game
    with pytest.raises(NoStats):
        await service.stats.export_game(GUILD, 9999)


async def test_an_active_game_cannot_be_exported(service: JarmoService, store: SqliteStore) -> None:
    await start(service, ANN, BOB)
    record = await store.games.active(HERE.channel_id)
    with refused(NoStats, "still be in play"):
        assert record is not None
        await service.stats.export_game(GUILD, record.id)


def test_game_text_of_a_game_without_moves(service: JarmoService) -> None:
    from datetime import UTC, datetime

    from bot.store import GameResultRecord

    game = GameResultRecord(
        id=7, match_id=1, index=0, guild_id=1, channel_id=2, ruleset="classic", layout="bow",
        white_id=1, black_id=2, status="stopped", winner=None, points={"white": 5, "black": 5},
        termination="stopped", plies=0, rated=True, finished_at=datetime(2026, 1, 2, tzinfo=UTC),
    )  # fmt: skip
    text = move_list_text(game, [], voice(), white_name="Ann", black_name="Bob")
    assert "Result: draw, 5–5 (agreement to stop)" in text and "(no moves were played)" in text


def test_the_rating_chart_is_a_valid_and_repeatable_png() -> None:
    values = [1000.0, 1068.4, 1031.2, 1099.9, 1120.0]
    first = render_rating_chart(values, title="Ann · classic rating")
    assert first == render_rating_chart(values, title="Ann · classic rating")
    image = Image.open(io.BytesIO(first))
    image.verify()
    assert image.format == "PNG" and image.size == (560, 220)
    assert render_rating_chart([1000.0, 1000.0]) != first  # flat lines draw too
    with pytest.raises(ValueError):
        render_rating_chart([1000.0])


async def test_outside_servers_a_history_shows_only_the_games_its_viewer_may_see(
    service: JarmoService,
) -> None:
    group_dm = Place(guild_id=None, channel_id=50)
    result = await play_resign(service, winner=ANN, loser=BOB, place=group_dm)
    game_id = result.board.game.id
    outsider = Viewer(CAT.user_id, channel_id=60)  # another DM: this game is none of hers
    with refused(NoStats, "no finished games"):
        await service.stats.history(None, ANN.user_id, viewer=outsider)
    with pytest.raises(NoStats):
        await service.stats.export_game(None, game_id, viewer=outsider)
    for viewer in (Viewer(CAT.user_id, channel_id=50), Viewer(BOB.user_id, channel_id=60)):
        page = await service.stats.history(None, ANN.user_id, viewer=viewer)
        assert [line.game.id for line in page.lines] == [game_id]
        assert (await service.stats.export_game(None, game_id, viewer=viewer)).game.id == game_id
