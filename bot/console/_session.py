"""Console mode: two players take turns at one terminal, through the same service as Discord.

The terminal is one "channel" (:data:`PLACE`) with two players, ids 1 and 2. Player 1
challenges player 2 and player 2 accepts, exactly as in Discord; every line typed after that
belongs to the player whose turn it is (hot-seat).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from bot.console._boards import BoardFolder
from bot.console._diagram import board_diagram
from bot.jarmo import Side, side_name
from bot.service import (
    Actor,
    BadMove,
    BoardView,
    ChallengeRequest,
    JarmoService,
    NoGameHere,
    Place,
    Report,
    Standings,
    UserError,
)
from bot.service.computer import ComputerOpponent, think_in_thread
from bot.service.deadlines import DeadlineScheduler
from bot.service.delivery import AnnouncementDelivery, Delivery
from bot.service.errors import as_user_error
from bot.service.text import (
    game_title,
    position_line,
    reminder_text,
    report_text,
    standings_text,
)
from bot.store import StoreError

PLACE = Place(guild_id=0, channel_id=0)
PLAYER_IDS = (1, 2)
COMPUTER = Actor(3, "Computer", is_bot=True)
MAX_NAME_LENGTH = 32

InputFn = Callable[[str], str]
"""Shows a prompt and returns the line typed (without the newline); raises ``EOFError`` at the
end of input, like :func:`input`."""
OutputFn = Callable[[str], None]
"""Shows a block of text (one or more lines), like :func:`print`."""

COMMANDS_HELP = """\
Commands:
  board       show the board again
  moves [{p}]  the legal moves of the player to move (those starting with {p})
  standings   the match score
  resign      give up: the game and the rest of the match go to the opponent (asks first)
  stop        offer to end this game now, scored as it stands (the opponent answers y/n)
  rules       where to read the rules
  help        this list
  quit        leave (Ctrl-D works too)"""
YES = ("y", "yes")
# Example moves from each side's point of view: a first step, and a step into the enemy camp.
STEP_EXAMPLE = {"white": "A1-C2", "black": "A5-C4"}
INTO_CAMP_EXAMPLE = {"white": "D3-C5", "black": "D3-C1"}

RULES = """\
The full rules are in docs/rules.md in the Jarmo for Discord source. In short: pieces move along
the board's lines (a knight's jump); stepping onto an enemy piece captures it; a piece that
reaches the enemy camp (the far row) stays there. The game ends when one side has all its pieces
left on the board in the enemy camp, when the player to move cannot act, or at the move limit.
Each piece in the enemy camp scores 2 points, every other piece on the board 1."""


def help_text(side: Side, ruleset: str) -> str:
    """The moves and commands, with examples from ``side``'s point of view: a step of its own
    pieces, and a point of its own camp for a redeploy or place."""
    camp = "1" if side == "white" else "5"
    step, into_camp = STEP_EXAMPLE[side], INTO_CAMP_EXAMPLE[side]
    place = f"@B{camp}"
    if ruleset == "ludos":
        placing = [
            f"  {place:<12}place a reserve piece on B{camp}, an empty point of your camp "
            f"(row {camp})",
            f"  {into_camp + place:<12}a step into the enemy camp that recovers a piece, "
            "then place it",
        ]
    else:
        placing = [
            f"  {place:<12}redeploy a captured piece on B{camp}, an empty point of your camp "
            f"(row {camp})"
        ]
    origin, target = step.split("-")
    moves = [
        f"Type a move, or a command. Moves ({side_name(side, ruleset)}):",
        f"  {step:<12}step from {origin} to {target} ({origin}x{target}, "
        f"{origin.lower()} {target.lower()} and {origin.lower()}{target.lower()} work too)",
        *placing,
    ]
    return "\n".join(moves) + "\n" + COMMANDS_HELP.format(p=f"A{camp}")


@dataclass(frozen=True, slots=True)
class _Terminal:
    read: InputFn
    write: OutputFn

    def ask(self, prompt: str) -> str | None:
        """The line typed, stripped; ``None`` at the end of input."""
        try:
            return self.read(prompt).strip()
        except EOFError:
            return None


async def play_console(
    service: JarmoService,
    *,
    out_dir: str | Path,
    input_fn: InputFn = input,
    output_fn: OutputFn = print,
    ruleset: str | None = None,
    layout: str | None = None,
    games: int = 1,
    vs_computer: str | None = None,
    temporary: bool = False,
) -> Standings | None:
    """Play one match at the console: ask the names, start the match, then take turns until it
    is over. An unfinished game already in the store's console channel is resumed instead.

    With ``vs_computer`` (a level) one player plays the computer, which answers every move.
    ``out_dir`` (a path) receives a PNG of every position. ``temporary`` says the store is
    thrown away afterwards, so ``quit`` asks before losing the game. Returns the final
    standings, or ``None`` when the players left first (``quit``, end of input). Raises
    ``OSError`` when the pictures cannot be written.
    """
    if vs_computer is not None:
        service = service.with_computer(COMPUTER)
    session = _Session(service, _Terminal(input_fn, output_fn), BoardFolder(Path(out_dir)))
    session.temporary = temporary
    if vs_computer is not None:
        session.computer = ComputerOpponent(service, think_in_thread)
        session.level = vs_computer
    return await session.play(ruleset=ruleset, layout=layout, games=games)


Command = Callable[["_Session", Actor, str], Awaitable[None]]


class _Session:
    """One console match: the current board, the players' names and the command handlers."""

    def __init__(self, service: JarmoService, term: _Terminal, folder: BoardFolder) -> None:
        self.service = service
        self.term = term
        self.folder = folder
        self.names: dict[int, str] = {}
        self.view: BoardView | None = None
        self.result: Standings | None = None
        self.leaving = False
        self.deadlines = DeadlineScheduler(service)
        self.announcements = AnnouncementDelivery(service, self._show_delivery)
        self.computer: ComputerOpponent | None = None
        self.level: str | None = None
        self.temporary = False  # the games vanish with the session (no --db)

    def name(self, user_id: int) -> str:
        """The display name of a player (the ``Namer`` of :mod:`bot.service.text`)."""
        return self.names.get(user_id, f"Player {user_id}")

    def say(self, text: str) -> None:
        """Show text to both players: markdown bold marks removed, and Discord's slash commands
        and autocomplete turned into the console's own words (see :func:`console_words`)."""
        self.term.write(console_words(text.replace("**", "")))

    def confirm(self, question: str) -> bool | None:
        """Ask a yes/no question, no by default; ``None`` at the end of input."""
        answer = self.term.ask(f"{question} [y/N] ")
        return None if answer is None else answer.lower() in YES

    def side_of(self, user_id: int) -> str:
        """'White', 'Black' (or 'Green', 'Blue' in ludos): the side ``user_id`` plays now."""
        assert self.view is not None
        side = self.view.game.side_of(user_id) or "white"
        return side_name(side, self.view.match.ruleset)

    async def play(
        self, *, ruleset: str | None, layout: str | None, games: int
    ) -> Standings | None:
        """Start (or resume) the match and run turns until it ends or the players leave."""
        self.folder.create()
        self.say(
            f"Board pictures are written to {self.folder.path} (latest.png is the current one)."
        )
        try:
            started = await self._resume() or await self._start(ruleset, layout, games)
        except UserError as refused:
            self.say(refused.message)
            return None
        while started and self.result is None and not self.leaving:
            await self._turn()
        return self.result

    # -- starting ------------------------------------------------------------------------------

    async def _resume(self) -> bool:
        try:
            view = await self.service.play.board(PLACE)
        except NoGameHere:
            return False
        record = view.game
        self.names = {record.white_id: view.white_name, record.black_id: view.black_name}
        self.say("Resuming the unfinished game found in the database.")
        await self._show_start(view)
        return True

    async def _start(self, ruleset: str | None, layout: str | None, games: int) -> bool:
        if self.computer is not None:
            return await self._start_vs_computer(ruleset, layout, games)
        first = self._ask_name(1, taken=None)
        second = None if first is None else self._ask_name(2, taken=first)
        if first is None or second is None:
            self.leaving = True
            return False
        one, two = (Actor(pid, name) for pid, name in zip(PLAYER_IDS, (first, second), strict=True))
        self.names = {one.user_id: first, two.user_id: second}
        request = ChallengeRequest(
            opponent=two, games=games, ruleset=ruleset, layout=layout, side="random"
        )
        challenge = await self.service.challenges.post(PLACE, one, request)
        await self._show_start(await self.service.challenges.accept(two, challenge.challenge.id))
        return True

    async def _start_vs_computer(self, ruleset: str | None, layout: str | None, games: int) -> bool:
        assert self.computer is not None
        name = self._ask_name(1, taken=COMPUTER.display_name)
        if name is None:
            self.leaving = True
            return False
        human = Actor(PLAYER_IDS[0], name)
        self.names = {human.user_id: name, COMPUTER.user_id: COMPUTER.display_name}
        request = ChallengeRequest(
            opponent=COMPUTER,
            games=games,
            ruleset=ruleset,
            layout=layout,
            side="random",
            level=self.level,
        )
        await self._show_start(await self.computer.start(PLACE, human, request))
        first = await self.computer.reply(PLACE)
        if first is not None:
            await self._show_report(first)
        return True

    def _ask_name(self, number: int, *, taken: str | None) -> str | None:
        default = f"Player {number}"
        while True:
            answer = self.term.ask(f"Player {number} name [{default}]: ")
            if answer is None:
                return None
            name = " ".join(answer.split())[:MAX_NAME_LENGTH] or default
            if taken is None or name.casefold() != taken.casefold():
                return name
            self.say(f"Player 1 is already called {taken}; choose another name.")

    async def _show_start(self, view: BoardView) -> None:
        self.view = view
        self.say(game_title(view))
        white, black = (side_name(side, view.match.ruleset) for side in ("white", "black"))
        self.say(f"{view.white_name} has {white} and moves first; {view.black_name} has {black}.")
        await self._show_board(view)
        self.say(position_line(view, self.name))
        example = STEP_EXAMPLE[view.game.game.turn]
        self.say(f"Type a move such as {example}, or help for the commands.")

    # -- turns ---------------------------------------------------------------------------------

    async def _turn(self) -> None:
        await self._apply_deadlines()
        if self.result is not None:
            return
        assert self.view is not None
        turn = self.view.turn_user_id
        if turn is None:  # a game ended with no next one: only after an odd resume
            self.result = await self.service.standings.current(PLACE)
            self.say(standings_text(self.result, self.name))
            return
        if self.computer is not None and turn == COMPUTER.user_id:
            reply = await self.computer.reply(PLACE)
            if reply is not None:
                await self._show_report(reply)
            return
        actor = Actor(turn, self.name(turn))
        line = self.term.ask(f"{actor.display_name} ({self.side_of(turn)}) > ")
        if line is None:
            self._leave()
        elif line:
            await self._handle(actor, line)

    async def _handle(self, actor: Actor, line: str) -> None:
        word, _, rest = line.partition(" ")
        command = COMMANDS.get(word.lower())
        try:
            if command is None:
                await self._show_report(await self.service.play.move(PLACE, actor, line))
            else:
                await command(self, actor, rest.strip())
        except BadMove as bad:
            self.say(f"{bad.message}\nType moves to list the legal moves, or help.")
        except (UserError, StoreError) as refused:
            known = as_user_error(refused)  # a damaged game or a busy database, say
            if known is None:
                raise
            self.say(known.message)

    async def _apply_deadlines(self) -> None:
        """Reminders and timeouts due by now (the console has no background scheduler); they
        are shown as the bot posts them, from the announcement outbox."""
        await self.deadlines.run_due(self.service.now())
        await self.announcements.deliver_due()

    async def _show_delivery(self, delivery: Delivery) -> None:
        event, report = delivery.event, delivery.report
        if report is None and event is not None:
            report = event.report
        if report is not None:
            await self._show_report(report)
        elif event is not None:
            self.say(reminder_text(event.user_id, event.deadline_at, self.name))

    async def _show_report(self, report: Report) -> None:
        await self._show_board(report.board)
        final = report.standings if report.standings and report.standings.over else None
        # At the end of the match the table below says who won; say it once.
        self.say(report_text(report, self.name, match_state=final is None))
        self.view = report.board
        if report.next_board is not None:
            self.view = report.next_board
            self.say(f"\n{game_title(report.next_board)}")
            await self._show_board(report.next_board)
        if final is not None:
            self.result = final
            self.say(f"\n{standings_text(final, self.name)}")
        if report.announcement is not None:  # the computer's move, shown: settle it
            await self.service.announcements.posted(report.announcement)

    async def _show_board(self, view: BoardView) -> None:
        await self.folder.save(view)
        self.say(board_diagram(view.game.game.position()))

    def _leave(self) -> None:
        self.leaving = True
        self.say("Goodbye.")

    # -- commands ------------------------------------------------------------------------------

    async def board(self, actor: Actor, rest: str) -> None:
        """``board``: the current position again."""
        self.view = await self.service.play.board(PLACE)
        await self._show_board(self.view)
        self.say(position_line(self.view, self.name))

    async def moves(self, actor: Actor, rest: str) -> None:
        """``moves [start]``: the legal moves of the player to move."""
        found = await self.service.play.move_suggestions(PLACE, actor.user_id, rest, limit=None)
        if not found:
            self.say(f"No legal move starts with {rest}." if rest else "No legal moves.")
            return
        listing = ", ".join(found)
        self.say(textwrap.fill(f"Legal moves for {actor.display_name}: {listing}", width=78))

    async def standings(self, actor: Actor, rest: str) -> None:
        """``standings``: the match table."""
        self.say(standings_text(await self.service.standings.current(PLACE), self.name))

    async def resign(self, actor: Actor, rest: str) -> None:
        """``resign``: the player to move gives up the game and the match, once they confirm."""
        record = await self.service.play.player_game(PLACE, actor)
        white = record.side_of(actor.user_id) == "white"
        opponent = self.name(record.black_id if white else record.white_id)
        sure = self.confirm(
            f"{actor.display_name}, resign? You lose this game and the rest of the match goes "
            f"to {opponent}."
        )
        if sure is None:
            self._leave()
        elif sure:
            await self._show_report(await self.service.play.resign(PLACE, actor))
        else:
            self.say("Not resigned; the game goes on.")

    async def stop(self, actor: Actor, rest: str) -> None:
        """``stop``: offer to end the game as it stands; the opponent answers at the prompt."""
        offer = await self.service.play.offer_stop(PLACE, actor)
        other = Actor(offer.answer_by, self.name(offer.answer_by))
        answer = self.term.ask(
            f"{other.display_name}, {actor.display_name} offers to stop this game here, "
            "scored as it stands. Agree? [y/n] "
        )
        if answer is None:
            self._leave()
        elif answer.lower() in ("y", "yes"):
            await self._show_report(await self.service.play.accept_stop(PLACE, other, offer))
        else:
            self.say(f"{other.display_name} said no; the game goes on.")

    async def rules(self, actor: Actor, rest: str) -> None:
        """``rules``: where the rules are, and the gist."""
        self.say(RULES)

    async def help(self, actor: Actor, rest: str) -> None:
        """``help``: the commands and the move notation, with examples for the player to move."""
        assert self.view is not None
        side = self.view.game.side_of(actor.user_id) or "white"
        self.say(help_text(side, self.view.match.ruleset))

    async def quit(self, actor: Actor, rest: str) -> None:
        """``quit``: leave without finishing; a game that is not kept is lost, so ask first."""
        if not self.temporary:
            self.say("The game is saved in the database; play again with the same --db to resume.")
            self._leave()
            return
        sure = self.confirm(
            "This game is not saved anywhere (no --db was given): quitting loses it. Quit anyway?"
        )
        if sure is False:
            self.say("Not quitting; the game goes on.")
        else:
            self._leave()


COMMANDS: dict[str, Command] = {
    "board": _Session.board,
    "moves": _Session.moves,
    "standings": _Session.standings,
    "resign": _Session.resign,
    "stop": _Session.stop,
    "rules": _Session.rules,
    "help": _Session.help,
    "?": _Session.help,
    "quit": _Session.quit,
    "exit": _Session.quit,
}


_SLASH_COMMAND = re.compile(r"/jarmo (\w+)")
_AUTOCOMPLETE_ASIDE = re.compile(r"\s*\([^()]*\bautocomplete\b[^()]*\)", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_DISCORD_ONLY = re.compile(r"/jarmo|\bautocomplete\b", re.IGNORECASE)


def console_words(text: str) -> str:
    """The service's wording for Discord made right for the console: a slash command that the
    console also has becomes its typed word ('/jarmo resign' -> 'resign'), an aside about
    autocomplete goes, and any other sentence about a slash command or autocomplete (which the
    console does not have) is left out."""

    def typed(found: re.Match[str]) -> str:
        return f"'{found[1]}'" if found[1] in COMMANDS else found[0]

    text = _SLASH_COMMAND.sub(typed, _AUTOCOMPLETE_ASIDE.sub("", text))
    return "\n".join(_without_discord(line) for line in text.split("\n"))


def _without_discord(line: str) -> str:
    if not _DISCORD_ONLY.search(line):
        return line
    sentences = _SENTENCE_END.split(line)
    return " ".join(s for s in sentences if not _DISCORD_ONLY.search(s))
