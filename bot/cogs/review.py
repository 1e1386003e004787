"""Game reviews in Discord: ``/jarmo review`` (the channel's last finished game), the Review
button under the message that ends a game, and the history picker's review option.

One message answers: it says how far the review is (edited as positions are searched, a few
times a second at most), then becomes the review: the evaluation graph, each player's accuracy,
the move list with the better moves, and the three turning points with their boards.
"""

from __future__ import annotations

import asyncio
import io
import time
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.audience import channel_language
from bot.cogs.guards import place_of
from bot.cogs.items import JarmoItem
from bot.cogs.replies import EMBED_COLOUR, only_pinging
from bot.cogs.review_offer import REVIEW_ID, review_button
from bot.cogs.words import discord_voice, picture_words, reader_language
from bot.jarmo import side_name
from bot.render import render_review_graph
from bot.service.reviews import Label, ReviewView
from bot.words.review import (
    graph_description,
    review_failed,
    review_moves_text,
    review_progress,
    review_starting,
    review_summary,
    review_title,
    turning_point_caption,
)

if TYPE_CHECKING:
    from bot.client import JarmoBot

#: The least time between two progress edits of one message (Discord limits edits per channel).
PROGRESS_EVERY_SECONDS = 1.0
#: The move list's share of the 6000 characters a message's embeds may hold in all.
MOVE_LIST_LIMIT = 3500
GRAPH_FILE = "review.png"


async def send_review(
    interaction: discord.Interaction[JarmoBot], game_id: int, *, private: bool
) -> None:
    """Answer ``interaction`` with the review of ``game_id``: a message edited with progress,
    then with the review. A refusal comes before any answer, so the tree answers it privately."""
    service = interaction.client.service
    place = place_of(interaction)
    await service.reviews.check(place, game_id)
    language = reader_language(interaction) if private else await channel_language(interaction)
    voice = discord_voice(language)
    await interaction.response.send_message(
        review_starting(voice), ephemeral=private, allowed_mentions=only_pinging()
    )
    edits = _ProgressEdits(interaction, language)
    try:
        view = await service.reviews.review(place, game_id, progress=edits)
    except Exception:
        # The answer is already public and says a review is under way: it must not stay so.
        # The tree then apologises privately and logs the failure.
        await edits.settle()
        await interaction.edit_original_response(content=review_failed(voice))
        raise
    await edits.settle()
    message = await review_message(view, language)
    await interaction.edit_original_response(**message)


async def review_message(view: ReviewView, language: str | None) -> dict[str, Any]:
    """Keyword arguments for the edit that shows ``view``: embeds and their images."""
    voice = discord_voice(language)
    words = picture_words(language)
    marks = {
        move.ply: move.label.value
        for move in view.review.moves
        if move.label in (Label.MISTAKE, Label.BLUNDER)
    }
    graph = await asyncio.to_thread(
        render_review_graph,
        view.review.graph(),
        marks,
        title=review_title(view, voice),
        words=words,
        sides=_colours(view.ruleset),
    )
    summary = review_summary(view, voice)
    moves = review_moves_text(view, voice, limit=MOVE_LIST_LIMIT)
    main = discord.Embed(
        title=review_title(view, voice), description=f"{summary}\n\n{moves}", colour=EMBED_COLOUR
    )
    main.set_image(url=f"attachment://{GRAPH_FILE}")
    files = [
        discord.File(
            io.BytesIO(graph), filename=GRAPH_FILE, description=graph_description(view, voice)
        )
    ]
    embeds = [main]
    for point in view.turning_points:
        name = f"turn-{point.ply}.png"
        caption = turning_point_caption(view, point.ply, voice)
        png = await point.picture.png(words)
        files.append(discord.File(io.BytesIO(png), filename=name, description=caption[:1024]))
        turn = discord.Embed(description=caption, colour=EMBED_COLOUR)
        turn.set_image(url=f"attachment://{name}")
        embeds.append(turn)
    return {
        "content": None,
        "embeds": embeds,
        "attachments": files,
        "allowed_mentions": only_pinging(),
    }


def _colours(ruleset: str) -> tuple[str, str]:
    return side_name("white", ruleset), side_name("black", ruleset)


class _ProgressEdits:
    """Edits the answer with the review's progress: never two edits at once, and at most one
    a second (the last one always)."""

    def __init__(self, interaction: discord.Interaction[JarmoBot], language: str) -> None:
        self._interaction = interaction
        self._voice = discord_voice(language)
        self._last = 0.0
        self._editing: asyncio.Task[Any] | None = None

    async def __call__(self, done: int, total: int) -> None:
        if self._editing is not None and not self._editing.done():
            return
        now = time.monotonic()
        if done < total and now - self._last < PROGRESS_EVERY_SECONDS:
            return
        self._last = now
        self._editing = asyncio.create_task(
            self._interaction.edit_original_response(
                content=review_progress(done, total, self._voice)
            )
        )

    async def settle(self) -> None:
        """Wait for the edit in flight, so the review's own edit comes last."""
        if self._editing is not None:
            await asyncio.gather(self._editing, return_exceptions=True)


class ReviewButton(
    JarmoItem,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    custom_id=REVIEW_ID,
):
    """Review, under the message that ends a game (anyone in the channel may click it)."""

    what = "review"

    def __init__(self, game_id: int) -> None:
        super().__init__(review_button(game_id))
        self.game_id = game_id

    async def handle(self, interaction: discord.Interaction[JarmoBot]) -> None:
        await send_review(interaction, self.game_id, private=False)


class ReviewCommands(commands.Cog):
    """Reviews of finished games. ``/jarmo``'s commands for it: a part of
    ``JarmoCog`` (``bot.cogs.group``), never added on its own."""

    @app_commands.command()
    async def review(self, interaction: discord.Interaction[JarmoBot]) -> None:
        """Review this channel's last finished game, move by move"""
        game_id = await interaction.client.service.reviews.last_game(place_of(interaction))
        await send_review(interaction, game_id, private=False)
