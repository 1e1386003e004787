"""Which servers this process works for: the shards it runs, of ``count`` in all.

Discord sends a server's events to shard ``(guild_id >> 22) % count``. Background work for a
server (its reminders and timeouts, the computer's pending moves) is done by the process that
runs that server's shard, so processes do not race each other for it. Correctness never rests
on this alone: the database's version checks and leases make each job happen once even when two
processes try (a misconfigured cluster, or shards moving between processes).
"""

from __future__ import annotations

from dataclasses import dataclass


def shard_of(guild_id: int, count: int) -> int:
    """The shard that receives the events of server ``guild_id`` among ``count`` shards."""
    return (guild_id >> 22) % count


@dataclass(frozen=True, slots=True)
class ShardSet:
    """The shards ``ids`` (each in ``0..count-1``) that one process runs."""

    count: int
    ids: frozenset[int]

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or not all(0 <= i < self.count for i in self.ids):
            raise ValueError(f"shards {sorted(self.ids)} do not fit a count of {self.count}")

    @classmethod
    def every(cls) -> ShardSet:
        """Every server: one process runs all the shards."""
        return cls(1, frozenset({0}))

    @classmethod
    def of(cls, count: int, ids: tuple[int, ...] | None = None) -> ShardSet:
        """``ids`` of ``count`` shards; all of them when ``ids`` is ``None``."""
        return cls(count, frozenset(range(count) if ids is None else ids))

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of server ``guild_id``; for ``None`` (outside
        servers: direct messages), shard 0's, which Discord sends direct messages to."""
        return shard_of(guild_id or 0, self.count) in self.ids
