"""Challenges (``/jarmo challenge``) and the buttons that answer them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.audience import channel_language
from bot.cogs.clock import time_per_move_choices
from bot.cogs.guards import place_of
from bot.cogs.items import CustomIdSpec, JarmoItem
from bot.cogs.live_offer import live_board
from bot.cogs.replies import (
    actor_of,
    computer_answers,
    only_pinging,
    report_message,
)
from bot.cogs.threads import (
    post_start_in_thread,
    retitle,
    tell_missing_permissions,
    thread_venue,
)
from bot.cogs.transformers import OneOf
from bot.cogs.tree import check_member
from bot.cogs.words import discord_voice, discord_words, relative_time
from bot.i18n import N_
from bot.jarmo import RULESETS
from bot.jarmo.match import MATCH_LENGTHS
from bot.service import Actor, ChallengeRequest, ChallengeView, Report
from bot.service.challenges import COMPUTER_LEVELS
from bot.words import challenge_text

if TYPE_CHECKING:
    from bot.client import JarmoBot

# The choices are the engine's and the service's own lists.
Ruleset = app_commands.Transform[str, OneOf(RULESETS)]
MatchLength = app_commands.Transform[int, OneOf(MATCH_LENGTHS)]
ComputerLevel = app_commands.Transform[str, OneOf(COMPUTER_LEVELS)]

_ANSWERS = {
    "accept": (N_("Accept"), discord.ButtonStyle.success),
    "decline": (N_("Decline"), discord.ButtonStyle.secondary),
    "cancel": (N_("Withdraw"), discord.ButtonStyle.danger),
}


class ChallengeCommands(commands.Cog):
    """Starting a match: a challenge to a member, or a game against the computer at once.
    ``/jarmo``'s commands for it: a part of ``JarmoCog`` (``bot.cogs.group``), never added on
    its own."""

    @app_commands.command()
    @app_commands.describe(
        opponent="Who to play; leave it out to challenge anyone",
        games="Games per match; sides swap after each",
        ruleset="The rules (default: classic)",
        side="Your side in the first game",
        time_per_move="Time per move, e.g. 5m, 1h, 3d or none",
        level="The computer's strength, when you challenge this bot",
        rating_range="Who may accept an open challenge, e.g. 1000-1300",
    )
    async def challenge(
        self,
        interaction: discord.Interaction[JarmoBot],
        opponent: discord.Member | discord.User | None = None,
        games: MatchLength = 1,
        ruleset: Ruleset | None = None,
        side: Literal["white", "black", "random"] = "random",
        time_per_move: app_commands.Range[str, 1, 12] | None = None,
        level: ComputerLevel | None = None,
        rating_range: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        """Challenge a member, anyone here, or this bot to play the computer"""
        check_member(interaction, opponent)
        computer = interaction.client.computer.actor
        if opponent is None and level is not None:
            # Where the bot is no member to pick (a DM between people), a level alone asks
            # for the computer.
            opponent_actor: Actor | None = computer
        elif opponent is not None:
            opponent_actor = Actor(opponent.id, opponent.display_name, opponent.bot)
        else:
            opponent_actor = None
        request = ChallengeRequest(
            opponent_actor,
            games=games,
            ruleset=ruleset,
            side=side,
            time_per_move=time_per_move,
            level=level,
            rating_range=rating_range,
        )
        if opponent_actor is not None and opponent_actor.user_id == computer.user_id:
            await _play_the_computer(interaction, request)
        else:
            await _challenge_a_member(interaction, request)

    @challenge.autocomplete("time_per_move")
    async def _time_per_move_choices(
        self, interaction: discord.Interaction[JarmoBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return time_per_move_choices(current)


async def _play_the_computer(
    interaction: discord.Interaction[JarmoBot], request: ChallengeRequest
) -> None:
    # Answer with the start position first: the computer's opening move (when it has White)
    # can take seconds and follows as a follow-up.
    board = await interaction.client.computer.start(
        place_of(interaction), actor_of(interaction), request
    )
    started = Report(interaction.user.id, None, board)
    live = await live_board(interaction.client, started)
    await interaction.response.send_message(
        **await report_message(started, await channel_language(interaction), live=live)
    )
    await computer_answers(interaction, started)


async def _challenge_a_member(
    interaction: discord.Interaction[JarmoBot], request: ChallengeRequest
) -> None:
    service = interaction.client.service
    view = await service.challenges.post(place_of(interaction), actor_of(interaction), request)
    await post_challenge(interaction, view)


async def post_challenge(interaction: discord.Interaction[JarmoBot], view: ChallengeView) -> None:
    """Answer ``interaction`` with the challenge and its buttons, pinging the challenged (an
    open challenge pings nobody)."""
    record = view.challenge
    language = await channel_language(interaction)
    text = challenge_text(view, discord_voice(language), expires=relative_time(record.expires_at))
    sent = await interaction.response.send_message(
        text,
        view=challenge_buttons(record.id, language, is_open=record.challenged_id is None),
        allowed_mentions=only_pinging(record.challenged_id),
    )
    if sent.message_id is not None:  # Discord returns it with the callback's answer
        await interaction.client.service.challenges.attach_message(record.id, sent.message_id)


class ChallengeButton(
    JarmoItem,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    custom_id=CustomIdSpec("challenge", id=int, answer="|".join(_ANSWERS)),
):
    """Accept / Decline (the challenged player, or anyone for an open challenge's Accept) and
    Withdraw (the challenger)."""

    def __init__(self, challenge_id: int, answer: str, language: str | None = None) -> None:
        label, style = _ANSWERS[answer]
        super().__init__(
            discord.ui.Button(
                label=discord_words(language).gettext(label),
                style=style,
                custom_id=self.custom_id_spec.format(challenge_id, answer),
            )
        )
        self.challenge_id = challenge_id
        self.answer = answer
        self.what = f"challenge {answer}"

    async def handle(self, interaction: discord.Interaction[JarmoBot]) -> None:
        service, actor = interaction.client.service, actor_of(interaction)
        language = await channel_language(interaction)
        _ = discord_words(language).gettext
        if self.answer == "accept":
            await _accept(interaction, self.challenge_id)
            return
        if self.answer == "decline":
            view = await service.challenges.decline(
                actor, self.challenge_id, place=place_of(interaction)
            )
            note = _("**Declined** by {player}.").format(player=view.challenged_name)
        else:
            view = await service.challenges.cancel(
                actor, self.challenge_id, place=place_of(interaction)
            )
            note = _("**Withdrawn** by {player}.").format(player=view.challenger_name)
        await interaction.response.edit_message(
            content=f"{answered(view, language)}\n{note}",
            view=None,
            allowed_mentions=only_pinging(),
        )


async def _accept(interaction: discord.Interaction[JarmoBot], challenge_id: int) -> None:
    """The match starts: in a thread of its own when the server plays in threads and the bot
    may open one (else in the channel, saying once which permissions threads need)."""
    service, actor = interaction.client.service, actor_of(interaction)
    language = await channel_language(interaction)
    _ = discord_words(language).gettext
    venue, missing = await thread_venue(interaction)
    board = await service.challenges.accept(
        actor, challenge_id, venue=venue, place=place_of(interaction)
    )
    view = await service.challenges.view(challenge_id)
    report = Report(actor.user_id, None, board)
    started = await report_message(
        report, language, live=await live_board(interaction.client, report)
    )
    thread = venue.thread if venue is not None else None
    if thread is None:
        accepted = _("**Accepted.** Game on!")  # outside the f-string, for the extractor
        await interaction.response.edit_message(
            content=f"{answered(view, language)}\n{accepted}",
            view=None,
            allowed_mentions=only_pinging(),
        )
        if isinstance(interaction.channel, discord.Thread):
            await retitle(interaction.channel, view, language)
        await interaction.followup.send(**started)
        await tell_missing_permissions(interaction, missing)
        return
    note = _("**Accepted.** The match is played in {thread}.").format(thread=thread.mention)
    await interaction.response.edit_message(
        content=f"{answered(view, language)}\n{note}", view=None, allowed_mentions=only_pinging()
    )
    await post_start_in_thread(thread, view, actor.user_id, started, language)


def answered(view: ChallengeView, language: str | None) -> str:
    """The challenge as it reads once answered (no expiry any more)."""
    return challenge_text(view, discord_voice(language), expires="—")


def challenge_buttons(
    challenge_id: int, language: str | None = None, *, is_open: bool = False
) -> discord.ui.View:
    """The buttons under a challenge: Accept, Decline and Withdraw (an open challenge, which
    nobody in particular was asked, has no Decline)."""
    view = discord.ui.View(timeout=None)
    for answer in _ANSWERS:
        if not (is_open and answer == "decline"):
            view.add_item(ChallengeButton(challenge_id, answer, language))
    return view
