"""0003: ratings per server and ruleset, their history, and indexes for leaderboards and stats.

Why: standings, ratings, leaderboards, history and replays. The service computes
ratings (openskill); the store only keeps them, written in the same transaction as the game
end. ``games.rated`` records the caller's decision that a game counts for ratings (games against
the computer do not), so every rating can be recomputed from the stored game results alone.
``ratings`` holds the rated play of one player in one ruleset of one server (``rating`` is the
shown, conservative value the leaderboard sorts by); ``rating_history`` has one row per player
per rated game, in commit order (its id), for trends, match rating changes and checking.
Games that ended before this version were all between people, so they are marked rated:
``jarmo-bot ratings --rebuild`` computes their ratings once after upgrading.
"""

import sqlalchemy as sa
from alembic import op

from bot.store.migrations import FLOAT, ID, row_id

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.add_column(
        "games",
        sa.Column(
            "rated",
            sa.Integer,
            sa.CheckConstraint("rated IN (0, 1)"),
            nullable=False,
            server_default=sa.text("0"),
        ),
    )
    games = sa.table("games", sa.column("rated"), sa.column("status"))
    op.execute(
        games.update()
        .where(games.c.status.in_(["finished", "resigned", "timeout", "stopped"]))
        .values(rated=1)
    )
    _ratings()
    _rating_history()
    # A player's games as White / as Black, newest first: history, streaks, head-to-head. They
    # also cover the per-side tallies (status, result, points), which then never read the table:
    # with 10,000 games a player's stats went from 33 ms to a few.
    tallies = ["finished_at", "status", "winner", "points_white", "points_black"]
    op.create_index("games_by_white", "games", ["guild_id", "white_id", *tallies, "black_id"])
    op.create_index("games_by_black", "games", ["guild_id", "black_id", *tallies, "white_id"])
    # A player's matches (played / won / lost) on a server, covered like the games above.
    for side in ("first_white_id", "first_black_id"):
        op.create_index(
            f"matches_by_{side.removesuffix('_id')}",
            "matches",
            ["guild_id", side, "state", "winner_id"],
        )


def _ratings() -> None:
    op.create_table(
        "ratings",
        sa.Column("guild_id", ID, primary_key=True),
        sa.Column("ruleset", sa.Text, primary_key=True),
        sa.Column("user_id", ID, primary_key=True),
        sa.Column("mu", FLOAT, nullable=False),
        sa.Column("sigma", FLOAT, sa.CheckConstraint("sigma > 0"), nullable=False),
        sa.Column("rating", FLOAT, nullable=False),
        sa.Column("games", sa.Integer, sa.CheckConstraint("games >= 0"), nullable=False),
        *(
            sa.Column(name, sa.Integer, nullable=False, server_default=sa.text("0"))
            for name in ("wins", "draws", "losses", "points", "match_wins")
        ),
        sa.Column("last_game_at", sa.Text, nullable=False),
        sa.CheckConstraint("wins + draws + losses = games"),
        sqlite_with_rowid=False,
    )
    # The leaderboard order (rating desc, games desc, user id), so a page and a rank are index
    # walks.
    op.create_index(
        "ratings_leaderboard",
        "ratings",
        ["guild_id", "ruleset", sa.text("rating DESC"), sa.text("games DESC"), "user_id"],
    )
    # A player's ratings in every ruleset of a server.
    op.create_index("ratings_by_player", "ratings", ["guild_id", "user_id"])


def _rating_history() -> None:
    op.create_table(
        "rating_history",
        row_id(),  # commit order
        sa.Column("game_id", ID, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("guild_id", ID, nullable=False),
        sa.Column("ruleset", sa.Text, nullable=False),
        sa.Column("user_id", ID, nullable=False),
        *(
            sa.Column(f"{value}_{when}", FLOAT, nullable=False)
            for when in ("before", "after")
            for value in ("mu", "sigma", "rating")
        ),
        sa.Column("at", sa.Text, nullable=False),  # the game's finished_at
        sa.UniqueConstraint("game_id", "user_id"),
    )
    op.create_index(
        "rating_history_trend", "rating_history", ["guild_id", "user_id", "ruleset", "id"]
    )
