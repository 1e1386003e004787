"""0001: the first schema: guild settings, players, challenges, matches, games and their actions.

Why: games survive a restart. Games keep both an action list (the truth, replayed on load) and a
snapshot of the engine state (fast loads); ``version`` (= number of actions) is the optimistic
concurrency token. The partial unique indexes make the database itself refuse a second active
game, or a second pending challenge, in one channel. Times are ISO 8601 UTC text with
microseconds, so they compare correctly as text.
"""

import sqlalchemy as sa
from alembic import op

from bot.store.migrations import FLOAT, ID, row_id, where

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "guild_settings",
        sa.Column("guild_id", ID, primary_key=True, nullable=True, autoincrement=False),
        sa.Column("default_ruleset", sa.Text, nullable=False),
        sa.Column("default_layout", sa.Text, nullable=False),
        sa.Column(
            "challenge_expiry_seconds",
            sa.Integer,
            sa.CheckConstraint("challenge_expiry_seconds > 0"),
            nullable=False,
        ),
    )
    op.create_table(
        "players",
        sa.Column("guild_id", ID, primary_key=True),
        sa.Column("user_id", ID, primary_key=True),
        sa.Column("display_name", sa.Text),
        # Glicko-2 starting values and totals; never read, dropped again by 0004.
        sa.Column("rating", FLOAT, nullable=False, server_default=sa.text("1500")),
        sa.Column("rating_deviation", FLOAT, nullable=False, server_default=sa.text("350")),
        sa.Column("volatility", FLOAT),
        *(
            sa.Column(name, sa.Integer, nullable=False, server_default=sa.text("0"))
            for name in ("games", "wins", "draws", "losses", "points", "match_wins")
        ),
        sqlite_with_rowid=False,
    )
    _challenges()
    _matches()
    _games()
    op.create_table(
        "actions",
        sa.Column("game_id", ID, sa.ForeignKey("games.id"), primary_key=True),
        # 1 for the first action; games.version is the last one's
        sa.Column("ply", sa.Integer, sa.CheckConstraint("ply >= 1"), primary_key=True),
        sa.Column("player_id", ID, nullable=False),
        sa.Column("move", sa.Text, nullable=False),  # canonical notation
        sa.Column("played_at", sa.Text, nullable=False),
        sqlite_with_rowid=False,
    )


def _challenges() -> None:
    op.create_table(
        "challenges",
        row_id(),
        sa.Column("guild_id", ID, nullable=False),
        sa.Column("channel_id", ID, nullable=False),
        sa.Column("challenger_id", ID, nullable=False),
        sa.Column("challenged_id", ID, nullable=False),
        sa.Column(
            "game_count",
            sa.Integer,
            sa.CheckConstraint("game_count IN (1, 2, 4, 6)"),
            nullable=False,
        ),
        sa.Column("ruleset", sa.Text, nullable=False),
        sa.Column("layout", sa.Text, nullable=False),
        sa.Column(
            "side",
            sa.Text,
            sa.CheckConstraint("side IN ('white', 'black', 'random')"),
            nullable=False,
        ),
        sa.Column("max_plies", sa.Integer, sa.CheckConstraint("max_plies > 0"), nullable=False),
        sa.Column("vs_computer_level", sa.Text),
        sa.Column(
            "status",
            sa.Text,
            sa.CheckConstraint(
                "status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')"
            ),
            nullable=False,
            server_default="pending",
        ),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("expires_at", sa.Text, nullable=False),
        sa.Column("closed_at", sa.Text),
        sa.Column("message_id", ID),
        sa.CheckConstraint("challenger_id <> challenged_id"),
    )
    op.create_index(
        "challenges_one_pending_per_channel",
        "challenges",
        ["channel_id"],
        unique=True,
        **where("status = 'pending'"),
    )
    op.create_index(
        "challenges_pending_by_expiry", "challenges", ["expires_at"], **where("status = 'pending'")
    )


def _matches() -> None:
    op.create_table(
        "matches",
        row_id(),
        sa.Column("guild_id", ID, nullable=False),
        sa.Column("channel_id", ID, nullable=False),
        sa.Column("challenge_id", ID, sa.ForeignKey("challenges.id"), unique=True),
        sa.Column("first_white_id", ID, nullable=False),
        sa.Column("first_black_id", ID, nullable=False),
        sa.Column("ruleset", sa.Text, nullable=False),
        sa.Column("layout", sa.Text, nullable=False),
        sa.Column(
            "game_count",
            sa.Integer,
            sa.CheckConstraint("game_count IN (1, 2, 4, 6)"),
            nullable=False,
        ),
        sa.Column("max_plies", sa.Integer, sa.CheckConstraint("max_plies > 0"), nullable=False),
        sa.Column(
            "state",
            sa.Text,
            sa.CheckConstraint("state IN ('running', 'finished', 'forfeited', 'aborted')"),
            nullable=False,
            server_default="running",
        ),
        sa.Column(
            "winner_id", ID, sa.CheckConstraint("winner_id IN (first_white_id, first_black_id)")
        ),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("finished_at", sa.Text),
        sa.CheckConstraint("first_white_id <> first_black_id"),
    )
    op.create_index("matches_by_channel", "matches", ["channel_id", "id"])


def _games() -> None:
    op.create_table(
        "games",
        row_id(),
        sa.Column("match_id", ID, sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("game_index", sa.Integer, sa.CheckConstraint("game_index >= 0"), nullable=False),
        sa.Column("guild_id", ID, nullable=False),
        sa.Column("channel_id", ID, nullable=False),
        sa.Column("white_id", ID, nullable=False),
        sa.Column("black_id", ID, nullable=False),
        sa.Column(
            "status",
            sa.Text,
            sa.CheckConstraint(
                "status IN ('active', 'finished', 'resigned', 'timeout', 'stopped', 'aborted')"
            ),
            nullable=False,
            server_default="active",
        ),
        sa.Column(
            "version",
            sa.Integer,
            sa.CheckConstraint("version >= 0"),
            nullable=False,
            server_default=sa.text("0"),
        ),
        sa.Column("snapshot", sa.Text, nullable=False),  # json.dumps(Game.to_dict())
        sa.Column("winner", sa.Text, sa.CheckConstraint("winner IN ('white', 'black')")),
        sa.Column("points_white", sa.Integer),
        sa.Column("points_black", sa.Integer),
        sa.Column("termination", sa.Text),
        sa.Column("started_at", sa.Text, nullable=False),
        sa.Column("last_activity", sa.Text, nullable=False),
        sa.Column("finished_at", sa.Text),
        sa.UniqueConstraint("match_id", "game_index"),
        sa.CheckConstraint("white_id <> black_id"),
    )
    op.create_index(
        "games_one_active_per_channel",
        "games",
        ["channel_id"],
        unique=True,
        **where("status = 'active'"),
    )
    op.create_index(
        "games_active_by_activity", "games", ["last_activity"], **where("status = 'active'")
    )
