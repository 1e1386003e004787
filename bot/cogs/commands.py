"""The ``/jarmo`` command group. Each command parses and checks its options, calls one service
use case, and replies; failures are answered privately by the tree's error handler."""

from __future__ import annotations

import asyncio
import io
from functools import lru_cache
from typing import Literal

import discord
from discord import app_commands

from bot.cogs.buttons import ResignButton, StopButton, challenge_buttons, single
from bot.cogs.clock import clock_commands, time_per_move_choices
from bot.cogs.replies import (
    EMBED_COLOUR,
    actor_of,
    board_embed,
    computer_answers,
    computer_of,
    mention,
    only_pinging,
    place_of,
    relative_time,
    report_message,
    service_of,
)
from bot.cogs.stats import stats_commands
from bot.jarmo import Game
from bot.render import render_board
from bot.service import Actor, ChallengeRequest, Report
from bot.service.text import challenge_text, position_line, standings_text

Ruleset = Literal["classic", "jasir", "ludos"]
Layout = Literal["bow", "knight"]

RULES_SUMMARY = """**Jarmo in a nutshell**
• Each side has five archers on its home row (White row 1, Black row 5). White moves first.
• A piece moves along a line to the point at its other end. The lines are our reconstruction
  (the old board's diagram was not found): each is a knight's jump, as every published move is.
• Land on an enemy piece to capture it. A piece reaching the enemy home row stays there for good.
• The game ends when one side has all its remaining pieces in the enemy row (or none left), when the
  player to move is stuck, or at the move limit (200 moves in all, unless the server changed it).
• Score: 2 points per piece in the enemy row, 1 per other piece on the board. Most points wins.
• **classic**: a capturing piece gets a mark; with a marked piece in the enemy row you may spend a
  turn bringing a lost piece back to your home row (`/jarmo redeploy`). No endless back-and-forth.
• **jasir**: classic, but every step must go forward.
• **ludos** (White is shown as Green, Black as Blue): capturing turns an archer into a guard; a
  guard reaching the enemy row wins back a lost piece, which you may place at once
  (`/jarmo move C3-D5@B1`) or later (`/jarmo redeploy`).
Moves are written `A1-C2`; `a1 c2` works too. Autocomplete lists your legal moves."""


@lru_cache(maxsize=4)
def _start_image(ruleset: str) -> bytes:
    return render_board(Game.new(ruleset=ruleset))


class JarmoCommands(app_commands.Group):
    """/jarmo …"""

    def __init__(self) -> None:
        super().__init__(
            name="jarmo", description="Play Jarmo, the old Tatar battle game", guild_only=True
        )
        for command in clock_commands():  # /jarmo pause and /jarmo resume (issue 9)
            self.add_command(command)
        for command in stats_commands():  # /jarmo leaderboard, stats and history (issue 6)
            self.add_command(command)

    @app_commands.command()
    @app_commands.describe(
        opponent="The member you want to play",
        games="How many games in the match (players swap sides after each)",
        ruleset="classic (default), jasir (forward only) or ludos",
        layout="bow (the standard board) or knight (all 48 knight lines)",
        side="Your side in the first game",
        time_per_move="Time limit per move: 5m, 1h, 1d, 3d, none… (default: the bot's setting)",
        level="How strong the computer plays, when you challenge this bot",
    )
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member,
        games: Literal[1, 2, 4, 6] = 1,
        ruleset: Ruleset | None = None,
        layout: Layout | None = None,
        side: Literal["white", "black", "random"] = "random",
        time_per_move: app_commands.Range[str, 1, 12] | None = None,
        level: Literal["easy", "medium", "hard"] | None = None,
    ) -> None:
        """Challenge a member (or this bot, to play the computer) to Jarmo in this channel."""
        service = service_of(interaction)
        request = ChallengeRequest(
            Actor(opponent.id, opponent.display_name, opponent.bot),
            games=games,
            ruleset=ruleset,
            layout=layout,
            side=side,
            time_per_move=time_per_move,
            level=level,
        )
        if service.is_computer(opponent.id):
            # Answer with the start position first: the computer's opening move (when it has
            # White) can take seconds and follows as a follow-up.
            board = await computer_of(interaction).start(
                place_of(interaction), actor_of(interaction), request
            )
            started = Report(interaction.user.id, None, board)
            await interaction.response.send_message(**report_message(started))
            await computer_answers(interaction, started)
            return
        view = await service.challenge(place_of(interaction), actor_of(interaction), request)
        record = view.challenge

        text = challenge_text(view, mention, expires=f"<t:{int(record.expires_at.timestamp())}:R>")
        sent = await interaction.response.send_message(
            text, view=challenge_buttons(record.id), allowed_mentions=only_pinging(opponent.id)
        )
        if sent.message_id is not None:  # Discord returns it with the callback's answer
            await service.attach_challenge_message(record.id, sent.message_id)

    @challenge.autocomplete("time_per_move")
    async def _time_per_move_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return time_per_move_choices(current)

    @app_commands.command()
    @app_commands.describe(move="Your move, e.g. A1-C2 (autocomplete lists the legal ones)")
    async def move(
        self, interaction: discord.Interaction, move: app_commands.Range[str, 1, 20]
    ) -> None:
        """Make a move in this channel's game."""
        report = await service_of(interaction).move(
            place_of(interaction), actor_of(interaction), move
        )
        await interaction.response.send_message(**report_message(report))
        await computer_answers(interaction, report)

    @move.autocomplete("move")
    async def _move_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        moves = await service_of(interaction).move_suggestions(
            place_of(interaction), interaction.user.id, current
        )
        return [app_commands.Choice(name=m, value=m) for m in moves]

    @app_commands.command()
    @app_commands.describe(point="An empty point of your home row, e.g. B1")
    async def redeploy(
        self, interaction: discord.Interaction, point: app_commands.Range[str, 1, 5]
    ) -> None:
        """Bring a lost piece back to your camp (classic/jasir) or place a reserve piece (ludos)."""
        report = await service_of(interaction).redeploy(
            place_of(interaction), actor_of(interaction), point
        )
        await interaction.response.send_message(**report_message(report))
        await computer_answers(interaction, report)

    @redeploy.autocomplete("point")
    async def _point_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        points = await service_of(interaction).redeploy_suggestions(
            place_of(interaction), interaction.user.id, current
        )
        return [app_commands.Choice(name=p, value=p) for p in points]

    @app_commands.command()
    @app_commands.describe(private="Only you see the answer (shown from your side if you play)")
    async def board(self, interaction: discord.Interaction, private: bool = False) -> None:
        """Show the current position of this channel's game."""
        view = await service_of(interaction).board(
            place_of(interaction), viewer_id=interaction.user.id if private else None
        )
        embed, file = board_embed(view, position_line(view, mention, when=relative_time))
        await interaction.response.send_message(
            embed=embed, file=file, ephemeral=private, allowed_mentions=only_pinging()
        )

    @app_commands.command()
    async def hint(self, interaction: discord.Interaction) -> None:
        """Ask the computer for a move suggestion, in a game against it (only you see it)."""
        computer = computer_of(interaction)
        # Cheap checks first, so a refusal is answered directly; the search itself may wait in
        # the computer's queue for longer than Discord's 3 s, so defer before it.
        await computer.check_hint(place_of(interaction), actor_of(interaction))
        await interaction.response.defer(ephemeral=True, thinking=True)
        move = await computer.hint(place_of(interaction), actor_of(interaction))
        await interaction.followup.send(f"Try **{move}** (`/jarmo move {move}`).", ephemeral=True)

    @app_commands.command()
    async def resign(self, interaction: discord.Interaction) -> None:
        """Resign: you lose this game and forfeit the rest of the match."""
        record = await service_of(interaction).player_game(
            place_of(interaction), actor_of(interaction)
        )
        await interaction.response.send_message(
            "Resign? You lose this game and the rest of the match goes to your opponent.",
            view=single(ResignButton(record.id, interaction.user.id)),
            ephemeral=True,
        )

    @app_commands.command()
    async def stop(self, interaction: discord.Interaction) -> None:
        """Offer to end this game now, scored as it stands; your opponent accepts with a button."""
        offer = await service_of(interaction).offer_stop(
            place_of(interaction), actor_of(interaction)
        )
        await interaction.response.send_message(
            f"{mention(offer.offered_by)} offers to end this game here, scored as it stands. "
            f"{mention(offer.answer_by)}, do you agree? (The offer lapses with the next move.)",
            view=single(StopButton(offer)),
            allowed_mentions=only_pinging(offer.answer_by),
        )

    @app_commands.command()
    async def standings(self, interaction: discord.Interaction) -> None:
        """Show the standing of this channel's current (or last) match."""
        standings = await service_of(interaction).standings(place_of(interaction))
        embed = discord.Embed(
            title="Match standings",
            colour=EMBED_COLOUR,
            description=standings_text(standings, mention),
        )
        await interaction.response.send_message(embed=embed, allowed_mentions=only_pinging())

    @app_commands.command()
    async def rules(self, interaction: discord.Interaction) -> None:
        """How to play Jarmo (only you see it)."""
        image = await asyncio.to_thread(_start_image, "classic")

        file = discord.File(io.BytesIO(image), filename="start.png")
        embed = discord.Embed(
            title="How to play Jarmo", description=RULES_SUMMARY, colour=EMBED_COLOUR
        )
        embed.set_image(url="attachment://start.png")
        await interaction.response.send_message(embed=embed, file=file, ephemeral=True)

    @app_commands.command()
    async def abort(self, interaction: discord.Interaction) -> None:
        """End this channel's stuck game and match; nothing counts (Manage Channels only)."""
        can_manage = bool(interaction.permissions.manage_channels)
        report = await service_of(interaction).abort(
            place_of(interaction), actor_of(interaction), can_manage=can_manage
        )

        message = report_message(report)
        message["content"] = f"Game aborted by {mention(interaction.user.id)}."
        message["allowed_mentions"] = only_pinging()
        await interaction.response.send_message(**message)
