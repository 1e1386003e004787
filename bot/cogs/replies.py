"""Turning service results into Discord messages."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.cogs.audience import channel_language
from bot.cogs.guards import place_of
from bot.cogs.live_offer import LiveBoard, live_board, play_live_button, watchers_line
from bot.cogs.move_offer import move_view
from bot.cogs.rematch_offer import rematch_view
from bot.cogs.review_offer import review_button
from bot.cogs.words import (
    discord_voice,
    discord_words,
    mention,
    picture_words,
    reader_language,
)
from bot.service import Actor, BoardView, Report
from bot.service.delivery import idempotency_token
from bot.words import game_title, position_line, report_text
from bot.words.descriptions import board_description

if TYPE_CHECKING:
    from bot.client import JarmoBot
    from bot.service import JarmoService

log = logging.getLogger(__name__)

T = TypeVar("T")

EMBED_COLOUR = discord.Colour(0x8B5A2B)  # the brown of a wooden board
# Discord drops an interaction not acknowledged within 3 s of its creation, and each 429 on
# the acknowledgement makes it wait before trying again: an answer not ready to go by this
# time defers first, which leaves the rest of the 3 s to the deferral and its retries.
ACKNOWLEDGE_BY_SECONDS = 1.0
BOARD_FILE = "board.png"


async def answer_in_time(
    interaction: discord.Interaction[JarmoBot], work: Awaitable[tuple[T, dict[str, Any]]]
) -> T:
    """Answer ``interaction`` publicly with the message ``work`` builds (after what it does,
    whose result is returned). If the message is not ready ``ACKNOWLEDGE_BY_SECONDS`` after
    the interaction was created (a write waiting for a lock, a slow drawing), the interaction
    is deferred then, and the message follows when it is ready. A refusal raised after the
    deferral goes to the tree as usual, once the public "thinking" message is deleted, so that
    the refusal stays private."""
    task: asyncio.Future[tuple[T, dict[str, Any]]] = asyncio.ensure_future(work)
    # Timed from the interaction's creation, but never longer than the budget from now, in
    # case this machine's clock runs behind Discord's.
    age = (datetime.now(UTC) - interaction.created_at).total_seconds()
    wait = min(max(ACKNOWLEDGE_BY_SECONDS - age, 0.0), ACKNOWLEDGE_BY_SECONDS)
    await asyncio.wait({task}, timeout=wait)
    if task.done():
        result, message = task.result()
        await interaction.response.send_message(**message)
        return result
    deferral = asyncio.ensure_future(interaction.response.defer(thinking=True))
    try:
        result, message = await task
    except Exception:
        with contextlib.suppress(discord.HTTPException):
            await deferral
            await interaction.delete_original_response()
        raise
    await deferral
    # A message of its own rather than "thinking" filled in: that one was created at the
    # deferral and notifies nobody, and the player to move must be told.
    with contextlib.suppress(discord.HTTPException):
        await interaction.delete_original_response()
    await interaction.followup.send(**message)
    return result


async def computer_answers(
    interaction: discord.Interaction[JarmoBot], report: Report, *, in_place: bool = False
) -> None:
    """After a human's action, let the computer move if it is now its turn: a follow-up, or
    ``in_place``, the message the interaction answered with edited (a board outside servers,
    which only a click on it may change)."""
    board = report.next_board or report.board
    service = interaction.client.service
    if not service.is_computer(board.turn_user_id):
        return
    try:
        reply = await interaction.client.computer.reply(place_of(interaction))
    except Exception:
        # The human's action is stored; say so rather than the generic "nothing changed".
        log.exception("the computer could not answer in channel %s", interaction.channel_id)
        _ = discord_words(reader_language(interaction)).gettext
        await interaction.followup.send(
            _(
                "Your move was played, but the computer could not answer just now. It will "
                "move when the bot restarts; you can also /jarmo resign."
            ),
            ephemeral=True,
        )
        return
    if reply is None:
        return

    async def edit_in_place(**message: Any) -> None:
        await interaction.edit_original_response(**edited(as_card(message)))

    send = edit_in_place if in_place else interaction.followup.send
    try:
        language = await channel_language(interaction)
        live = await live_board(interaction.client, reply)
        await post_announced(reply, send, service, language, live=live)
    except discord.HTTPException:
        # Both moves are stored and the outbox posts the computer's in the channel: the
        # tree's apology ("nothing was changed") would be untrue here, so none is sent.
        log.exception(
            "the computer's move could not be posted as a follow-up in channel %s; "
            "the outbox will post it",
            interaction.channel_id,
        )


async def post_announced(
    report: Report,
    send: Callable[..., Awaitable[object]],
    service: JarmoService,
    language: str | None = None,
    *,
    live: LiveBoard | None = None,
) -> None:
    """Post a report the store also keeps in its outbox (the computer's move), and settle it
    there: sent, or left for the delivery loop if posting failed."""
    filename = BOARD_FILE if report.announcement is None else announced_file(report.announcement)
    try:
        await send(**await report_message(report, language, filename=filename, live=live))
    except Exception as exc:
        if report.announcement is not None:
            await service.announcements.post_later(report.announcement, repr(exc))
        raise
    if report.announcement is not None:
        await service.announcements.posted(report.announcement)


def chat_link(guild_id: int | None, channel_id: int) -> str:
    """A link that opens a channel of a server, or a chat outside servers (a DM, a group DM)."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"


def as_card(message: dict[str, Any]) -> dict[str, Any]:
    """A board message (from :func:`report_message`) as a Components V2 layout, for a message
    that was turned into a layout (the click grid outside servers) and cannot take embeds
    again: its text, each board with its title, words and image, and its buttons."""
    view = discord.ui.LayoutView(timeout=None)
    if message.get("content"):
        view.add_item(discord.ui.TextDisplay(message["content"]))
    files: list[discord.File] = message.get("files") or [message["file"]]
    embeds: list[discord.Embed] = message.get("embeds") or [message["embed"]]
    for embed, file in zip(embeds, files, strict=True):
        view.add_item(
            discord.ui.Container[Any](
                discord.ui.TextDisplay(f"### {embed.title}\n{embed.description or ''}"),
                discord.ui.MediaGallery(
                    discord.MediaGalleryItem(
                        f"attachment://{file.filename}", description=file.description
                    )
                ),
                accent_colour=EMBED_COLOUR,
            )
        )
    buttons = message.get("view")
    if buttons is not None and buttons.children:
        view.add_item(discord.ui.ActionRow[Any](*buttons.children))
    return {"view": view, "files": files, "allowed_mentions": message.get("allowed_mentions")}


def edited(message: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments that edit a message into ``message`` (its files replace the
    message's attachments)."""
    changes = {key: value for key, value in message.items() if key not in ("file", "files")}
    changes["attachments"] = message.get("files") or [message["file"]]
    return changes


def actor_of(interaction: discord.Interaction[JarmoBot]) -> Actor:
    """Who pressed or typed."""
    user = interaction.user
    return Actor(user.id, user.display_name, user.bot)


async def board_embed(
    board: BoardView, text: str, language: str | None = None, *, filename: str = BOARD_FILE
) -> tuple[discord.Embed, discord.File]:
    """An embed showing the board image (its words in ``language``) as an attachment, with
    ``text`` under the title."""
    voice = discord_voice(language)
    image = await board.image.png(picture_words(language))
    file = discord.File(
        io.BytesIO(image), filename=filename, description=board_description(board, voice)
    )
    embed = discord.Embed(title=game_title(board, voice), description=text, colour=EMBED_COLOUR)
    embed.set_image(url=f"attachment://{filename}")
    return embed, file


def only_pinging(*user_ids: int | None) -> discord.AllowedMentions:
    """Allowed mentions limited to these users: never everyone, here or roles."""
    users = [discord.Object(uid) for uid in user_ids if uid]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users)


def your_move(user_id: int | None, language: str | None = None) -> str | None:
    """'@Ann, your move.' for the person to move (``None``: nobody to address)."""
    if not user_id:
        return None
    return discord_words(language).gettext("{player}, your move.").format(player=mention(user_id))


def announced_file(key: str) -> str:
    """The board's file name in the message of the announcement ``key``. It carries the
    announcement's idempotency token, which Discord keeps with the message whichever way it was
    posted (a follow-up takes no nonce), so the channel's history shows whether it is there."""
    return f"board-{idempotency_token(key)}.png"


async def report_message(
    report: Report,
    language: str | None = None,
    *,
    filename: str = BOARD_FILE,
    live: LiveBoard | None = None,
) -> dict[str, Any]:
    """Keyword arguments for a message that shows ``report`` (one or two boards; the first
    attached as ``filename``). With ``live``, the board shown last says how many watch it
    on the live board, and a game still in play offers the Activity beside the Move
    button."""
    voice = discord_voice(language)
    text = report_text(report, voice)
    embed, file = await board_embed(report.board, text, language, filename=filename)
    embeds, files = [embed], [file]
    turn = report.board.human_to_move  # never "your move" to the computer
    if report.next_board is not None:
        next_embed, next_file = await board_embed(
            report.next_board,
            position_line(report.next_board, voice),
            language,
            filename="next.png",
        )
        embeds.append(next_embed)
        files.append(next_file)
        turn = report.next_board.human_to_move
    content = your_move(turn, language)
    shown = report.next_board or report.board
    # Whoever just acted (accepting a challenge as White, say) is already looking at this
    # message: name them, but a notification is only for a player who is elsewhere.
    # Only by mention: a direct message tells a player who asked for one, or nothing does.
    pinged = turn if turn != report.actor_id and report.turn_ping == "mention" else None
    message: dict[str, Any] = {
        "content": content,
        "embeds": embeds,
        "files": files,
        "allowed_mentions": only_pinging(pinged),
    }
    if report.standings is not None and report.standings.over:  # the match ends here
        message["view"] = rematch_view(report.board.match.id, language)
    elif turn is not None:
        message["view"] = move_view(shown.game.id, shown.game.engine.ply, language)
        if live is not None and live.play_live:
            message["view"].add_item(play_live_button(shown.game.id, language))
    if live is not None and live.watchers > 0:
        embeds[-1].set_footer(text=watchers_line(live.watchers, language))
    if report.ended is not None and report.ended.status != "aborted":  # it can be reviewed
        view = message.setdefault("view", discord.ui.View(timeout=None))
        view.add_item(review_button(report.ended.game.id, language))
    return message
