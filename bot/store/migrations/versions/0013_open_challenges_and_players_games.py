"""0013: a challenge may name no opponent, and a player's unfinished games are indexed by player.

Why: correspondence play. An open challenge is posted to anyone, so ``challenged_id`` may be
NULL (the check that a player does not challenge themselves lets NULL through). A player's
unfinished games in every server are read at once; the player indexes of 0001 and 0005 begin
with the server, so that read would take one lookup per server. Two partial indexes on the
active games' players serve it as one lookup per side; they hold only active games, and a move
changes none of their columns (a move's update stays HOT on PostgreSQL).

SQLite cannot change a column's nullability in place, so batch mode rebuilds the challenges
table there from the definition 0001 and 0002 gave it (matches refer to it by name, and the
migration's connection does not enforce foreign keys while it is rebuilt), and gathers the
planner's statistics for it again where the file keeps them (they went with the old table);
PostgreSQL alters it in place.
"""

import sqlalchemy as sa
from alembic import op

from bot.store.migrations import ID, row_id, where

revision = "0013"
down_revision = "0012"


def upgrade() -> None:
    with op.batch_alter_table("challenges", copy_from=_challenges_of_0002()) as challenges:
        challenges.alter_column("challenged_id", existing_type=ID, nullable=True)
    if _keeps_sqlite_statistics():  # the rebuilt table's went with the old one
        op.execute("ANALYZE challenges")
    for side in ("white", "black"):
        op.create_index(
            f"games_active_by_{side}", "games", [f"{side}_id"], **where("status = 'active'")
        )


def _keeps_sqlite_statistics() -> bool:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return False
    found = bind.exec_driver_sql("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'")
    return found.first() is not None


def _challenges_of_0002() -> sa.Table:
    return sa.Table(
        "challenges",
        sa.MetaData(),
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
        sa.Column(
            "time_per_move_seconds",
            sa.Integer,
            sa.CheckConstraint("time_per_move_seconds IS NULL OR time_per_move_seconds > 0"),
        ),
        sa.CheckConstraint("challenger_id <> challenged_id"),
        sa.Index(
            "challenges_one_pending_per_channel",
            "channel_id",
            unique=True,
            **where("status = 'pending'"),
        ),
        sa.Index("challenges_pending_by_expiry", "expires_at", **where("status = 'pending'")),
    )
