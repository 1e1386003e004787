"""Background jobs wait longer after each failure, up to a cap, so that none can spin."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

from bot.service.backoff import MAX_DELAY_SECONDS, Backoff, ItemBackoff, delay_after

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def test_delays_double_up_to_the_cap() -> None:
    delays = [delay_after(n) for n in range(1, 15)]
    assert delays[:4] == [1.0, 2.0, 4.0, 8.0]
    assert all(b >= a for a, b in itertools.pairwise(delays))
    assert delays[-1] == MAX_DELAY_SECONDS
    assert delay_after(10_000) == MAX_DELAY_SECONDS  # no overflow however long it fails


def test_a_success_resets_the_job() -> None:
    job = Backoff()
    assert [job.failed() for _ in range(3)] == [1.0, 2.0, 4.0]
    job.succeeded()
    assert job.failed() == 1.0


def test_a_failing_item_waits_while_the_others_go_on() -> None:
    items: ItemBackoff[int] = ItemBackoff()
    retry = items.failed(7, T0)
    assert retry == T0 + timedelta(seconds=1)
    assert not items.ready(7, T0) and items.ready(8, T0)
    assert items.ready(7, retry)
    assert items.failed(7, retry) == retry + timedelta(seconds=2)
    items.succeeded(7)
    assert items.ready(7, T0) and items.not_before(7) is None
