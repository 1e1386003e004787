"""Screenshots without Discord: draw what the loopback fake of Discord stored for a channel (or a
thread) as a Discord-like picture: author, text, embeds, attached images, Components V2
containers and buttons, private ("Only you can see this") messages marked.

``python bench/make_screens.py`` runs the real bot against the fake, plays a few moves, opens
the click grid and picks a piece, and writes ``docs/images/click-grid.png``; then plays a match
in a thread of its own and writes ``docs/images/thread.png``. To shoot another
scene, drive the fake as the e2e tests do and call ``save_screenshot(fake, messages, path)``
with the messages to show (``latest(fake, channel_or_thread_id, count)``, plus private ones).
"""

from __future__ import annotations

import io
import re
import sys
import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from fake_discord import FakeDiscord  # noqa: E402
from fake_models import Message  # noqa: E402

FONTS = ROOT / "bot" / "render" / "fonts"
OUT = ROOT / "docs" / "images"
WIDTH, MARGIN, AVATAR, GUTTER = 760, 16, 40, 72
BODY = WIDTH - GUTTER - MARGIN
IMAGE_WIDTH = 400  # Discord shows a board at about this width in a desktop window

# Discord's dark theme.
BACKGROUND, TEXT, MUTED, NAME = "#313338", "#dbdee1", "#949ba4", "#f2f3f5"
EMBED, CONTAINER = "#2b2d31", "#2b2d31"
MENTION_BG, MENTION_TEXT = "#3c4270", "#c9cdfb"
BOT_TAG = "#5865f2"
BUTTON_COLOURS = {1: "#5865f2", 2: "#4e5058", 3: "#248046", 4: "#da373c", 5: "#4e5058"}
MARKS = {"⚪": "#f2f3f5", "⚫": "#111214", "🟢": "#3ba55d", "🔵": "#3b82f6"}
TOKENS = re.compile(r"(\*\*.+?\*\*|<@!?\d+>|<t:\d+:[a-zA-Z]>)")


@dataclass(frozen=True)
class Fonts:
    regular: ImageFont.FreeTypeFont
    bold: ImageFont.FreeTypeFont
    heading: ImageFont.FreeTypeFont
    small: ImageFont.FreeTypeFont


def fonts() -> Fonts:
    def face(name: str, size: int) -> ImageFont.FreeTypeFont:
        return ImageFont.truetype(str(FONTS / name), size)

    return Fonts(
        face("DejaVuSans.ttf", 15),
        face("DejaVuSans-Bold.ttf", 15),
        face("DejaVuSans-Bold.ttf", 19),
        face("DejaVuSans.ttf", 12),
    )


class Canvas:
    """A tall sheet drawn top to bottom, cropped to what was drawn at the end."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.image = Image.new("RGB", (WIDTH, 6000), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        self.fonts = fonts()
        self.fake = fake
        self.y = MARGIN

    def result(self) -> Image.Image:
        return self.image.crop((0, 0, WIDTH, self.y + MARGIN))

    # -- text ----------------------------------------------------------------------------

    def name_of(self, user_id: int) -> str:
        user = self.fake.world.user(user_id)
        return user.display_name if user else str(user_id)

    def text(self, x: int, width: int, text: str, *, colour: str = TEXT) -> None:
        """Markdown-ish text (bold, ### headings, mentions, timestamps), wrapped to ``width``."""
        for line in text.split("\n"):
            face = self.fonts.regular
            if line.startswith("### "):
                line, face = line[4:], self.fonts.heading
            self._line(x, width, line, face, colour)

    def _line(self, x: int, width: int, line: str, face: Any, colour: str) -> None:
        height = int(face.size * 1.45)
        cursor = x
        for token in TOKENS.split(line):
            if not token:
                continue
            style, shown = "plain", token
            if token.startswith("**"):
                style, shown = "bold", token[2:-2]
            elif token.startswith("<@"):
                style, shown = "mention", "@" + self.name_of(int(re.sub(r"\D", "", token)))
            elif token.startswith("<t:"):
                style, shown = "bold", "in 1 day"
            use = self.fonts.bold if style == "bold" and face is self.fonts.regular else face
            for word in re.split(r"(\s+)", shown):
                if not word:
                    continue
                size = int(self.draw.textlength(word, font=use))
                if cursor + size > x + width and not word.isspace() and cursor > x:
                    self.y += height
                    cursor = x
                if word.isspace() and cursor == x:
                    continue
                if style == "mention":
                    box = (cursor - 1, self.y, cursor + size + 1, self.y + height - 3)
                    self.draw.rounded_rectangle(box, 3, fill=MENTION_BG)
                fill = MENTION_TEXT if style == "mention" else colour
                self.draw.text((cursor, self.y + 1), word, font=use, fill=fill)
                cursor += size
        self.y += height

    # -- pieces of a message ---------------------------------------------------------------

    def header(self, message: Message) -> None:
        author = message.author
        box = (MARGIN, self.y, MARGIN + AVATAR, self.y + AVATAR)
        self.draw.ellipse(box, fill=BOT_TAG if author.bot else "#e67e22")
        initial = author.display_name[:1].upper()
        centre = (MARGIN + AVATAR // 2, self.y + AVATAR // 2)
        self.draw.text(centre, initial, font=self.fonts.heading, fill="white", anchor="mm")
        x = GUTTER
        self.draw.text((x, self.y), author.display_name, font=self.fonts.bold, fill=NAME)
        x += int(self.draw.textlength(author.display_name, font=self.fonts.bold)) + 6
        if author.bot:
            tag = (x, self.y + 2, x + 30, self.y + 17)
            self.draw.rounded_rectangle(tag, 3, fill=BOT_TAG)
            self.draw.text((x + 15, self.y + 10), "APP", font=self.fonts.small, fill="white",
                           anchor="mm")  # fmt: skip
            x += 36
        moment = datetime.fromtimestamp(message.created).strftime("Today at %H:%M")
        self.draw.text((x, self.y + 3), moment, font=self.fonts.small, fill=MUTED)
        self.y += 22

    def attachment_image(self, message: Message, url: str, x: int, width: int) -> None:
        name = url.removeprefix("attachment://")
        found = next((a for a in message.attachments if a.filename == name), None)
        if found is None:
            return
        with Image.open(io.BytesIO(found.data)) as source:
            picture = source.convert("RGB")
        scale = min(1.0, width / picture.width)
        picture = picture.resize((int(picture.width * scale), int(picture.height * scale)))
        self.image.paste(picture, (x, self.y + 4))
        self.y += picture.height + 10

    def embed(self, message: Message, embed: dict[str, Any]) -> None:
        top = self.y
        self.y += 10
        inner = GUTTER + 16
        if embed.get("title"):
            self._line(inner, BODY - 32, f"**{embed['title']}**", self.fonts.regular, NAME)
        if embed.get("description"):
            self.text(inner, BODY - 32, embed["description"])
        image = (embed.get("image") or {}).get("url", "")
        if image.startswith("attachment://"):
            self.attachment_image(message, image, inner, IMAGE_WIDTH)
        self.y += 8
        self._panel(top, embed.get("color"))

    def _panel(self, top: int, colour: int | None, *, top_level: bool = True) -> None:
        """The embed or container box behind what was drawn since ``top``, with its bar."""
        left = GUTTER if top_level else GUTTER + 8
        panel = self.image.crop((left, top, WIDTH - MARGIN, self.y))
        # Drawn on the page's background, the box fills in behind: what still shows the page's
        # colour becomes the box's.
        untouched = ImageChops.difference(panel, Image.new("RGB", panel.size, BACKGROUND))
        mask = untouched.convert("L").point(lambda v: 255 if v else 0)
        back = Image.new("RGB", panel.size, EMBED)
        back.paste(panel, (0, 0), mask)
        self.image.paste(back, (left, top))
        bar = f"#{colour:06x}" if colour else "#1e1f22"
        self.draw.rounded_rectangle((left, top, left + 4, self.y), 2, fill=bar)
        self.y += 6

    def buttons(self, row: list[dict[str, Any]], x: int) -> None:
        cursor, height = x, 34
        for item in row:
            label = item.get("label") or ""
            emoji = (item.get("emoji") or {}).get("name")
            width = max(60, int(self.draw.textlength(label, font=self.fonts.bold)) + 28)
            width += 22 if emoji else 0
            fill = BUTTON_COLOURS.get(item.get("style", 2), BUTTON_COLOURS[2])
            box = (cursor, self.y, cursor + width, self.y + height)
            layer = Image.new("RGBA", (width + 1, height + 1), (0, 0, 0, 0))
            ImageDraw.Draw(layer).rounded_rectangle((0, 0, width, height), 4, fill=fill)
            if item.get("disabled"):
                layer.putalpha(Image.eval(layer.getchannel("A"), lambda v: v // 2))
            self.image.paste(layer, box[:2], layer)
            text_x = cursor + width // 2 + (10 if emoji else 0)
            ink = "#ffffff" if not item.get("disabled") else "#a0a3a8"
            if emoji:
                self._emoji(emoji, text_x - int(self.draw.textlength(label, font=self.fonts.bold))
                            // 2 - 14, self.y + height // 2)  # fmt: skip
            self.draw.text((text_x, self.y + height // 2), label, font=self.fonts.bold,
                           fill=ink, anchor="mm")  # fmt: skip
            cursor += width + 8
        self.y += height + 8

    def _emoji(self, emoji: str, x: int, y: int) -> None:
        """The grid's piece marks as the discs they show; the Move button's target as rings."""
        if emoji in MARKS:
            self.draw.ellipse((x - 8, y - 8, x + 8, y + 8), fill=MARKS[emoji], outline="#1e1f22")
        else:
            for radius, fill in ((8, "#da373c"), (5, "white"), (2, "#da373c")):
                self.draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill)

    def components(self, message: Message, components: list[dict[str, Any]], x: int) -> None:
        for component in components:
            kind = component.get("type")
            if kind == 1:
                self.buttons(component.get("components") or [], x)
            elif kind == 10:
                self.text(x, WIDTH - x - MARGIN - 12, component.get("content") or "")
            elif kind == 12:
                for item in component.get("items") or []:
                    self.attachment_image(message, item["media"]["url"], x, IMAGE_WIDTH)
            elif kind == 17:
                top = self.y
                self.y += 12
                self.components(message, component.get("components") or [], x + 16)
                self.y += 4
                self._panel(top, component.get("accent_color"), top_level=x == GUTTER)

    def message(self, message: Message) -> None:
        self.header(message)
        if message.content:
            self.text(GUTTER, BODY, message.content)
        for embed in message.embeds:
            self.embed(message, embed)
        self.components(message, message.components, GUTTER)
        if message.ephemeral:
            note = "Only you can see this · Dismiss message"
            self.draw.text((GUTTER, self.y), note, font=self.fonts.small, fill=MUTED)
            self.y += 18
        self.y += 14


def screenshot(fake: FakeDiscord, messages: list[Message]) -> Image.Image:
    """The messages, oldest first, as Discord's desktop client shows them (dark theme)."""
    canvas = Canvas(fake)
    for message in messages:
        canvas.message(message)
    return canvas.result()


def save_screenshot(fake: FakeDiscord, messages: list[Message], path: Path) -> Path:
    """Draw ``messages`` and write the PNG to ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    screenshot(fake, messages).save(path, optimize=True)
    return path


def latest(fake: FakeDiscord, channel_id: int, count: int) -> list[Message]:
    """The last ``count`` messages everyone sees in a channel or thread, oldest first (call it
    once the bot is idle: ``fake.wait_idle()``)."""
    shown = [
        fake.message(m.id)
        for m in list(fake.messages.values())
        if m.channel_id == channel_id and not m.ephemeral and not m.deleted
    ]
    return shown[-count:]


def click_grid_scene(fake: FakeDiscord) -> list[Message]:
    """Ann challenges Bob, a few moves are played, and Ann opens the grid and picks a piece:
    the last board in the channel and Ann's private grid showing that piece's targets."""
    from e2e_play import Table, pick_move
    from grid_clicks import click, click_move, lit, open_grid

    world = fake.world
    table = Table.start(fake, world.channel("arena-1"), world.ann, world.bob)
    board = fake.channel_messages(table.channel)[-1]
    for _ in range(4):
        move = pick_move(table.game, table.rng)
        grid = open_grid(fake, board, table.mover)
        [board] = click_move(fake, grid, table.mover, table.game, move).wait_followups(1)
        table.game.play(move)
    grid = open_grid(fake, board, table.mover)
    piece = "D2" if "D2" in lit(grid) else sorted(lit(grid))[0]
    click(fake, grid, table.mover, piece)
    fake.wait_idle()
    return [*latest(fake, table.channel.id, 1), fake.message(grid.id)]


def thread_scene(fake: FakeDiscord) -> tuple[str, list[Message]]:
    """Ann challenges Bob; Bob accepts, so the match moves into a thread of its own; two moves
    are played there. The thread's name, its first post and the two moves' boards."""
    from e2e_play import Table
    from fake_models import MEMBER_PERMISSIONS, THREAD_PERMISSIONS

    world = fake.world
    world.bot_permissions = MEMBER_PERMISSIONS | THREAD_PERMISSIONS
    here = world.channel("arena-2")
    challenge = fake.slash(world.ann, here, "jarmo challenge", opponent=world.bob, side="white")
    fake.press(world.bob, challenge.wait_answer().message, "Accept").wait_answer()
    [thread] = fake.wait_threads(here, 1)
    fake.wait_until(lambda: fake.channel_messages(thread), 20, "the thread's first board")
    table = Table(fake, thread, world.ann, world.bob)
    for move in ("A1-C2", "A5-C4"):
        table.play(move)
    fake.wait_idle()
    return thread.name, latest(fake, thread.id, 3)


def save_thread_screenshot(
    fake: FakeDiscord, name: str, messages: list[Message], path: Path
) -> Path:
    """Like :func:`save_screenshot`, under a bar with the thread's name, as Discord shows an
    open thread."""
    body = screenshot(fake, messages)
    bar = 48
    sheet = Image.new("RGB", (body.width, body.height + bar), BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    draw.rectangle((0, 0, body.width, bar - 2), fill=EMBED)
    draw.line((0, bar - 1, body.width, bar - 1), fill="#1e1f22", width=2)
    face = fonts()
    draw.text((MARGIN, bar // 2), "#", font=face.heading, fill=MUTED, anchor="lm")
    draw.text((MARGIN + 22, bar // 2), name, font=face.heading, fill=NAME, anchor="lm")
    sheet.paste(body, (0, bar))
    path.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(path, optimize=True)
    return path


def main() -> None:
    from bot_process import BotProcess

    fake = FakeDiscord().start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            bot = BotProcess(fake, Path(folder))
            bot.start()
            try:
                messages = click_grid_scene(fake)
                name, in_thread = thread_scene(fake)
            finally:
                bot.stop()
        paths = [
            save_screenshot(fake, messages, OUT / "click-grid.png"),
            save_thread_screenshot(fake, name, in_thread, OUT / "thread.png"),
        ]
    finally:
        fake.close()
    for path in paths:
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
