"""0009: a move no longer writes to an index of the games table, and finds room in its own page.

Why: cheaper moves. games_active_by_activity indexed last_activity, which every move
changes, so every move also wrote a new index entry (and, on PostgreSQL, could never be a HOT
update). Its only reader, ``idle``, reads every active game at start-up (the computer's
catch-up), which the partial index on the active games' channels serves as well: the order by
last activity is a sort of the active rows, not a walk of this index.

On PostgreSQL a move's UPDATE can now be HOT (heap-only: no index entry written, the old row
version pruned within its page) when the page has room for the new version: a fill factor of 70
keeps 30 % of each games page free for it. SQLite has no such setting. Timed games still change
deadline_at, which the scheduler's index needs: their moves stay non-HOT.
"""

from alembic import op

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    op.drop_index("games_active_by_activity", table_name="games")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE games SET (fillfactor = 70)")
