"""SqliteStore implements the Store protocol the service is written against, exactly."""

from __future__ import annotations

import inspect

import pytest

import bot.store
from bot.store import SqliteStore, Store

METHODS = [
    name
    for name, member in vars(Store).items()
    if inspect.iscoroutinefunction(member) and not name.startswith("_")
]


def test_the_protocol_covers_the_brief() -> None:
    assert len(METHODS) >= 20
    assert {"record_move", "end_game", "accept_challenge", "active_game"} <= set(METHODS)


@pytest.mark.parametrize("name", METHODS)
def test_each_method_has_the_protocols_signature(name: str) -> None:
    implementation = getattr(SqliteStore, name)
    assert inspect.iscoroutinefunction(implementation)
    assert inspect.signature(implementation) == inspect.signature(getattr(Store, name))
    assert implementation.__doc__


def test_everything_exported_exists() -> None:
    for name in bot.store.__all__:
        assert hasattr(bot.store, name), name
