"""Playing Jarmo through the fake like two people would, checking every reply against a local
``bot.jarmo.Game`` that replays the same moves."""

from __future__ import annotations

import io
import random
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from PIL import Image

from bot.jarmo import Game, Side, side_name
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import Answer, Channel, Message, Place, Thread, User

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ANNOUNCED_BOARD = re.compile(r"board-[0-9a-f]{24}\.png")  # see bot.cogs.replies.announced_file
SCORE = re.compile(
    r"(?:White|Green) (?P<white_name>.+?) (?P<white>\d+) – (?P<black>\d+) (?P<black_name>.+?) "
    r"(?:Black|Blue)"
)
TURN = re.compile(r"Turn (?P<ply>\d+): <@(?P<user>\d+)> to move \((?P<side>[A-Z][a-z]+)\)\.")
ENDING = re.compile(r"<@(?P<winner>\d+)> wins game (?P<index>\d+), (?P<won>\d+)–(?P<lost>\d+) ")
DRAWN = re.compile(r"Game (?P<index>\d+) is drawn, (?P<white>\d+)–(?P<black>\d+) ")


def squash(text: str) -> str:
    """Move text without case or separators: what autocomplete matching ignores ('a1 c' finds
    'A1-C2', as the command's help promises)."""
    return "".join(ch for ch in text.upper() if ch not in " -–—:X@")


def expected_suggestions(game: Game, typed: str) -> list[str]:
    """The local engine's legal moves that match what the player typed."""
    wanted = squash(typed)
    return [m for m in game.legal_moves() if squash(m).startswith(wanted)]


def pick_move(game: Game, rng: random.Random) -> str:
    """A greedy, seeded choice that ends games quickly: win if possible, else best points."""
    side = game.turn
    other: Side = "black" if side == "white" else "white"
    best: tuple[float, str] | None = None
    for move in game.legal_moves():
        after = game.copy()
        after.play(move)
        points = after.points()
        score = (points[side] - points[other]) * 10 + rng.random()
        if after.over and after.winner() == side:
            score += 1000
        if best is None or score > best[0]:
            best = (score, move)
    assert best is not None, "no legal move"
    return best[1]


def check_png(data: bytes) -> tuple[int, int]:
    """The bytes are a PNG that Pillow opens; returns its size."""
    assert data.startswith(PNG_SIGNATURE), "the board is not a PNG"
    with Image.open(io.BytesIO(data)) as image:
        image.verify()
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        return image.size


def check_board_embed(
    message: Message, index: int = 0, filename: str = "board.png"
) -> dict[str, Any]:
    """Embed ``index`` shows ``attachment://filename`` and that file is an attached PNG with
    alternative text for screen readers."""
    assert len(message.embeds) > index, f"message {message.id} has {len(message.embeds)} embeds"
    embed = message.embeds[index]
    shown = embed["image"]["url"].removeprefix("attachment://")
    if filename == "board.png" and ANNOUNCED_BOARD.fullmatch(shown):
        filename = shown  # a computer's move: its board's name carries the announcement's token
    assert embed["image"]["url"] == f"attachment://{filename}"
    attachment = message.attachment(filename)
    assert attachment.description, f"{filename} has no alternative text"
    width, height = check_png(attachment.data)
    assert width >= 200 and height >= 200
    return embed


def check_position(text: str, game: Game, white: User, black: User) -> None:
    """Points and whose turn it is, as the description states them, match the local game."""
    score = SCORE.search(text)
    assert score, f"no score line in {text!r}"
    points = game.points()
    assert (int(score["white"]), int(score["black"])) == (points["white"], points["black"])
    assert (score["white_name"], score["black_name"]) == (white.display_name, black.display_name)
    turn = TURN.search(text)
    assert turn, f"no turn line in {text!r}"
    mover = white if game.turn == "white" else black
    assert int(turn["ply"]) == game.ply + 1
    assert (int(turn["user"]), turn["side"]) == (mover.id, side_name(game.turn, game.ruleset))


def check_alt_text(description: str | None, game: Game, white: User, black: User) -> None:
    """A board's alternative text says the score, the last move and whose move it is, with
    display names (a screen reader would read a mention's markup)."""
    assert description is not None
    points = game.points()
    white_side, black_side = side_name("white", game.ruleset), side_name("black", game.ruleset)
    assert (
        f"Score: {white_side} {white.display_name} {points['white']}, "
        f"{black_side} {black.display_name} {points['black']}." in description
    ), description
    history = game.history
    assert (f"Last move: {history[-1]}." if history else "No move played yet.") in description
    mover = white if game.turn == "white" else black
    side = side_name(game.turn, game.ruleset)
    assert description.endswith(f"{mover.display_name} to move ({side})."), description
    assert "<@" not in description


def check_private(answer: Answer, *fragments: str) -> None:
    """An ephemeral message answer, text only, pinging nobody."""
    assert answer.type == 4, f"answer type {answer.type}"
    message = answer.message
    assert message is not None
    assert message.ephemeral, f"not ephemeral: {message.content!r}"
    assert not message.attachments and not message.embeds
    assert message.pinged == frozenset()
    for fragment in fragments:
        assert fragment.lower() in message.content.lower(), (fragment, message.content)


@dataclass
class Table:
    """One channel's match: who plays White in the current game, and a local replay of it."""

    fake: FakeDiscord
    channel: Channel | Thread | Place
    white: User
    black: User
    game: Game = field(default_factory=Game.new)
    index: int = 1
    games: int = 1
    rng: random.Random = field(default_factory=lambda: random.Random(7))

    @property
    def mover(self) -> User:
        return self.white if self.game.turn == "white" else self.black

    @property
    def players(self) -> tuple[User, User]:
        """(White, Black) in the current game."""
        return self.white, self.black

    @property
    def waiting(self) -> User:
        return self.black if self.game.turn == "white" else self.white

    @classmethod
    def start(
        cls,
        fake: FakeDiscord,
        channel: Channel | Thread | Place,
        challenger: User,
        opponent: User,
        *,
        games: int = 1,
        time_per_move: str | None = None,
    ) -> Table:
        """The challenger challenges (playing White first, with ``time_per_move`` if given)
        and the opponent accepts."""
        timed = {} if time_per_move is None else {"time_per_move": time_per_move}
        message = challenge(fake, channel, challenger, opponent, games=games, side="white", **timed)
        table = cls(fake, channel, challenger, opponent, games=games)
        board = accept(fake, message, opponent)
        table.check_board(board)
        return table

    def check_board(self, message: Message) -> None:
        """A public board reply for the running game: image, title, points, turn, ping."""
        assert not message.ephemeral
        embed = check_board_embed(message)
        assert embed["title"] == f"Game {self.index} of {self.games} · classic / published board"
        check_position(embed["description"], self.game, self.white, self.black)
        alt_text = message.attachment("board.png").description
        check_alt_text(alt_text, self.game, self.white, self.black)
        assert message.content == f"{self.mover.mention}, your move."
        assert message.pinged == {self.mover.id}

    def play(self, move: str | None = None, *, autocomplete: bool = True) -> Answer:
        """The player to move plays ``move`` (a greedy choice if None), optionally picking it
        from the autocomplete list first; checks the reply and the local replay."""
        move = move or pick_move(self.game, self.rng)
        if autocomplete:
            typed = move[:2]
            choices = suggest(self.fake, self.channel, self.mover, typed)
            wanted = expected_suggestions(self.game, typed)
            assert len(choices) == min(len(wanted), 25)
            assert set(choices) <= set(wanted) and move in wanted
            assert suggest(self.fake, self.channel, self.waiting, typed) == []
        mover = self.mover
        answer = self.fake.slash(mover, self.channel, "jarmo move", move=move).wait_answer()
        played = self.game.play(move)
        assert answer.type == 4 and answer.message is not None
        message = answer.message
        embed = check_board_embed(message)
        assert embed["description"].startswith(f"{mover.mention} played **{played}**.")
        if self.game.over:
            self._check_ending(message)
        else:
            self.check_board(message)
        return answer

    def play_to_end(self, limit: int = 200) -> Answer:
        """Play the current game to its end; returns the last reply."""
        game = self.game
        for _ in range(limit):
            answer = self.play()
            if game.over:
                return answer
        raise AssertionError(f"the game did not end within {limit} moves")

    def _check_ending(self, message: Message) -> None:
        embed = message.embeds[0]
        text = embed["description"]
        points = self.game.points()
        winner = self.game.winner()
        found = ENDING.search(text) if winner else DRAWN.search(text)
        assert found, f"no ending line in {text!r}"
        alt_text = message.attachment("board.png").description or ""
        assert "The game is over: " in alt_text, alt_text
        assert int(found["index"]) == self.index
        if winner:
            expected = self.white if winner == "white" else self.black
            assert int(found["winner"]) == expected.id
            loser: Side = "black" if winner == "white" else "white"
            assert (int(found["won"]), int(found["lost"])) == (points[winner], points[loser])
        else:
            assert (int(found["white"]), int(found["black"])) == (points["white"], points["black"])
        if self.index < self.games:
            # The next game starts at once, sides swapped, shown in a second embed.
            self.white, self.black = self.black, self.white
            self.game, self.index = Game.new(), self.index + 1
            assert len(message.embeds) == 2
            nxt = check_board_embed(message, 1, "next.png")
            assert nxt["title"] == f"Game {self.index} of {self.games} · classic / published board"
            check_position(nxt["description"], self.game, self.white, self.black)
            assert message.content == f"{self.mover.mention}, your move."
            assert message.pinged == {self.mover.id}
        else:
            assert len(message.embeds) == 1
            assert not message.content
            assert message.pinged == frozenset()


def challenge(
    fake: FakeDiscord,
    channel: Channel | Thread | Place,
    challenger: User,
    opponent: User,
    **options: Any,
) -> Message:
    """``/jarmo challenge``; checks the public announcement and returns it."""
    answer = fake.slash(
        challenger, channel, "jarmo challenge", opponent=opponent, **options
    ).wait_answer()
    assert answer.type == 4 and answer.message is not None, answer
    message = answer.message
    assert not message.ephemeral
    assert message.content.startswith(f"{challenger.mention} challenges {opponent.mention}")
    assert message.pinged == {opponent.id}
    assert [b["label"] for b in message.buttons] == ["Accept", "Decline", "Withdraw"]
    return message


def accept(fake: FakeDiscord, message: Message, opponent: User) -> Message:
    """The opponent presses Accept: the challenge message is updated in place (buttons gone)
    and the first board follows; returns the board message."""
    press = fake.press(opponent, message, "Accept")
    answer = press.wait_answer()
    assert answer.type == 7 and answer.message is not None, answer
    assert answer.message.id == message.id
    assert "**Accepted.**" in answer.message.content
    assert answer.message.components == []
    [board] = press.wait_followups(1)
    to_move = int(board.content.removeprefix("<@").split(">")[0])
    # The player who pressed Accept is looking at the answer: only the other one is notified.
    assert board.pinged == ({to_move} - {opponent.id})
    return board


def suggest(
    fake: FakeDiscord, channel: Channel | Thread | Place, user: User, typed: str
) -> list[str]:
    """What autocomplete offers ``user`` for the move option after typing ``typed``."""
    answer = fake.autocomplete(user, channel, "jarmo move", "move", move=typed).wait_answer()
    assert answer.type == 8, answer
    names = [c["name"] for c in answer.choices]
    assert names == [c["value"] for c in answer.choices]
    return names


def board_text(fake: FakeDiscord, channel: Channel | Thread | Place, user: User) -> str:
    """``/jarmo board`` (public); returns the embed's description after checking the image."""
    answer = fake.slash(user, channel, "jarmo board").wait_answer()
    assert answer.type == 4 and answer.message is not None and not answer.ephemeral
    description: str = check_board_embed(answer.message)["description"]
    return description


def challenge_id(message: Message) -> int:
    """The challenge's id, from its buttons' custom ids (``jarmo:challenge:<id>:<answer>``)."""
    return int(message.button("Accept")["custom_id"].split(":")[2])


def wait_challenge_recorded(database: Path, challenge: int, timeout: float = 20.0) -> None:
    """Until the bot has stored which message shows the challenge (its last step after
    answering /jarmo challenge). Stopping the bot before that would cut the step off."""
    deadline = time.monotonic() + timeout
    while True:
        with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)) as db:
            row = db.execute("SELECT message_id FROM challenges WHERE id = ?", (challenge,))
            found = row.fetchone()
        if found and found[0] is not None:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"challenge {challenge}'s message id was never stored")
        time.sleep(0.02)


def backdate_challenge(database: Path, challenge: int) -> None:
    """Make a pending challenge overdue, as if its expiry time had passed (the shortest expiry
    the configuration allows is 30 s; the tests do not wait that long)."""
    past = (datetime.now(UTC) - timedelta(minutes=5)).isoformat(timespec="microseconds")
    with closing(sqlite3.connect(database, timeout=10)) as db, db:
        changed = db.execute(
            "UPDATE challenges SET expires_at = ? WHERE id = ? AND status = 'pending'",
            (past, challenge),
        ).rowcount
    assert changed == 1, f"challenge {challenge} is not pending"


MANAGE_GUILD = 1 << 5  # the permission that lets a member run tournaments and moderate games


@contextmanager
def manager(fake: FakeDiscord, user: User) -> Iterator[None]:
    """``user`` may manage the server for the duration."""
    world = fake.world
    usual = world.permissions

    def widened(who: User) -> int:
        return usual(who) | (MANAGE_GUILD if who is user else 0)

    world.permissions = widened  # type: ignore[method-assign, assignment]  # for the duration
    try:
        yield
    finally:
        del world.permissions
