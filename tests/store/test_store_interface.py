"""Each role of the store backend implements its protocol exactly: the same methods with the same
signatures, each documented. Written against the ``store`` fixture, so every backend is held to
it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

import bot.store
from bot.store import (
    BotStateStore,
    ChallengeStore,
    ClockStore,
    GameChangeStore,
    GameStore,
    OutboxStore,
    PlayerStore,
    QuarantineStore,
    RatingStore,
    ResultStore,
    ReviewStore,
    SpectatorStore,
    Store,
    TournamentStore,
    TurnPingStore,
    VacationStore,
)

ROLES: dict[str, type[Any]] = {
    "players": PlayerStore,
    "state": BotStateStore,
    "challenges": ChallengeStore,
    "games": GameStore,
    "clocks": ClockStore,
    "ratings": RatingStore,
    "results": ResultStore,
    "outbox": OutboxStore,
    "quarantine": QuarantineStore,
    "tournaments": TournamentStore,
    "reviews": ReviewStore,
    "pings": TurnPingStore,
    "vacations": VacationStore,
    "changes": GameChangeStore,
    "spectators": SpectatorStore,
}


def methods(protocol: type[Any]) -> list[str]:
    """The protocol's public coroutine methods."""
    return [
        name
        for name, member in vars(protocol).items()
        if inspect.iscoroutinefunction(member) and not name.startswith("_")
    ]


def test_the_store_has_every_role_and_nothing_else() -> None:
    roles = {name for name, member in vars(Store).items() if isinstance(member, property)}
    assert roles == set(ROLES)


def test_the_protocols_cover_the_brief() -> None:
    assert sum(len(methods(protocol)) for protocol in ROLES.values()) >= 40
    assert {"record_move", "end", "active", "get"} <= set(methods(GameStore))
    assert {"create", "accept", "close", "expire_overdue"} <= set(methods(ChallengeStore))


@pytest.mark.parametrize(
    ("role", "name"),
    [(role, name) for role, protocol in ROLES.items() for name in methods(protocol)],
)
def test_each_method_has_the_protocols_signature(store: Store, role: str, name: str) -> None:
    implementation = getattr(type(getattr(store, role)), name)
    assert inspect.iscoroutinefunction(implementation)
    assert inspect.signature(implementation) == inspect.signature(getattr(ROLES[role], name))
    assert implementation.__doc__


def test_no_role_offers_more_than_its_protocol(store: Store) -> None:
    backend_only = {"release_leases"}  # SQLite: at start, this process holds the file alone
    for role, protocol in ROLES.items():
        implementation = type(getattr(store, role))
        public = {
            name
            for name, member in inspect.getmembers(implementation)  # inherited ones too
            if inspect.iscoroutinefunction(member) and not name.startswith("_")
        }
        assert public - backend_only == set(methods(protocol)), role


def test_everything_exported_exists() -> None:
    for name in bot.store.__all__:
        assert hasattr(bot.store, name), name
