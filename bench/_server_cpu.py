"""The CPU time a local PostgreSQL server has spent, read from ``/proc`` (Linux).

The server is a postmaster and the processes it forks (a backend per connection, the WAL and
background writers, the checkpointer, autovacuum). A child that ends is added to the
postmaster's ``cutime``/``cstime`` once the postmaster reaps it, so the sum below keeps
counting the work of connections that have closed.
"""

from __future__ import annotations

import os
from pathlib import Path

import asyncpg

PROC = Path("/proc")
TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


async def postmaster_pid(url: str) -> int | None:
    """The pid of the server at ``url`` if it runs on this machine (its backend for a fresh
    connection is a child of the postmaster), else None."""
    connection = await asyncpg.connect(url)
    try:
        backend = int(await connection.fetchval("SELECT pg_backend_pid()"))
        parent = _stat(backend)
    finally:
        await connection.close()
    if parent is None or "postgres" not in _command(parent.parent_pid):
        return None
    return parent.parent_pid


def server_cpu_seconds(postmaster: int) -> float:
    """User + system CPU seconds of the postmaster, of its live children and of those it has
    reaped."""
    ticks = 0
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        stat = _stat(int(entry.name))
        if stat is not None and postmaster in (stat.pid, stat.parent_pid):
            ticks += stat.ticks
    return ticks / TICKS_PER_SECOND


class _Stat:
    def __init__(self, pid: int, parent_pid: int, ticks: int) -> None:
        self.pid = pid
        self.parent_pid = parent_pid
        self.ticks = ticks  # utime + stime + cutime + cstime


def _stat(pid: int) -> _Stat | None:
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:  # ended meanwhile
        return None
    # The command name, in parentheses, may hold spaces: the fields follow its last ")".
    fields = text[text.rindex(")") + 2 :].split()
    utime, stime, cutime, cstime = (int(f) for f in fields[11:15])
    return _Stat(pid, int(fields[1]), utime + stime + cutime + cstime)


def _command(pid: int) -> str:
    try:
        return (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""
