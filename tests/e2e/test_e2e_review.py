"""End to end: a game ends, Review is pressed, and one message answers: it says how far the
review is, then becomes the review (the graph with its alternative text, each player's
accuracy, every move with its label or better move, the turning points' boards)."""

from __future__ import annotations

import re

from tests.e2e.bot_process import BotProcess
from tests.e2e.e2e_play import accept, challenge, check_png, check_private
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import Message

# Steps on lines both boards share; Bob then resigns.
MOVES = ["A1-C2", "A5-C4", "C2-E3", "B5-D4"]
MOVE_LINE = re.compile(r"^(\d+)\. (.+)$", re.M)


def reviewed(fake: FakeDiscord, message_id: int) -> Message:
    """The answer once the review has replaced its progress line (a snapshot)."""
    fake.wait_until(lambda: fake.messages[message_id].embeds, 30.0, "the review in the answer")
    return fake.message(message_id)


def test_a_finished_game_is_reviewed_in_one_edited_message(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    world = fake.world
    ann, bob = world.ann, world.bob
    here = world.channel("arena-3")
    accept(fake, challenge(fake, here, ann, bob, side="white"), bob)
    for number, move in enumerate(MOVES):
        fake.slash(ann if number % 2 == 0 else bob, here, "jarmo move", move=move).wait_answer()
    # While the game is on, a review is refused privately.
    check_private(fake.slash(ann, here, "jarmo review").wait_answer(), "still being played")
    prompt = fake.slash(bob, here, "jarmo resign").wait_answer()
    assert prompt.message is not None
    confirmed = fake.press(bob, prompt.message, "Yes, resign the match")
    confirmed.wait_answer()
    [ending] = confirmed.wait_followups(1)
    assert {"Rematch", "Review"} <= {button["label"] for button in ending.buttons}

    pressed = fake.press(world.cat, ending, "Review")  # anyone in the channel may ask
    answer = pressed.wait_answer()
    assert answer.type == 4 and answer.message is not None and not answer.ephemeral
    message = reviewed(fake, answer.message.id)
    assert pressed.followups == []  # one message, edited: nothing else was posted
    contents = [payload.get("content") or "" for payload in message.payloads]
    assert contents[0] == "Reviewing the game…"
    assert any("positions searched" in content for content in contents[1:])
    assert not message.content  # the progress line gave way to the review

    review = message.embeds[0]
    assert review["title"] == "Review · Ann v Bob"
    text = review["description"]
    assert f"White ({ann.mention}): **accuracy " in text
    assert f"Black ({bob.mention}): **accuracy " in text
    lines = dict(MOVE_LINE.findall(text))
    assert list(lines) == ["1", "2"]
    played = [
        note.split(" ")[0].rstrip("?!") for pair in lines.values() for note in pair.split(" · ")
    ]
    assert played == MOVES
    for pair in lines.values():  # a move that was not the best names the better one
        for note in pair.split(" · "):
            labelled = re.fullmatch(r"\S+ \((\w+); better (\S+)\)", note)
            assert labelled is None or labelled[1] in ("good", "inaccuracy", "mistake", "blunder")
    assert "A move without a note was the best move." in text

    assert review["image"]["url"] == "attachment://review.png"
    graph = message.attachment("review.png")
    check_png(graph.data)
    assert graph.description is not None
    assert graph.description.startswith("Graph of White's expected share of the game")
    for embed in message.embeds[1:]:  # the turning points, each with its board
        name = embed["image"]["url"].removeprefix("attachment://")
        check_png(message.attachment(name).data)
        assert embed["description"].startswith("Move ")

    # Asked again, the stored review answers at once, the same.
    again = fake.slash(ann, here, "jarmo review")
    repeated = again.wait_answer().message
    assert repeated is not None
    repeat = reviewed(fake, repeated.id)
    assert repeat.embeds[0]["description"] == text


def test_the_history_picker_reviews_a_game_privately(fake: FakeDiscord, bot: BotProcess) -> None:
    world = fake.world
    ann, bob = world.ann, world.bob
    here = world.channel("arena-4")
    accept(fake, challenge(fake, here, ann, bob, side="white"), bob)
    fake.slash(ann, here, "jarmo move", move="C1-E2").wait_answer()
    prompt = fake.slash(bob, here, "jarmo resign").wait_answer()
    assert prompt.message is not None
    fake.press(bob, prompt.message, "Yes, resign the match").wait_followups(1)

    history = fake.slash(ann, here, "jarmo history").wait_answer().message
    assert history is not None
    [picker] = [item for row in history.components for item in row["components"]]
    # The newest game is the first; Bob resigned, so the points are as they stood.
    [option] = [o for o in picker["options"] if o["label"].startswith("Review: 1. ")]
    assert option["label"] == "Review: 1. Won 5–5 v Bob"
    picked = fake.pick(ann, history, option["value"])
    answer = picked.wait_answer()
    assert answer.type == 4 and answer.ephemeral  # only the one who picked sees it
    assert answer.message is not None
    message = reviewed(fake, answer.message.id)
    assert message.ephemeral and message.embeds[0]["title"] == "Review · Ann v Bob"
    assert "1. C1-E2" in message.embeds[0]["description"]
