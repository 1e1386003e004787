"""Playing: moves and redeployments, resigning, stopping by agreement, a moderator's abort, and
reading the board (with autocomplete for moves).

Every change runs under the channel's lock and is checked against the game's stored version, so
two interactions can never both apply.
"""

from __future__ import annotations

import logging
import unicodedata

from bot import store as st
from bot.jarmo import Action, Game, IllegalMove, NotationError, parse_point
from bot.jarmo.notation import MAX_INPUT_LENGTH
from bot.jarmo.position import Side
from bot.service import errors
from bot.service._ending import GameEnder, Result
from bot.service._reports import Reports
from bot.service._seats import (
    active_game,
    check_clock,
    check_seat,
    game_by_id,
    game_changed,
    players_game,
)
from bot.service.kit import ServiceKit
from bot.service.models import Actor, BoardView, DamagedGameAborted, Place, Report
from bot.service.offers import StopOffer
from bot.service.pings import TurnPings

log = logging.getLogger(__name__)
SUGGESTION_LIMIT = 25  # Discord shows at most 25 autocomplete choices
# How long the caller that played the computer's move has to post it before the delivery loop
# may: well past a slow Discord answer, short enough after a lost post.
ANNOUNCEMENT_HOLD_SECONDS = 60.0


class PlayCases:
    """The playing use cases over one service kit."""

    def __init__(self, kit: ServiceKit, reports: Reports, ender: GameEnder) -> None:
        self._kit = kit
        self._reports = reports
        self._ender = ender
        self._pings = TurnPings(kit)
        # Whether the last suggestions could not read the store: an outage is logged when it
        # begins and when it ends, not at every keystroke.
        self._suggestions_failing = False

    async def move(self, place: Place, actor: Actor, action: Action) -> Report:
        """Play ``action`` for the actor in the channel's game."""
        async with self._kit.locks(place.channel_id):
            record = await players_game(self._kit, place, actor, needs_turn=True)
            return await self._play(place, actor, record, action)

    async def movers_board(self, place: Place, actor: Actor) -> BoardView:
        """The channel's game from the side of the actor, who must be the player to move
        (``NotAPlayer``, ``NotYourTurn``): what the click grid shows, and plays on with
        :meth:`move_on`."""
        record = await players_game(self._kit, place, actor, needs_turn=True)
        return await self._reports.view(record, perspective=record.engine.turn)

    async def move_on(self, place: Place, actor: Actor, board: BoardView, action: Action) -> Report:
        """Play ``action`` on the game as ``board`` (from :meth:`movers_board`, in the same
        interaction) showed it, without reading it again: if anything changed the game since,
        the store's version check refuses the move (``GameChanged``). The board's game is
        played on, so ``board`` shows the position before the move no more."""
        async with self._kit.locks(place.channel_id):
            return await self._play(place, actor, board.game, action)

    async def move_in_game(
        self, game_id: int, user_id: int, action: Action, *, expected_version: int
    ) -> Report:
        """Play ``action`` for ``user_id`` in the game ``game_id`` as it stood at
        ``expected_version`` (a page that showed it), wherever the game is played: an ended
        game or a newer version is ``GameChanged``. Nobody in the game's channel sees the move
        come, so where the bot posts, the new board is announced there through the outbox."""
        kit = self._kit
        record = await game_by_id(kit, game_id)
        if not record.is_active:
            raise errors.GameChanged(errors.Code.GAME_ALREADY_ENDED)
        if record.version != expected_version:
            raise game_changed()
        await check_seat(kit, record, user_id, needs_turn=True)
        place = Place(record.guild_id, record.channel_id)
        actor = Actor(user_id, await kit.names(place.guild_id, user_id))
        # As on the click grid, the store's version check refuses the move if anything
        # changed the game since it was read.
        async with kit.locks(place.channel_id):
            return await self._play(place, actor, record, action, announce_move=True)

    async def _play(
        self,
        place: Place,
        actor: Actor,
        record: st.GameRecord,
        action: Action,
        *,
        announce_move: bool = False,
    ) -> Report:
        check_clock(self._kit, record)  # paused, or out of time: no move
        game = record.engine
        try:
            played = game.play(action)
        except IllegalMove as exc:
            raise errors.BadMove(errors.Code.ILLEGAL_MOVE, cause=exc) from None
        return await self._after_action(
            place, actor, record, game, played, announce_move=announce_move
        )

    async def redeploy(self, place: Place, actor: Actor, point: str) -> Report:
        """Redeploy (classic/jasir) or place from the reserve (ludos) on a camp point."""
        return await self.move(place, actor, read_action("@" + read_point(point)))

    async def _after_action(
        self,
        place: Place,
        actor: Actor,
        record: st.GameRecord,
        game: Game,
        played: str,
        *,
        announce_move: bool = False,
    ) -> Report:
        kit = self._kit
        await kit.names.remember(place, actor)
        computer_move = self._move_announcement(place, record, actor, game, announce_move)
        ping = self._pings.plan(record, actor.user_id, game)
        announce = ping.announce if computer_move is None else (computer_move, *ping.announce)
        if game.over:
            outcome = game.outcome()
            assert outcome is not None  # the game is over
            result = Result("finished", outcome.winner, outcome.termination.value, actor.user_id)
            final = st.FinalMove(actor.user_id, played)
            return await self._ender.end(
                record, result, game=game, final_move=final, announce=announce
            )
        try:
            updated = await kit.store.games.record_move(
                record.id,
                expected_version=record.version,
                player_id=actor.user_id,
                move=played,
                game=game,
                now=kit.now(),
                announce=announce,
            )
        except st.StaleGame:
            raise game_changed() from None
        kit.signals.new_deadline(updated.match)
        if ping.announce or announce_move:  # due now
            kit.signals.announcements_changed.set()
        board = await self._reports.view(updated)
        key = computer_move.key if computer_move else None
        return Report(
            actor.user_id,
            played,
            board,
            announcement=key,
            turn_ping=ping.mode,
            dm_refused=ping.dm_refused,
        )

    def _move_announcement(
        self, place: Place, record: st.GameRecord, actor: Actor, game: Game, announce_move: bool
    ) -> st.Announcement | None:
        """Nobody's interaction waits for the computer's move, so it is written to the outbox
        with the move: held for the caller to post, and delivered later if the bot dies first.
        Where the bot cannot post by itself, only the caller shows it (else the next board).
        A move from the live board (``announce_move``) has no caller in the channel: the
        delivery loop posts it at once."""
        computer = self._kit.is_computer(actor.user_id)
        if not (computer or announce_move) or not place.bot_posts:
            return None
        version, played = record.version + 1, game.history[-1]
        return st.announcement(
            f"{'computer_move' if computer else 'live_move'}:{record.id}:{version}",
            st.ComputerMovePost(version, played, actor.user_id, plies=len(game.history)),
            held_seconds=ANNOUNCEMENT_HOLD_SECONDS if computer else 0.0,
        )

    async def player_game(self, place: Place, actor: Actor) -> st.GameRecord:
        """The channel's game, checking that the actor plays in it."""
        return await players_game(self._kit, place, actor)

    async def resign(self, place: Place, actor: Actor, *, game_id: int | None = None) -> Report:
        """The actor resigns: the game is lost and the rest of the match forfeited.

        ``game_id`` guards a confirmation given earlier: if that game is no longer the one in
        play, nothing happens."""
        async with self._kit.locks(place.channel_id):
            record = await players_game(self._kit, place, actor)
            if game_id is not None and record.id != game_id:
                raise errors.GameChanged(errors.Code.GAME_ALREADY_ENDED)
            winner: Side = "black" if record.side_of(actor.user_id) == "white" else "white"
            result = Result("resigned", winner, "resigned", actor.user_id)
            return await self._ender.end(record, result, game=record.engine)

    async def offer_stop(self, place: Place, actor: Actor) -> StopOffer:
        """Propose to end the current game now, scored as it stands."""
        record = await players_game(self._kit, place, actor)
        offer = StopOffer.to_opponent(record, actor.user_id)
        if self._kit.is_computer(offer.answer_by):
            raise errors.NotAllowed(errors.Code.COMPUTER_PLAYS_ON)
        return offer

    async def accept_stop(self, place: Place, actor: Actor, offer: StopOffer) -> Report:
        """The opponent agrees to end the game as it stands; the match goes on."""
        if actor.user_id != offer.answer_by:
            raise errors.NotAllowed(errors.Code.ONLY_ASKED_ACCEPTS_STOP)
        async with self._kit.locks(place.channel_id):
            record = await players_game(self._kit, place, actor)
            if not offer.still_stands(record):
                raise errors.GameChanged(errors.Code.STOP_OFFER_OUTDATED)
            result = Result("stopped", record.engine.leader(), "stopped", actor.user_id)
            return await self._ender.end(record, result, game=record.engine)

    async def abort(
        self, place: Place, actor: Actor, *, can_manage: bool
    ) -> Report | DamagedGameAborted:
        """A moderator ends a stuck game and its match; nothing counts for anyone. A damaged
        game is set aside with its raw record kept for the operator."""
        if not can_manage:
            raise errors.NotAllowed(errors.Code.ABORT_NEEDS_MANAGER)
        kit = self._kit
        async with kit.locks(place.channel_id):
            try:
                record = await active_game(kit, place)
            except errors.GameDamaged as damaged:
                await kit.store.quarantine.set_aside(
                    damaged.game_id, reason=damaged.reason, now=kit.now()
                )
                log.warning(
                    "damaged game %d aborted by user %s; its record is in quarantined_games",
                    damaged.game_id,
                    actor.user_id,
                )
                return DamagedGameAborted(damaged.game_id, actor.user_id)
            result = Result("aborted", None, "aborted", actor.user_id)
            return await self._ender.end(record, result, game=record.engine)

    async def board(self, place: Place, *, viewer_id: int | None = None) -> BoardView:
        """The channel's current game, seen from the viewer's side if they play in it."""
        record = await active_game(self._kit, place)
        perspective = record.side_of(viewer_id) if viewer_id is not None else None
        return await self._reports.view(record, perspective=perspective or "white")

    async def move_suggestions(
        self, place: Place, user_id: int, typed: str, *, limit: int | None = SUGGESTION_LIMIT
    ) -> list[str]:
        """Autocomplete: the user's legal moves matching what they typed (none when it is not
        their turn or they do not play here, or the game is damaged, or the database cannot be
        read right now)."""
        try:
            record = await self._kit.store.games.active(place.channel_id)
        except st.CorruptGame:
            return []
        except st.StoreBusy as exc:  # a locked database, or a server that is not there
            if not self._suggestions_failing:
                log.warning("move suggestions are off: the database cannot be read (%s)", exc)
            self._suggestions_failing = True
            return []
        if self._suggestions_failing:
            log.info("move suggestions are back: the database can be read again")
            self._suggestions_failing = False
        if record is None or record.side_of(user_id) != record.engine.turn:
            return []
        wanted = _squash(typed)
        moves = [m for m in record.engine.legal_moves() if _squash(m).startswith(wanted)]
        return moves[:limit]

    async def redeploy_suggestions(self, place: Place, user_id: int, typed: str) -> list[str]:
        """Autocomplete: the camp points the user may redeploy or place on right now."""
        moves = await self.move_suggestions(place, user_id, "@" + typed.strip().lstrip("@"))
        return [m[1:] for m in moves if m.startswith("@")]


def read_action(text: str) -> Action:
    """The action ``text`` writes in any accepted notation (``A1-C2``, ``a1 c2``, ``@B1``,
    ``D3-E5@B1``), also in full-width or other Unicode forms of its letters, digits and dashes
    (see :func:`plain_move_text`); ``BadMove(UNREADABLE_MOVE)`` saying what was expected if it
    writes none."""
    try:
        return Action.parse(plain_move_text(text))
    except NotationError as exc:
        raise errors.BadMove(errors.Code.UNREADABLE_MOVE, cause=exc) from None


def read_point(text: str) -> str:
    """The canonical name of the point ``text`` writes (``B1``, ``b1``, ``@B1``, ``Ｂ１``);
    ``BadMove(UNREADABLE_MOVE)`` saying what was expected if it writes none."""
    try:
        return parse_point(plain_move_text(text))
    except NotationError as exc:
        raise errors.BadMove(errors.Code.UNREADABLE_MOVE, cause=exc) from None


# Dashes a keyboard or a phone may put where the notation has a hyphen.
_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2043\u2212"), "-")


def plain_move_text(text: str) -> str:
    """``text`` with full-width and other compatibility forms of letters and digits in their
    ASCII form (NFKC: ``Ａ１－Ｃ２`` is ``A1-C2``), other scripts' decimal digits (``٣``) as
    ASCII digits, and dashes as ``-``; text longer than a move is left as it is, to be refused
    as too long."""
    if len(text) > MAX_INPUT_LENGTH:
        return text
    plain = unicodedata.normalize("NFKC", text).translate(_DASHES)
    return "".join(_ascii_digit(ch) for ch in plain)


def _ascii_digit(ch: str) -> str:
    digit = unicodedata.decimal(ch, None)
    return ch if digit is None else str(digit)


def _squash(text: str) -> str:
    """Move text without case or separators, so 'a1 c' matches 'A1-C2' and 'A1xC2'."""
    return "".join(ch for ch in plain_move_text(text).upper() if ch not in " -:X@")
