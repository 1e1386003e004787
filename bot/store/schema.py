"""The store's schema as code: one ``MetaData`` that both dialects compile.

It is the schema that migrations 0001-0022 leave behind on each backend, table by table: the
migrations' headers say why each part exists. Where the two backends' stored schemas differ,
the types say so with a variant, so that what SQLAlchemy creates from this module is what the
migrations made:

* Discord ids and row ids are ``BIGINT`` on PostgreSQL and ``INTEGER`` on SQLite (the older
  tables; both are 64-bit there, and an ``INTEGER PRIMARY KEY`` is SQLite's rowid alias). Row
  ids are identity columns on PostgreSQL. The tournament tables (0007) are ``BIGINT`` on both.
* Real numbers are ``DOUBLE PRECISION`` on PostgreSQL and ``REAL`` (8 bytes) on SQLite.
* Tables keyed by their primary key alone are ``WITHOUT ROWID`` on SQLite.
* ``guild_id`` NULL: a place outside servers (a DM, a group DM, or a server that has not added
  the bot). Ratings and names there are keyed by two partial unique indexes, one for the rows
  of servers and one for those outside them, since a primary key admits no NULL.
* PostgreSQL keeps 30 % of each games page free, so that a move's update can stay in its page.

Every constraint carries the name PostgreSQL gave it when the migrations created it without
one, so that a migration can name it (``outbox_status_check``) on either backend.
Times are ISO 8601 UTC text with microseconds, so they compare correctly as text.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    Double,
    ForeignKeyConstraint,
    Identity,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.sqlite import REAL
from sqlalchemy.types import TypeEngine

from bot.jarmo.match import EVEN_MATCH_LENGTHS, MATCH_LENGTHS

metadata = MetaData()

# An id that is BIGINT on PostgreSQL and INTEGER on SQLite (see the module).
Id: TypeEngine[int] = BigInteger().with_variant(Integer(), "sqlite")
# A double-precision number: SQLite's REAL already has 8 bytes.
Real: TypeEngine[float] = Double().with_variant(REAL(), "sqlite")


def _row_id() -> Column[int]:
    """``id``: SQLite's rowid alias, an identity column on PostgreSQL."""
    return Column("id", Id, Identity(), nullable=False)


def _checks(table: str, **conditions: str) -> list[CheckConstraint]:
    """Named checks: ``column=condition`` is PostgreSQL's ``<table>_<column>_check``; the
    table-wide ones are passed as ``check=``, ``check1=`` (its ``<table>_check``, ...)."""
    named = []
    for key, condition in conditions.items():
        name = f"{table}_{key}" if key.startswith("check") else f"{table}_{key}_check"
        named.append(CheckConstraint(condition, name=name))
    return named


def _one_of(column: str, values: Iterable[int | str]) -> str:
    """The condition ``column IN (...)`` for numbers or plain words, written as the migrations
    wrote it, so that a check derived from a constant is the stored one, to the character."""
    return f"{column} IN ({', '.join(map(repr, values))})"


players = Table(
    "players",
    metadata,
    Column("guild_id", Id),
    Column("user_id", Id, nullable=False),
    Column("display_name", Text),
)
Index(
    "players_in_server",
    players.c.guild_id,
    players.c.user_id,
    unique=True,
    sqlite_where=players.c.guild_id.is_not(None),
    postgresql_where=players.c.guild_id.is_not(None),
)
Index(
    "players_outside_servers",
    players.c.user_id,
    unique=True,
    sqlite_where=players.c.guild_id.is_(None),
    postgresql_where=players.c.guild_id.is_(None),
)

challenges = Table(
    "challenges",
    metadata,
    _row_id(),
    Column("guild_id", Id),
    Column("channel_id", Id, nullable=False),
    Column("challenger_id", Id, nullable=False),
    Column("challenged_id", Id),  # NULL: an open challenge, naming no opponent
    Column("game_count", Integer, nullable=False),
    Column("ruleset", Text, nullable=False),
    Column("layout", Text, nullable=False),
    Column("side", Text, nullable=False),
    Column("max_plies", Integer, nullable=False),
    Column("vs_computer_level", Text),
    Column("status", Text, nullable=False, server_default="pending"),
    Column("created_at", Text, nullable=False),
    Column("expires_at", Text, nullable=False),
    Column("closed_at", Text),
    Column("message_id", Id),
    Column("time_per_move_seconds", Integer),
    # Who may accept an open challenge, by rating (both ends included); NULL: anyone.
    Column("min_rating", Integer),
    Column("max_rating", Integer),
    PrimaryKeyConstraint("id", name="challenges_pkey"),
    *_checks(
        "challenges",
        game_count=_one_of("game_count", MATCH_LENGTHS),
        side="side IN ('white', 'black', 'random')",
        max_plies="max_plies > 0",
        status="status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')",
        check="challenger_id <> challenged_id",
        time_per_move_seconds="time_per_move_seconds IS NULL OR time_per_move_seconds > 0",
    ),
)
Index(
    "challenges_one_pending_per_channel",
    challenges.c.channel_id,
    unique=True,
    sqlite_where=challenges.c.status == "pending",
    postgresql_where=challenges.c.status == "pending",
)
Index(
    "challenges_pending_by_expiry",
    challenges.c.expires_at,
    sqlite_where=challenges.c.status == "pending",
    postgresql_where=challenges.c.status == "pending",
)

matches = Table(
    "matches",
    metadata,
    _row_id(),
    Column("guild_id", Id),
    Column("channel_id", Id, nullable=False),
    Column("challenge_id", Id),
    Column("first_white_id", Id, nullable=False),
    Column("first_black_id", Id, nullable=False),
    Column("ruleset", Text, nullable=False),
    Column("layout", Text, nullable=False),
    Column("game_count", Integer, nullable=False),
    Column("max_plies", Integer, nullable=False),
    Column("state", Text, nullable=False, server_default="running"),
    Column("winner_id", Id),
    Column("created_at", Text, nullable=False),
    Column("finished_at", Text),
    Column("time_per_move_seconds", Integer),
    PrimaryKeyConstraint("id", name="matches_pkey"),
    UniqueConstraint("challenge_id", name="matches_challenge_id_key"),
    ForeignKeyConstraint(["challenge_id"], ["challenges.id"], name="matches_challenge_id_fkey"),
    *_checks(
        "matches",
        game_count=_one_of("game_count", MATCH_LENGTHS),
        max_plies="max_plies > 0",
        state="state IN ('running', 'finished', 'forfeited', 'aborted')",
        check="winner_id IN (first_white_id, first_black_id)",
        check1="first_white_id <> first_black_id",
        time_per_move_seconds="time_per_move_seconds IS NULL OR time_per_move_seconds > 0",
    ),
)
Index("matches_by_channel", matches.c.channel_id, matches.c.id)
Index(
    "matches_by_first_white",
    matches.c.guild_id,
    matches.c.first_white_id,
    matches.c.state,
    matches.c.winner_id,
)
Index(
    "matches_by_first_black",
    matches.c.guild_id,
    matches.c.first_black_id,
    matches.c.state,
    matches.c.winner_id,
)

games = Table(
    "games",
    metadata,
    _row_id(),
    Column("match_id", Id, nullable=False),
    Column("game_index", Integer, nullable=False),
    Column("guild_id", Id),
    Column("channel_id", Id, nullable=False),
    Column("white_id", Id, nullable=False),
    Column("black_id", Id, nullable=False),
    Column("status", Text, nullable=False, server_default="active"),
    Column("version", Integer, nullable=False, server_default=text("0")),
    Column("snapshot", Text, nullable=False),  # json.dumps(Game.to_dict())
    Column("winner", Text),
    Column("points_white", Integer),
    Column("points_black", Integer),
    Column("termination", Text),
    Column("started_at", Text, nullable=False),
    Column("last_activity", Text, nullable=False),
    Column("finished_at", Text),
    Column("deadline_at", Text),
    Column("reminders_sent", Integer, nullable=False, server_default=text("0")),
    Column("time_left_seconds", Real),
    Column("paused_at", Text),
    Column("rated", Integer, nullable=False, server_default=text("0")),
    PrimaryKeyConstraint("id", name="games_pkey"),
    UniqueConstraint("match_id", "game_index", name="games_match_id_game_index_key"),
    ForeignKeyConstraint(["match_id"], ["matches.id"], name="games_match_id_fkey"),
    *_checks(
        "games",
        game_index="game_index >= 0",
        status="status IN ('active', 'finished', 'resigned', 'timeout', 'stopped', 'aborted')",
        version="version >= 0",
        winner="winner IN ('white', 'black')",
        check="white_id <> black_id",
        reminders_sent="reminders_sent >= 0",
        check1="time_left_seconds IS NULL OR (time_left_seconds >= 0 AND deadline_at IS NULL)",
        rated="rated IN (0, 1)",
    ),
    postgresql_with={"fillfactor": 70},
)
Index(
    "games_one_active_per_channel",
    games.c.channel_id,
    unique=True,
    sqlite_where=games.c.status == "active",
    postgresql_where=games.c.status == "active",
)
_ACTIVE_WITH_DEADLINE = (games.c.status == "active") & games.c.deadline_at.is_not(None)
Index(
    "games_active_by_deadline",
    games.c.deadline_at,
    sqlite_where=_ACTIVE_WITH_DEADLINE,
    postgresql_where=_ACTIVE_WITH_DEADLINE,
)
_COVERED_RESULT = ("finished_at", "status", "winner", "points_white", "points_black")
# A server's latest ended games, for its web page.
Index("games_by_server", games.c.guild_id, games.c.finished_at, games.c.id)
for _side, _other in (("white", "black"), ("black", "white")):
    _columns = ("guild_id", f"{_side}_id", *_COVERED_RESULT, f"{_other}_id")
    Index(f"games_by_{_side}", *(games.c[name] for name in _columns))
    # A player's unfinished games in every server: one short index lookup per side.
    Index(
        f"games_active_by_{_side}",
        games.c[f"{_side}_id"],
        sqlite_where=games.c.status == "active",
        postgresql_where=games.c.status == "active",
    )

actions = Table(
    "actions",
    metadata,
    Column("game_id", Id, nullable=False),
    Column("ply", Integer, nullable=False),  # 1 for the first action
    Column("player_id", Id, nullable=False),
    Column("move", Text, nullable=False),  # canonical notation
    Column("played_at", Text, nullable=False),
    # The game's clock before the action (for a takeback); NULL before 0019 and untimed.
    Column("deadline_before", Text),
    Column("reminders_before", Integer),
    PrimaryKeyConstraint("game_id", "ply", name="actions_pkey"),
    ForeignKeyConstraint(["game_id"], ["games.id"], name="actions_game_id_fkey"),
    *_checks("actions", ply="ply >= 1"),
    sqlite_with_rowid=False,
)

ratings = Table(
    "ratings",
    metadata,
    Column("guild_id", Id),
    Column("ruleset", Text, nullable=False),
    Column("user_id", Id, nullable=False),
    Column("mu", Real, nullable=False),
    Column("sigma", Real, nullable=False),
    Column("rating", Real, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False, server_default=text("0")),
    Column("draws", Integer, nullable=False, server_default=text("0")),
    Column("losses", Integer, nullable=False, server_default=text("0")),
    Column("points", Integer, nullable=False, server_default=text("0")),
    Column("match_wins", Integer, nullable=False, server_default=text("0")),
    Column("last_game_at", Text, nullable=False),
    *_checks(
        "ratings",
        sigma="sigma > 0",
        games="games >= 0",
        check="wins + draws + losses = games",
    ),
)
Index(
    "ratings_in_server",
    ratings.c.guild_id,
    ratings.c.ruleset,
    ratings.c.user_id,
    unique=True,
    sqlite_where=ratings.c.guild_id.is_not(None),
    postgresql_where=ratings.c.guild_id.is_not(None),
)
# The friends pool: one rating per ruleset and player, of the games outside servers.
Index(
    "ratings_of_friends",
    ratings.c.ruleset,
    ratings.c.user_id,
    unique=True,
    sqlite_where=ratings.c.guild_id.is_(None),
    postgresql_where=ratings.c.guild_id.is_(None),
)
Index(
    "ratings_leaderboard",
    ratings.c.guild_id,
    ratings.c.ruleset,
    ratings.c.rating.desc(),
    ratings.c.games.desc(),
    ratings.c.user_id,
)
Index("ratings_by_player", ratings.c.guild_id, ratings.c.user_id)

rating_history = Table(
    "rating_history",
    metadata,
    _row_id(),  # commit order
    Column("game_id", Id, nullable=False),
    Column("guild_id", Id),
    Column("ruleset", Text, nullable=False),
    Column("user_id", Id, nullable=False),
    Column("mu_before", Real, nullable=False),
    Column("sigma_before", Real, nullable=False),
    Column("rating_before", Real, nullable=False),
    Column("mu_after", Real, nullable=False),
    Column("sigma_after", Real, nullable=False),
    Column("rating_after", Real, nullable=False),
    Column("at", Text, nullable=False),  # the game's finished_at
    PrimaryKeyConstraint("id", name="rating_history_pkey"),
    UniqueConstraint("game_id", "user_id", name="rating_history_game_id_user_id_key"),
    ForeignKeyConstraint(["game_id"], ["games.id"], name="rating_history_game_id_fkey"),
)
Index(
    "rating_history_trend",
    rating_history.c.guild_id,
    rating_history.c.user_id,
    rating_history.c.ruleset,
    rating_history.c.id,
)

outbox = Table(
    "outbox",
    metadata,
    _row_id(),
    Column("key", Text, nullable=False),  # what happened, e.g. 'timeout:12': written once
    Column("kind", Text, nullable=False),
    Column("guild_id", Id),
    Column("channel_id", Id),  # NULL: sent to user_id instead
    Column("game_id", Id),  # NULL: about a tournament
    Column("payload", Text, nullable=False),  # JSON: what the front end needs to rebuild it
    Column("status", Text, nullable=False, server_default="pending"),
    Column("created_at", Text, nullable=False),
    Column("lease_until", Text),
    Column("attempts", Integer, nullable=False, server_default=text("0")),
    Column("last_error", Text),
    Column("settled_at", Text),
    Column("lease_token", Text),  # who holds the lease: a claim's random token, or 'writer'
    Column("user_id", Id),  # a direct message's (NULL: posted in channel_id)
    PrimaryKeyConstraint("id", name="outbox_pkey"),
    UniqueConstraint("key", name="outbox_key_key"),
    ForeignKeyConstraint(["game_id"], ["games.id"], name="outbox_game_id_fkey"),
    *_checks(
        "outbox",
        status="status IN ('pending', 'sent', 'dropped')",
        attempts="attempts >= 0",
        check="(channel_id IS NULL) <> (user_id IS NULL)",
    ),
)
Index(
    "outbox_pending",
    outbox.c.lease_until,
    outbox.c.id,
    sqlite_where=outbox.c.status == "pending",
    postgresql_where=outbox.c.status == "pending",
)

quarantined_games = Table(
    "quarantined_games",
    metadata,
    Column("game_id", Id, nullable=False),
    Column("reason", Text, nullable=False),
    Column("game_row", Text, nullable=False),  # JSON object: the games row as it was
    Column("actions", Text, nullable=False),  # JSON array: its action rows as they were
    Column("quarantined_at", Text, nullable=False),
    PrimaryKeyConstraint("game_id", name="quarantined_games_pkey"),
    ForeignKeyConstraint(["game_id"], ["games.id"], name="quarantined_games_game_id_fkey"),
)

bot_state = Table(
    "bot_state",
    metadata,
    Column("key", Text, nullable=False),
    Column("value", Text, nullable=False),
    PrimaryKeyConstraint("key", name="bot_state_pkey"),
    sqlite_with_rowid=False,
)

# How each player is told it is their move, in every server; no row: by mention.
turn_pings = Table(
    "turn_pings",
    metadata,
    Column("user_id", Id, nullable=False),
    Column("mode", Text, nullable=False),
    # 1: a direct message was refused (the player closed DMs) and they are yet to be told.
    Column("dm_refused", Integer, nullable=False, server_default=text("0")),
    PrimaryKeyConstraint("user_id", name="turn_pings_pkey"),
    *_checks(
        "turn_pings",
        mode="mode IN ('mention', 'dm', 'off')",
        dm_refused="dm_refused IN (0, 1)",
    ),
    sqlite_with_rowid=False,
)

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", BigInteger, nullable=False, autoincrement=False),  # assigned by the store
    Column("guild_id", BigInteger, nullable=False),
    Column("channel_id", BigInteger, nullable=False),
    Column("organiser_id", BigInteger, nullable=False),
    Column("name", Text, nullable=False),
    Column("format", Text, nullable=False),
    Column("rounds", Integer, nullable=False),  # 0: as many as the format allows
    Column("game_count", Integer, nullable=False),
    Column("ruleset", Text, nullable=False),
    Column("layout", Text, nullable=False),
    Column("max_plies", Integer, nullable=False),
    Column("time_per_move_seconds", Integer),
    Column("status", Text, nullable=False, server_default="signup"),
    Column("current_round", Integer, nullable=False, server_default=text("0")),
    Column("message_id", BigInteger),
    Column("created_at", Text, nullable=False),
    Column("finished_at", Text),
    PrimaryKeyConstraint("id", name="tournaments_pkey"),
    *_checks(
        "tournaments",
        format="format IN ('round-robin', 'swiss')",
        rounds="rounds >= 0",
        game_count=_one_of("game_count", EVEN_MATCH_LENGTHS),
        max_plies="max_plies > 0",
        time_per_move_seconds="time_per_move_seconds > 0",
        status="status IN ('signup', 'running', 'finished')",
    ),
)
Index("tournaments_by_server", tournaments.c.guild_id, tournaments.c.id)
Index(
    "tournaments_one_open_per_channel",
    tournaments.c.channel_id,
    unique=True,
    sqlite_where=text("status <> 'finished'"),
    postgresql_where=text("status <> 'finished'"),
)

tournament_entries = Table(
    "tournament_entries",
    metadata,
    Column("tournament_id", BigInteger, nullable=False),
    Column("user_id", BigInteger, nullable=False),
    Column("seed", Integer, nullable=False),  # order of joining: the pairing's seed order
    Column("withdrawn", Integer, nullable=False, server_default=text("0")),
    PrimaryKeyConstraint("tournament_id", "user_id", name="tournament_entries_pkey"),
    UniqueConstraint("tournament_id", "seed", name="tournament_entries_tournament_id_seed_key"),
    ForeignKeyConstraint(
        ["tournament_id"], ["tournaments.id"], name="tournament_entries_tournament_id_fkey"
    ),
    *_checks("tournament_entries", withdrawn="withdrawn IN (0, 1)"),
)

tournament_pairings = Table(
    "tournament_pairings",
    metadata,
    Column("tournament_id", BigInteger, nullable=False),
    Column("round_number", Integer, nullable=False),
    Column("board", Integer, nullable=False),
    Column("first_id", BigInteger, nullable=False),  # starts the match's first game
    Column("second_id", BigInteger),  # NULL: a bye for first_id
    Column("match_id", BigInteger),
    Column("decided", Integer, nullable=False, server_default=text("0")),
    Column("winner_id", BigInteger),  # NULL once decided: a drawn match
    Column("first_points", Integer, nullable=False, server_default=text("0")),
    Column("second_points", Integer, nullable=False, server_default=text("0")),
    Column("forfeit", Integer, nullable=False, server_default=text("0")),
    Column("forced_by", BigInteger),  # the moderator who forced the result; NULL: not forced
    PrimaryKeyConstraint("tournament_id", "round_number", "board", name="tournament_pairings_pkey"),
    ForeignKeyConstraint(
        ["tournament_id"], ["tournaments.id"], name="tournament_pairings_tournament_id_fkey"
    ),
    ForeignKeyConstraint(["match_id"], ["matches.id"], name="tournament_pairings_match_id_fkey"),
    *_checks(
        "tournament_pairings",
        round_number="round_number >= 1",
        decided="decided IN (0, 1)",
        forfeit="forfeit IN (0, 1)",
    ),
)
Index("tournament_pairings_by_match", tournament_pairings.c.match_id, unique=True)

game_reviews = Table(
    "game_reviews",
    metadata,
    Column("game_id", Id, nullable=False),
    Column("body", Text, nullable=False),
    Column("created_at", Text, nullable=False),
    PrimaryKeyConstraint("game_id", name="game_reviews_pkey"),
    ForeignKeyConstraint(["game_id"], ["games.id"], name="game_reviews_game_id_fkey"),
)

vacations = Table(
    "vacations",
    metadata,
    _row_id(),
    Column("user_id", Id, nullable=False),
    Column("started_at", Text, nullable=False),
    Column("ends_at", Text, nullable=False),  # when the player's days run out
    Column("ended_at", Text),  # NULL: the player is away
    PrimaryKeyConstraint("id", name="vacations_pkey"),
    *_checks("vacations", check="ends_at > started_at"),
)
# A player is away at most once at a time; the index also finds who is away now.
Index(
    "vacations_one_open_per_player",
    vacations.c.user_id,
    unique=True,
    sqlite_where=vacations.c.ended_at.is_(None),
    postgresql_where=vacations.c.ended_at.is_(None),
)
Index("vacations_by_player", vacations.c.user_id, vacations.c.started_at)
# Actions taken back by agreement: no longer part of their game, kept for its history. A ply may
# be taken back more than once; ``version`` is the game's version the takeback made.
taken_back = Table(
    "taken_back",
    metadata,
    Column("game_id", Id, nullable=False),
    Column("version", Integer, nullable=False),
    Column("ply", Integer, nullable=False),
    Column("player_id", Id, nullable=False),
    Column("move", Text, nullable=False),
    Column("played_at", Text, nullable=False),
    Column("taken_back_at", Text, nullable=False),
    PrimaryKeyConstraint("game_id", "version", "ply", name="taken_back_pkey"),
    ForeignKeyConstraint(["game_id"], ["games.id"], name="taken_back_game_id_fkey"),
)
# How many watch each game on the live board, as a web server last reported it (``updated_at``:
# when); an old report counts as nobody watching.
spectators = Table(
    "spectators",
    metadata,
    Column("game_id", Id, nullable=False),
    Column("watching", Integer, nullable=False),
    Column("updated_at", Text, nullable=False),
    PrimaryKeyConstraint("game_id", name="spectators_pkey"),
    *_checks("spectators", watching="watching >= 0"),
    sqlite_with_rowid=False,
)
