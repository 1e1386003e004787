"""Turn pings: ``/jarmo notify`` (how a player is told it is their move, in every server), the
direct messages that tell them, and the private word to a player whose direct messages were
refused."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.audience import server_language
from bot.cogs.clock import deadline_message
from bot.cogs.replies import board_embed, only_pinging, your_move
from bot.cogs.words import discord_words, reader_language
from bot.i18n import N_
from bot.service.delivery import ClockNotice, PingNotice, Undeliverable, idempotency_token
from bot.service.pings import TURN_PINGS, TurnPing

if TYPE_CHECKING:
    from bot.client import JarmoBot

log = logging.getLogger(__name__)
# Discord's code for a direct message the user does not accept (closed DMs, no shared server).
CANNOT_MESSAGE_USER = 50007
# Commands whose move reads the player's setting anyway: they tell the player themselves.
TELL_WITH_THE_MOVE = frozenset({"jarmo move", "jarmo redeploy"})
MODE_OF: dict[str, TurnPing] = {mode: mode for mode in TURN_PINGS}  # the command's choices
MODES = {
    "mention": N_("Mention: the board of the move mentions you in the game's channel."),
    "dm": N_("Direct message: the bot sends you a direct message with the board."),
    "off": N_("Off: nothing tells you; look at your games yourself."),
}
DM_REFUSED = N_(
    "A direct message to tell you it was your move could not be sent: your direct messages "
    "are closed. You were mentioned in the game's channel instead. Allow direct messages from "
    "this server's members, or choose `/jarmo notify mode:mention`."
)


class NotifyCommands(commands.Cog):
    """Turn pings. ``/jarmo``'s command for them: a part of ``JarmoCog`` (``bot.cogs.group``),
    never added on its own."""

    @app_commands.command()
    @app_commands.describe(mode="How to tell you (default: a mention)")
    @app_commands.choices(
        mode=[app_commands.Choice(name=value, value=value) for value in ("mention", "dm", "off")]
    )
    async def notify(self, interaction: discord.Interaction[JarmoBot], mode: str) -> None:
        """How you learn it is your move"""
        pings = interaction.client.service.pings
        chosen = await pings.choose(interaction.user.id, MODE_OF[mode])
        _ = discord_words(reader_language(interaction)).gettext
        lines = [_("Saved. Your turn pings, in every server:"), _(MODES[chosen])]
        if await pings.take_dm_refused(interaction.user.id):
            lines.append(_(DM_REFUSED))
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @commands.Cog.listener()
    async def on_app_command_completion(
        self, interaction: discord.Interaction[JarmoBot], command: Any
    ) -> None:
        """After a command, a player whose direct message was refused hears it, once."""
        name = getattr(command, "qualified_name", "")
        if name in TELL_WITH_THE_MOVE or name == "jarmo notify":
            return
        await tell_if_dm_refused(interaction)


async def tell_if_dm_refused(interaction: discord.Interaction[JarmoBot]) -> None:
    """Tell the player privately, once, that a direct message to them was refused."""
    try:
        if await interaction.client.service.pings.take_dm_refused(interaction.user.id):
            text = discord_words(reader_language(interaction)).gettext(DM_REFUSED)
            await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not tell user %s of a refused DM: %s", interaction.user.id, exc)


async def send_direct(bot: JarmoBot, delivery: PingNotice | ClockNotice, user_id: int) -> None:
    """Send the announcement to ``user_id`` as a direct message (Discord's Create DM, then a
    message there). If they closed their DMs, the game's channel mentions them instead, and
    they are told with their next command. Raises ``Undeliverable`` when neither can be."""
    key = delivery.entry.key
    language = await server_language(bot, delivery.entry.guild_id)
    message = await direct_message(bot, delivery, language)
    try:
        channel = await bot.create_dm(discord.Object(user_id))
        await channel.send(**message, nonce=idempotency_token(key))
    except discord.Forbidden as exc:
        if exc.code != CANNOT_MESSAGE_USER:
            raise Undeliverable(f"direct message to {user_id}: {exc}") from exc
        await _mention_instead(bot, delivery, user_id, language)
    except discord.NotFound as exc:  # no such user any more
        raise Undeliverable(f"direct message to {user_id}: {exc}") from exc


async def _mention_instead(
    bot: JarmoBot, delivery: PingNotice | ClockNotice, user_id: int, language: str | None
) -> None:
    key = delivery.entry.key
    channel_id = (
        delivery.channel_id if isinstance(delivery, PingNotice) else delivery.event.channel_id
    )
    guild_id = delivery.entry.guild_id
    guild = None if guild_id is None else bot.get_guild(guild_id)
    if guild is not None:  # Discord refuses a DM to someone who left just the same
        try:
            await guild.fetch_member(user_id)
        except discord.NotFound as exc:
            raise Undeliverable(f"user {user_id} has left server {guild.id}") from exc
    log.info("user %s takes no DMs: announcement %s mentions them instead", user_id, key)
    if isinstance(delivery, PingNotice):
        message: dict[str, Any] = {
            "content": your_move(user_id, language),
            "allowed_mentions": only_pinging(user_id),
        }
    else:
        message = await deadline_message(delivery.event, language)
    try:
        await bot.get_partial_messageable(channel_id).send(
            **message, nonce=idempotency_token(f"{key}#mention")
        )
    except (discord.Forbidden, discord.NotFound) as exc:
        raise Undeliverable(f"channel {channel_id}: {exc}") from exc
    await bot.service.pings.dm_refused(user_id)


async def direct_message(
    bot: JarmoBot, delivery: PingNotice | ClockNotice, language: str | None
) -> dict[str, Any]:
    """The direct message: the server, the opponent, the board and a link to the game."""
    entry = delivery.entry
    guild = None if entry.guild_id is None else bot.get_guild(entry.guild_id)
    _ = discord_words(language).gettext
    server = guild.name if guild is not None else _("a server")
    if isinstance(delivery, ClockNotice):
        event = delivery.event
        link = f"https://discord.com/channels/{entry.guild_id}/{event.channel_id}"
        reminder = await deadline_message(event, language)
        text = _("In **{server}**: {reminder}\n{link}").format(
            server=server, reminder=reminder.get("content", ""), link=link
        )
        return {"content": text, "allowed_mentions": only_pinging()}
    board = delivery.report.board
    opponent = board.black_name if board.game.white_id == delivery.user_id else board.white_name
    link = f"https://discord.com/channels/{entry.guild_id}/{delivery.channel_id}"
    text = _("It is your move in **{server}** against **{opponent}**: {link}").format(
        server=server, opponent=opponent, link=link
    )
    embed, file = await board_embed(board, text, language)
    return {"embed": embed, "file": file, "allowed_mentions": only_pinging()}
