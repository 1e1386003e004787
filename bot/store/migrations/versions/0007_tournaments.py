"""0007: tournaments: the event, its entries, and each round's pairings with their results.

Why: server tournaments. Everything an event needs to go on after a restart is here;
the draw itself is recomputed from these rows. Ids are assigned by the store (no rowid or
identity column), Discord ids are BIGINT on both databases, flags are 0/1 integers and times ISO
8601 UTC text. The partial unique index makes the database refuse a second open tournament in
one channel; ``current_round`` is the version checked by every round change, so two moderators
pressing "start" start it once.
"""

import sqlalchemy as sa
from alembic import op

from bot.store.migrations import where

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    _tournaments()
    op.create_table(
        "tournament_entries",
        sa.Column(
            "tournament_id", sa.BigInteger, sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("user_id", sa.BigInteger, primary_key=True),
        sa.Column("seed", sa.Integer, nullable=False),  # order of joining: the pairing's seed order
        _flag("withdrawn"),
        sa.UniqueConstraint("tournament_id", "seed"),
    )
    _tournament_pairings()


def _tournaments() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("organiser_id", sa.BigInteger, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column(
            "format",
            sa.Text,
            sa.CheckConstraint("format IN ('round-robin', 'swiss')"),
            nullable=False,
        ),
        # 0: as many as the format allows
        sa.Column("rounds", sa.Integer, sa.CheckConstraint("rounds >= 0"), nullable=False),
        sa.Column(
            "game_count", sa.Integer, sa.CheckConstraint("game_count IN (2, 4, 6)"), nullable=False
        ),
        sa.Column("ruleset", sa.Text, nullable=False),
        sa.Column("layout", sa.Text, nullable=False),
        sa.Column("max_plies", sa.Integer, sa.CheckConstraint("max_plies > 0"), nullable=False),
        sa.Column(
            "time_per_move_seconds", sa.Integer, sa.CheckConstraint("time_per_move_seconds > 0")
        ),
        sa.Column(
            "status",
            sa.Text,
            sa.CheckConstraint("status IN ('signup', 'running', 'finished')"),
            nullable=False,
            server_default="signup",
        ),
        sa.Column("current_round", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("message_id", sa.BigInteger),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("finished_at", sa.Text),
    )
    op.create_index(
        "tournaments_one_open_per_channel",
        "tournaments",
        ["channel_id"],
        unique=True,
        **where("status <> 'finished'"),
    )


def _tournament_pairings() -> None:
    op.create_table(
        "tournament_pairings",
        sa.Column(
            "tournament_id", sa.BigInteger, sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column(
            "round_number",
            sa.Integer,
            sa.CheckConstraint("round_number >= 1"),
            primary_key=True,
        ),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("first_id", sa.BigInteger, nullable=False),  # starts the match's first game
        sa.Column("second_id", sa.BigInteger),  # NULL: a bye for first_id
        sa.Column("match_id", sa.BigInteger, sa.ForeignKey("matches.id")),
        _flag("decided"),
        sa.Column("winner_id", sa.BigInteger),  # NULL once decided: a drawn match
        sa.Column("first_points", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("second_points", sa.Integer, nullable=False, server_default=sa.text("0")),
        _flag("forfeit"),
    )
    op.create_index(
        "tournament_pairings_by_match", "tournament_pairings", ["match_id"], unique=True
    )


def _flag(name: str) -> sa.Column[int]:
    return sa.Column(
        name,
        sa.Integer,
        sa.CheckConstraint(f"{name} IN (0, 1)"),
        nullable=False,
        server_default=sa.text("0"),
    )
