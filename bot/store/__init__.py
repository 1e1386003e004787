"""Persistence: the ``Store`` protocol the service uses, and its SQLite implementation."""

from bot.store.errors import (
    ChallengeClosed,
    ChannelBusy,
    CorruptGame,
    GameNotActive,
    NotFound,
    SchemaTooNew,
    StaleGame,
    StoreError,
)
from bot.store.interface import Store
from bot.store.records import (
    MATCH_LENGTHS,
    ActionRecord,
    ChallengeOptions,
    ChallengeRecord,
    ChallengeStatus,
    GameEnd,
    GameRecord,
    GameStatus,
    GuildSettings,
    MatchRecord,
    MatchState,
    NewChallenge,
    PlayerRecord,
    Side,
)
from bot.store.sqlite import SqliteStore, open_store

__all__ = [
    "MATCH_LENGTHS",
    "ActionRecord",
    "ChallengeClosed",
    "ChallengeOptions",
    "ChallengeRecord",
    "ChallengeStatus",
    "ChannelBusy",
    "CorruptGame",
    "GameEnd",
    "GameNotActive",
    "GameRecord",
    "GameStatus",
    "GuildSettings",
    "MatchRecord",
    "MatchState",
    "NewChallenge",
    "NotFound",
    "PlayerRecord",
    "SchemaTooNew",
    "Side",
    "SqliteStore",
    "StaleGame",
    "Store",
    "StoreError",
    "open_store",
]
