"""CPU use of an idle bot whose database holds damaged games: background jobs that meet a game
they cannot load must skip it and back off, never spin on it.

Run: ``.venv/bin/python bench/damaged_idle.py [--runs R] [--seconds S] [--settle S]``.

The database is the one of ``tests/e2e/test_e2e_damaged.py``: a first bot process plays three
games through the loopback fake of Discord (a timed game, a plain one, one against the
computer), is stopped, and the three stored snapshots are spoiled (the timed game's deadline
moved into the past, the computer's last move taken back). Then ``python -m bot run`` starts on
that file, logs the damaged games, settles, and its CPU time (utime + stime from
``/proc/<pid>/stat``, summed over the bot and its child processes, such as the computer's
search worker) is measured over ``--seconds`` of idling, ``--runs`` times in a row. The fake
heartbeats at Discord's usual interval (41.25 s), so the gateway does not keep the bot busy.

Target: under 5 % of one core (median of the runs).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from damaged_games import prepare_damaged_database, wait_damaged_logged  # noqa: E402
from fake_discord import FakeDiscord  # noqa: E402

TARGET_PERCENT = 5.0
DISCORD_HEARTBEAT_MS = 41_250
TICKS = os.sysconf("SC_CLK_TCK")


def parent_and_cpu(pid: int) -> tuple[int, int] | None:
    """(parent pid, utime + stime in clock ticks) of a process, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after "pid (comm) "; comm may hold spaces
    return int(fields[1]), int(fields[11]) + int(fields[12])


def tree_cpu_ticks(root: int) -> dict[int, int]:
    """CPU ticks used so far by ``root`` and every live descendant, by pid."""
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (found := parent_and_cpu(int(entry.name))) is not None:
            table[int(entry.name)] = found
    used: dict[int, int] = {}
    wanted = {root}
    while wanted:
        pid = wanted.pop()
        if pid in table:
            used[pid] = table[pid][1]
            wanted |= {child for child, (parent, _) in table.items() if parent == pid}
    return used


def idle_cpu(pid: int, seconds: float) -> tuple[float, int, int]:
    """(percent of one core, clock ticks, processes) the process tree used over ``seconds`` of
    wall time. A child that appears meanwhile counts from zero; one that ends meanwhile counts
    what it used until its last sample (its final ticks go to its parent's cutime, unread)."""
    before, began = tree_cpu_ticks(pid), time.monotonic()
    time.sleep(seconds)
    after, elapsed = tree_cpu_ticks(pid), time.monotonic() - began
    ticks = sum(after.get(p, before.get(p, 0)) - before.get(p, 0) for p in before | after)
    return 100.0 * ticks / TICKS / elapsed, ticks, len(before | after)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="measurements (default 3)")
    parser.add_argument("--seconds", type=float, default=10.0, help="each measurement's length")
    parser.add_argument("--settle", type=float, default=3.0, help="idle time before measuring")
    args = parser.parse_args()

    fake = FakeDiscord(heartbeat_ms=DISCORD_HEARTBEAT_MS).start()
    try:
        with tempfile.TemporaryDirectory(prefix="jarmo-idle-") as folder:
            print("preparing the damaged database (a first bot plays three games)...")
            bot, games = prepare_damaged_database(fake, Path(folder))
            bot.start()
            wait_damaged_logged(bot, games)
            fake.wait_idle()
            assert bot.process is not None
            pid = bot.process.pid
            print(f"bot pid {pid} serving damaged games {sorted(games.ids)}; settling...")
            time.sleep(args.settle)
            figures = []
            for run in range(1, args.runs + 1):
                percent, ticks, processes = idle_cpu(pid, args.seconds)
                figures.append(percent)
                print(
                    f"run {run}: {percent:.2f} % of one core over {args.seconds:.0f} s "
                    f"({ticks} ticks of 1/{TICKS} s, {processes} process(es))"
                )
            still_running = bot.running()
            status, seconds = bot.stop()
            logged = bot.log_text().split("---- start 2 ----", 1)[1].count(" is damaged ")
    finally:
        fake.close()
    median = statistics.median(figures)
    verdict = "under" if median < TARGET_PERCENT else "NOT under"
    target = f"{TARGET_PERCENT:g} %"
    print(f"median {median:.2f} % of one core while idle: {verdict} the {target} target")
    print(
        f"bot still running before SIGTERM: {still_running}; exit status {status} after "
        f"{seconds:.1f} s; damaged-game ERROR lines in its log: {logged} (3 expected)"
    )
    return 0 if median < TARGET_PERCENT and still_running and status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
