"""0022: a server's latest games and tournaments, newest first, for its web page.

Why: a server may show its leaderboard, recent games and tournament tables on a web page. The
games read the server's ended games newest first and the tournaments the server's newest ones;
without these indexes both would sort every game or tournament the server ever had.
"""

from alembic import op

revision = "0022"
down_revision = "0021"


def upgrade() -> None:
    op.create_index("games_by_server", "games", ["guild_id", "finished_at", "id"])
    op.create_index("tournaments_by_server", "tournaments", ["guild_id", "id"])
