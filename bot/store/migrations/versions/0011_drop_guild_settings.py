"""0011: no ``guild_settings`` table.

Why: 0001 made it for per-server defaults that were never built; nothing has read or written it
since (a server's settings live in ``bot_state``). Dropping it removes a table that every copy,
backup and row count carried for nothing; its rows, if any were ever put there by hand, go too.
"""

from alembic import op

revision = "0011"
down_revision = "0010"


def upgrade() -> None:
    op.drop_table("guild_settings")
