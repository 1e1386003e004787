"""Cluster tests: two nodes (bot processes, as the service sees them) over one database, with a
clock the test moves; every test runs on both backends (the test id names it).

On PostgreSQL each node has a store of its own (its own connections), as two processes have.
An SQLite file serves one process, so there both nodes share one store: still, nothing in
memory is shared between them, and only the database can keep a job once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service.shards import ShardSet
from bot.store import Store, open_database
from tests.cluster.cluster_helpers import SHARDS, Node
from tests.fakes import FakeClock
from tests.postgres import PostgresServer


@pytest.fixture(params=["sqlite", "postgresql"])
async def stores(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[Store, Store]]:
    """The two nodes' stores on one fresh database."""
    if request.param == "sqlite":
        store = await open_database(tmp_path / "jarmo.sqlite3")
        opened = [store]
        pair = (store, store)
    else:
        server: PostgresServer = request.getfixturevalue("postgres")
        url = server.fresh_database()
        opened = [await open_database(url), await open_database(url)]
        pair = (opened[0], opened[1])
    try:
        yield pair
    finally:
        for store in opened:
            await store.close()


@pytest.fixture
def nodes(stores: tuple[Store, Store], clock: FakeClock) -> tuple[Node, Node]:
    """Shard 0 of 2 and shard 1 of 2, as configured."""
    return (
        Node(stores[0], clock, ShardSet.of(SHARDS, (0,))),
        Node(stores[1], clock, ShardSet.of(SHARDS, (1,))),
    )


@pytest.fixture
def rivals(stores: tuple[Store, Store], clock: FakeClock) -> tuple[Node, Node]:
    """Two nodes that both believe they own every server (a misconfigured cluster, or shards
    moving between processes): only the database keeps each job once."""
    return Node(stores[0], clock, ShardSet.every()), Node(stores[1], clock, ShardSet.every())
