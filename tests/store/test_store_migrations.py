"""Schema migrations (from empty, from every earlier version, with or without Alembic's record)
and what the schema enforces."""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from datetime import timedelta
from pathlib import Path

import asyncpg
import pytest
import sqlalchemy
from sqlalchemy import Connection

from bot.store import (
    ChannelAddress,
    NotFound,
    PlayerRecord,
    SchemaTooNew,
    SqliteStore,
    _migrations,
    open_any,
    open_store,
)
from bot.store._games import dump
from bot.store._migrations import (
    MIGRATIONS,
    latest_version,
    revision,
    upgrade_sqlite,
)
from bot.store.postgres import migrate_database
from tests.postgres import PostgresServer
from tests.store.store_helpers import CHANNEL, T0, StartMatch, new_game, only_sqlite
from tests.store.test_store_before_alembic import Rows, postgres_rows, sqlite_rows

# Rows written at each schema version, in that version's shape: a database migrated from an
# older version must keep them readable. Add an entry with every new migration.
SEED: dict[int, list[str]] = {
    1: [
        "INSERT INTO guild_settings VALUES (7, 'ludos', 'bow', 900)",
        "INSERT INTO players (guild_id, user_id, display_name, games, wins)"
        " VALUES (7, 5, 'Ann', 3, 2)",
    ],
}


def schema(path: Path) -> dict[str, object]:
    """Tables (columns) and indexes (columns, uniqueness, partial WHERE) of the database."""
    with sqlite3.connect(path) as db:
        shape: dict[str, object] = {}
        names = db.execute(
            "SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
        ).fetchall()
        for kind, name, table in names:
            if kind == "table":
                shape[name] = db.execute(f"PRAGMA table_xinfo({name})").fetchall()
            elif kind == "index":
                listing = {row[1]: row[2:] for row in db.execute(f"PRAGMA index_list({table})")}
                columns = db.execute(f"PRAGMA index_info({name})").fetchall()
                where = db.execute(
                    "SELECT sql FROM sqlite_master WHERE name = ?", (name,)
                ).fetchone()[0]
                partial = re.search(r"\bWHERE\b.*", where or "", re.S)
                shape[name] = (listing[name], columns, partial and partial[0])
        return shape


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as db:
        version: int = db.execute("PRAGMA user_version").fetchone()[0]
        return version


async def test_an_empty_file_gets_the_latest_schema(db_path: Path) -> None:
    async with open_store(db_path):
        pass
    assert user_version(db_path) == latest_version() >= 1
    assert {"players", "challenges", "matches", "games", "actions"} <= set(schema(db_path))
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def alembic_revision(path: Path) -> str | None:
    with sqlite3.connect(path) as db:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'alembic_version'").fetchone():
            return None
        return str(db.execute("SELECT version_num FROM alembic_version").fetchone()[0])


@pytest.mark.parametrize("made_before_alembic", [False, True], ids=["alembic", "before"])
@pytest.mark.parametrize("start", range(latest_version()))
async def test_every_earlier_version_migrates_to_the_latest(
    tmp_path: Path, start: int, made_before_alembic: bool
) -> None:
    fresh, old = tmp_path / "fresh.sqlite3", tmp_path / "old.sqlite3"
    async with open_store(fresh):
        pass
    for version in range(1, start + 1):  # each version's rows as that version wrote them
        assert upgrade_sqlite(old, target=version) == version
        with closing(sqlite3.connect(old, isolation_level=None)) as db:
            for statement in SEED.get(version, []):
                db.execute(statement)
    if made_before_alembic:  # such a file has only its user_version
        with closing(sqlite3.connect(old, isolation_level=None)) as db:
            db.execute("DROP TABLE IF EXISTS alembic_version")
    elif start:
        assert alembic_revision(old) == revision(start)
    assert user_version(old) == start

    async with open_store(old) as store:
        if start >= 1:
            assert await store.players.get(7, 5) == PlayerRecord(7, 5, "Ann")  # totals dropped
    assert user_version(old) == latest_version()
    assert alembic_revision(old) == revision(latest_version())
    assert schema(old) == schema(fresh)


async def rows_but_versions(target: Path | str) -> Rows:
    """Every row of every table of either backend's database (an empty table holds none), but
    its version records and SQLite's statistics (``sqlite_stat1``, made when the store
    opens)."""
    found = await postgres_rows(target) if isinstance(target, str) else sqlite_rows(target)
    # A table a later migration adds holds no row yet: there is nothing in it to keep.
    ours = (name for name in found if not name.startswith("sqlite_") and found[name])
    return {name: found[name] for name in ours if name != "jarmo_schema_version"}


async def database_at(
    request: pytest.FixtureRequest,
    db_path: Path,
    backend: str,
    revision: int,
    rows: Sequence[str],
) -> Path | str:
    """A database of ``backend`` migrated to ``revision`` only, holding ``rows`` (INSERTs)."""
    if backend == "sqlite":
        upgrade_sqlite(db_path, target=revision)
        with closing(sqlite3.connect(db_path, isolation_level=None)) as db:
            for statement in rows:
                db.execute(statement)
        return db_path
    server: PostgresServer = request.getfixturevalue("postgres")
    target = server.fresh_database(migrated=False)
    await migrate_database(target, target=revision)
    connection = await asyncpg.connect(target)
    try:
        for statement in rows:
            await connection.execute(statement)
    finally:
        await connection.close()
    return target


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_the_unused_guild_settings_table_goes_and_every_other_row_stays(
    request: pytest.FixtureRequest, db_path: Path, backend: str
) -> None:
    rows_at_10 = (
        "INSERT INTO guild_settings VALUES (7, 'ludos', 'bow', 900)",
        "INSERT INTO players VALUES (7, 5, 'Ann')",
        "INSERT INTO bot_state VALUES ('server:7:threads', 'on')",
    )
    target = await database_at(request, db_path, backend, 10, rows_at_10)
    before = await rows_but_versions(target)
    async with open_any(target) as store:
        assert await store.players.get(7, 5) == PlayerRecord(7, 5, "Ann")
    after = await rows_but_versions(target)
    assert before.pop("guild_settings") == [(7, "ludos", "bow", 900)]
    assert "guild_settings" not in after
    assert after == before


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_pairings_stored_before_who_forced_them_was_kept_read_as_not_forced(
    request: pytest.FixtureRequest, db_path: Path, backend: str
) -> None:
    rows_at_11 = (
        "INSERT INTO tournaments (id, guild_id, channel_id, organiser_id, name, format, rounds,"
        " game_count, ruleset, layout, max_plies, status, current_round, created_at)"
        " VALUES (1, 7, 70, 9, 'Cup', 'swiss', 2, 2, 'classic', 'classic', 80, 'running', 1,"
        " '2026-01-01T00:00:00+00:00')",
        "INSERT INTO tournament_entries VALUES (1, 5, 1, 0), (1, 6, 2, 0), (1, 8, 3, 0)",
        "INSERT INTO tournament_pairings VALUES (1, 1, 1, 5, 6, NULL, 1, 6, 4, 5, 0),"
        " (1, 1, 2, 8, NULL, NULL, 1, 8, 0, 0, 0)",
    )
    target = await database_at(request, db_path, backend, 11, rows_at_11)
    before = await rows_but_versions(target)
    async with open_any(target) as store:
        pairings = await store.tournaments.pairings(1)
    after = await rows_but_versions(target)
    assert [(p.winner_id, p.first_points, p.second_points, p.forced_by) for p in pairings] == [
        (6, 4, 5, None),
        (8, 0, 0, None),
    ]
    assert after.pop("tournament_pairings") == [
        (*row, None) for row in before.pop("tournament_pairings")
    ]
    assert after == before


AT = T0.isoformat()
FRESH = dump(new_game())  # a game before its first move, as the store writes it
CHALLENGES_AND_GAMES_AT_12 = [
    "INSERT INTO challenges (id, guild_id, channel_id, challenger_id, challenged_id,"
    " game_count, ruleset, layout, side, max_plies, vs_computer_level, status, created_at,"
    " expires_at, closed_at, message_id, time_per_move_seconds) VALUES"
    f" (1, 7, 70, 5, 6, 2, 'classic', 'bow', 'white', 200, NULL, 'accepted', '{AT}', '{AT}',"
    f" '{AT}', 900, 3600),"
    f" (2, 7, 71, 6, 5, 1, 'ludos', 'bow', 'random', 150, 'easy', 'pending', '{AT}', '{AT}',"
    " NULL, NULL, NULL)",
    "INSERT INTO matches (id, guild_id, channel_id, challenge_id, first_white_id,"
    " first_black_id, ruleset, layout, game_count, max_plies, created_at) VALUES"
    f" (3, 7, 70, 1, 5, 6, 'classic', 'traditional', 2, 200, '{AT}')",
    "INSERT INTO games (id, match_id, game_index, guild_id, channel_id, white_id, black_id,"
    " status, version, snapshot, started_at, last_activity) VALUES"
    f" (4, 3, 0, 7, 70, 5, 6, 'resigned', 1, '{FRESH}', '{AT}', '{AT}'),"
    f" (5, 3, 1, 7, 70, 6, 5, 'active', 0, '{FRESH}', '{AT}', '{AT}')",
    f"INSERT INTO actions VALUES (4, 1, 5, 'A1-C2', '{AT}')",
]


CHALLENGE_COLUMNS_AT_13 = 17  # how many columns the challenges table had at 0013
ACTION_COLUMNS_AT_18 = 5  # and the actions table at 0018 (0019 keeps each one's clock)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_challenges_and_games_keep_every_row_as_the_challenged_player_becomes_optional(
    request: pytest.FixtureRequest, db_path: Path, backend: str
) -> None:
    target = await database_at(request, db_path, backend, 12, CHALLENGES_AND_GAMES_AT_12)
    before = await rows_but_versions(target)
    async with open_any(target) as store:
        assert [game.id for game in await store.games.active_of_player(5)] == [5]
        challenge = await store.challenges.get(1)
        assert (challenge.challenger_id, challenge.challenged_id) == (5, 6)
    after = await rows_but_versions(target)
    # (the columns of later revisions at the end, NULL)
    widened = [row[:CHALLENGE_COLUMNS_AT_13] for row in after.pop("challenges")]
    assert widened == before.pop("challenges")
    # Each action gains the clock it found (0019): not kept before, NULL.
    actions = after.pop("actions")
    assert [row[:ACTION_COLUMNS_AT_18] for row in actions] == before.pop("actions")
    assert after == before
    assert len(widened) == 2 and len(after["games"]) == 2

    open_challenge = (
        "INSERT INTO challenges (id, guild_id, channel_id, challenger_id, challenged_id,"
        " game_count, ruleset, layout, side, max_plies, created_at, expires_at)"
        f" VALUES (3, 7, 72, 5, NULL, 1, 'classic', 'bow', 'random', 200, '{AT}', '{AT}')"
    )
    if isinstance(target, Path):
        with closing(sqlite3.connect(target, isolation_level=None)) as db:
            db.execute(open_challenge)
    else:
        connection = await asyncpg.connect(target)
        try:
            await connection.execute(open_challenge)
        finally:
            await connection.close()


OUTBOX_AT_13 = [
    *CHALLENGES_AND_GAMES_AT_12,
    "INSERT INTO outbox (id, key, kind, guild_id, channel_id, game_id, payload, status,"
    " created_at, lease_until, attempts, last_error, settled_at, lease_token) VALUES"
    f" (1, 'timeout:4', 'timeout', 7, 70, 4, '{{}}', 'sent', '{AT}', NULL, 1, NULL, '{AT}',"
    " NULL),"
    f" (2, 'computer_move:5:1', 'computer_move', 7, 70, 5, '{{}}', 'pending', '{AT}', '{AT}',"
    " 0, NULL, NULL, 'writer'),"
    f" (3, 'final_table:1', 'final_table', 7, 71, NULL, '{{}}', 'dropped', '{AT}', NULL, 8,"
    f" 'gone', '{AT}', NULL)",
]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_the_outbox_keeps_every_entry_as_it_is_addressed_to_a_channel_or_a_user(
    request: pytest.FixtureRequest, db_path: Path, backend: str
) -> None:
    target = await database_at(request, db_path, backend, 13, OUTBOX_AT_13)
    before = await rows_but_versions(target)
    if isinstance(target, Path):
        upgrade_sqlite(target)
    else:
        await migrate_database(target)
    after = await rows_but_versions(target)
    assert after.pop("outbox") == [(*row, None) for row in before.pop("outbox")]  # no user
    widened = [row[:CHALLENGE_COLUMNS_AT_13] for row in after.pop("challenges")]
    assert widened == before.pop("challenges")
    actions = after.pop("actions")
    assert [row[:ACTION_COLUMNS_AT_18] for row in actions] == before.pop("actions")
    assert after == before
    async with open_any(target) as store:
        (pending,) = await store.outbox.claim(now=T0 + timedelta(hours=1), lease_seconds=60)
    assert (pending.key, pending.address, pending.game_id) == (
        "computer_move:5:1",
        ChannelAddress(70),
        5,
    )

    # An entry goes to a channel or to a user: exactly one of the two.
    to_user = (
        "INSERT INTO outbox (id, key, kind, guild_id, channel_id, user_id, game_id, payload,"
        f" created_at) VALUES (4, 'ping:5:1', 'turn', 7, NULL, 6, 5, '{{}}', '{AT}')"
    )
    to_both = to_user.replace("4, 'ping:5:1'", "5, 'ping:5:2'").replace("NULL, 6", "70, 6")
    to_neither = to_user.replace("4, 'ping:5:1'", "6, 'ping:5:3'").replace("NULL, 6", "NULL, NULL")
    await execute(target, to_user)
    for refused in (to_both, to_neither):
        with pytest.raises((sqlite3.IntegrityError, asyncpg.CheckViolationError)):
            await execute(target, refused)


async def execute(target: Path | str, statement: str) -> None:
    """Run ``statement`` on either backend's database, outside the store."""
    if isinstance(target, Path):
        with closing(sqlite3.connect(target, isolation_level=None)) as db:
            db.execute(statement)
        return
    connection = await asyncpg.connect(target)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


async def test_dropping_the_player_totals_keeps_every_name(db_path: Path) -> None:
    upgrade_sqlite(db_path, target=3)
    db = sqlite3.connect(db_path, isolation_level=None)
    try:
        db.executemany(  # as schema 3 wrote them: end_game created unnamed rows with totals
            "INSERT INTO players (guild_id, user_id, display_name, games, wins, losses, points,"
            " match_wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (1, 5, "Ann", 4, 3, 1, 40, 2),
                (1, 6, "Bob ♞", 4, 1, 3, 22, 0),
                (2, 5, "Ann elsewhere", 0, 0, 0, 0, 0),
                (2, 7, None, 1, 0, 1, 5, 0),
            ],
        )
    finally:
        db.close()

    async with open_store(db_path) as store:
        assert [await store.players.get(g, u) for g, u in ((1, 5), (1, 6), (2, 5), (2, 7))] == [
            PlayerRecord(1, 5, "Ann"),
            PlayerRecord(1, 6, "Bob ♞"),
            PlayerRecord(2, 5, "Ann elsewhere"),
            PlayerRecord(2, 7, None),
        ]
        with pytest.raises(NotFound):
            await store.players.get(2, 6)
    with sqlite3.connect(db_path) as db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(players)")]
        assert columns == ["guild_id", "user_id", "display_name"]
        assert db.execute("SELECT count(*) FROM players").fetchone()[0] == 4


async def test_the_outbox_keeps_its_entries_and_a_held_one_becomes_the_writers(
    db_path: Path,
) -> None:
    upgrade_sqlite(db_path, target=7)
    db = sqlite3.connect(db_path, isolation_level=None)
    try:
        at = T0.isoformat()
        db.execute(
            "INSERT INTO matches (id, guild_id, channel_id, first_white_id, first_black_id,"
            " ruleset, layout, game_count, max_plies, created_at)"
            " VALUES (4, 1, ?, 5, 6, 'classic', 'bow', 1, 200, ?)",
            (CHANNEL, at),
        )
        db.execute(
            "INSERT INTO games (id, match_id, game_index, guild_id, channel_id, white_id,"
            " black_id, status, snapshot, started_at, last_activity)"
            " VALUES (9, 4, 0, 1, ?, 5, 6, 'finished', '{}', ?, ?)",
            (CHANNEL, at, at),
        )
        db.executemany(  # as schema 7 wrote them: a held computer move, a sent timeout
            "INSERT INTO outbox (id, key, kind, guild_id, channel_id, game_id, payload, status,"
            " created_at, lease_until, attempts) VALUES (?, ?, ?, 1, ?, 9, '{}', ?, ?, ?, ?)",
            [
                (3, "computer_move:9:1", "computer_move", CHANNEL, "pending", at, at, 0),
                (7, "timeout:9", "timeout", CHANNEL, "sent", at, None, 1),
            ],
        )
        upgrade_sqlite(db_path)
        rows = db.execute(
            "SELECT id, key, kind, game_id, status, lease_until, lease_token, attempts"
            " FROM outbox ORDER BY id"
        ).fetchall()
    finally:
        db.close()
    assert rows == [
        (3, "computer_move:9:1", "computer_move", 9, "pending", T0.isoformat(), "writer", 0),
        (7, "timeout:9", "timeout", 9, "sent", None, None, 1),
    ]


async def test_reopening_changes_nothing(db_path: Path) -> None:
    async with open_store(db_path):
        pass
    before = schema(db_path)
    async with open_store(db_path):
        pass
    assert schema(db_path) == before
    assert user_version(db_path) == latest_version()


HEAD = latest_version()
BROKEN = f'''"""{HEAD + 1:04d}: half done."""

import sqlalchemy as sa
from alembic import op

revision = "{HEAD + 1:04d}"
down_revision = "{HEAD:04d}"


def upgrade() -> None:
    op.create_table("half_done", sa.Column("x", sa.Integer))
    op.execute("INSERT INTO no_such_table VALUES (1)")
'''


async def test_a_failing_migration_leaves_the_previous_version(
    db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_store(db_path):
        pass
    newer = Path(shutil.copytree(MIGRATIONS, tmp_path / "migrations"))
    (newer / "versions" / f"{HEAD + 1:04d}_broken.py").write_text(BROKEN)
    monkeypatch.setattr(_migrations, "MIGRATIONS", newer)
    with pytest.raises(sqlalchemy.exc.OperationalError, match="no_such_table"):
        await SqliteStore.open(db_path)
    monkeypatch.undo()
    assert user_version(db_path) == HEAD
    assert alembic_revision(db_path) == revision(HEAD)
    assert "half_done" not in schema(db_path)


async def test_a_database_from_newer_code_is_refused(db_path: Path) -> None:
    with sqlite3.connect(db_path) as db:
        db.execute(f"PRAGMA user_version = {latest_version() + 1}")
    with pytest.raises(SchemaTooNew) as caught:
        await SqliteStore.open(db_path)
    assert caught.value.found == latest_version() + 1


def test_revisions_are_numbered_and_say_why() -> None:
    files = sorted((MIGRATIONS / "versions").glob("[0-9]*.py"))
    assert len(files) == latest_version()
    for number, file in enumerate(files, start=1):
        assert re.fullmatch(rf"{number:04d}_\w+\.py", file.name)
        text = file.read_text(encoding="utf-8")
        assert text.startswith(f'"""{number:04d}: '), file.name
        assert f'revision = "{number:04d}"' in text, file.name
        assert "Why" in text.split('"""')[1], file.name


@only_sqlite
async def test_writer_connection_settings(store: SqliteStore) -> None:
    # These live on the connection, not in the file, so ask the writer itself.
    def pragmas(db: Connection) -> tuple[int, ...]:
        names = ("foreign_keys", "synchronous", "busy_timeout", "wal_autocheckpoint")
        return tuple(db.exec_driver_sql(f"PRAGMA {name}").scalar_one() for name in names)

    assert await store._writer.run(pragmas) == (1, 1, 2000, 0)  # synchronous 1 = NORMAL


@only_sqlite
async def test_the_database_allows_one_active_game_per_channel(
    store: SqliteStore, start_match: StartMatch, db_path: Path
) -> None:
    match, _ = await start_match()
    insert = (
        "INSERT INTO games (match_id, game_index, guild_id, channel_id, white_id, black_id,"
        " status, snapshot, started_at, last_activity) VALUES (?, ?, 1, ?, 1, 2, ?, '{}', ?, ?)"
    )
    at = T0.isoformat()
    with sqlite3.connect(db_path) as db:
        with pytest.raises(sqlite3.IntegrityError, match=r"games\.channel_id"):
            db.execute(insert, (match.id, 1, CHANNEL, "active", at, at))
        # An ended game in the same channel, or an active one elsewhere, is fine.
        db.execute(insert, (match.id, 1, CHANNEL, "finished", at, at))
        db.execute(insert, (match.id, 2, CHANNEL + 1, "active", at, at))


async def test_the_database_allows_one_pending_challenge_per_channel(db_path: Path) -> None:
    async with open_store(db_path):
        pass
    insert = (
        "INSERT INTO challenges (guild_id, channel_id, challenger_id, challenged_id, game_count,"
        " ruleset, layout, side, max_plies, status, created_at, expires_at)"
        " VALUES (1, ?, 1, 2, 1, 'classic', 'bow', 'random', 200, ?, 'x', 'y')"
    )
    with sqlite3.connect(db_path) as db:
        db.execute(insert, (CHANNEL, "pending"))
        with pytest.raises(sqlite3.IntegrityError):
            db.execute(insert, (CHANNEL, "pending"))
        db.execute(insert, (CHANNEL, "declined"))


async def test_foreign_keys_are_enforced(db_path: Path) -> None:
    async with open_store(db_path) as store:
        with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
            await store._writer.run(
                lambda db: db.exec_driver_sql(
                    "INSERT INTO actions (game_id, ply, player_id, move, played_at)"
                    " VALUES (999, 1, 1, 'A1-C2', ?)",
                    (T0.isoformat(),),
                )
            )


async def test_checkpoints_run_in_the_background(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.store._writer.CHECKPOINT_EVERY", 10)
    async with open_store(db_path) as store:
        for user in range(35):
            await store.players.upsert(1, user, f"player {user}")
        pending = store._writer._checkpoint
        assert pending is not None
        await pending
        assert store._writer.checkpoints >= 1
    async with open_store(db_path) as store:
        assert (await store.players.get(1, 34)).display_name == "player 34"
