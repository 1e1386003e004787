"""A real PostgreSQL 15 server for the tests, and a fresh database on it for each test.

Usage, from any test folder (``tests/`` is on the import path)::

    from postgres import postgres_server

    server = postgres_server()          # started on first use, stopped when Python exits
    url = server.fresh_database()       # a new database with the latest schema, no rows
    bare = server.fresh_database(migrated=False)  # a new, completely empty database
    server.restart()                    # pg_ctl restart: connections drop, the server returns

``tests/conftest.py`` wraps this as the ``postgres_url`` fixture (a fresh migrated database per
test). With ``JARMO_TEST_DATABASE_URL=postgresql://user:password@host/db`` set, that server is
used instead (the role must be allowed to create schemas; ``restart`` is then refused). Without
it, one private server per test session runs ``initdb``/``pg_ctl`` from PostgreSQL's ``bin``
folder (``/usr/lib/postgresql/15/bin``, or ``PATH``), listening only on a unix socket in a
temporary folder. As root (CI containers), the server runs as the ``postgres`` user: ``initdb``
refuses root.

A fresh database is a schema of its own (see ``fresh_database``), so tests never see each
other's rows, and a server given by URL needs no right to create databases.
"""

from __future__ import annotations

import asyncio
import atexit
import itertools
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any
from urllib.parse import quote

URL_ENV = "JARMO_TEST_DATABASE_URL"
# Debian keeps the server's programs off PATH, in a folder per major version: newest first.
_BIN_DIRS = tuple(
    sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: -int(p.parent.name))
    if Path("/usr/lib/postgresql").is_dir()
    else ()
)
_SETTINGS = (
    # A throwaway server: durability is not what the tests check (the restart test uses a
    # clean `pg_ctl restart`, which flushes everything anyway).
    "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
    "-c max_connections=200 -c listen_addresses=''"
)


class PostgresServer:
    """One PostgreSQL server the tests can create databases on."""

    def __init__(self, admin_url: str, data_dir: Path | None = None) -> None:
        self.admin_url = admin_url  # the database the tests make their schemas in
        self._data_dir = data_dir
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()
        self.settings = _SETTINGS  # the private server's `postgres -c` options

    def fresh_database(self, *, migrated: bool = True) -> str:
        """A new, private database and its URL: with the latest schema and no rows, or
        (``migrated=False``) with no tables at all.

        Each is a schema of its own in one shared database, named by the URL's ``search_path``
        (asyncpg passes unknown URL parameters to the server as settings): creating a schema and
        migrating it is several times cheaper than ``CREATE DATABASE`` on a busy machine.
        """
        with self._lock:
            name = f"test_{os.getpid()}_{next(self._numbers)}"
        self.sql(f'CREATE SCHEMA "{name}"')
        url = f"{self.admin_url}{'&' if '?' in self.admin_url else '?'}search_path={name}"
        if migrated:
            from bot.store.postgres import migrate_database

            _run_sync(migrate_database(url))
        return url

    def sql(self, statement: str) -> None:
        """Run one SQL statement as the administrator."""
        _run_sync(_execute(self.admin_url, statement))

    def restart(self) -> None:
        """Restart the server (``pg_ctl restart``): every connection drops."""
        if self._data_dir is None:
            raise RuntimeError(f"cannot restart a server given by {URL_ENV}")
        options = self.settings + f" -k {self._socket}"
        _pg_ctl(self._data_dir, "restart", "-m", "fast", "-o", options)

    def stop(self) -> None:
        """Stop the private server and delete its files (nothing for a server given by URL)."""
        if self._data_dir is None:
            return
        _pg_ctl(self._data_dir, "stop", "-m", "immediate")
        shutil.rmtree(self._data_dir.parent, ignore_errors=True)
        self._data_dir = None

    @property
    def _socket(self) -> str:
        assert self._data_dir is not None
        return str(self._data_dir.parent / "socket")


_server: PostgresServer | None = None
_server_lock = threading.Lock()


def postgres_server() -> PostgresServer:
    """The session's server: ``JARMO_TEST_DATABASE_URL``'s, or a private one started now (and
    stopped when the interpreter exits)."""
    global _server
    with _server_lock:
        if _server is None:
            given = os.environ.get(URL_ENV, "").strip()
            _server = PostgresServer(given) if given else _start_private()
            atexit.register(_server.stop)
        return _server


def start_server(settings: str = _SETTINGS) -> PostgresServer:
    """A new private server with these ``postgres -c`` settings (the benchmarks ask for a
    durable one); stop it with ``stop()``."""
    return _start_private(settings)


def _start_private(settings: str = _SETTINGS) -> PostgresServer:
    root = Path(tempfile.mkdtemp(prefix="jarmo-pg-"))
    data, socket = root / "data", root / "socket"
    socket.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        shutil.chown(socket, "postgres")
    _as_server_user(
        _tool("initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
        "--no-sync", "--locale=C",
    )  # fmt: skip
    _pg_ctl(data, "start", "-o", settings + f" -k {socket}")
    server = PostgresServer(f"postgresql://postgres@/postgres?host={quote(str(socket))}", data)
    server.settings = settings
    return server


def _pg_ctl(data: Path, *args: str) -> None:
    _as_server_user(_tool("pg_ctl"), "-D", str(data), "-w", "-l", str(data.parent / "log"), *args)


def _as_server_user(*command: str) -> None:
    prefix = ("runuser", "-u", "postgres", "--") if os.geteuid() == 0 else ()
    subprocess.run(
        (*prefix, *command), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def _tool(name: str) -> str:
    for folder in _BIN_DIRS:
        if (folder / name).is_file():
            return str(folder / name)
    found = shutil.which(name)
    if found is None:
        raise RuntimeError(f"PostgreSQL's {name} was not found; install PostgreSQL (15 or newer)")
    return found


async def _execute(url: str, statement: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


def _run_sync(work: Coroutine[Any, Any, object]) -> None:
    """Run a coroutine to the end from sync code, even when called inside a running event loop
    (async fixtures and tests): on a thread of its own."""
    errors: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(work)
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
