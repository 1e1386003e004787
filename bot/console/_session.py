"""Console mode: two players take turns at one terminal, through the same service as Discord.

The terminal is one "channel" (:data:`PLACE`) with two players, ids 1 and 2. Player 1
challenges player 2 and player 2 accepts, exactly as in Discord; every line typed after that
belongs to the player whose turn it is (hot-seat).
"""

from __future__ import annotations

import asyncio
import re
import shlex
import textwrap
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from bot.console._boards import BoardFolder
from bot.console._diagram import board_diagram
from bot.console._words import console_catalogue, console_voice
from bot.i18n import N_, Catalogue
from bot.jarmo import SIDES, Side, side_name
from bot.render import render_review_graph
from bot.service import (
    Actor,
    BadMove,
    BoardView,
    ChallengeRequest,
    JarmoService,
    MatchStandings,
    NoGameHere,
    Place,
    Refusal,
    Report,
)
from bot.service.computer import ComputerOpponent, think_in_thread
from bot.service.deadlines import DeadlineScheduler
from bot.service.delivery import (
    AnnouncementDelivery,
    ClockNotice,
    ComputerMoveNotice,
    Delivery,
)
from bot.service.errors import GameDamaged, as_refusal
from bot.service.play import read_action
from bot.service.reviews import Label
from bot.store import StoreError
from bot.words import (
    game_title,
    image_words,
    position_line,
    refusal_text,
    reminder_text,
    report_text,
    side_label,
    standings_text,
)
from bot.words.review import (
    review_moves_text,
    review_progress,
    review_summary,
    review_title,
    turning_point_caption,
)

PLACE = Place(guild_id=0, channel_id=0)
PLAYER_IDS = (1, 2)
COMPUTER = Actor(3, "Computer", is_bot=True)
MAX_NAME_LENGTH = 32

InputFn = Callable[[str], str]
"""Shows a prompt and returns the line typed (without the newline); raises ``EOFError`` at the
end of input, like :func:`input`."""
OutputFn = Callable[[str], None]
"""Shows a block of text (one or more lines), like :func:`print`."""

COMMANDS_HELP = N_("""\
Commands:
  board       show the board again
  moves [{p}]  the legal moves of the player to move (those starting with {p})
  standings   the match score
  resign      give up: the game and the rest of the match go to the opponent (asks first)
  stop        offer to end this game now, scored as it stands (the opponent answers y/n)
  review      review the last finished game: every move labelled, with better moves
  rules       where to read the rules
  help        this list
  quit        leave (Ctrl-D works too)""")
YES = ("y", "yes")
# TRANSLATORS: the answers that mean yes, separated by spaces ("y" and "yes" work in every
# language too); keep them in step with the "[y/N]" of the questions.
YES_WORDS = N_("y yes")
# Example moves from each side's point of view: a first step, and a step into the enemy camp.
STEP_EXAMPLE = {"white": "A1-C2", "black": "A5-C4"}
# A single word of letters only is never a move (every move names a point, such as A1 or @B1):
# one that is not a command is a mistyped command, not a mistyped move.
WORD = re.compile(r"[^\W\d_]+")
INTO_CAMP_EXAMPLE = {"white": "D3-E5", "black": "D3-C1"}

RULES = N_("""\
The full rules are in docs/rules.md in the Jarmo for Discord source. In short: pieces move along
the lines of the published board (drawn on every picture); stepping onto an enemy piece captures
it; a piece that reaches the enemy camp (the far row) stays there. The game ends when one side has
all its pieces left on the board in the enemy camp, when the player to move cannot act, or at the
move limit. Each piece in the enemy camp scores 2 points, every other piece on the board 1.""")


def help_text(side: Side, ruleset: str, words: Catalogue, *, side_shown: str) -> str:
    """The moves and commands, with examples from ``side``'s point of view (``side_shown`` is
    its name as the players read it): a step of its own pieces, and a point of its own camp for
    a redeploy or place."""
    _ = words.gettext
    camp = "1" if side == "white" else "5"
    step, into_camp = STEP_EXAMPLE[side], INTO_CAMP_EXAMPLE[side]
    place = f"@B{camp}"
    if ruleset == "ludos":
        placing = [
            f"  {place:<12}"
            + _("place a reserve piece on {point}, an empty point of your camp (row {row})"),
            f"  {into_camp + place:<12}"
            + _("a step into the enemy camp that recovers a piece, then place it"),
        ]
    else:
        placing = [
            f"  {place:<12}"
            + _("redeploy a captured piece on {point}, an empty point of your camp (row {row})")
        ]
    origin, target = step.split("-")
    moves = [
        _("Type a move, or a command. Moves ({side}):").format(side=side_shown),
        f"  {step:<12}"
        + _("step from {origin} to {target} ({x}, {spaced} and {joined} work too)").format(
            origin=origin,
            target=target,
            x=f"{origin}x{target}",
            spaced=f"{origin.lower()} {target.lower()}",
            joined=f"{origin.lower()}{target.lower()}",
        ),
        *(line.format(point=f"B{camp}", row=camp) for line in placing),
    ]
    return "\n".join(moves) + "\n" + _(COMMANDS_HELP).format(p=f"A{camp}")


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


class UnplayableGame(Exception):
    """The console's stored game cannot be played (its record is damaged). The players have
    been told what to do; the command should end with "found a problem"."""


async def play_console(
    service: JarmoService,
    *,
    out_dir: str | Path,
    input_fn: InputFn = input,
    output_fn: OutputFn = print,
    ruleset: str | None = None,
    games: int = 1,
    vs_computer: str | None = None,
    temporary: bool = False,
    language: str | None = None,
    side: str | None = None,
    database: str | None = None,
) -> MatchStandings | None:
    """Play one match at the console: ask the names, start the match, then take turns until it
    is over. An unfinished game already in the store's console channel is resumed instead.

    With ``vs_computer`` (a level) one player plays the computer, which answers every move.
    ``out_dir`` (a path) receives a PNG of every position. ``temporary`` says the store is
    thrown away afterwards, so ``quit`` asks before losing the game. ``language`` is the
    players' language (English without a translation). ``side`` (white, black or random) is
    the human's side in the first game against the computer; without it they are asked.
    ``database`` is the ``--db`` the players gave, repeated in advice about a damaged game.
    Returns the final standings, or ``None`` when the players left first (``quit``, end of
    input). Raises ``OSError`` when the pictures cannot be written, and ``UnplayableGame``
    (after telling the players) when the stored game is damaged.
    """
    if vs_computer is not None:
        service = service.with_computer(COMPUTER)
    session = _Session(
        service, _Terminal(input_fn, output_fn), BoardFolder(Path(out_dir)), language=language
    )
    session.temporary = temporary
    session.database = database
    if vs_computer is not None:
        session.computer = ComputerOpponent(service, think_in_thread)
        session.level = vs_computer
        session.side = side
    return await session.play(ruleset=ruleset, games=games)


Command = Callable[["_Session", Actor, str], Awaitable[None]]


class _Session:
    """One console match: the current board, the players' names and the command handlers."""

    def __init__(
        self,
        service: JarmoService,
        term: _Terminal,
        folder: BoardFolder,
        *,
        language: str | None = None,
    ) -> None:
        self.service = service
        self.language = language
        self.words = console_catalogue(language)
        self.voice = console_voice(self.name, language)
        self.term = term
        self.folder = folder
        self.names: dict[int, str] = {}
        self.view: BoardView | None = None
        self.result: MatchStandings | None = None
        self.leaving = False
        self.deadlines = DeadlineScheduler(service)
        self.announcements = AnnouncementDelivery(service, self._show_delivery)
        self.computer: ComputerOpponent | None = None
        self.level: str | None = None
        self.temporary = False  # the games vanish with the session (no --db)
        self.database: str | None = None  # the --db given, to repeat in advice
        self.side: str | None = None  # the human's side against the computer, when chosen
        self.pictures: Path | None = None  # the current match's pictures' folder, once shown
        self.shown_example: set[int] = set()  # the players already shown an example move

    def name(self, user_id: int) -> str:
        """The display name of a player (how the console's voice shows a user)."""
        default = self.words.gettext("Player {number}").format(number=user_id)
        return self.names.get(user_id, default)

    def say(self, text: str) -> None:
        """Show text to both players."""
        self.term.write(text)

    def confirm(self, question: str) -> bool | None:
        """Ask a yes/no question, no by default; ``None`` at the end of input."""
        answer = self.term.ask(question + self.words.gettext(" [y/N] "))
        return None if answer is None else self.is_yes(answer)

    def is_yes(self, answer: str) -> bool:
        """Whether ``answer`` means yes, in English or in the players' language."""
        return answer.strip().lower() in {*YES, *self.words.gettext(YES_WORDS).split()}

    def side_of(self, user_id: int) -> str:
        """'White', 'Black' (or 'Green', 'Blue' in ludos): the side ``user_id`` plays now."""
        assert self.view is not None
        side = self.view.game.side_of(user_id) or "white"
        return side_label(side, self.view.match.ruleset, self.voice)

    async def play(self, *, ruleset: str | None, games: int) -> MatchStandings | None:
        """Start (or resume) the match and run turns until it ends or the players leave."""
        self.folder.create()
        try:
            started = await self._resume() or await self._start(ruleset, games)
        except (Refusal, StoreError) as refused:
            known = as_refusal(refused)
            if isinstance(known, GameDamaged):
                self._explain_damage(known)
                raise UnplayableGame from refused
            if known is None:
                raise
            self.say(refusal_text(known, self.voice))
            return None
        while started and self.result is None and not self.leaving:
            await self._turn()
        if self.result is not None and not self.leaving:
            wanted = self.confirm(self.words.gettext("Review the last game?"))
            if wanted:
                await self._handle(Actor(PLAYER_IDS[0], self.name(PLAYER_IDS[0])), "review")
        return self.result

    def _explain_damage(self, damaged: GameDamaged) -> None:
        """What the doctor can do about a damaged game, with the database the players named."""
        doctor = ["jarmo-bot", "doctor", "--db", self.database or "PATH", "--quarantine"]
        self.say(
            self.words.gettext(
                "Game {number} in the database is damaged: its stored record cannot be loaded, "
                "so it cannot be played. Set it aside (nothing counts) with:\n  {command}\n"
                "then play again to start a new game."
            ).format(number=damaged.game_id, command=shlex.join(doctor))
        )

    # -- starting ------------------------------------------------------------------------------

    async def _resume(self) -> bool:
        try:
            view = await self.service.play.board(PLACE)
        except NoGameHere:
            return False
        record = view.game
        self.names = {record.white_id: view.white_name, record.black_id: view.black_name}
        self.say(self.words.gettext("Resuming the unfinished game found in the database."))
        await self._show_start(view)
        return True

    async def _start(self, ruleset: str | None, games: int) -> bool:
        if self.computer is not None:
            return await self._start_vs_computer(ruleset, games)
        first = self._ask_name(1, taken=None)
        second = None if first is None else self._ask_name(2, taken=first)
        if first is None or second is None:
            self.leaving = True
            return False
        one, two = (Actor(pid, name) for pid, name in zip(PLAYER_IDS, (first, second), strict=True))
        self.names = {one.user_id: first, two.user_id: second}
        request = ChallengeRequest(opponent=two, games=games, ruleset=ruleset, side="random")
        challenge = await self.service.challenges.post(PLACE, one, request)
        await self._show_start(await self.service.challenges.accept(two, challenge.challenge.id))
        return True

    async def _start_vs_computer(self, ruleset: str | None, games: int) -> bool:
        assert self.computer is not None
        name = self._ask_name(1, taken=COMPUTER.display_name)
        side = None if name is None else self.side or self._ask_side(ruleset)
        if name is None or side is None:
            self.leaving = True
            return False
        human = Actor(PLAYER_IDS[0], name)
        self.names = {human.user_id: name, COMPUTER.user_id: COMPUTER.display_name}
        request = ChallengeRequest(
            opponent=COMPUTER,
            games=games,
            ruleset=ruleset,
            side=side,
            level=self.level,
        )
        await self._show_start(await self.computer.start(PLACE, human, request))
        first = await self.computer.reply(PLACE)
        if first is not None:
            await self._show_report(first)
        return True

    def _ask_name(self, number: int, *, taken: str | None) -> str | None:
        _ = self.words.gettext
        default = _("Player {number}").format(number=number)
        if self.computer is not None:  # one human: ask for their own name
            question = _("Your name [{default}]: ").format(default=default)
            clash = _("The computer is called {name}; choose another name.")
        else:
            question = _("Player {number} name [{default}]: ").format(
                number=number, default=default
            )
            clash = _("Player 1 is already called {name}; choose another name.")
        while True:
            answer = self.term.ask(question)
            if answer is None:
                return None
            name = " ".join(answer.split())[:MAX_NAME_LENGTH] or default
            if taken is None or name.casefold() != taken.casefold():
                return name
            self.say(clash.format(name=taken))

    def _ask_side(self, ruleset: str | None) -> str | None:
        """The side the human wants against the computer: white, black or random (just Enter);
        ``None`` at the end of input."""
        _ = self.words.gettext
        chosen = ruleset or self.service.kit.config.default_ruleset
        white, black = (side_label(side, chosen, self.voice) for side in SIDES)
        answers = {
            **dict.fromkeys(("w", "white", white.casefold()), "white"),
            **dict.fromkeys(("b", "black", black.casefold()), "black"),
        }
        question = _("Play {white} (moves first) or {black}? [w/b, Enter for either] ")
        while True:
            answer = self.term.ask(question.format(white=white, black=black))
            if answer is None:
                return None
            if not answer:
                return "random"
            side = answers.get(answer.casefold())
            if side is not None:
                return side
            self.say(
                _("Type w for {white}, b for {black}, or just Enter for either.").format(
                    white=white, black=black
                )
            )

    async def _show_start(self, view: BoardView) -> None:
        self.view = view
        _ = self.words.gettext
        self.say(game_title(view, self.voice))
        white, black = (side_label(side, view.match.ruleset, self.voice) for side in SIDES)
        self.say(
            _("{white_player} has {white} and moves first; {black_player} has {black}.").format(
                white_player=view.white_name, white=white, black_player=view.black_name, black=black
            )
        )
        await self._show_board(view)
        self.say(position_line(view, self.voice))

    # -- turns ---------------------------------------------------------------------------------

    async def _turn(self) -> None:
        await self._apply_deadlines()
        if self.result is not None:
            return
        assert self.view is not None
        turn = self.view.turn_user_id
        if turn is None:  # a game ended with no next one: only after an odd resume
            self.result = await self.service.standings.current(PLACE)
            self.say(standings_text(self.result, self.voice))
            return
        if self.computer is not None and turn == COMPUTER.user_id:
            reply = await self.computer.reply(PLACE)
            if reply is not None:
                await self._show_report(reply)
            return
        actor = Actor(turn, self.name(turn))
        if turn not in self.shown_example:
            await self._show_example(actor)
        line = self.term.ask(f"{actor.display_name} ({self.side_of(turn)}) > ")
        if line is None:  # Ctrl-D: as 'quit', which asks before losing an unsaved game
            await self.quit(actor, "")
        elif line:
            await self._handle(actor, line)

    async def _show_example(self, actor: Actor) -> None:
        """Once for each player, before their first move: how to type one, with a move that is
        legal for them now (a step rather than a placement where there is one)."""
        self.shown_example.add(actor.user_id)
        legal = await self.service.play.move_suggestions(PLACE, actor.user_id, "", limit=None)
        steps = [move for move in legal if "-" in move] or legal
        if not steps:
            return
        self.say(
            self.words.gettext(
                "{player}, type a move such as {example}, or help for the commands."
            ).format(player=actor.display_name, example=steps[0])
        )

    async def _handle(self, actor: Actor, line: str) -> None:
        word, _, rest = line.partition(" ")
        command = COMMANDS.get(word.lower())
        if command is None and WORD.fullmatch(line):
            self.say(
                self.words.gettext("Unknown command: {word}. Type help for the list.").format(
                    word=line
                )
            )
            return
        try:
            if command is None:
                action = read_action(line)
                await self._show_report(await self.service.play.move(PLACE, actor, action))
            else:
                await command(self, actor, rest.strip())
        except BadMove as bad:
            hint = self.words.gettext("Type moves to list the legal moves, or help.")
            self.say(f"{refusal_text(bad, self.voice)}\n{hint}")
        except (Refusal, StoreError) as refused:
            known = as_refusal(refused)  # a damaged game or a busy database, say
            if known is None:
                raise
            self.say(refusal_text(known, self.voice))

    async def _apply_deadlines(self) -> None:
        """Reminders and timeouts due by now (the console has no background scheduler); they
        are shown as the bot posts them, from the announcement outbox."""
        await self.deadlines.run_due(self.service.now())
        await self.announcements.deliver_due()

    async def _show_delivery(self, delivery: Delivery) -> None:
        # The console plays no tournaments: only a game's announcements come here.
        match delivery:
            case ComputerMoveNotice(report=report):
                await self._show_report(report)
            case ClockNotice(event=event) if event.report is not None:  # lost on time
                await self._show_report(event.report)
            case ClockNotice(event=event):
                self.say(reminder_text(event.user_id, event.deadline_at, self.voice))

    async def _show_report(self, report: Report) -> None:
        await self._show_board(report.board)
        final = report.standings if report.standings and report.standings.over else None
        # At the end of the match the table below says who won; say it once.
        self.say(report_text(report, self.voice, match_state_shown=final is None))
        self.view = report.board
        if report.next_board is not None:
            self.view = report.next_board
            self.say(f"\n{game_title(report.next_board, self.voice)}")
            await self._show_board(report.next_board)
        if final is not None:
            self.result = final
            self.say(f"\n{standings_text(final, self.voice)}")
        if report.announcement is not None:  # the computer's move, shown: settle it
            await self.service.announcements.posted(report.announcement)

    async def _show_board(self, view: BoardView) -> None:
        written = await self.folder.save(view, image_words(self.voice.catalogue))
        if written.parent != self.pictures:
            self.pictures = written.parent
            self.say(
                self.words.gettext(
                    "This match's board pictures are written to {folder}; {latest} is always "
                    "the current position."
                ).format(folder=self.pictures, latest=self.folder.latest)
            )
        self.say(board_diagram(view.live.position(), self.language))

    def _leave(self) -> None:
        self.leaving = True
        self.say(self.words.gettext("Goodbye."))

    # -- commands ------------------------------------------------------------------------------

    async def board(self, actor: Actor, rest: str) -> None:
        """``board``: the current position again."""
        self.view = await self.service.play.board(PLACE)
        await self._show_board(self.view)
        self.say(position_line(self.view, self.voice))

    async def moves(self, actor: Actor, rest: str) -> None:
        """``moves [start]``: the legal moves of the player to move."""
        found = await self.service.play.move_suggestions(PLACE, actor.user_id, rest, limit=None)
        _ = self.words.gettext
        if not found:
            none = _("No legal move starts with {start}.") if rest else _("No legal moves.")
            self.say(none.format(start=rest))
            return
        listing = _("Legal moves for {player}: {moves}").format(
            player=actor.display_name, moves=", ".join(found)
        )
        self.say(textwrap.fill(listing, width=78))

    async def standings(self, actor: Actor, rest: str) -> None:
        """``standings``: the match table."""
        self.say(standings_text(await self.service.standings.current(PLACE), self.voice))

    async def resign(self, actor: Actor, rest: str) -> None:
        """``resign``: the player to move gives up the game and the match, once they confirm."""
        record = await self.service.play.player_game(PLACE, actor)
        white = record.side_of(actor.user_id) == "white"
        opponent = self.name(record.black_id if white else record.white_id)
        sure = self.confirm(
            self.words.gettext(
                "{player}, resign? You lose this game and the rest of the match goes to {opponent}."
            ).format(player=actor.display_name, opponent=opponent)
        )
        if sure is None:
            self._leave()
        elif sure:
            await self._show_report(await self.service.play.resign(PLACE, actor))
        else:
            self.say(self.words.gettext("Not resigned; the game goes on."))

    async def stop(self, actor: Actor, rest: str) -> None:
        """``stop``: offer to end the game as it stands; the opponent answers at the prompt."""
        offer = await self.service.play.offer_stop(PLACE, actor)
        other = Actor(offer.answer_by, self.name(offer.answer_by))
        answer = self.term.ask(
            self.words.gettext(
                "{opponent}, {player} offers to stop this game here, scored as it stands. "
                "Agree? [y/n] "
            ).format(opponent=other.display_name, player=actor.display_name)
        )
        if answer is None:
            self._leave()
        elif self.is_yes(answer):
            await self._show_report(await self.service.play.accept_stop(PLACE, other, offer))
        else:
            self.say(
                self.words.gettext("{player} said no; the game goes on.").format(
                    player=other.display_name
                )
            )

    async def review(self, actor: Actor, rest: str) -> None:
        """``review``: the last finished game, searched move by move (the bot's own review)."""
        game_id = await self.service.reviews.last_game(PLACE)
        shown: set[int] = set()

        async def progress(done: int, total: int) -> None:
            quarter = 4 * done // max(total, 1)
            if quarter not in shown:  # a line per quarter, not one per position
                shown.add(quarter)
                self.say(review_progress(done, total, self.voice))

        view = await self.service.reviews.review(PLACE, game_id, progress=progress)
        words = image_words(self.voice.catalogue)
        marks = {
            m.ply: m.label.value
            for m in view.review.moves
            if m.label in (Label.MISTAKE, Label.BLUNDER)
        }
        graph = await asyncio.to_thread(
            render_review_graph,
            view.review.graph(),
            marks,
            title=review_title(view, self.voice),
            words=words,
            sides=(side_name("white", view.ruleset), side_name("black", view.ruleset)),
        )
        # Beside the pictures of the game's own match, named as the text counts the moves.
        record = await self.service.kit.store.games.get(game_id)
        prefix = f"game{record.index + 1}-review"
        saved = await self.folder.save_picture(record.match, f"{prefix}.png", graph)
        self.say(f"{review_title(view, self.voice)}\n{review_summary(view, self.voice)}")
        self.say(review_moves_text(view, self.voice))
        for point in view.turning_points:
            side = view.review.moves[point.ply - 1].side
            name = f"{prefix}-move{(point.ply + 1) // 2:02d}-{side}.png"
            board = await self.folder.save_picture(
                record.match, name, await point.picture.png(words)
            )
            caption = turning_point_caption(view, point.ply, self.voice)
            self.say(f"{caption} ({board.name})")
        self.say(self.words.gettext("The review's graph is in {file}.").format(file=saved))

    async def rules(self, actor: Actor, rest: str) -> None:
        """``rules``: where the rules are, and the gist."""
        self.say(self.words.gettext(RULES))

    async def help(self, actor: Actor, rest: str) -> None:
        """``help``: the commands and the move notation, with examples for the player to move."""
        assert self.view is not None
        side = self.view.game.side_of(actor.user_id) or "white"
        ruleset = self.view.match.ruleset
        shown = side_label(side, ruleset, self.voice)
        self.say(help_text(side, ruleset, self.words, side_shown=shown))

    async def quit(self, actor: Actor, rest: str) -> None:
        """``quit``: leave without finishing; a game that is not kept is lost, so ask first."""
        if not self.temporary:
            self.say(
                self.words.gettext(
                    "The game is saved in the database; play again with the same --db to resume."
                )
            )
            self._leave()
            return
        sure = self.confirm(
            self.words.gettext(
                "This game is not saved anywhere (no --db was given): quitting loses it. "
                "Quit anyway?"
            )
        )
        if sure is False:
            self.say(self.words.gettext("Not quitting; the game goes on."))
        else:
            self._leave()


COMMANDS: dict[str, Command] = {
    "board": _Session.board,
    "moves": _Session.moves,
    "standings": _Session.standings,
    "resign": _Session.resign,
    "stop": _Session.stop,
    "review": _Session.review,
    "rules": _Session.rules,
    "help": _Session.help,
    "?": _Session.help,
    "quit": _Session.quit,
    "exit": _Session.quit,
}
