"""Fixtures shared by every test folder. ``tests/`` is a package, so pytest puts the repository
root on the import path and each folder imports the shared helpers as ``tests.fakes`` and
the like."""

from __future__ import annotations

import pytest

from tests.fakes import FakeClock
from tests.postgres import (
    URL_ENV,
    PostgresNotFound,
    PostgresServer,
    postgres_server,
    restartable_server,
)


@pytest.fixture
def clock() -> FakeClock:
    """A clock the test moves by hand."""
    return FakeClock()


@pytest.fixture(scope="session")
def postgres() -> PostgresServer:
    """The test session's PostgreSQL server (see ``tests/postgres.py``)."""
    return postgres_server()


@pytest.fixture(scope="session")
def restartable_postgres() -> PostgresServer:
    """A PostgreSQL server this session started, which a test may restart: the session's own,
    or a private one when ``JARMO_TEST_DATABASE_URL`` names a server (never restarted)."""
    try:
        return restartable_server()
    except PostgresNotFound as missing:
        # Only reached with a server given by URL: without one, the session's server fails
        # the same way first.
        pytest.skip(
            f"this test restarts its server, which it may not do to {URL_ENV}'s; and a private "
            f"server cannot be started here: {missing}"
        )


@pytest.fixture
def postgres_url(postgres: PostgresServer) -> str:
    """The URL of a fresh PostgreSQL database with the latest schema and no rows."""
    return postgres.fresh_database()
