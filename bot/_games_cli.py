"""``jarmo-bot games [--db PATH|URL] [--player ID]``: a player's unfinished games in every
server of a database, as ``/jarmo games`` lists them (all pages at once).

By default the player is the console's first player, who plays in every game that
``jarmo-bot play`` stores, so a console database lists all its unfinished games; ``--player``
names a Discord user for a bot's database.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from bot._ratings_cli import add_database_argument, database_of, run_on_database
from bot.config import BotConfig
from bot.console import PLACE, console_language
from bot.console._words import console_voice
from bot.exit_status import ExitStatus
from bot.service import JarmoService
from bot.service.player_games import PlayerGameLine
from bot.store import Store
from bot.words.player_games import player_games_text, player_games_title

CONSOLE_PLAYER = 1  # the console's first player, in every console game


def add_games_parser(commands: Any, shared: argparse.ArgumentParser) -> None:
    """Add the ``games`` command to the ``jarmo-bot`` sub-command parsers."""
    games = commands.add_parser(
        "games", parents=[shared], help="list a player's unfinished games in every server"
    )
    add_database_argument(games)
    games.add_argument(
        "--player",
        type=int,
        default=CONSOLE_PLAYER,
        metavar="ID",
        help="whose games: a Discord user id (default: the console's player, in every game)",
    )


def run_games(config: BotConfig, args: argparse.Namespace) -> int:
    """Run ``games``; returns the exit status."""
    return run_on_database(
        database_of(config, args), lambda store: _run(store, config, player=args.player)
    )


async def _run(store: Store, config: BotConfig, *, player: int) -> int:
    service = JarmoService(store, config=config.service_config())
    voice = console_voice(str, console_language(None, os.environ))
    first = await service.player_games.page(player)
    if first.empty:
        # As the other operator commands do, this speaks English to the operator.
        print(f"no unfinished games of player {player}; start one with: jarmo-bot play --db FILE")
        return ExitStatus.OK
    print(player_games_title(first, voice).split(" · ")[0])
    for number in range(first.pages):
        page = first if number == 0 else await service.player_games.page(player, page=number)
        print(player_games_text(page, voice, server_name=_server, link=_where))
    return ExitStatus.OK


def _server(guild_id: int | None) -> str:
    return "console" if guild_id == PLACE.guild_id else f"server {guild_id}"


def _where(line: PlayerGameLine) -> str:
    return f"game {line.game_id}, channel {line.channel_id}"
