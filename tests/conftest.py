"""Fixtures shared by every test folder; having this file here also puts ``tests/`` on the import
path, so ``from fakes import FakeClock`` works in each folder."""

from __future__ import annotations

import pytest
from fakes import FakeClock
from postgres import PostgresServer, postgres_server


@pytest.fixture
def clock() -> FakeClock:
    """A clock the test moves by hand."""
    return FakeClock()


@pytest.fixture(scope="session")
def postgres() -> PostgresServer:
    """The test session's PostgreSQL server (see ``tests/postgres.py``)."""
    return postgres_server()


@pytest.fixture
def postgres_url(postgres: PostgresServer) -> str:
    """The URL of a fresh PostgreSQL database with the latest schema and no rows."""
    return postgres.fresh_database()
