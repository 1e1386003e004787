"""Challenges: the statements of challenge and match writes, as plain functions run inside the
writer's transaction, and :class:`SqlChallenges`, the challenge role built on them."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam, func, insert, literal, or_, select, union_all, update

from bot.jarmo import Game
from bot.jarmo.match import MATCH_LENGTHS
from bot.store import _rows
from bot.store._game_sql import insert_game
from bot.store._games import GameLoader, dump
from bot.store._rows import CHALLENGE_COLUMNS, MATCH_COLUMNS, only_row, to_text
from bot.store._sql import UNIQUE_VIOLATIONS, Hot, Reader, Sql, Transactions, inline
from bot.store.errors import ChallengeClosed, ChannelTaken, NotFound
from bot.store.records import (
    ChallengeRecord,
    ClosedChallengeStatus,
    GameRecord,
    MatchRecord,
    NewChallenge,
)
from bot.store.schema import challenges, games, matches

_CLOSED_STATUSES = ("declined", "cancelled", "expired")


def check_new_challenge(new: NewChallenge) -> None:
    """Raise ``ValueError`` for options the schema would refuse anyway, with a clearer message."""
    o = new.options
    if o.game_count not in MATCH_LENGTHS:
        raise ValueError(f"a match has {MATCH_LENGTHS} games, not {o.game_count}")
    if o.side not in ("white", "black", "random"):
        raise ValueError(f"side must be white, black or random, not {o.side!r}")
    if o.max_plies < 1:
        raise ValueError(f"max_plies must be positive, not {o.max_plies}")
    if o.time_per_move_seconds is not None and o.time_per_move_seconds < 1:
        raise ValueError(f"time_per_move_seconds must be positive, not {o.time_per_move_seconds}")
    if new.challenger_id == new.challenged_id:
        raise ValueError("a player cannot challenge themselves")
    limits = new.rating_range
    if limits is not None and new.challenged_id is not None:
        raise ValueError("only an open challenge has a rating range")
    if limits is not None and not 0 <= limits.lowest <= limits.highest:
        raise ValueError(f"not a rating range: {limits.lowest}-{limits.highest}")


_NEW_MATCH_COLUMNS = (
    "guild_id", "channel_id", "challenge_id", "first_white_id", "first_black_id", "ruleset",
    "layout", "game_count", "max_plies", "created_at", "time_per_move_seconds",
)  # fmt: skip
# Built once, with named parameters: building a statement (and its cache key) on each call cost
# several times what running it does (``bench/store.py``).
_EXPIRE = (
    update(challenges)
    .where(challenges.c.status == inline("pending"), challenges.c.expires_at <= bindparam("now"))
    .values(status="expired", closed_at=bindparam("now"))
    .returning(*CHALLENGE_COLUMNS)
)
# The background sweep passes over challenges outside servers: nobody could say there that one
# expired. An interaction in their channel expires them (``_OVERDUE_IN_CHANNEL``).
_OVERDUE = Hot(_EXPIRE.where(challenges.c.guild_id.is_not(None)))
_OVERDUE_IN_CHANNEL = Hot(_EXPIRE.where(challenges.c.channel_id == bindparam("in_channel")))
_CHANNEL_HOLDERS = Hot(
    union_all(
        select(literal("game").label("kind"), games.c.id).where(
            games.c.channel_id == bindparam("channel_id"), games.c.status == inline("active")
        ),
        select(literal("challenge").label("kind"), challenges.c.id).where(
            challenges.c.channel_id == bindparam("channel_id"),
            challenges.c.status == inline("pending"),
        ),
    )
)
# Run by SQLAlchemy, which hands a unique index's refusal on as IntegrityError on both backends.
_NEW_CHALLENGE = insert(challenges).returning(*CHALLENGE_COLUMNS)
_CHALLENGE = Hot(select(*CHALLENGE_COLUMNS).where(challenges.c.id == bindparam("challenge_id")))
_SET_STATUS = Hot(
    update(challenges)
    .where(challenges.c.id == bindparam("challenge_id"))
    .values(status=bindparam("new_status"), closed_at=bindparam("now"))
    .returning(*CHALLENGE_COLUMNS)
)
# Accepting is one conditional update, so that of two clicks at once (in any processes) exactly
# one finds the challenge still pending and gets the game; an open challenge takes its acceptor
# as the challenged player in the same statement.
_CLAIM = Hot(
    update(challenges)
    .where(
        challenges.c.id == bindparam("challenge_id"),
        challenges.c.status == inline("pending"),
        challenges.c.expires_at > bindparam("now"),
        challenges.c.challenger_id != bindparam("acceptor"),
        or_(
            challenges.c.challenged_id == bindparam("acceptor"),
            challenges.c.challenged_id.is_(None),
        ),
    )
    .values(
        status="accepted",
        closed_at=bindparam("now"),
        challenged_id=func.coalesce(challenges.c.challenged_id, bindparam("acceptor")),
    )
    .returning(*CHALLENGE_COLUMNS)
)
_NEW_MATCH = Hot(
    insert(matches)
    .values({name: bindparam(name) for name in _NEW_MATCH_COLUMNS})
    .returning(*MATCH_COLUMNS)
)


def expire_overdue(db: Sql, now: str, channel_id: int | None = None) -> list[ChallengeRecord]:
    """Mark pending challenges overdue at ``now`` (in one channel, or in every server's)
    expired."""
    if channel_id is None:
        rows = _OVERDUE.execute(db, {"now": now}).rows
    else:
        found = {"now": now, "in_channel": channel_id}
        rows = _OVERDUE_IN_CHANNEL.execute(db, found).rows
    return sorted((_rows.challenge(row) for row in rows), key=lambda c: c.id)


def ensure_channel_free(db: Sql, channel_id: int) -> None:
    """Raise ``ChannelTaken`` if the channel has an active game or a pending challenge."""
    row = _CHANNEL_HOLDERS.execute(db, {"channel_id": channel_id}).first()
    if row is not None:
        raise ChannelTaken(channel_id, row["kind"], row["id"])


def insert_challenge(db: Sql, new: NewChallenge, now: str) -> ChallengeRecord:
    """Store ``new`` as pending."""
    o = new.options
    stored = dict(
        guild_id=new.guild_id, channel_id=new.channel_id, challenger_id=new.challenger_id,
        challenged_id=new.challenged_id, game_count=o.game_count, ruleset=o.ruleset,
        layout=o.layout, side=o.side, max_plies=o.max_plies,
        vs_computer_level=o.vs_computer_level, created_at=now,
        expires_at=_rows.to_text(new.expires_at), time_per_move_seconds=o.time_per_move_seconds,
        min_rating=None if new.rating_range is None else new.rating_range.lowest,
        max_rating=None if new.rating_range is None else new.rating_range.highest,
    )  # fmt: skip
    try:
        row = db.execute(_NEW_CHALLENGE, stored).mappings().one()
    except UNIQUE_VIOLATIONS as exc:  # another process's challenge won the race
        raise ChannelTaken(new.channel_id, "challenge") from exc
    return _rows.challenge(row)


def pending_for_update(db: Sql, challenge_id: int) -> ChallengeRecord:
    """The challenge, read inside the write transaction; raises unless it is pending."""
    row = _CHALLENGE.execute(db, {"challenge_id": challenge_id}).first()
    if row is None:
        raise NotFound("challenge", challenge_id)
    challenge = _rows.challenge(row)
    if challenge.status != "pending":
        raise ChallengeClosed(challenge_id, challenge.status)
    return challenge


def claim(db: Sql, challenge_id: int, acceptor_id: int, now: datetime) -> ChallengeRecord:
    """Mark the pending challenge accepted by ``acceptor_id`` at ``now``, in one statement.
    Raises ``NotFound``, ``ChallengeClosed`` if it is not pending (an overdue one is stored as
    expired first), or ``ValueError`` if ``acceptor_id`` may not accept it."""
    at = to_text(now)
    found = {"challenge_id": challenge_id, "acceptor": acceptor_id, "now": at}
    row = _CLAIM.execute(db, found).first()
    if row is not None:
        return _rows.challenge(row)
    current = pending_for_update(db, challenge_id)  # raises unless it is pending
    if current.is_overdue(now):
        set_status(db, challenge_id, "expired", at)
        raise ChallengeClosed(challenge_id, "expired")
    raise ValueError(f"user {acceptor_id} may not accept challenge {challenge_id}")


def set_status(db: Sql, challenge_id: int, status: str, now: str) -> ChallengeRecord:
    """Close the challenge as ``status`` at ``now``."""
    closed = {"challenge_id": challenge_id, "new_status": status, "now": now}
    return _rows.challenge(_SET_STATUS.execute(db, closed).first())


def insert_match(
    db: Sql,
    challenge: ChallengeRecord,
    first_white_id: int,
    now: str,
    channel_id: int | None = None,
) -> MatchRecord:
    """Create the running match for an accepted challenge, in ``channel_id`` (default: the
    challenge's channel)."""
    if challenge.challenged_id is None:
        raise ValueError(f"challenge {challenge.id} is open: it names no opponent to play")
    players = (challenge.challenger_id, challenge.challenged_id)
    if first_white_id not in players:
        raise ValueError(f"user {first_white_id} is not in challenge {challenge.id}")
    first_black_id = players[1] if first_white_id == players[0] else players[0]
    o = challenge.options
    started = dict(
        guild_id=challenge.guild_id, channel_id=channel_id or challenge.channel_id,
        challenge_id=challenge.id, first_white_id=first_white_id, first_black_id=first_black_id,
        ruleset=o.ruleset, layout=o.layout, game_count=o.game_count, max_plies=o.max_plies,
        created_at=now, time_per_move_seconds=o.time_per_move_seconds,
    )  # fmt: skip
    return _rows.match(_NEW_MATCH.execute(db, started).first())


class SqlChallenges:
    """The :class:`~bot.store.interface.ChallengeStore`. Accepting hands the new game's
    snapshot to the loader as trusted, so loading it needs no replay."""

    def __init__(self, writer: Transactions, reader: Reader, loader: GameLoader) -> None:
        self._writer = writer
        self._read = reader
        self._loader = loader

    async def create(self, new: NewChallenge, *, now: datetime) -> ChallengeRecord:
        """Store a pending challenge (expiring an overdue one in the channel first).

        Raises ``ChannelTaken`` if the channel has a pending challenge or an active game.
        """
        check_new_challenge(new)
        at = to_text(now)

        def work(db: Sql) -> ChallengeRecord:
            expire_overdue(db, at, new.channel_id)  # makes way for the new one
            ensure_channel_free(db, new.channel_id)
            return insert_challenge(db, new, at)

        return await self._writer.run(work)

    async def get(self, challenge_id: int) -> ChallengeRecord:
        """The challenge with this id. Raises ``NotFound``."""
        rows = await self._read.rows(
            select(*CHALLENGE_COLUMNS).where(challenges.c.id == challenge_id)
        )
        return _rows.challenge(only_row(rows, "challenge", challenge_id))

    async def pending(self, channel_id: int, *, now: datetime) -> ChallengeRecord | None:
        """The channel's pending challenge that is not overdue at ``now``, if any."""
        rows = await self._read.rows(
            select(*CHALLENGE_COLUMNS)
            .where(challenges.c.channel_id == channel_id, challenges.c.status == inline("pending"))
            .where(challenges.c.expires_at > to_text(now))
        )
        for row in rows:
            return _rows.challenge(row)
        return None

    async def attach_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows the challenge. Raises ``NotFound``."""
        attached = (
            update(challenges).where(challenges.c.id == challenge_id).values(message_id=message_id)
        )
        count = await self._writer.run(lambda db: db.execute(attached).rowcount)
        if count != 1:
            raise NotFound("challenge", challenge_id)

    async def close(
        self, challenge_id: int, status: ClosedChallengeStatus, *, now: datetime
    ) -> ChallengeRecord:
        """Move a pending challenge to ``status``; see ``ChallengeStore.close``."""
        if status not in _CLOSED_STATUSES:
            raise ValueError(f"cannot close a challenge as {status!r}")
        at = to_text(now)

        def work(db: Sql) -> ChallengeRecord:
            current = pending_for_update(db, challenge_id)
            final = "expired" if current.is_overdue(now) else status
            return set_status(db, challenge_id, final, at)

        closed = await self._writer.run(work)
        if closed.status != status:  # it was overdue: stored as expired, reported as closed
            raise ChallengeClosed(challenge_id, closed.status)
        return closed

    async def expire_overdue(self, *, now: datetime) -> list[ChallengeRecord]:
        """Mark every pending challenge in a server that is overdue at ``now`` expired; return
        them."""
        at = to_text(now)
        return await self._writer.run(lambda db: expire_overdue(db, at))

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
        """Accept a pending challenge: mark it accepted, create its match and game 0, at once;
        see ``ChallengeStore.accept``."""
        snapshot, at = dump(first_game), to_text(now)

        def work(db: Sql) -> tuple[MatchRecord, GameRecord] | ChallengeClosed:
            if acceptor_id is None:  # a named challenge, accepted by the player it names
                named = pending_for_update(db, challenge_id).challenged_id
                if named is None:
                    raise ValueError(f"challenge {challenge_id} is open: say who accepts it")
                by = named
            else:
                by = acceptor_id
            try:
                challenge = claim(db, challenge_id, by, now)
            except ChallengeClosed as closed:
                return closed  # an overdue one stays stored as expired; reported below
            match = insert_match(db, challenge, first_white_id, at, channel_id)
            return match, insert_game(db, match, 0, first_game, snapshot, at)

        accepted = await self._writer.run(work)
        if isinstance(accepted, ChallengeClosed):
            raise accepted
        self._loader.trust(accepted[1].id, 0, snapshot)
        return accepted
