"""Buttons that survive restarts: their state lives in the custom id (``jarmo:<kind>:…``)."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.cogs.guards import ServerOnly
from bot.cogs.replies import (
    actor_of,
    mention,
    only_pinging,
    place_of,
    report_failure,
    report_message,
    service_of,
)
from bot.service import NotAllowed, Offer, Report
from bot.service.text import challenge_text

_ANSWERS = {
    "accept": ("Accept", discord.ButtonStyle.success),
    "decline": ("Decline", discord.ButtonStyle.secondary),
    "cancel": ("Withdraw", discord.ButtonStyle.danger),
}


class ChallengeButton(
    ServerOnly,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"jarmo:challenge:(?P<id>[0-9]+):(?P<answer>accept|decline|cancel)",
):
    """Accept / Decline (the challenged player) and Withdraw (the challenger)."""

    def __init__(self, challenge_id: int, answer: str) -> None:
        label, style = _ANSWERS[answer]
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"jarmo:challenge:{challenge_id}:{answer}"
            )
        )
        self.challenge_id = challenge_id
        self.answer = answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> ChallengeButton:
        return cls(int(match["id"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> Any:
        try:
            await self._answer(interaction)
        except Exception as error:
            await report_failure(interaction, error, f"challenge {self.answer}")

    async def _answer(self, interaction: discord.Interaction) -> None:
        service, actor = service_of(interaction), actor_of(interaction)
        if self.answer == "accept":
            board = await service.challenges.accept(actor, self.challenge_id)
            view = await service.challenges.view(self.challenge_id)
            await interaction.response.edit_message(
                content=f"{challenge_text(view, mention, expires='—')}\n**Accepted.** Game on!",
                view=None,
                allowed_mentions=only_pinging(),
            )

            await interaction.followup.send(**report_message(Report(actor.user_id, None, board)))
            return
        if self.answer == "decline":
            view = await service.challenges.decline(actor, self.challenge_id)
            note = f"**Declined** by {view.challenged_name}."
        else:
            view = await service.challenges.cancel(actor, self.challenge_id)
            note = f"**Withdrawn** by {view.challenger_name}."
        await interaction.response.edit_message(
            content=f"{challenge_text(view, mention, expires='—')}\n{note}",
            view=None,
            allowed_mentions=only_pinging(),
        )


def challenge_buttons(challenge_id: int) -> discord.ui.View:
    """The three buttons under a challenge."""
    view = discord.ui.View(timeout=None)
    for answer in _ANSWERS:
        view.add_item(ChallengeButton(challenge_id, answer))
    return view


class ResignButton(
    ServerOnly,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"jarmo:resign:(?P<game>[0-9]+):(?P<user>[0-9]+)",
):
    """The confirmation under a (private) resign prompt."""

    def __init__(self, game_id: int, user_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Yes, resign the match",
                style=discord.ButtonStyle.danger,
                custom_id=f"jarmo:resign:{game_id}:{user_id}",
            )
        )
        self.game_id = game_id
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> ResignButton:
        return cls(int(match["game"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> Any:
        try:
            if interaction.user.id != self.user_id:
                raise NotAllowed("This button is not for you. Use /jarmo resign yourself.")
            report = await service_of(interaction).play.resign(
                place_of(interaction), actor_of(interaction), game_id=self.game_id
            )
            await interaction.response.edit_message(content="You resigned.", view=None)
            await interaction.followup.send(**report_message(report))
        except Exception as error:
            await report_failure(interaction, error, "resign")


def offer_template(kind: str) -> str:
    """The custom-id pattern of the button that accepts an ``Offer`` of this kind."""
    return rf"jarmo:{kind}:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<by>[0-9]+):(?P<to>[0-9]+)"


def offer_button(kind: str, label: str, offer: Offer) -> discord.ui.Button:
    """The button that accepts ``offer``; everything needed to check it is in its custom id."""
    custom_id = f"jarmo:{kind}:{offer.game_id}:{offer.version}:{offer.offered_by}:{offer.answer_by}"
    return discord.ui.Button(label=label, style=discord.ButtonStyle.primary, custom_id=custom_id)


def offer_from(match: re.Match[str]) -> Offer:
    """The ``Offer`` an offer button's custom id carries."""
    return Offer(int(match["game"]), int(match["version"]), int(match["by"]), int(match["to"]))


class StopButton(
    ServerOnly, discord.ui.DynamicItem[discord.ui.Button], template=offer_template("stop")
):
    """The opponent's answer to an offer to end the game as it stands."""

    def __init__(self, offer: Offer) -> None:
        super().__init__(offer_button("stop", "Agree to stop here", offer))
        self.offer = offer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> StopButton:
        return cls(offer_from(match))

    async def callback(self, interaction: discord.Interaction) -> Any:
        try:
            report = await service_of(interaction).play.accept_stop(
                place_of(interaction), actor_of(interaction), self.offer
            )
            await interaction.response.edit_message(view=None)
            await interaction.followup.send(**report_message(report))
        except Exception as error:
            await report_failure(interaction, error, "stop")


def single(item: discord.ui.Item) -> discord.ui.View:
    """A view holding one persistent item."""
    view = discord.ui.View(timeout=None)
    view.add_item(item)
    return view
