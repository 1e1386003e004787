"""Cluster tests: two nodes (bot processes, as the service sees them) over one store, with a
clock the test moves."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from cluster_helpers import SHARDS, Node
from fakes import FakeClock

from bot.service.shards import ShardSet
from bot.store import Store, open_store


@pytest.fixture
async def store(tmp_path) -> AsyncIterator[Store]:
    async with open_store(tmp_path / "jarmo.sqlite3") as opened:
        yield opened


@pytest.fixture
def nodes(store: Store, clock: FakeClock) -> tuple[Node, Node]:
    """Shard 0 of 2 and shard 1 of 2, as configured."""
    return (
        Node(store, clock, ShardSet.of(SHARDS, (0,))),
        Node(store, clock, ShardSet.of(SHARDS, (1,))),
    )


@pytest.fixture
def rivals(store: Store, clock: FakeClock) -> tuple[Node, Node]:
    """Two nodes that both believe they own every server (a misconfigured cluster, or shards
    moving between processes): only the database keeps each job once."""
    return Node(store, clock, ShardSet.every()), Node(store, clock, ShardSet.every())
