"""The use cases of Jarmo for Discord, independent of Discord: the same calls serve the slash
commands, the console mode and the tests.

Every method that changes a channel's game runs under that channel's lock, and every write is
checked against the game's stored version, so two interactions can never both apply.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from bot import store as st
from bot.jarmo import Game, IllegalMove, NotationError, get_layout, get_ruleset, parse_point
from bot.jarmo.match import MATCH_LENGTHS
from bot.jarmo.rulesets import side_name
from bot.service import errors
from bot.service._clock_cases import ClockCases
from bot.service._scoring import points_by_player, scoreboard
from bot.service._views import render_view, result_banner
from bot.service.models import (
    Actor,
    BoardView,
    ChallengeRequest,
    ChallengeView,
    DamagedGameAborted,
    GameLine,
    GameSummary,
    Place,
    Report,
    ServiceConfig,
    Standings,
)
from bot.service.offers import StopOffer
from bot.service.ratings import Ratings
from bot.service.stats import PlayerStats, match_shifts
from bot.service.timecontrol import clock_view

log = logging.getLogger(__name__)
SUGGESTION_LIMIT = 25  # Discord shows at most 25 autocomplete choices
COMPUTER_LEVELS = ("easy", "medium", "hard")
END_OF_TIME = datetime.max.replace(tzinfo=UTC)
DEFAULT_COMPUTER_LEVEL = "medium"
# How long the caller that played the computer's move has to post it before the delivery loop
# may: well past a slow Discord answer, short enough after a lost post.
ANNOUNCEMENT_HOLD_SECONDS = 60.0


def utc_now() -> datetime:
    """The real clock; tests pass their own."""
    return datetime.now(UTC)


class JarmoService(ClockCases):
    """Challenges, moves, resignations, standings … on top of a ``Store``."""

    def __init__(
        self,
        store: st.Store,
        *,
        config: ServiceConfig | None = None,
        clock: Callable[[], datetime] = utc_now,
        rng: random.Random | None = None,
    ) -> None:
        self._store = store
        self._config = config or ServiceConfig()
        self._clock = clock
        self._rng = rng or random.Random()
        self._locks: dict[int, asyncio.Lock] = {}
        self._names: dict[tuple[int, int], str] = {}
        # Which games are rated (add the bot's own id to ``ratings.unrated_players``), and the
        # leaderboard / stats / history use cases.
        self.ratings = Ratings()
        self.stats = PlayerStats(store, self.display_name)
        # Set whenever a write gives some game a new deadline, to wake the deadline scheduler.
        self.deadlines_changed = asyncio.Event()
        # Set whenever an announcement becomes deliverable, to wake the delivery loop.
        self.announcements_changed = asyncio.Event()
        # The computer opponent's identity, once one is attached (see bot.service.computer).
        self.computer: Actor | None = None

    def is_computer(self, user_id: int | None) -> bool:
        """Whether ``user_id`` is the computer opponent."""
        return self.computer is not None and user_id == self.computer.user_id

    @property
    def store(self) -> st.Store:
        """The store the use cases run on."""
        return self._store

    @property
    def config(self) -> ServiceConfig:
        """The settings the service runs with."""
        return self._config

    def channel_lock(self, channel_id: int) -> asyncio.Lock:
        """The lock that serialises every change to one channel's game."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    # ------------------------------------------------------------------ players

    async def _remember(self, place: Place, actor: Actor) -> None:
        key = (place.guild_id, actor.user_id)
        if self._names.get(key) != actor.display_name:
            await self._store.upsert_player(place.guild_id, actor.user_id, actor.display_name)
            self._names[key] = actor.display_name

    async def display_name(self, guild_id: int, user_id: int) -> str:
        """The name last seen for a user in this server (cached)."""
        key = (guild_id, user_id)
        name = self._names.get(key)
        if name is None:
            try:
                player = await self._store.get_player(guild_id, user_id)
                name = player.display_name or f"Player {user_id}"
            except st.NotFound:
                name = f"Player {user_id}"
            self._names[key] = name
        return name

    # ------------------------------------------------------------------ challenges

    async def challenge(
        self, place: Place, challenger: Actor, request: ChallengeRequest
    ) -> ChallengeView:
        """Post a challenge in a channel. Raises ``ChallengeUnavailable`` for a bad opponent or
        option and ``ChannelBusy`` when the channel already has a game or challenge."""
        opponent = request.opponent
        if opponent.user_id == challenger.user_id:
            raise errors.ChallengeUnavailable("You can't challenge yourself. Pick another member.")
        if opponent.is_bot and not self.is_computer(opponent.user_id):
            raise errors.ChallengeUnavailable(
                f"{opponent.display_name} is a bot and can't play. Challenge a person instead."
            )
        options = self._options(request)
        await self._remember(place, challenger)
        await self._remember(place, opponent)
        now = self._clock()
        new = st.NewChallenge(
            guild_id=place.guild_id,
            channel_id=place.channel_id,
            challenger_id=challenger.user_id,
            challenged_id=opponent.user_id,
            options=options,
            expires_at=now + timedelta(seconds=self._config.challenge_expiry_seconds),
        )
        async with self.channel_lock(place.channel_id):
            try:
                record = await self._store.create_challenge(new, now=now)
            except st.ChannelBusy as busy:
                raise _busy(busy) from None
        return ChallengeView(record, challenger.display_name, opponent.display_name)

    def _level(self, request: ChallengeRequest) -> str | None:
        if not self.is_computer(request.opponent.user_id):
            return None
        level = request.level or DEFAULT_COMPUTER_LEVEL
        if level not in COMPUTER_LEVELS:
            raise errors.ChallengeUnavailable("Choose easy, medium or hard for the computer.")
        return level

    def _options(self, request: ChallengeRequest) -> st.ChallengeOptions:
        if request.games not in MATCH_LENGTHS:
            raise errors.ChallengeUnavailable("A match has 1, 2, 4 or 6 games.")
        ruleset = request.ruleset or self._config.default_ruleset
        layout = request.layout or self._config.default_layout
        try:
            get_ruleset(ruleset)
            get_layout(layout)
        except ValueError as exc:
            raise errors.ChallengeUnavailable(f"{str(exc).capitalize()}.") from None
        if request.side not in ("white", "black", "random"):
            raise errors.ChallengeUnavailable("Choose white, black or random for your side.")
        return st.ChallengeOptions(
            game_count=request.games,
            ruleset=ruleset,
            layout=layout,
            side=request.side,  # type: ignore[arg-type]
            max_plies=self._config.max_plies,
            vs_computer_level=self._level(request),
            time_per_move_seconds=self._time_limit(request),
        )

    def _time_limit(self, request: ChallengeRequest) -> int | None:
        # The computer answers at once and cannot lose on time while the bot is down, so games
        # against it run without a clock.
        if not self.is_computer(request.opponent.user_id):
            return self._time_per_move(request.time_per_move)
        if request.time_per_move not in (None, "none"):
            raise errors.ChallengeUnavailable(
                "Games against the computer have no time limit; leave time_per_move empty."
            )
        return None

    async def attach_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows a challenge, so it can be updated when it expires."""
        await self._store.set_challenge_message(challenge_id, message_id)

    async def challenge_view(self, challenge_id: int) -> ChallengeView:
        """A challenge with its players' names. Raises ``ChallengeUnavailable`` if unknown."""
        record = await self._challenge(challenge_id)
        return await self._challenge_view(record)

    async def _challenge(self, challenge_id: int) -> st.ChallengeRecord:
        try:
            return await self._store.get_challenge(challenge_id)
        except st.NotFound:
            raise errors.ChallengeUnavailable(
                "That challenge no longer exists. Start a new one with /jarmo challenge."
            ) from None

    async def _challenge_view(self, record: st.ChallengeRecord) -> ChallengeView:
        return ChallengeView(
            record,
            await self.display_name(record.guild_id, record.challenger_id),
            await self.display_name(record.guild_id, record.challenged_id),
        )

    async def accept_challenge(self, actor: Actor, challenge_id: int) -> BoardView:
        """The challenged player accepts: the match and its first game start."""
        record = await self._challenge(challenge_id)
        if actor.user_id != record.challenged_id:
            raise errors.NotAllowed(
                "Only the challenged player can accept this challenge. "
                "Start your own with /jarmo challenge."
            )
        place = Place(record.guild_id, record.channel_id)
        await self._remember(place, actor)
        side = record.options.side
        if side == "random":
            side = self._rng.choice(("white", "black"))
        first_white = record.challenger_id if side == "white" else record.challenged_id
        options = record.options
        game = Game.new(options.ruleset, options.layout, options.max_plies)
        async with self.channel_lock(record.channel_id):
            try:
                match, game_record = await self._store.accept_challenge(
                    challenge_id, first_white_id=first_white, first_game=game, now=self._clock()
                )
            except st.ChallengeClosed as closed:
                raise _closed(closed) from None
            except st.ChannelBusy as busy:
                raise _busy(busy) from None
            self.deadlines_changed.set()
        return await self._view(game_record, match)

    async def decline_challenge(self, actor: Actor, challenge_id: int) -> ChallengeView:
        """The challenged player says no."""
        return await self._close_challenge(actor, challenge_id, "declined")

    async def cancel_challenge(self, actor: Actor, challenge_id: int) -> ChallengeView:
        """The challenger withdraws the challenge."""
        return await self._close_challenge(actor, challenge_id, "cancelled")

    async def _close_challenge(self, actor: Actor, challenge_id: int, status: str) -> ChallengeView:
        record = await self._challenge(challenge_id)
        allowed = record.challenged_id if status == "declined" else record.challenger_id
        if actor.user_id != allowed:
            who = "challenged player" if status == "declined" else "challenger"
            verb = "decline" if status == "declined" else "cancel"
            hint = (
                "If it is your own challenge, use Withdraw."
                if status == "declined"
                else "Start your own with /jarmo challenge."
            )
            raise errors.NotAllowed(f"Only the {who} can {verb} this challenge. {hint}")
        async with self.channel_lock(record.channel_id):
            try:
                record = await self._store.close_challenge(challenge_id, status, now=self._clock())  # type: ignore[arg-type]
            except st.ChallengeClosed as closed:
                raise _closed(closed) from None
        return await self._challenge_view(record)

    async def expire_challenges(self) -> list[ChallengeView]:
        """Mark overdue challenges expired (so their messages can say so)."""
        expired = await self._store.expire_challenges(now=self._clock())
        return [await self._challenge_view(record) for record in expired]

    # ------------------------------------------------------------------ playing

    async def move(self, place: Place, actor: Actor, text: str) -> Report:
        """Play a move (any accepted notation) for the actor in the channel's game."""
        async with self.channel_lock(place.channel_id):
            record = await self._players_game(place, actor, needs_turn=True)
            self._check_clock(record)  # paused, or out of time: no move
            game = record.game
            try:
                played = game.play(text)
            except (NotationError, IllegalMove) as exc:
                raise errors.BadMove(_bad_move_text(exc)) from None
            return await self._after_action(place, actor, record, game, played)

    async def redeploy(self, place: Place, actor: Actor, point: str) -> Report:
        """Redeploy (classic/jasir) or place from the reserve (ludos) on a camp point."""
        try:
            name = parse_point(point)
        except NotationError as exc:
            raise errors.BadMove(str(exc)) from None
        return await self.move(place, actor, "@" + name)

    async def _after_action(
        self, place: Place, actor: Actor, record: st.GameRecord, game: Game, played: str
    ) -> Report:
        await self._remember(place, actor)
        announce = self._computer_move_announcement(record, actor, played)
        if game.over:
            outcome = game.outcome()
            assert outcome is not None
            return await self._end(
                record,
                game=game,
                status="finished",
                winner=outcome.winner,
                termination=outcome.termination.value,
                actor_id=actor.user_id,
                move=(actor.user_id, played),
                announce=announce,
            )
        try:
            updated = await self._store.record_move(
                record.id,
                expected_version=record.version,
                player_id=actor.user_id,
                move=played,
                game=game,
                now=self._clock(),
                announce=announce,
            )
        except st.StaleGame:
            raise _changed() from None
        self.deadlines_changed.set()
        match = await self._store.get_match(updated.match_id)
        board = await self._view(updated, match)
        return Report(actor.user_id, played, board, announcement=announce and announce.key)

    def _computer_move_announcement(
        self, record: st.GameRecord, actor: Actor, played: str
    ) -> st.Announcement | None:
        """Nobody's interaction waits for the computer's move, so it is written to the outbox
        with the move: held for the caller to post, and delivered later if the bot dies first."""
        if not self.is_computer(actor.user_id):
            return None
        version = record.version + 1
        return st.Announcement(
            key=f"computer_move:{record.id}:{version}",
            kind="computer_move",
            payload={"version": version, "move": played, "actor_id": actor.user_id},
            held_seconds=ANNOUNCEMENT_HOLD_SECONDS,
        )

    async def player_game(self, place: Place, actor: Actor) -> st.GameRecord:
        """The channel's game, checking that the actor plays in it."""
        return await self._players_game(place, actor)

    async def resign(self, place: Place, actor: Actor, *, game_id: int | None = None) -> Report:
        """The actor resigns: the game is lost and the rest of the match forfeited.

        ``game_id`` guards a confirmation given earlier: if that game is no longer the one in
        play, nothing happens."""
        async with self.channel_lock(place.channel_id):
            record = await self._players_game(place, actor)
            if game_id is not None and record.id != game_id:
                raise errors.GameChanged(
                    "That game has already ended. Use /jarmo resign again to resign this one."
                )
            side = record.side_of(actor.user_id)
            winner = "black" if side == "white" else "white"
            return await self._end(
                record,
                game=record.game,
                status="resigned",
                winner=winner,
                termination="resigned",
                actor_id=actor.user_id,
            )

    async def offer_stop(self, place: Place, actor: Actor) -> StopOffer:
        """Propose to end the current game now, scored as it stands."""
        record = await self._players_game(place, actor)
        offer = StopOffer.to_opponent(record, actor.user_id)
        if self.is_computer(offer.answer_by):
            raise errors.NotAllowed(
                "The computer plays every game to the end. Use /jarmo resign to give up."
            )
        return offer

    async def accept_stop(self, place: Place, actor: Actor, offer: StopOffer) -> Report:
        """The opponent agrees to end the game as it stands; the match goes on."""
        if actor.user_id != offer.answer_by:
            raise errors.NotAllowed(
                "Only the player the offer was made to can accept it. "
                "To make your own offer, use /jarmo stop."
            )
        async with self.channel_lock(place.channel_id):
            record = await self._players_game(place, actor)
            if not offer.still_stands(record):
                raise errors.GameChanged(
                    "The game has moved on since that offer. Use /jarmo stop to offer again."
                )
            return await self._end(
                record,
                game=record.game,
                status="stopped",
                winner=record.game.leader(),
                termination="stopped",
                actor_id=actor.user_id,
            )

    async def abort(
        self, place: Place, actor: Actor, *, can_manage: bool
    ) -> Report | DamagedGameAborted:
        """A moderator ends a stuck game and its match; nothing counts for anyone. A damaged
        game is set aside with its raw record kept for the operator."""
        if not can_manage:
            raise errors.NotAllowed(
                "Only members who can manage this channel can abort a game. "
                "Players can use /jarmo resign or /jarmo stop instead."
            )
        async with self.channel_lock(place.channel_id):
            try:
                record = await self._active(place)
            except errors.GameDamaged as damaged:
                await self._store.quarantine_game(
                    damaged.game_id, reason=damaged.reason, now=self._clock()
                )
                log.warning(
                    "damaged game %d aborted by user %s; its record is in quarantined_games",
                    damaged.game_id,
                    actor.user_id,
                )
                return DamagedGameAborted(damaged.game_id, actor.user_id)
            return await self._end(
                record,
                game=record.game,
                status="aborted",
                winner=None,
                termination="aborted",
                actor_id=actor.user_id,
            )

    async def _end(
        self,
        record: st.GameRecord,
        *,
        game: Game,
        status: str,
        winner: str | None,
        termination: str,
        actor_id: int,
        move: tuple[int, str] | None = None,
        announce: st.Announcement | None = None,
    ) -> Report:
        match = await self._store.get_match(record.match_id)
        board = scoreboard(match, await self._store.match_games(match.id))
        points = game.points()
        next_game = None
        match_state = None
        match_winner = None
        if status == "aborted":
            match_state = "aborted"
        elif status in ("resigned", "timeout"):
            board.forfeit(record.player_id(_other(winner)), points)  # type: ignore[arg-type]
            match_state, match_winner = "forfeited", board.winner()
        else:
            board.record(points)
            if board.over:
                match_state, match_winner = "finished", board.winner()
            else:
                next_game = Game.new(match.ruleset, match.layout, match.max_plies)
        # Ratings are read and the update written under the server's rating lock, so the
        # update is computed from the ratings it replaces (the store checks that too).
        async with self.ratings.lock(record.guild_id):
            ratings = await self.ratings.plan(
                self._store,
                record,
                match,
                status=status,
                winner=winner,  # type: ignore[arg-type]
            )
            try:
                end = await self._store.end_game(
                    record.id,
                    expected_version=record.version,
                    status=status,
                    winner=winner,  # type: ignore[arg-type]
                    points=points,
                    termination=termination,
                    game=game,
                    move=move,
                    next_game=next_game,
                    match_state=match_state,
                    match_winner_id=match_winner,  # type: ignore[arg-type]
                    ratings=ratings,
                    now=self._clock(),
                    announce=announce,
                )
            except (st.StaleGame, st.StaleRatings):
                raise _changed() from None
        if end.next_game is not None:
            self.deadlines_changed.set()
        return await self._ended_report(
            end.game,
            end.match,
            end.next_game,
            actor_id=actor_id,
            move=move[1] if move else None,
            announcement=announce.key if announce and announce.held_seconds else None,
        )

    async def _ended_report(
        self,
        ended: st.GameRecord,
        match: st.MatchRecord,
        next_game: st.GameRecord | None,
        *,
        actor_id: int,
        move: str | None,
        announcement: str | None = None,
    ) -> Report:
        status = ended.status
        summary = GameSummary(
            game=ended,
            status=status,
            outcome=ended.game.outcome() if status == "finished" else None,
            winner_id=ended.player_id(ended.winner)
            if ended.winner and status != "aborted"
            else None,
            points_by_player=points_by_player(ended),
        )
        next_view = await self._view(next_game, match) if next_game else None
        return Report(
            actor_id,
            move,
            await self._view(ended, match),
            ended=summary,
            standings=await self._standings(match),
            next_board=next_view,
            announcement=announcement,
        )

    # ------------------------------------------------------------------ announcements

    async def announced(self, key: str) -> None:
        """The caller posted the announcement ``key``: it will not be delivered again."""
        await self._store.settle_announcement(key, "sent", now=self._clock())

    async def announce_later(self, key: str, error: str) -> None:
        """The caller could not post ``key``: the delivery loop will, as soon as it can."""
        await self._store.settle_announcement(key, "retry", now=self._clock(), error=error)
        self.announcements_changed.set()

    async def report_at(
        self, game_id: int, version: int, *, actor_id: int, move: str | None
    ) -> Report:
        """The report of the action that took game ``game_id`` to ``version``, rebuilt from
        the store (for an announcement delivered after the fact)."""
        record = await self._store.get_game(game_id)
        match = await self._store.get_match(record.match_id)
        if not record.is_active and record.version == version:  # that action ended the game
            return await self.ended_report(record, match, actor_id=actor_id, move=move)
        record = await self._at_version(record, match, version)
        return Report(actor_id, move, await self._view(record, match))

    async def ended_report(
        self, record: st.GameRecord, match: st.MatchRecord, *, actor_id: int, move: str | None
    ) -> Report:
        """The report of a game's end, rebuilt from the store: the final board, the result,
        the standings and, if the match went on, its next game as it started."""
        games = await self._store.match_games(match.id)
        following = next((g for g in games if g.index == record.index + 1), None)
        if following is not None:
            following = await self._at_version(following, match, 0)
        return await self._ended_report(record, match, following, actor_id=actor_id, move=move)

    async def _at_version(
        self, record: st.GameRecord, match: st.MatchRecord, version: int
    ) -> st.GameRecord:
        """``record`` as it stood after ``version`` actions (replayed if it has moved on)."""
        if record.version == version:
            return record
        game = Game.new(match.ruleset, match.layout, match.max_plies)
        for action in (await self._store.game_actions(record.id))[:version]:
            game.play(action.move)
        return dataclasses.replace(record, game=game, version=version, status="active")

    # ------------------------------------------------------------------ reading

    async def board(self, place: Place, *, viewer_id: int | None = None) -> BoardView:
        """The channel's current game, seen from the viewer's side if they play in it."""
        record = await self._active(place)
        match = await self._store.get_match(record.match_id)
        perspective = record.side_of(viewer_id) if viewer_id is not None else None
        return await self._view(record, match, perspective=perspective or "white")

    async def standings(self, place: Place) -> Standings:
        """The channel's current or most recent match."""
        match = await self._store.latest_match(place.channel_id)
        if match is None:
            raise errors.NoGameHere(
                "No match has been played in this channel yet. Start one with /jarmo challenge."
            )
        return await self._standings(match)

    async def _standings(self, match: st.MatchRecord) -> Standings:
        games = await self._store.match_games(match.id)
        board = scoreboard(match, games)
        lines = [
            GameLine(
                g.index,
                g.white_id,
                g.black_id,
                g.status,
                None if g.is_active else points_by_player(g),
            )
            for g in games
        ]
        running = next((g for g in games if g.is_active), None)
        names = {pid: await self.display_name(match.guild_id, pid) for pid in match.player_ids}
        over = match.state != "running"
        return Standings(
            match=match,
            names=names,
            games=lines,
            totals=dict(board.totals()),  # type: ignore[arg-type]
            leader_id=board.leader(),
            games_left=0 if over else max(board.games_left, 0),  # type: ignore[arg-type]
            turn_user_id=running.player_id(running.game.turn) if running else None,
            over=over,
            winner_id=match.winner_id,
            rating_changes=await match_shifts(self._store, match) if over else (),
        )

    async def move_suggestions(
        self, place: Place, user_id: int, typed: str, *, limit: int | None = SUGGESTION_LIMIT
    ) -> list[str]:
        """Autocomplete: the user's legal moves matching what they typed (none when it is not
        their turn or they do not play here, or the game is damaged)."""
        try:
            record = await self._store.active_game(place.channel_id)
        except st.CorruptGame:
            return []
        if record is None or record.side_of(user_id) != record.game.turn:
            return []
        wanted = _squash(typed)
        moves = [m for m in record.game.legal_moves() if _squash(m).startswith(wanted)]
        return moves[:limit]

    async def redeploy_suggestions(self, place: Place, user_id: int, typed: str) -> list[str]:
        """Autocomplete: the camp points the user may redeploy or place on right now."""
        moves = await self.move_suggestions(place, user_id, "@" + typed.strip().lstrip("@"))
        return [m[1:] for m in moves if m.startswith("@")]

    async def places_awaiting_computer(self) -> list[Place]:
        """Channels whose game waits for the computer's move (after a restart, say)."""
        if self.computer is None:
            return []
        games = await self._store.idle_games(before=END_OF_TIME)  # every active game
        return [
            Place(g.guild_id, g.channel_id)
            for g in games
            if self.is_computer(g.player_id(g.game.turn))
        ]

    async def computer_to_move(self, place: Place) -> tuple[Game, str] | None:
        """The channel's game and the computer's level when it is the computer's turn, else None
        (a damaged game waits for a moderator, not for the computer)."""
        try:
            record = await self._store.active_game(place.channel_id)
        except st.CorruptGame:
            return None
        if record is None or not self.is_computer(record.player_id(record.game.turn)):
            return None
        match = await self._store.get_match(record.match_id)
        level = None
        if match.challenge_id is not None:
            level = (await self._store.get_challenge(match.challenge_id)).options.vs_computer_level
        return record.game, level or DEFAULT_COMPUTER_LEVEL

    async def _active(self, place: Place) -> st.GameRecord:
        try:
            record = await self._store.active_game(place.channel_id)
        except st.CorruptGame as damaged:
            raise errors.GameDamaged(damaged.game_id, damaged.reason) from None
        if record is None:
            raise errors.NoGameHere(
                "There is no game in this channel. Start one with /jarmo challenge."
            )
        return record

    async def _players_game(
        self, place: Place, actor: Actor, *, needs_turn: bool = False
    ) -> st.GameRecord:
        record = await self._active(place)
        side = record.side_of(actor.user_id)
        if side is None:
            raise errors.NotAPlayer(
                "You are not playing in this channel's game. Watch with /jarmo board, or start "
                "your own game in another channel."
            )
        if needs_turn and record.game.turn != side:
            other = await self.display_name(place.guild_id, record.player_id(record.game.turn))
            raise errors.NotYourTurn(
                f"It is {other}'s turn ({side_name(record.game.turn, record.game.ruleset)}). "
                "Wait for their move."
            )
        return record

    async def _view(
        self, record: st.GameRecord, match: st.MatchRecord, *, perspective: str = "white"
    ) -> BoardView:
        white = await self.display_name(record.guild_id, record.white_id)
        black = await self.display_name(record.guild_id, record.black_id)
        image = await render_view(
            record.game,
            perspective=perspective,
            players=(white, black),
            result=result_banner(record),
        )
        clock = clock_view(record, match, self._clock())
        computer_id = self.computer.user_id if self.computer else None
        return BoardView(record, match, white, black, image, clock=clock, computer_id=computer_id)


def _other(side: str | None) -> str:
    return "black" if side == "white" else "white"


def _squash(text: str) -> str:
    """Move text without case or separators, so 'a1 c' matches 'A1-C2' and 'A1xC2'."""
    return "".join(ch for ch in text.upper() if ch not in " -–—:X@")


def _bad_move_text(exc: ValueError) -> str:
    if isinstance(exc, IllegalMove):
        return f"{exc} Your move was not played; try another (autocomplete lists the legal ones)."
    return f"{exc} Your move was not played."


def _busy(busy: st.ChannelBusy) -> errors.ChannelBusy:
    what = "a game in progress" if busy.reason == "game" else "a pending challenge"
    return errors.ChannelBusy(
        f"This channel already has {what}. Finish it first, or play in another channel."
    )


def _closed(closed: st.ChallengeClosed) -> errors.ChallengeUnavailable:
    if closed.status == "expired":
        return errors.ChallengeUnavailable(
            "This challenge has expired. Start a new one with /jarmo challenge."
        )
    return errors.ChallengeUnavailable(
        f"This challenge was already {closed.status}. Start a new one with /jarmo challenge."
    )


def _changed() -> errors.GameChanged:
    return errors.GameChanged(
        "Another action was applied to this game at the same moment. Look at the board "
        "(/jarmo board) and try again."
    )
