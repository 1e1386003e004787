"""What the service may ask of the store, by role. The service depends on these protocols, not on
SQLite; every backend implements each role directly.

Conventions for every method:

* ``now`` is a timezone-aware UTC ``datetime`` supplied by the caller (the service owns the clock);
  a naive one raises ``ValueError``.
* Every method that changes anything does it in one transaction: on any error nothing is written.
  If the calling task is cancelled during a write, the write still finishes (it may commit)
  before the ``CancelledError`` reaches the caller.
* Unknown ids raise :class:`~bot.store.errors.NotFound`.
* Games handed out have been checked against their action list; a game that fails the check
  raises :class:`~bot.store.errors.CorruptGame` (and is logged), it is never repaired.
* Arguments that contradict each other or the data (a ``game`` whose history does not match
  ``move``, a first-white player who is not in the challenge, ...) raise ``ValueError``: these are
  bugs in the caller, not situations users can cause.
* Writes that must happen once, whichever process tries (a move, a reminder, a timeout, an
  announcement), are guarded by the data itself (a version, a deadline, a lease), never by a lock
  in one process's memory.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from bot.store.clocks import RunningClock
from bot.store.endings import GameEnding
from bot.store.outbox import Announcement, OutboxEntry, Settlement
from bot.store.rating_records import (
    EVERY_POOL,
    GameResultRecord,
    PlayerStatsRecord,
    RankedRating,
    RatedGameRecord,
    RatingHistoryRecord,
    RatingRecord,
    RatingScope,
    RatingTables,
    Tally,
)
from bot.store.records import (
    ActionRecord,
    ChallengeRecord,
    ClosedChallengeStatus,
    DamagedGame,
    GameEnd,
    GameRecord,
    MatchRecord,
    NewChallenge,
    PlayerRecord,
    TakenBackRecord,
    TurnPing,
)
from bot.store.tournament_records import (
    EntryRecord,
    NewPairing,
    NewTournament,
    PairingRecord,
    PairingResult,
    TournamentRecord,
)
from bot.store.vacations import Vacation

if TYPE_CHECKING:
    from bot.jarmo import Game


class PlayerStore(Protocol):
    """The names players are shown by, per server (``guild_id`` ``None``: outside servers)."""

    async def upsert(self, guild_id: int | None, user_id: int, display_name: str) -> None:
        """Create the player if new, and remember ``display_name`` as the name to show."""
        ...

    async def get(self, guild_id: int | None, user_id: int) -> PlayerRecord:
        """The player's name record in this guild. Raises ``NotFound`` for a player never
        upserted there."""
        ...


class BotStateStore(Protocol):
    """The bot's own bookkeeping (e.g. the hash of the published commands)."""

    async def get(self, key: str) -> str | None:
        """The value under ``key``, or ``None`` when never set."""
        ...

    async def set(self, key: str, value: str) -> None:
        """Set (replace) the value under ``key``."""
        ...

    async def set_default(self, key: str, value: str) -> str:
        """Set ``value`` under ``key`` unless a value is there already (whichever process set
        it); the value kept."""
        ...


class TurnPingStore(Protocol):
    """How each player is told it is their move, in every server (``mention`` unless they
    chose otherwise). Each game record carries its players' settings
    (``GameRecord.turn_pings``), read with the game."""

    async def choose(self, user_id: int, mode: TurnPing) -> None:
        """Make ``mode`` the player's turn pings. Raises ``ValueError`` for an unknown mode."""
        ...

    async def refuse_dm(self, user_id: int) -> None:
        """Remember that a direct message to the player was refused (they closed DMs), until
        :meth:`take_dm_refused` takes it."""
        ...

    async def take_dm_refused(self, user_id: int) -> bool:
        """Whether a refused direct message was waiting to be told to the player, forgetting
        it: true for one call only, across processes."""
        ...


class ChallengeStore(Protocol):
    """Challenges, and accepting one (which starts its match)."""

    async def create(self, new: NewChallenge, *, now: datetime) -> ChallengeRecord:
        """Store a pending challenge.

        A pending challenge in the channel that is overdue at ``now`` is marked expired first.
        Raises ``ChannelTaken`` if the channel still has a pending challenge or an active game.
        """
        ...

    async def get(self, challenge_id: int) -> ChallengeRecord:
        """The challenge with this id. Raises ``NotFound``."""
        ...

    async def pending(self, channel_id: int, *, now: datetime) -> ChallengeRecord | None:
        """The channel's pending challenge that is not overdue at ``now``, if any."""
        ...

    async def attach_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows the challenge. Raises ``NotFound``."""
        ...

    async def close(
        self, challenge_id: int, status: ClosedChallengeStatus, *, now: datetime
    ) -> ChallengeRecord:
        """Move a pending challenge to ``status`` and return it.

        Raises ``NotFound``, or ``ChallengeClosed`` (carrying the current status) if it is no
        longer pending. A challenge overdue at ``now`` is stored as expired instead, and
        ``ChallengeClosed("expired")`` raised (unless ``status`` was ``"expired"``).
        """
        ...

    async def expire_overdue(self, *, now: datetime) -> list[ChallengeRecord]:
        """Mark every pending challenge in a server that is overdue at ``now`` expired; return
        them. One outside servers stays pending until an interaction in its channel finds it
        overdue: nothing could tell its players in the background."""
        ...

    async def accept(
        self,
        challenge_id: int,
        *,
        first_white_id: int,
        first_game: Game,
        now: datetime,
        channel_id: int | None = None,
        acceptor_id: int | None = None,
    ) -> tuple[MatchRecord, GameRecord]:
        """Accept a pending challenge: in one transaction, mark it accepted, create its match
        (running) and the match's game 0 (active, ``first_white_id`` playing White).

        The match is played in ``channel_id`` (a thread opened for it), or else in the
        challenge's channel. ``acceptor_id`` is who accepts: any player but the challenger for
        an open challenge (who becomes its challenged player), the named player otherwise
        (``None`` for them). Of two accepts at once, in any processes, exactly one succeeds; the
        other raises ``ChallengeClosed("accepted")``.

        ``first_game`` is the fresh engine game (no moves yet). Raises ``NotFound``;
        ``ChallengeClosed`` if it is not pending, or ``ChallengeClosed("expired")`` if it is
        overdue at ``now`` (it is then stored as expired); ``ChannelTaken`` if the match's channel
        has an active game; ``ValueError`` for an open challenge without ``acceptor_id``, an
        acceptor who may not accept it, or a ``first_white_id`` who is not one of its players.
        In a match with a time limit, game 0's clock starts at ``now``.
        """
        ...


class GameStore(Protocol):
    """Matches and games: reading them, recording moves and endings (version-checked)."""

    async def match(self, match_id: int) -> MatchRecord:
        """The match with this id. Raises ``NotFound``."""
        ...

    async def latest_match(self, channel_id: int) -> MatchRecord | None:
        """The channel's most recently created match, if any."""
        ...

    async def match_games(self, match_id: int) -> list[GameRecord]:
        """The match's games in index order. Raises ``NotFound`` for an unknown match and
        ``CorruptGame`` if one of them fails its check."""
        ...

    async def active(self, channel_id: int) -> GameRecord | None:
        """The channel's active game, if any (checked; may raise ``CorruptGame``)."""
        ...

    async def get(self, game_id: int) -> GameRecord:
        """The game with this id (checked). Raises ``NotFound`` or ``CorruptGame``."""
        ...

    async def actions(self, game_id: int) -> list[ActionRecord]:
        """The game's actions in ply order, with who played them and when. Raises ``NotFound``."""
        ...

    async def active_of_player(self, user_id: int) -> list[GameRecord]:
        """The player's active games in every server, by id (oldest first), in one indexed
        read. A damaged game is left out and logged once, as :meth:`idle` does."""
        ...

    async def idle(self, *, before: datetime) -> list[GameRecord]:
        """Active games in servers whose last activity is earlier than ``before``, oldest
        first (games outside servers are left to their players' interactions). A damaged game
        (one that fails its check) is left out and logged once: background work over many
        games must not stop at one."""
        ...

    async def record_move(
        self,
        game_id: int,
        *,
        expected_version: int,
        player_id: int,
        move: str,
        game: Game,
        now: datetime,
        announce: Sequence[Announcement] = (),
    ) -> GameRecord:
        """Append ``move`` (canonical, already played on ``game``) and store ``game`` as the new
        snapshot, as action number ``len(game.history)``; the version becomes
        ``expected_version + 1``. In a match with a time limit the player to move gets a full
        period from ``now`` (and no reminders sent yet).

        Use this for moves that do not end the game; a final move goes through :meth:`end`.
        Raises ``NotFound``; ``StaleGame`` if the stored version is not ``expected_version``;
        ``GameNotActive`` (a ``StaleGame``) if the game has ended. The returned record holds
        ``game`` itself. ``announce`` is written to the outbox in the same transaction, each
        to the game's channel or to its user (``Announcement.to_user``).
        """
        ...

    async def take_back(
        self, game_id: int, *, expected_version: int, game: Game, now: datetime
    ) -> GameRecord:
        """Take back the stored actions after ``game``'s (rebuilt from the ones kept), in one
        transaction: ``game`` becomes the snapshot, the actions taken back move to the game's
        taken-back list, and the version becomes ``expected_version + 1`` (a view of the
        position before is stale). In a match with a time limit the player to move gets back the
        deadline they had: a full period from the last kept action (or the game's start).

        Raises ``NotFound``, ``StaleGame`` / ``GameNotActive`` as :meth:`record_move` does, and
        ``ValueError`` if ``game`` is over, or its history is not the stored actions' beginning
        with at least one action after it.
        """
        ...

    async def taken_back(self, game_id: int) -> list[TakenBackRecord]:
        """The game's actions taken back, by takeback and ply (none for an unknown game)."""
        ...

    async def end(
        self, game_id: int, ending: GameEnding, *, expected_version: int, now: datetime
    ) -> GameEnd:
        """Record ``ending`` in one transaction (see :class:`~bot.store.endings.GameEnding`);
        the version becomes ``expected_version + 1``, with or without a final move.

        Players are not touched: results are read from the stored games. Raises ``NotFound``,
        ``StaleGame`` / ``GameNotActive`` as :meth:`record_move` does; ``StaleRatings`` if a
        stored rating is not the ``before`` of the ending's ratings (nothing is written:
        compute again from the ratings now stored); ``ValueError`` for an ending that does not
        fit the game (a final move the game has not played, a mover who does not play in it,
        ratings for other players or another ruleset, an aborted game rated).
        """
        ...


class ClockStore(Protocol):
    """The correspondence clock's deadlines."""

    async def running(
        self, *, shard_count: int = 1, shard_ids: Collection[int] = (0,)
    ) -> list[RunningClock]:
        """Every active game whose clock runs (timed and not paused), earliest deadline first,
        in the servers of shards ``shard_ids`` of ``shard_count`` (default: all); never one
        outside servers, whose clock is checked when a player acts. A game whose deadline
        cannot be read is left out (and logged once). Raises ``ValueError`` for shard ids
        outside ``0..shard_count-1``."""
        ...

    async def mark_reminders_sent(
        self,
        game_id: int,
        *,
        expected_version: int,
        deadline_at: datetime,
        count: int,
        announce: Sequence[Announcement] = (),
        now: datetime | None = None,
    ) -> bool:
        """Raise the game's reminder count to ``count``, only if the game is still active at
        ``expected_version`` with this ``deadline_at`` and fewer reminders were sent: returns
        whether this call did it (so each reminder is claimed once). If it did, ``announce``
        (written at ``now``) goes to the outbox in the same transaction. Raises
        ``ValueError`` for a ``count`` below 1, or an ``announce`` without ``now``."""
        ...

    async def pause(self, game_id: int, *, expected_version: int, now: datetime) -> GameRecord:
        """Stop the running clock, storing the time left at ``now``; the version is unchanged.

        Raises ``NotFound``, ``StaleGame`` / ``GameNotActive`` as ``record_move`` does, and
        ``ValueError`` if the game's clock is not running.
        """
        ...

    async def resume(self, game_id: int, *, expected_version: int, now: datetime) -> GameRecord:
        """Restart a paused clock: the deadline becomes ``now`` + the time that was left.

        Raises ``NotFound``, ``StaleGame`` / ``GameNotActive``, or ``ValueError`` if the game is
        not paused.
        """
        ...


class RatingStore(Protocol):
    """Ratings and leaderboards. The store keeps ratings; the service computes them
    (``bot.service.ratings``). A pool's ``guild_id`` is its server's, or ``None`` for the
    friends pool: the games outside servers, which no server's leaderboard includes."""

    async def leaderboard(
        self, guild_id: int | None, ruleset: str, *, offset: int, limit: int
    ) -> list[RankedRating]:
        """Rated players of the server in the ruleset, ranked by rating (desc), then games
        (desc), then user id: ``limit`` rows from position ``offset`` (0-based)."""
        ...

    async def leaderboard_size(self, guild_id: int | None, ruleset: str) -> int:
        """How many players have a rating in the server's ruleset."""
        ...

    async def player_rank(
        self, guild_id: int | None, ruleset: str, user_id: int
    ) -> RankedRating | None:
        """The player's leaderboard row and rank, or ``None`` if they have no rating there."""
        ...

    async def player_ratings(self, guild_id: int | None, user_id: int) -> list[RatingRecord]:
        """The player's ratings on the server, one per ruleset played, most games first."""
        ...

    async def history(
        self, guild_id: int | None, user_id: int, ruleset: str, *, limit: int
    ) -> list[RatingHistoryRecord]:
        """The player's latest ``limit`` rating changes in the ruleset, oldest first."""
        ...

    async def match_changes(self, match_id: int) -> list[RatingHistoryRecord]:
        """The rating changes made by the match's games, in the order they were made."""
        ...

    async def rated_games(self, scope: RatingScope = EVERY_POOL) -> list[RatedGameRecord]:
        """Every rated game of the pool (or of every pool) in the order its ratings were
        applied: by end time, then by commit order."""
        ...

    async def tables(self, scope: RatingScope = EVERY_POOL) -> RatingTables:
        """Every stored rating and rating-history row of the pool (or of every pool)."""
        ...

    async def replace(
        self, tables: RatingTables, *, scope: RatingScope = EVERY_POOL, expected_games: int
    ) -> None:
        """Replace all ratings and rating history of the pool (or of every pool) with
        ``tables``, in one transaction. Raises ``StaleRatings`` unless the pool still has
        ``expected_games`` rated games (one ended meanwhile: recompute and try again)."""
        ...


class ResultStore(Protocol):
    """Players' results and game history, per server (``guild_id`` ``None``: the games
    outside servers). Results count games that ended as finished, resigned, timeout or
    stopped; aborted games never count."""

    async def player_stats(self, guild_id: int | None, user_id: int) -> PlayerStatsRecord:
        """The player's results on the server (every ruleset, rated or not) as White and as
        Black, their matches and current streak. A player without games gets zeros."""
        ...

    async def head_to_head(self, guild_id: int | None, user_id: int, opponent_id: int) -> Tally:
        """The player's results against one opponent on the server."""
        ...

    async def recent_games(
        self,
        guild_id: int | None,
        player_id: int,
        opponent_id: int | None = None,
        *,
        limit: int = 10,
    ) -> list[GameResultRecord]:
        """The player's latest ended games (against ``opponent_id`` only, if given), newest
        first. Aborted games are left out."""
        ...

    async def server_games(self, guild_id: int, *, limit: int) -> list[GameResultRecord]:
        """The server's ``limit`` latest ended games, newest first. Aborted games are left
        out."""
        ...

    async def game_result(self, game_id: int) -> GameResultRecord | None:
        """The game as history shows it, or ``None`` if it is unknown or has no result."""
        ...


class OutboxStore(Protocol):
    """The announcement outbox. What a front end must post about a change nobody's
    interaction waits for is written with the change (``announce=``); the delivery loop takes
    it with a lease, posts it, and settles it. Whatever was not settled is delivered later."""

    async def claim(
        self,
        *,
        now: datetime,
        lease_seconds: float,
        limit: int = 20,
        shard_zero: bool = True,
    ) -> list[OutboxEntry]:
        """Take up to ``limit`` pending announcements whose lease is free at ``now``, oldest
        first, leasing them until ``now + lease_seconds`` (their attempt count goes up). Two
        callers never take the same announcement under the same lease.

        Every server's announcements (any process may post them), and the direct messages
        sent from outside servers only where ``shard_zero`` (the caller runs shard 0, which
        Discord sends direct messages to). A post to a channel outside servers is never taken:
        the bot cannot post there."""
        ...

    async def settle(
        self,
        key: str,
        outcome: Settlement,
        *,
        lease: str,
        now: datetime,
        error: str | None = None,
        retry_at: datetime | None = None,
    ) -> bool:
        """``"sent"`` or ``"dropped"`` (given up, with ``error``) ends the announcement;
        ``"retry"`` leases it to nobody until ``retry_at`` (default ``now``: at once). Only a
        pending announcement whose lease is still ``lease`` changes (the claim's
        ``OutboxEntry.lease``, or ``WRITER_LEASE`` for the writer's own hold): returns whether
        it did; ``False`` when it was settled already or its lease ran out and another claim
        took it (that claim settles it). Raises ``NotFound`` for an unknown key."""
        ...

    async def next_due(self) -> datetime | None:
        """When the earliest pending announcement may be taken (a time in the past when one
        may be taken now), or ``None`` when none is pending."""
        ...


class QuarantineStore(Protocol):
    """Damaged games, for the operator (``jarmo-bot doctor``) and moderators' aborts."""

    async def damaged_games(self) -> list[DamagedGame]:
        """Every game whose stored record cannot be loaded, active ones first."""
        ...

    async def set_aside(self, game_id: int, *, reason: str, now: datetime) -> str:
        """Set a damaged game aside, in one transaction: its raw record and actions are kept,
        as they were, in the quarantine; the game is reset to an empty one that loads. An active
        game ends as aborted with termination ``"damaged"`` (its match is aborted; nothing
        counts) and its pending announcements are dropped; an ended game keeps its result.
        Returns the game's status afterwards. Raises ``NotFound``."""
        ...


# -- tournaments -----------------------------------------------------------------------------------


class TournamentStore(Protocol):
    """Tournaments: sign-up, rounds and their pairings. Every change of round is checked
    against ``current_round`` (``StaleTournament``), so each round is paired exactly once
    however many processes or moderators try; a result is recorded once (the first wins)."""

    async def create(self, new: NewTournament, *, now: datetime) -> TournamentRecord:
        """Open a tournament for sign-up. Raises ``ChannelHasTournament`` if the channel has
        one in sign-up or running."""
        ...

    async def get(self, tournament_id: int) -> TournamentRecord:
        """The tournament with this id. Raises ``NotFound``."""
        ...

    async def latest_in(self, channel_id: int) -> TournamentRecord | None:
        """The channel's open tournament, or else its most recently created one, if any."""
        ...

    async def last_finished_in(self, channel_id: int) -> TournamentRecord | None:
        """The channel's most recently finished tournament, if any (its final table stays
        on show while the next one signs up)."""
        ...

    async def finished_with(
        self, guild_id: int, user_id: int, *, limit: int
    ) -> list[TournamentRecord]:
        """The finished tournaments of the server that ``user_id`` was entered in (withdrawn
        too), the ``limit`` most recently finished, newest first."""
        ...

    async def of_server(self, guild_id: int, *, limit: int) -> list[TournamentRecord]:
        """The server's ``limit`` newest tournaments, newest first."""
        ...

    async def running(self) -> list[TournamentRecord]:
        """Every tournament past sign-up and not finished, oldest first."""
        ...

    async def attach_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the sign-up message. Raises ``NotFound``."""
        ...

    async def join(self, tournament_id: int, user_id: int) -> list[EntryRecord]:
        """Enter ``user_id`` (again: nothing changes) and return the entries in seed order.
        Raises ``NotFound``; ``TournamentClosed`` once sign-up is over."""
        ...

    async def leave(self, tournament_id: int, user_id: int) -> list[EntryRecord]:
        """Take ``user_id`` off the list during sign-up (not entered: nothing changes). Raises
        ``NotFound``; ``TournamentClosed`` once sign-up is over."""
        ...

    async def entries(self, tournament_id: int) -> list[EntryRecord]:
        """The entries in seed order."""
        ...

    async def withdraw(self, tournament_id: int, user_id: int) -> None:
        """Mark an entered player withdrawn (paired no more; results kept). Raises
        ``NotFound`` for a player not entered."""
        ...

    async def start_round(
        self,
        tournament_id: int,
        *,
        expected_round: int,
        pairings: Sequence[NewPairing],
        announce: Sequence[Announcement] = (),
        now: datetime | None = None,
    ) -> TournamentRecord:
        """Store round ``expected_round + 1`` with its ``pairings`` (boards numbered from 1)
        and make it current; from round 0 this also closes sign-up. ``announce`` (written at
        ``now``, which it needs) goes to the outbox in the same transaction, to be posted in
        the tournament's channel. Raises ``NotFound``; ``StaleTournament`` if the tournament
        is not at ``expected_round`` (or has finished)."""
        ...

    async def finish(
        self,
        tournament_id: int,
        *,
        expected_round: int,
        now: datetime,
        announce: Sequence[Announcement] = (),
    ) -> TournamentRecord:
        """Mark the tournament finished; ``announce`` goes to the outbox in the same
        transaction, to be posted in the tournament's channel. Raises ``StaleTournament`` if
        it is not running at ``expected_round``."""
        ...

    async def pairings(self, tournament_id: int) -> list[PairingRecord]:
        """Every pairing, by round and board."""
        ...

    async def pairing_of_match(self, match_id: int) -> PairingRecord | None:
        """The pairing played as ``match_id``, if the match belongs to a tournament."""
        ...

    async def attach_match(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        match_id: int,
        *,
        announce: Sequence[Announcement] = (),
        now: datetime | None = None,
    ) -> bool:
        """Record the match a pairing is played as, unless it already has one (another process
        started it first); whether it was recorded. ``announce`` (written at ``now``, which it
        needs) goes to the outbox in the same transaction when the match is recorded, to be
        posted in the match's channel about its first game. Raises ``NotFound`` for no such
        pairing."""
        ...

    async def decide(
        self, tournament_id: int, round_number: int, board: int, result: PairingResult
    ) -> bool:
        """Record a pairing's result; ``False`` (nothing written) if it was decided already.
        Raises ``NotFound`` for no such pairing."""
        ...


class ReviewStore(Protocol):
    """Reviews of finished games, kept once made (as the service's JSON text)."""

    async def get(self, game_id: int) -> str | None:
        """The review stored for the game, or ``None`` when there is none yet."""
        ...

    async def keep(self, game_id: int, body: str, *, now: datetime) -> str:
        """Store ``body`` as the game's review unless one is stored already (the first one
        stays, whichever process wrote it) and return the stored one. Raises ``ValueError``
        for a naive ``now``; an unknown game breaks the games table's foreign key."""
        ...


class VacationStore(Protocol):
    """The vacation ledger: each player's time away, kept as rows (the days used are worked out
    from them)."""

    async def current(self, user_id: int) -> Vacation | None:
        """The player's open vacation, if they are away."""
        ...

    async def of_player(self, user_id: int, *, since: datetime) -> list[Vacation]:
        """The player's vacations still open or ended after ``since``, earliest first."""
        ...

    async def open(self) -> list[Vacation]:
        """Every open vacation, the one whose days run out first first."""
        ...

    async def start(
        self,
        user_id: int,
        *,
        now: datetime,
        ends_at: datetime,
        announce: Sequence[tuple[int, Announcement]] = (),
    ) -> Vacation | None:
        """Open a vacation from ``now`` that ends by itself at ``ends_at``, changing the version
        of each game where the player's clock runs (a clock read before it no longer applies), and
        write ``announce`` (each about its game). ``None`` (nothing written) if the player is
        away already. Raises ``ValueError`` if ``ends_at`` is not after ``now``."""
        ...

    async def end(
        self,
        vacation_id: int,
        *,
        at: datetime,
        announce: Sequence[tuple[int, Announcement]] = (),
    ) -> Vacation | None:
        """Close the vacation at ``at`` if it is open: each game where its player is to move
        gets its deadline moved on by the time their clock stood (never past a whole period
        from ``at``), and ``announce`` is written. ``None`` (nothing written) if it was closed
        already, by whoever: so each vacation ends once."""
        ...


class GameChangeStore(Protocol):
    """Word of every change of a stored game's version, once committed: this process's own, and
    on a database several processes share (PostgreSQL), theirs too once ``start``-ed."""

    def listen(
        self, changed: Callable[[int, int], None], missed: Callable[[], None]
    ) -> Callable[[], None]:
        """Call ``changed(game_id, version)`` for each committed change, and ``missed()`` when
        changes may have gone unheard (the connection hearing them dropped); returns what
        stops it. Both are called on the event loop, and must not block."""
        ...

    async def start(self) -> None:
        """Begin hearing other processes' changes (PostgreSQL; nothing for SQLite)."""
        ...

    async def stop(self) -> None:
        """Stop hearing other processes' changes."""
        ...

    async def versions(self, game_ids: Collection[int]) -> dict[int, int]:
        """The stored version of each of ``game_ids`` that exists."""
        ...


class SpectatorStore(Protocol):
    """How many watch each game on the live board, as a web server last reported it."""

    async def report(self, game_id: int, watching: int, *, now: datetime) -> None:
        """Keep ``watching`` as the number watching ``game_id`` at ``now``. Raises
        ``ValueError`` for a negative number."""
        ...

    async def count(self, game_id: int, *, since: datetime) -> int:
        """The number last reported for ``game_id`` if reported at ``since`` or later, else 0."""
        ...


class Store(Protocol):
    """One backend: a store for each role, over one database."""

    @property
    def players(self) -> PlayerStore: ...
    @property
    def state(self) -> BotStateStore: ...
    @property
    def challenges(self) -> ChallengeStore: ...
    @property
    def games(self) -> GameStore: ...
    @property
    def clocks(self) -> ClockStore: ...
    @property
    def ratings(self) -> RatingStore: ...
    @property
    def results(self) -> ResultStore: ...
    @property
    def outbox(self) -> OutboxStore: ...
    @property
    def quarantine(self) -> QuarantineStore: ...
    @property
    def tournaments(self) -> TournamentStore: ...
    @property
    def reviews(self) -> ReviewStore: ...
    @property
    def pings(self) -> TurnPingStore: ...
    @property
    def vacations(self) -> VacationStore: ...
    @property
    def changes(self) -> GameChangeStore: ...
    @property
    def spectators(self) -> SpectatorStore: ...

    async def close(self) -> None:
        """Finish pending work and release the database. Closing twice is fine."""
        ...
