"""The review's Discord pieces without Discord: the history picker's review options within the
25 a picker holds, the Review button's custom id, and the review message within Discord's
limits."""

from __future__ import annotations

from datetime import UTC, datetime
from unittest import mock

import discord
import pytest

from bot.ai.review import GameReview, Label, MoveReview
from bot.cogs import DYNAMIC_ITEMS
from bot.cogs.review import ReviewButton, review_message, send_review
from bot.cogs.stats import REVIEW_VALUE, TOURNAMENT_VALUE, HistoryPicker
from bot.jarmo import Game
from bot.service._views import board_picture
from bot.service.reviews import ReviewView, TurningPoint
from bot.service.stats_models import HistoryLine, HistoryPage, TournamentPlacing
from bot.store import GameResultRecord, TournamentRecord

ENDED = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def game(game_id: int) -> HistoryLine:
    record = GameResultRecord(
        id=game_id, match_id=game_id, index=0, guild_id=1, channel_id=10, ruleset="classic",
        layout="bow", white_id=5, black_id=6, status="finished", winner="white",
        points={"white": 5, "black": 3}, termination="camp", plies=40, rated=True,
        finished_at=ENDED,
    )  # fmt: skip
    return HistoryLine(record, 5, 6, "Bob", "win")


def cup(tournament_id: int) -> TournamentPlacing:
    record = TournamentRecord(
        id=tournament_id, guild_id=1, channel_id=10, organiser_id=99, name="Cup",
        format="swiss", rounds=0, game_count=2, ruleset="classic", layout="bow", max_plies=200,
        time_per_move_seconds=None, status="finished", current_round=3, message_id=None,
        created_at=ENDED, finished_at=ENDED,
    )  # fmt: skip
    return TournamentPlacing(record, 1, 8)


def test_the_picker_offers_a_review_of_each_game_it_has_room_for() -> None:
    games = [game(n) for n in range(1, 11)]
    alone = HistoryPicker(HistoryPage(1, 5, "Ann", None, games), guild_id=1, user_id=5,
                          opponent_id=None)  # fmt: skip
    values = [o.value for o in alone.item.options]
    assert values == [str(n) for n in range(1, 11)] + [f"{REVIEW_VALUE}{n}" for n in range(1, 11)]
    assert alone.item.options[10].label.startswith("Review: 1. Won 5–3 v Bob")

    tournaments = tuple(cup(n) for n in range(1, 11))
    full = HistoryPicker(HistoryPage(1, 5, "Ann", None, games, tournaments), guild_id=1,
                         user_id=5, opponent_id=None)  # fmt: skip
    values = [o.value for o in full.item.options]
    assert len(values) == 25  # a picker's limit: the reviews give way to the tournaments
    assert values[10:15] == [f"{REVIEW_VALUE}{n}" for n in range(1, 6)]
    assert values[15:] == [f"{TOURNAMENT_VALUE}{n}" for n in range(1, 11)]


def test_the_review_button_survives_a_restart() -> None:
    button = ReviewButton(42)
    assert ReviewButton in DYNAMIC_ITEMS
    assert button.item.custom_id is not None
    found = ReviewButton.__discord_ui_compiled_template__.fullmatch(button.item.custom_id)
    assert found is not None and found["game"] == "42"


async def test_a_long_review_fits_one_message() -> None:
    frames = [Game.new()]
    moves = []
    while frames[-1].ply < 200 and not frames[-1].over:  # the longest game the rules allow
        after = frames[-1].copy()
        after.play(after.legal_moves()[0])
        frames.append(after)
        moves.append(
            MoveReview(after.ply, frames[-2].turn, after.history[-1], Label.BLUNDER, 0.3,
                       "A1-C2", 0.5)
        )  # fmt: skip
    judged = GameReview(tuple(moves), 0.5, {"white": 40, "black": 40}, (3, 5, 7))
    picture = board_picture(frames[3], perspective="white", players=("Ann", "Bob"))
    turning = tuple(TurningPoint(ply, picture) for ply in (3, 5, 7))
    view = ReviewView(1, 1, "classic", 5, 6, ("A" * 32, "B" * 32), judged, turning)
    message = await review_message(view, None)
    embeds = [embed.to_dict() for embed in message["embeds"]]
    total = sum(len(e.get("title", "")) + len(e.get("description", "")) for e in embeds)
    assert len(embeds) == 4 and total <= 6000
    assert all(len(e.get("description", "")) <= 4096 for e in embeds)
    assert len(message["attachments"]) == 4
    assert all(len(f.description or "") <= 1024 for f in message["attachments"])


async def test_a_review_that_fails_says_so_in_its_message() -> None:
    reviews = mock.Mock()
    reviews.check = mock.AsyncMock(return_value=None)
    reviews.review = mock.AsyncMock(side_effect=RuntimeError("the search pool broke"))
    interaction = mock.create_autospec(discord.Interaction, instance=True)
    interaction.client = mock.Mock()
    interaction.client.service.reviews = reviews
    interaction.guild_id = 1
    interaction.locale = interaction.guild_locale = discord.Locale.british_english
    interaction.response = mock.create_autospec(discord.InteractionResponse, instance=True)

    with pytest.raises(RuntimeError):  # the tree apologises privately and logs it
        await send_review(interaction, 42, private=True)

    interaction.response.send_message.assert_awaited_once()
    edits = interaction.edit_original_response.await_args_list
    assert edits[-1].kwargs["content"].startswith("The review could not be finished.")
