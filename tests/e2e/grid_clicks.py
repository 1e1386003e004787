"""Playing through the click grid as a person would: press **Move** under a board, then the
grid's buttons, checking at every step what Discord would show (Components V2)."""

from __future__ import annotations

from typing import Any

from bot.jarmo import POINT_NAMES, Action, Game
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_models import COMPONENTS_V2, Interaction, Message, User

CELLS = {f"{c}{r}" for c in "ABCDE" for r in range(1, 6)}


def open_grid(fake: FakeDiscord, board: Message, user: User) -> Message:
    """``user`` presses **Move** under a board; returns the private grid it opens."""
    answer = fake.press(user, board, "Move").wait_answer()
    assert answer.type == 4 and answer.message is not None, answer
    grid = answer.message
    check_grid(grid)
    assert grid.interaction is not None and grid.interaction.user == user
    return grid


def check_grid(grid: Message) -> None:
    """A private V2 message: the board image in a media gallery and a 5x5 grid of points."""
    assert grid.ephemeral and grid.flags & COMPONENTS_V2
    assert not grid.content and not grid.embeds
    [container] = grid.components
    assert container["type"] == 17
    kinds = [c["type"] for c in container["components"]]
    assert kinds[:2] == [10, 12] and kinds[2:7] == [1] * 5, kinds
    gallery_item = container["components"][1]["items"][0]
    assert gallery_item["media"]["url"] == "attachment://board.png"
    image = grid.attachment("board.png")
    assert image.data.startswith(b"\x89PNG")
    # The alternative text, on the file and on the gallery item that shows it.
    assert image.description and image.description.startswith("Jarmo board, game ")
    assert gallery_item["description"] == image.description
    assert [len(row) for row in cells(grid)] == [5] * 5


def cells(grid: Message) -> list[list[dict[str, Any]]]:
    """The grid's rows of point buttons, top row first."""
    rows = grid.components[0]["components"][2:7]
    return [row["components"] for row in rows]


def lit(grid: Message) -> set[str]:
    """The points that may be clicked now."""
    return {b["label"] for row in cells(grid) for b in row if not b.get("disabled")}


def clicks_for(game: Game, action: str) -> list[str]:
    """The buttons to press, in order, to play ``action`` (``B1-D2``, ``@B1``, ``D3-E5@B1``):
    its points, then "Place later" for a ludos step that could place but does not."""
    parsed = Action.parse(action)
    points = [p for p in (parsed.origin, parsed.target, parsed.place) if p is not None]
    steps = [POINT_NAMES[p] for p in points]
    step = action.replace("x", "-")
    moves = [m.replace("x", "-") for m in game.legal_moves()]
    if parsed.place is None and any(m.startswith(step + "@") for m in moves):
        steps.append("Place later")
    return steps


def click_move(
    fake: FakeDiscord, grid: Message, user: User, game: Game, action: str
) -> Interaction:
    """Play ``action`` on the grid, one click at a time; returns the click that plays it."""
    return click(fake, grid, user, *clicks_for(game, action))


def click(fake: FakeDiscord, grid: Message, user: User, *labels: str) -> Interaction:
    """Press these buttons of the grid in turn, each lit when pressed and each updating the
    grid in place; returns the last press."""
    press = None
    for index, label in enumerate(labels, start=1):
        current = fake.message(grid.id)
        if label in CELLS:
            assert label in lit(current), (label, sorted(lit(current)))
        press = fake.press(user, current, label)
        answer = press.wait_answer()
        assert answer.type == 7, answer
        if index < len(labels):  # the last click may have played the move
            check_grid(fake.message(grid.id))
    assert press is not None
    return press
