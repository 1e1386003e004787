"""/jarmo rules: the whole rule set in brief, the bot's own move limit, and a true picture key."""

from __future__ import annotations

from typing import Any
from unittest import mock

import discord

from bot.client import JarmoBot
from bot.cogs import JarmoCog
from bot.cogs.rules import rules_embed
from bot.config import BotConfig

DESCRIPTION_LIMIT, FIELD_LIMIT, EMBED_LIMIT = 4096, 1024, 6000
LANGUAGES = ("pl", "de", "eo")


def whole_text(embed: discord.Embed) -> str:
    return "\n".join([embed.description or ""] + [f"{f.name}\n{f.value}" for f in embed.fields])


async def answer_to_rules(config: BotConfig) -> dict[str, Any]:
    """What /jarmo rules sends, for a bot run with ``config``."""
    interaction = mock.create_autospec(discord.Interaction, instance=True)
    interaction.response = mock.create_autospec(discord.InteractionResponse, instance=True)
    interaction.locale = interaction.guild_locale = discord.Locale.british_english
    interaction.client = mock.create_autospec(JarmoBot, instance=True)
    interaction.client.config = config
    cog = JarmoCog()
    # discord.py types a cog command's callback as bound or not; this one takes the cog.
    await cog.rules.callback(cog, interaction)  # type: ignore[arg-type, call-arg]  # unbound form
    interaction.response.send_message.assert_awaited_once()
    sent: dict[str, Any] = interaction.response.send_message.await_args.kwargs
    return sent


async def test_rules_give_the_configured_move_limit() -> None:
    sent = await answer_to_rules(BotConfig(max_plies=137))
    text = whole_text(sent["embed"])
    assert "after 137 moves" in text and "200" not in text
    assert sent["ephemeral"] is True
    assert sent["embed"].image.url == "attachment://start.png"


def test_rules_cover_what_players_need() -> None:
    text = whole_text(rules_embed(200)).lower()
    assert "ply" not in text and "plies" not in text
    for rule in (
        "stepping back onto it",  # a piece in the enemy camp can still be captured
        "equal points is a draw",
        "sum of each player's points",  # how a match is decided
        "resigning or losing on time forfeits the rest of the match",
        "each mark is used once",
        "repetition",
        "outside that piece's own camp",  # how an archer becomes a guard
        "at once as part of the step that recovered it",
        "later as a whole turn",
        "green",
        "blue",
    ):
        assert rule in text, rule


def test_rules_fit_well_inside_discords_embed_limits() -> None:
    embed = rules_embed(1000)
    assert "after 1000 moves" in (embed.description or "")
    assert len(embed.description or "") < DESCRIPTION_LIMIT // 2
    assert (
        all(f.value is not None and len(f.value) <= FIELD_LIMIT for f in embed.fields)
        and len(embed.fields) >= 3
    )
    for language in (None, *LANGUAGES):  # the longest translation still leaves room
        assert len(rules_embed(1000, language)) < EMBED_LIMIT * 2 // 3, language


def test_rules_examples_are_real_lines_into_the_enemy_camp() -> None:
    text = whole_text(rules_embed(200))
    assert "D3-E5@B1" in text and "D4-C5" not in text


def test_the_picture_key_names_every_mark_the_renderer_draws() -> None:
    (key,) = [f.value for f in rules_embed(200).fields if f.name == "The picture"]
    for mark in ("marked", "guard", "last move", "captured", "placed", "camps"):
        assert key is not None
        assert mark in key.lower(), mark


def test_the_rules_define_each_tie_break_of_a_tournament_table() -> None:
    (tables,) = [f.value for f in rules_embed(200).fields if f.name == "Tournament tables"]
    assert tables is not None
    for definition in (
        "a match won 2, drawn 1, lost 0, a bye 2",
        "**Buchholz** (your opponents' MP added up)",
        "the MP of the opponents you beat, plus half the MP of those you drew with",
    ):
        assert definition in tables, definition
