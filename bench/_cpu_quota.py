"""Confining a benchmark's child processes to a share of a core each, with a cgroup v1 CPU quota.

A machine whose cores are all shared (the bot processes and the database server on the same
two) cannot show how bot processes scale when each has its own core budget and the database
runs elsewhere. Giving each process ``cores`` of a core (``cpu.cfs_quota_us`` out of
``cpu.cfs_period_us``) in a cgroup of its own models that machine on this one: the quota, not
the neighbours, then bounds each process, as long as the quotas together fit in the cores left.

Needs a writable cgroup v1 ``cpu`` hierarchy (``/sys/fs/cgroup/cpu``; root in a container that
mounts it read-write). :func:`cpu_quotas` says why when it cannot, and gives nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

CPU_HIERARCHY = Path("/sys/fs/cgroup/cpu")
PERIOD_US = 100_000  # the kernel's default period: 0.1 s


class CpuQuota:
    """One child cgroup whose processes share ``cores`` of a core."""

    def __init__(self, group: Path, cores: float) -> None:
        self.group = group
        group.mkdir()
        (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
        (group / "cpu.cfs_quota_us").write_text(str(round(cores * PERIOD_US)))

    def add(self, pid: int) -> None:
        """Move process ``pid`` (every thread of it) into the group; its children, and threads
        it starts later, stay in it. ``cgroup.procs`` moves the whole process, where ``tasks``
        would move one thread."""
        (self.group / "cgroup.procs").write_text(str(pid))

    def remove(self) -> None:
        """Hand any process still inside back to the parent group, and delete the group."""
        if not self.group.exists():
            return
        for pid in (self.group / "cgroup.procs").read_text().split():
            with suppress(ProcessLookupError):  # it ended meanwhile
                (self.group.parent / "cgroup.procs").write_text(pid)
        self.group.rmdir()


def quota_problem(hierarchy: Path = CPU_HIERARCHY) -> str | None:
    """Why no quota can be set here, or None when it can."""
    if not (hierarchy / "cpu.cfs_quota_us").exists():
        return f"no cgroup v1 cpu hierarchy at {hierarchy}"
    if not os.access(hierarchy, os.W_OK):
        return f"{hierarchy} is not writable (run as root, with the cgroup mounted read-write)"
    return None


@contextmanager
def cpu_quotas(count: int, cores: float, *, label: str) -> Iterator[list[CpuQuota] | None]:
    """``count`` fresh groups of ``cores`` of a core each, deleted afterwards; or None (with the
    reason printed) where quotas cannot be set."""
    problem = quota_problem()
    if problem is not None:
        print(f"CPU quota off: {problem}")
        yield None
        return
    quotas: list[CpuQuota] = []
    try:
        try:
            for n in range(count):
                quotas.append(CpuQuota(CPU_HIERARCHY / f"{label}-{os.getpid()}-{n}", cores))
        except OSError as exc:
            print(f"CPU quota off: cannot make a cgroup in {CPU_HIERARCHY}: {exc}")
            yield None
            return
        yield quotas
    finally:
        for quota in quotas:
            quota.remove()
