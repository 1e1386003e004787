"""Clock tests run on a real SQLite file with a clock the test moves; nothing sleeps."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.clock.clock_helpers import Bot
from tests.fakes import FakeClock


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "jarmo.sqlite3"


@pytest.fixture
async def bot(db_path: Path, clock: FakeClock) -> AsyncIterator[Bot]:
    opened = await Bot.open(db_path, clock)
    try:
        yield opened
    finally:
        await opened.close()
