"""0021: the live board: how many watch each game, and word of every game's change.

Why: people watch games on a web page, which a web server (in the bot's process, or a process of
its own beside the bots on one PostgreSQL database) keeps up to date, and a board on Discord says
how many watch. ``spectators`` holds each game's count as the web server last reported it and
when, so every process reads the same; a count not reported lately is nobody watching.

On PostgreSQL, a trigger tells every process on the database of each change of a game's version
(``NOTIFY jarmo_games, 'game_id:version'``), inside the writing transaction, so only a change that
commits is told; being a trigger, it catches every write, the one-statement move included. SQLite
has one process, whose writes tell its writer themselves (``bot.store._changes``).
"""

import sqlalchemy as sa
from alembic import op

from bot.store.migrations import ID

revision = "0021"
down_revision = "0020"

_NOTIFY_FUNCTION = """
CREATE FUNCTION jarmo_game_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('jarmo_games', NEW.id || ':' || NEW.version);
    RETURN NULL;
END
$$
"""
_NOTIFY_TRIGGER = """
CREATE TRIGGER games_version_changed AFTER UPDATE OF version ON games
FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version)
EXECUTE FUNCTION jarmo_game_changed()
"""


def upgrade() -> None:
    op.create_table(
        "spectators",
        sa.Column("game_id", ID, nullable=False),
        sa.Column("watching", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("game_id", name="spectators_pkey"),
        sa.CheckConstraint("watching >= 0", name="spectators_watching_check"),
        sqlite_with_rowid=False,
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_NOTIFY_FUNCTION)
        op.execute(_NOTIFY_TRIGGER)
