"""End to end in Polish: a Polish community server (its locale ``pl``) where Ann and Bob use
Discord in Polish. Private replies follow each reader's own locale, public posts the server's;
the slash commands are published with their Polish names.

One bot process serves the module (fresh database), with its own fake Discord.
"""

from __future__ import annotations

import pytest

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import check_board_embed, check_private
from tests.e2e.fake_discord import FakeDiscord


@pytest.fixture(scope="module", autouse=True)
def polish_server(fake: FakeDiscord) -> None:
    """Set before the bot's first interaction: the server and two of its members speak Polish
    (Cat's client stays in English)."""
    fake.guild_locale = "pl"
    fake.user_locales.update({fake.world.ann.id: "pl", fake.world.bob.id: "pl"})


def test_the_commands_are_published_with_polish_and_german_names(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    [jarmo] = fake.wait_commands(fake.world.guild_id)
    assert jarmo["description_localizations"]["pl"] == "Graj w Jarmo, dawną tatarską grę bitewną"
    options = {option["name"]: option for option in jarmo["options"]}
    assert options["move"]["name_localizations"] == {"pl": "ruch", "de": "zug"}
    assert options["resign"]["name_localizations"]["pl"] == "poddaj"


def test_a_game_in_polish(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    ann, bob, cat = world.ann, world.bob, world.cat
    here = world.channel("arena-1")

    # Ann challenges Bob: the challenge is public, in the server's Polish.
    answer = fake.slash(ann, here, "jarmo challenge", opponent=bob, side="white").wait_answer()
    assert answer.type == 4 and answer.message is not None and not answer.ephemeral
    challenge = answer.message
    assert challenge.content.startswith(
        f"{ann.mention} wyzywa {bob.mention} na jedną partię Jarmo "
        "(zasady classic, opublikowana plansza; "
        f"{ann.mention} ma Białe w pierwszej partii). Wyzwanie wygasa <t:"
    )
    assert [button["label"] for button in challenge.buttons] == ["Przyjmij", "Odrzuć", "Wycofaj"]

    # Cat, whose Discord is in English, may not accept it: she is told so in English.
    check_private(fake.press(cat, challenge, "Przyjmij").wait_answer(), "Only the challenged")

    pressed = fake.press(bob, challenge, "Przyjmij")
    accepted = pressed.wait_answer()
    assert accepted.type == 7 and accepted.message is not None
    assert "**Przyjęte.** Do gry!" in accepted.message.content
    [board] = pressed.wait_followups(1)
    assert board.content == f"{ann.mention}, twój ruch."
    embed = check_board_embed(board)
    assert embed["title"] == "Partia 1 z 1 · classic / opublikowana plansza"
    assert "Białe Ann 5 – 5 Bob Czarne" in embed["description"]
    assert f"Ruch 1: kolej na {ann.mention} (Białe)." in embed["description"]

    # Bob tries to move first: a private refusal, in his Polish.
    early = fake.slash(bob, here, "jarmo move", move="A5-C4").wait_answer()
    check_private(early, "Teraz kolej na Ann (Białe). Poczekaj na ten ruch.")
    # A move that cannot be read, explained in Polish; the game is untouched.
    garbled = fake.slash(ann, here, "jarmo move", move="Z9").wait_answer()
    check_private(garbled, "Nie mogę odczytać 'Z9'", "Twój ruch nie został zagrany.")

    moved = fake.slash(ann, here, "jarmo move", move="A1-C2").wait_answer()
    assert moved.message is not None and not moved.ephemeral
    text = check_board_embed(moved.message)["description"]
    assert text.startswith(f"{ann.mention} zagrał(a) **A1-C2**.")
    assert f"Ruch 2: kolej na {bob.mention} (Czarne)." in text
    assert moved.message.content == f"{bob.mention}, twój ruch."

    # Cat reads in English even here: private answers follow the reader.
    check_private(fake.slash(cat, here, "jarmo move", move="B5-C3").wait_answer(), "not playing")

    # Bob resigns after a private confirmation in Polish; the result is public, in Polish.
    prompt = fake.slash(bob, here, "jarmo resign").wait_answer()
    assert prompt.message is not None and prompt.ephemeral
    assert prompt.message.content.startswith("Poddać się? Przegrywasz tę partię")
    confirmed = fake.press(bob, prompt.message, "Tak, poddaję mecz")
    answer = confirmed.wait_answer()
    assert answer.type == 7 and answer.content == "Poddałeś(-aś) się."
    [report] = confirmed.wait_followups(1)
    assert not report.ephemeral
    ending = report.embeds[0]["description"]
    assert f"{bob.mention} poddaje się." in ending
    assert f"{ann.mention} wygrywa mecz (walkowerem)!" in ending

    standings = fake.slash(cat, here, "jarmo standings").wait_answer()
    assert standings.type == 4 and not standings.ephemeral  # public: the server's language
    assert "Mecz na 1 partię · classic / opublikowana plansza" in standings.embeds[0]["description"]
