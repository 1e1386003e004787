"""The store's exceptions: each carries structured fields and builds its own message."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of everything the store raises on purpose."""


class NotFound(StoreError):
    """No row of ``kind`` (``"challenge"``, ``"match"``, ``"game"``, ``"player"``) has this id."""

    def __init__(self, kind: str, key: object) -> None:
        self.kind = kind
        self.key = key
        super().__init__(f"no {kind} {key!r}")


class StaleGame(StoreError):
    """The game changed meanwhile: the stored version is not the one the move was checked on."""

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        self.game_id = game_id
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"game {game_id} changed meanwhile (expected version {expected}, found {actual})"
        )


class GameNotActive(StaleGame):
    """The game has already ended (resigned, finished, ...), so nothing more can be written to it.

    A subclass of :class:`StaleGame` because to a caller it is the same situation: the game it
    validated against is not the game that is stored any more.
    """

    def __init__(self, game_id: int, expected: int, actual: int, status: str) -> None:
        super().__init__(game_id, expected, actual)
        self.status = status
        self.args = (f"game {game_id} is no longer active (status {status!r})",)


class ChannelTaken(StoreError):
    """The channel already has a pending challenge or an active game (``reason`` says which)."""

    def __init__(self, channel_id: int, reason: str, holder_id: int | None = None) -> None:
        self.channel_id = channel_id
        self.reason = reason  # "challenge" or "game"
        self.holder_id = holder_id  # the id of that challenge or game, when known
        super().__init__(f"channel {channel_id} already has a {reason} in progress")


class ChallengeClosed(StoreError):
    """The challenge is no longer pending; ``status`` is what it is now (e.g. ``"expired"``)."""

    def __init__(self, challenge_id: int, status: str) -> None:
        self.challenge_id = challenge_id
        self.status = status
        super().__init__(f"challenge {challenge_id} is {status}, not pending")


class CorruptGame(StoreError):
    """A stored game does not replay to its own snapshot; it is reported, never repaired."""

    def __init__(self, game_id: int, reason: str) -> None:
        self.game_id = game_id
        self.reason = reason
        super().__init__(f"game {game_id} is corrupt: {reason}")


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the bot than this one: ``found`` is its
    schema version, or the Alembic revision this code does not know."""

    def __init__(self, found: int | str, supported: int) -> None:
        self.found = found
        self.supported = supported
        super().__init__(
            f"database schema version {found} is newer than this code supports ({supported})"
        )


class DatabaseUnusable(StoreError):
    """The database cannot be used at all; found before anything in it was touched."""

    def __init__(self, path: object, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"cannot use the database {path}: {reason}")


class DatabaseReadOnly(DatabaseUnusable):
    """The database file, or the folder it lives in, cannot be written (SQLite writes its
    ``-wal`` and ``-shm`` files beside the database)."""


class DatabaseInUse(DatabaseUnusable):
    """Another process (another bot) holds the database file: one process per file."""

    def __init__(self, path: object) -> None:
        super().__init__(
            path,
            "another Jarmo bot (or jarmo-bot command) is using it. Stop that one first, or give "
            "this one its own database file.",
        )


class StoreBusy(StoreError):
    """The database stayed locked by someone else for longer than a player should wait;
    nothing was written."""

    def __init__(self, waited_seconds: float) -> None:
        self.waited_seconds = waited_seconds
        super().__init__(f"the database stayed locked for {waited_seconds:.1f} s; nothing written")


class StoreUnavailable(StoreBusy):
    """The database server could not be reached, or dropped the connection, during the call;
    nothing was written (the transaction, if one had begun, was rolled back). To a player this
    is the same as a busy database: try again in a moment."""

    def __init__(self, reason: str) -> None:
        StoreError.__init__(self, f"the database server is unavailable ({reason}); nothing written")
        self.waited_seconds = 0.0
        self.reason = reason


class StoreFull(StoreError):
    """The database could not grow (its disk, or its quota, is full); nothing was written.
    ``reason`` is the database's own message, for the operator's log."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"the database is full ({reason}); nothing written")


class StaleRatings(StoreError):
    """A rating changed meanwhile: it is not the one the update was computed from.

    ``user_id`` and ``ruleset`` are ``None`` when a whole rebuild found new rated games.
    """

    def __init__(
        self,
        guild_id: int | None,
        ruleset: str | None,
        user_id: int | None,
        expected_games: int,
        found_games: int,
    ) -> None:
        self.guild_id = guild_id
        self.ruleset = ruleset
        self.user_id = user_id
        self.expected_games = expected_games
        self.found_games = found_games
        who = "the rated games" if user_id is None else f"user {user_id}'s {ruleset} rating"
        super().__init__(
            f"{who} changed meanwhile (expected {expected_games} games, found {found_games})"
        )
