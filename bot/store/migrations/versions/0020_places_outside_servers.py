"""0020: games, challenges, ratings and names outside servers, with no server id.

Why: a user may install the app to their account and play in a direct message, a group DM, or
a server that has not added the bot. Such a place is no server's: its rows keep ``guild_id``
NULL, never a made-up id. Ratings made there form one "friends" pool per ruleset (the rows with
no server), which no server's leaderboard reads. ``ratings`` and ``players`` were keyed by the
server; a primary key admits no NULL on PostgreSQL, so each key becomes two partial unique
indexes: one for the rows of servers, one for the rows outside them.

SQLite cannot change a column's nullability or a table's key in place, so each changed table
is rebuilt there once from its own stored definition (the text SQLite keeps, every CHECK and
index as the earlier migrations wrote them), with ``guild_id`` nullable and, for ``ratings``
and ``players``, no primary key: those become rowid tables (``WITHOUT ROWID`` needs one). Other
tables refer to these by name, and the migration's connection does not enforce foreign keys
while they are rebuilt. The planner's statistics are gathered again where the file keeps them
(they went with the old tables). PostgreSQL alters the tables in place.
"""

import re

from alembic import op

from bot.store.migrations import where

revision = "0020"
down_revision = "0019"

NULLABLE_SERVER = ("challenges", "matches", "games", "outbox", "ratings", "rating_history")
# The tables whose primary key named the server: its columns, and each new index's name.
KEYED_BY_SERVER = {
    "ratings": (("ruleset", "user_id"), "ratings_in_server", "ratings_of_friends"),
    "players": (("user_id",), "players_in_server", "players_outside_servers"),
}


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for table in (*NULLABLE_SERVER, "players"):
            _rebuild_on_sqlite(table)
    else:
        for table in KEYED_BY_SERVER:  # a key's columns cannot be NULL
            op.drop_constraint(f"{table}_pkey", table, type_="primary")
        for table in (*NULLABLE_SERVER, "players"):
            op.alter_column(table, "guild_id", nullable=True)
    for table, (columns, in_server, outside) in KEYED_BY_SERVER.items():
        op.create_index(
            in_server, table, ["guild_id", *columns], unique=True, **where("guild_id IS NOT NULL")
        )
        op.create_index(outside, table, list(columns), unique=True, **where("guild_id IS NULL"))


def _rebuild_on_sqlite(table: str) -> None:
    bind = op.get_bind()
    (created,) = bind.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
    ).one()
    indexes = [
        sql
        for (sql,) in bind.exec_driver_sql(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?"
            " AND sql IS NOT NULL",
            (table,),
        )
    ]
    rebuilt = f"_rebuilt_{table}"
    definition = _without_server_key(_server_nullable(created))
    definition = re.sub(r'^CREATE TABLE\s+("?)\w+\1', f"CREATE TABLE {rebuilt}", definition)
    op.execute(definition)
    op.execute(f"INSERT INTO {rebuilt} SELECT * FROM {table}")
    op.execute(f"DROP TABLE {table}")
    op.execute(f"ALTER TABLE {rebuilt} RENAME TO {table}")
    for sql in indexes:
        op.execute(sql)
    kept = bind.exec_driver_sql("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'")
    if kept.first() is not None:
        op.execute(f"ANALYZE {table}")


def _server_nullable(definition: str) -> str:
    changed, count = re.subn(r"\bguild_id(\s+INTEGER)\s+NOT\s+NULL", r"guild_id\1", definition)
    if count != 1:
        raise RuntimeError(f"unexpected definition of guild_id: {definition}")
    return changed


def _without_server_key(definition: str) -> str:
    """A ``ratings`` or ``players`` definition without its primary key (and so with a rowid)."""
    if not re.search(r"\bWITHOUT\s+ROWID\s*$", definition):
        return definition
    keyless, count = re.subn(r",\s*PRIMARY\s+KEY\s*\(\s*guild_id\s*,[^)]*\)", "", definition)
    if count != 1:
        raise RuntimeError(f"unexpected primary key: {definition}")
    return re.sub(r"\s*WITHOUT\s+ROWID\s*$", "", keyless)
