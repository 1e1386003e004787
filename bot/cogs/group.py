"""The one slash command group, ``/jarmo``: a single ``GroupCog`` made of every feature's
commands (each feature module holds its own mixin), so the group loads and unloads as a unit."""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.cogs.challenges import ChallengeCommands
from bot.cogs.clock import ClockCommands
from bot.cogs.games import GamesCommands
from bot.cogs.pinging import NotifyCommands
from bot.cogs.play import PlayCommands
from bot.cogs.review import ReviewCommands
from bot.cogs.servers import ServerCommands
from bot.cogs.stats import StatsCommands
from bot.cogs.takebacks import TakebackCommands
from bot.cogs.tournaments import TournamentCommands
from bot.cogs.vacations import VacationCommands
from bot.cogs.watching import WatchCommands

GROUP_NAME = "jarmo"
GROUP_DESCRIPTION = "Play Jarmo, the old Tatar battle game"

# In the order ``/jarmo`` lists their sub-commands.
FEATURES: tuple[type, ...] = (
    ChallengeCommands,
    PlayCommands,
    TakebackCommands,
    ClockCommands,
    StatsCommands,
    ReviewCommands,
    WatchCommands,
    ServerCommands,
    TournamentCommands,
    GamesCommands,
    NotifyCommands,
    VacationCommands,
)


# Published for both installations and every context (discord.py takes these from the group
# only): a user who added Jarmo to their apps plays in DMs, group DMs and any server.
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class JarmoCog(
    # discord.py collects a cog's commands from its bases last to first, so the features are
    # listed here in reverse to publish them in the order of FEATURES.
    VacationCommands,
    NotifyCommands,
    GamesCommands,
    TournamentCommands,
    ServerCommands,
    WatchCommands,
    ReviewCommands,
    StatsCommands,
    ClockCommands,
    TakebackCommands,
    PlayCommands,
    ChallengeCommands,
    commands.GroupCog,
    group_name=GROUP_NAME,
    group_description=GROUP_DESCRIPTION,
):
    """Every ``/jarmo`` command: starting matches, playing, the clock, statistics, reviews,
    the server's settings and tournaments."""
