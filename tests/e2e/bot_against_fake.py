"""``python bot_against_fake.py <jarmo-bot arguments>``: ``jarmo-bot`` with discord.py sent to
the loopback fake of Discord instead of discord.com.

discord.py has no setting for another API address, so this launcher, which runs only in the
test's child process, points the library's REST base and default gateway at the fake before the
bot starts. It is given only the fake's REST address (``FAKE_DISCORD_API``) and asks it where
the gateway is, as a client of Discord's ``GET /gateway`` would.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.request

API_ENV = "FAKE_DISCORD_API"


def point_discord_py_at(api_base_url: str) -> None:
    """Send discord.py's REST calls and gateway connection to the fake at ``api_base_url``."""
    # Imported here: the computer's worker processes start from this file too ("spawn"), and
    # need neither discord.py nor the command line.
    import discord
    import yarl

    with urllib.request.urlopen(f"{api_base_url}/gateway", timeout=10) as answer:
        gateway_url = json.load(answer)["url"]
    discord.http.Route.BASE = api_base_url.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


if __name__ == "__main__":
    point_discord_py_at(os.environ[API_ENV])
    from bot.__main__ import main

    sys.exit(main(sys.argv[1:]))
