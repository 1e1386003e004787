"""The ``/jarmo`` command group. Each command parses and checks its options, calls one service
use case, and replies; failures are answered privately by the tree's error handler."""

from __future__ import annotations

import asyncio
import io
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

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
from bot.service.models import DamagedGameAborted
from bot.service.text import challenge_text, position_line, standings_text

if TYPE_CHECKING:
    from bot.client import JarmoBot

Ruleset = Literal["classic", "jasir", "ludos"]
Layout = Literal["bow", "knight"]

RULES_SUMMARY = """\
**Board and pieces**
• 25 points joined by lines; every line joins two points a knight's jump apart (the lines are \
our reconstruction: the old board's diagram was not found). A piece moves along a line to the \
point at its other end, one action per turn.
• Each side starts with five archers in its camp, its home row: White row 1, Black row 5. \
White moves first.
• Step onto an enemy piece to capture it (never compulsory). A piece that reaches the enemy camp \
never moves again, but can still be captured: an enemy piece that reached your camp is taken by \
stepping back onto it.

**End and score**
• The game ends when one side has all its pieces left on the board in the enemy camp (or none \
left), when the player to move has no possible action, or after {max_moves} moves (both \
players' moves count).
• Each piece in the enemy camp scores 2 points, every other piece on the board 1; captured \
pieces score nothing. More points wins; equal points is a draw.
• A match is 1, 2, 4 or 6 games, sides swapping each game. The sum of each player's points over \
the games decides it; equal sums draw. Resigning or losing on time forfeits the rest of the \
match.

Moves are written `A1-C2` (`a1 c2` works too); `/jarmo move`'s autocomplete lists yours."""

RULES_FIELDS = (
    (
        "classic",
        "A piece that captures gets a mark. A whole turn can be a **redeploy** "
        "(`/jarmo redeploy B1`): if you have a captured piece and a marked piece in the enemy "
        "camp, put the captured piece back on an empty point of your camp; your leftmost marked "
        "piece in the enemy camp loses its mark, so each mark is used once. No endless "
        "back-and-forth: after going X, back, X, back you may not play X again at once.",
    ),
    ("jasir", "Classic, but every step must go towards the enemy camp."),
    (
        "ludos",
        "The sides are **Green** (White, moves first) and **Blue** (Black). No marks: an "
        "archer that captures a piece standing outside that piece's own camp becomes a "
        "**guard** (a guard that captures stays one). When a guard enters the enemy camp it "
        "turns back into an archer and wins back one of your captured pieces, if any, into "
        "your reserve. Place a reserve piece on an empty "
        "point of your camp, either at once as part of the step that recovered it "
        "(`/jarmo move D3-C5@B1`) or later as a whole turn (`/jarmo redeploy B1`). "
        "Back-and-forth is allowed, but when both players have just gone X, back, X, back the "
        "game ends (repetition). Equal points: more pieces in the enemy camp wins.",
    ),
    (
        "The picture",
        "Tinted bands: the camps. Black's (Blue's) pieces have an inner ring. The bar of "
        "the side to move is outlined.\n"
        "Orange band across a piece: marked. Shield: a guard.\n"
        "Last move: an orange arrow from a faded disc (where the piece stood) to an orange "
        "ring; a red ring with × means it captured; a purple ring with + is a redeployed or "
        "placed piece.\n"
        "Under each name: the enemy pieces that side has captured, and its reserve. The top "
        "line shows the ruleset and how many moves have been played.",
    ),
)


def rules_embed(max_moves: int) -> discord.Embed:
    """The ``/jarmo rules`` card for a bot whose games end after ``max_moves`` moves."""
    embed = discord.Embed(
        title="How to play Jarmo",
        description=RULES_SUMMARY.format(max_moves=max_moves),
        colour=EMBED_COLOUR,
    )
    for name, value in RULES_FIELDS:
        embed.add_field(name=name, value=value, inline=False)
    return embed


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
        view = await service.challenges.post(place_of(interaction), actor_of(interaction), request)
        record = view.challenge

        text = challenge_text(view, mention, expires=f"<t:{int(record.expires_at.timestamp())}:R>")
        sent = await interaction.response.send_message(
            text, view=challenge_buttons(record.id), allowed_mentions=only_pinging(opponent.id)
        )
        if sent.message_id is not None:  # Discord returns it with the callback's answer
            await service.challenges.attach_message(record.id, sent.message_id)

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
        report = await service_of(interaction).play.move(
            place_of(interaction), actor_of(interaction), move
        )
        await interaction.response.send_message(**report_message(report))
        await computer_answers(interaction, report)

    @move.autocomplete("move")
    async def _move_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        moves = await service_of(interaction).play.move_suggestions(
            place_of(interaction), interaction.user.id, current
        )
        return [app_commands.Choice(name=m, value=m) for m in moves]

    @app_commands.command()
    @app_commands.describe(
        point="An empty point of your camp: row 1 (White, Green) or 5 (Black, Blue)"
    )
    async def redeploy(
        self, interaction: discord.Interaction, point: app_commands.Range[str, 1, 5]
    ) -> None:
        """Bring a lost piece back to your camp (classic/jasir) or place a reserve piece (ludos)."""
        report = await service_of(interaction).play.redeploy(
            place_of(interaction), actor_of(interaction), point
        )
        await interaction.response.send_message(**report_message(report))
        await computer_answers(interaction, report)

    @redeploy.autocomplete("point")
    async def _point_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        points = await service_of(interaction).play.redeploy_suggestions(
            place_of(interaction), interaction.user.id, current
        )
        return [app_commands.Choice(name=p, value=p) for p in points]

    @app_commands.command()
    @app_commands.describe(private="Only you see the answer (shown from your side if you play)")
    async def board(self, interaction: discord.Interaction, private: bool = False) -> None:
        """Show the current position of this channel's game."""
        view = await service_of(interaction).play.board(
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
        record = await service_of(interaction).play.player_game(
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
        offer = await service_of(interaction).play.offer_stop(
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
        standings = await service_of(interaction).standings.current(place_of(interaction))
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
        # Servers have no move limit of their own: every game gets the bot's configured one.
        client: JarmoBot = interaction.client  # type: ignore[assignment]
        embed = rules_embed(client.config.max_plies)
        embed.set_image(url="attachment://start.png")
        await interaction.response.send_message(embed=embed, file=file, ephemeral=True)

    @app_commands.command()
    async def abort(self, interaction: discord.Interaction) -> None:
        """End this channel's stuck game and match; nothing counts (Manage Channels only)."""
        can_manage = bool(interaction.permissions.manage_channels)
        report = await service_of(interaction).play.abort(
            place_of(interaction), actor_of(interaction), can_manage=can_manage
        )
        if isinstance(report, DamagedGameAborted):
            await interaction.response.send_message(
                f"The damaged game was ended by {mention(interaction.user.id)}; nothing counts. "
                "Its record was kept aside for the bot's operator. A new game can start here "
                "with /jarmo challenge.",
                allowed_mentions=only_pinging(),
            )
            return
        message = report_message(report)
        message["content"] = f"Game aborted by {mention(interaction.user.id)}."
        message["allowed_mentions"] = only_pinging()
        await interaction.response.send_message(**message)
