"""The board you click: the **Move** button under a board opens, for the player to move, a
private message (Components V2) with the board from their side and a 5x5 grid of buttons. They
click a piece, then its target (and in ludos perhaps a camp point to place on); the action goes
through the same use case as ``/jarmo move``.

Outside the bot's servers (DMs, group DMs) a message changes only through an interaction, so
the grid opens on the public board itself: each click edits that message, and the move turns it
into the board after the move. A click on an older board points to the newer one.

Each button's custom id names the game, its version and what was chosen so far, so a grid keeps
working after a restart; a click on a grid the game has moved past opens a fresh one."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.audience import channel_language
from bot.cogs.clock import offer_claim
from bot.cogs.grid_plan import BACK, LATER, Cell, GridPlan, OffGrid, Picked, Stage, click, plan
from bot.cogs.guards import place_of
from bot.cogs.items import CustomIdSpec, JarmoItem
from bot.cogs.live_offer import live_board
from bot.cogs.move_offer import EARLIER_MOVE_ID, MOVE_ID, move_button
from bot.cogs.replies import (
    EMBED_COLOUR,
    actor_of,
    as_card,
    computer_answers,
    edited,
    only_pinging,
    report_message,
)
from bot.cogs.tree import Unwelcome
from bot.cogs.words import (
    discord_voice,
    discord_words,
    picture_words,
    reader_language,
)
from bot.i18n import N_
from bot.jarmo import Side
from bot.service import BoardView, NoGameHere, NotYourTurn
from bot.words import game_title, position_line
from bot.words.descriptions import board_description

if TYPE_CHECKING:
    from bot.client import JarmoBot

GridButton = discord.ui.Button[discord.ui.LayoutView]
IMAGE = "board.png"
OUT_OF_DATE = N_("This board was out of date; here is the current one.")
NEWER_BOARD = N_(
    "This board is out of date: the game goes on under a newer board further down. "
    "/jarmo board shows it again."
)
GAME_OVER = N_(
    "This game has ended, so its board takes no more moves. /jarmo standings shows the result."
)
PIECE_MARKS: dict[str, dict[Side, str]] = {
    "ludos": {"white": "🟢", "black": "🔵"},  # Green and Blue, as the board image draws them
}
DEFAULT_MARKS: dict[Side, str] = {"white": "⚪", "black": "⚫"}


class MoveButton(
    JarmoItem,
    discord.ui.DynamicItem[GridButton],
    custom_id=MOVE_ID,
):
    """The **Move** button under a public board (of the position after ``plies`` actions):
    opens the grid for the player to move, privately, or outside servers on the board."""

    what = "move button"

    def __init__(self, game_id: int, plies: int | None, language: str | None = None) -> None:
        look = move_button(game_id, plies or 0, language)
        ids = (game_id,) if plies is None else (game_id, plies)
        look.custom_id = self.custom_id_spec.format(*ids)
        super().__init__(look)
        self.game_id, self.plies = game_id, plies

    async def handle(self, interaction: discord.Interaction[JarmoBot]) -> None:
        try:
            board = await movers_board(interaction)
        except NotYourTurn:
            if await offer_claim(interaction):
                return
            raise
        current = board.game.id == self.game_id and self.plies in (None, board.game.engine.ply)
        if not place_of(interaction).bot_posts:
            if not current:  # the newer board is the one to click: this one cannot change it
                raise Unwelcome(NEWER_BOARD)
            message = await grid_message(board, interaction, Picked())
            assert message.image is not None  # drawn unless asked not to
            # A board posted with embeds becomes a layout here: its embeds and text must go.
            await interaction.response.edit_message(
                content=None,
                embeds=[],
                view=message.view,
                attachments=[message.image],
                allowed_mentions=only_pinging(),
            )
            return
        message = await grid_message(board, interaction, Picked(), None if current else OUT_OF_DATE)
        assert message.image is not None  # drawn unless asked not to
        await interaction.response.send_message(
            view=message.view, file=message.image, ephemeral=True, allowed_mentions=only_pinging()
        )


class EarlierMoveButton(MoveButton, custom_id=EARLIER_MOVE_ID):
    """The **Move** button of a board posted before buttons named their position."""

    def __init__(self, game_id: int, language: str | None = None) -> None:
        super().__init__(game_id, None, language)


class GridCell(
    JarmoItem,
    discord.ui.DynamicItem[GridButton],
    custom_id=CustomIdSpec(
        "cell", game=int, version=int, picked="[A-E1-5-]{0,5}", clicked=f"[A-E][1-5]|{BACK}|{LATER}"
    ),
):
    """One button of a grid: a point of the board, or Back / Place later."""

    what = "grid"

    def __init__(
        self,
        game_id: int,
        version: int,
        picked: str,
        clicked: str,
        *,
        button: GridButton | None = None,
    ) -> None:
        look = button or discord.ui.Button(label=clicked)
        look.custom_id = self.custom_id_spec.format(game_id, version, picked, clicked)
        super().__init__(look)
        self.game_id, self.version, self.picked, self.clicked = game_id, version, picked, clicked

    async def handle(self, interaction: discord.Interaction[JarmoBot]) -> None:
        board = await movers_board(interaction)
        stored = board.game
        if (stored.id, stored.version) != (self.game_id, self.version):
            await show(interaction, board, Picked(), OUT_OF_DATE)
            return
        try:
            step = click(stored.engine, Picked.parse(self.picked), self.clicked)
        except OffGrid:
            await show(interaction, board, Picked(), OUT_OF_DATE)
            return
        if isinstance(step, Picked):
            await show(interaction, board, step)
            return
        service = interaction.client.service
        place = place_of(interaction)
        report = await service.play.move_on(place, actor_of(interaction), board, step)
        language = await channel_language(interaction)
        live = await live_board(interaction.client, report)
        if not place.bot_posts:  # the grid was on the public board: it becomes the new board
            card = as_card(await report_message(report, language, live=live))
            await interaction.response.edit_message(**edited(card))
            await computer_answers(interaction, report, in_place=True)
            return
        _ = discord_words(reader_language(interaction)).gettext
        done = discord.ui.LayoutView(timeout=None)
        done.add_item(
            discord.ui.TextDisplay(_("You played **{move}**.").format(move=report.action))
        )
        await interaction.response.edit_message(view=done, attachments=[])
        await interaction.followup.send(**await report_message(report, language, live=live))
        await computer_answers(interaction, report)


async def movers_board(interaction: discord.Interaction[JarmoBot]) -> BoardView:
    """The channel's game seen by the one who clicked, who must be the player to move; else a
    refusal (no game any more, not a player, not their turn: the service checks)."""
    service = interaction.client.service
    try:
        return await service.play.movers_board(place_of(interaction), actor_of(interaction))
    except NoGameHere:
        raise Unwelcome(GAME_OVER) from None


async def show(
    interaction: discord.Interaction[JarmoBot],
    board: BoardView,
    picked: Picked,
    notice: str | None = None,
) -> None:
    """Turn the clicked grid into the grid after ``picked`` (a fresh image with a notice)."""
    # Without a notice the position is the one shown: its image stays, and is not drawn again.
    message = await grid_message(board, interaction, picked, notice, image=notice is not None)
    if message.image is None:
        await interaction.response.edit_message(view=message.view)
    else:
        await interaction.response.edit_message(view=message.view, attachments=[message.image])


@dataclass(frozen=True, slots=True)
class GridMessage:
    """A grid's layout and the board image it shows (``None``: the one already shown)."""

    view: discord.ui.LayoutView
    image: discord.File | None


async def grid_message(
    board: BoardView,
    interaction: discord.Interaction[JarmoBot],
    picked: Picked,
    notice: str | None = None,
    *,
    image: bool = True,
) -> GridMessage:
    """The private grid for the clicking player (the player to move) after ``picked``, with
    the board's image drawn if ``image``."""
    language = reader_language(interaction)
    stored, position = board.game, board.game.engine
    side = stored.side_of(interaction.user.id)
    assert side is not None  # movers_board checked it
    try:
        grid = plan(position, side, picked)
    except OffGrid:
        grid, notice = plan(position, side), OUT_OF_DATE
    _ = discord_words(language).gettext
    voice = discord_voice(language)
    lines = [
        _(notice) if notice else "",
        f"### {game_title(board, voice)}",
        position_line(board, voice),
        f"**{instruction(grid, language)}**",
    ]
    description = board_description(board, voice)
    marks = PIECE_MARKS.get(position.ruleset, DEFAULT_MARKS)
    cells = [
        discord.ui.ActionRow[Any](
            *(cell_button(stored.id, stored.version, grid, cell, marks) for cell in row)
        )
        for row in grid.rows
    ]
    container = discord.ui.Container[Any](
        discord.ui.TextDisplay("\n".join(line for line in lines if line)),
        discord.ui.MediaGallery(
            discord.MediaGalleryItem(f"attachment://{IMAGE}", description=description)
        ),
        *cells,
        accent_colour=EMBED_COLOUR,
    )
    extras = extra_buttons(stored.id, stored.version, grid, language)
    if extras:
        container.add_item(discord.ui.ActionRow[Any](*extras))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    if not image:
        return GridMessage(view, None)
    png = await board.image.png(picture_words(language))
    return GridMessage(view, discord.File(io.BytesIO(png), filename=IMAGE, description=description))


def instruction(grid: GridPlan, language: str | None) -> str:
    """What to click now."""
    _ = discord_words(language).gettext
    picked = grid.picked
    if grid.stage is Stage.PIECE:
        if grid.brings_pieces_in:
            return _("Click a piece to move, or a lit point of your camp to bring a piece in.")
        return _("Click a piece to move.")
    if grid.stage is Stage.TARGET:
        return _("Where to? Click a lit point for the piece on {point}.").format(point=str(picked))
    text = _("Your piece wins one back: click a lit point of your camp to place it now.")
    if grid.can_place_later:
        text += " " + _("Or keep it in reserve with “Place later”.")
    return text


def cell_button(
    game_id: int, version: int, grid: GridPlan, cell: Cell, marks: dict[Side, str]
) -> GridCell:
    """The button of one point: its name, the piece standing there, lit if clickable now."""
    if cell.chosen:
        style = discord.ButtonStyle.success
    elif cell.enabled and cell.owner is not None and grid.stage is Stage.TARGET:
        style = discord.ButtonStyle.danger  # a capture
    elif cell.enabled:
        style = discord.ButtonStyle.primary
    else:
        style = discord.ButtonStyle.secondary
    look: GridButton = discord.ui.Button(
        label=cell.name,
        emoji=marks[cell.owner] if cell.owner else None,
        style=style,
        disabled=not cell.enabled,
    )
    return GridCell(game_id, version, str(grid.picked), cell.name, button=look)


def extra_buttons(
    game_id: int, version: int, grid: GridPlan, language: str | None
) -> list[GridCell]:
    """Back (once a piece is chosen) and Place later (when placing can wait)."""
    if grid.stage is Stage.PIECE:
        return []
    _ = discord_words(language).gettext
    picked = str(grid.picked)
    back: GridButton = discord.ui.Button(label=_("Back"), style=discord.ButtonStyle.secondary)
    buttons = [GridCell(game_id, version, picked, BACK, button=back)]
    if grid.can_place_later:
        later: GridButton = discord.ui.Button(
            label=_("Place later"), style=discord.ButtonStyle.primary
        )
        buttons.append(GridCell(game_id, version, picked, LATER, button=later))
    return buttons
