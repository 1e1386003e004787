"""End to end: a token Discord stops accepting while the bot runs (reset in the Developer
Portal) ends the bot as a rejected token at start does: one line naming where the token came
from, exit status 2, no traceback."""

from __future__ import annotations

from tests.e2e.bot_process import BotProcess
from tests.e2e.fake_discord import FakeDiscord

EXIT_SECONDS = 20.0


def test_a_token_reset_while_running_stops_the_bot_with_a_clear_line(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    assert bot.process is not None
    fake.reset_token()  # Discord closes the session with 4004 (Authentication failed)
    status = bot.process.wait(EXIT_SECONDS)
    said = bot.log_text().split("---- start 1 ----", 1)[1]
    assert status == 2, said  # "could not start": only the operator can fix it
    assert (
        "jarmo-bot: Discord rejected the token from the environment variable DISCORD_TOKEN. "
        "Reset it (Developer Portal -> Bot -> Reset Token)" in said
    ), said
    assert "unexpected error" not in said and "Traceback" not in said, said
