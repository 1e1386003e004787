"""Soak: run the asynchronous and end-to-end tests many times, optionally on a busy machine, to
flush out flaky tests (timing assumptions, races) before they fail someone else's build.

Run: ``.venv/bin/python bench/soak.py [--runs N] [--busy] [--paths P ...]``.

Each run is ``python -m pytest <paths> -q -p no:cacheprovider -rA`` in a fresh process; the
passed and failed tests are counted from its short summary. With ``--busy`` one CPU burner
process per core spins in the background for the whole soak (they are stopped at the end),
so the tests meet a machine where the bot, the fake and the computer's search all compete for
time. Prints one line per run, the tests that failed with how often, and a total line
("60 passed, 0 failed in 3 runs"). Exit status 0 only if every run passed.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PATHS = ["tests/e2e", "tests/clock", "tests/service", "tests/store"]
OUTCOME = re.compile(r"^(PASSED|FAILED|ERROR) (\S+)", re.MULTILINE)


def burn() -> None:
    """Spin forever (until terminated): one core kept busy."""
    spin = 0
    while True:
        spin = (spin * 1_103_515_245 + 12_345) % 2**31


def start_burners(count: int) -> list[multiprocessing.Process]:
    burners = [multiprocessing.Process(target=burn, daemon=True) for _ in range(count)]
    for burner in burners:
        burner.start()
    return burners


def stop_burners(burners: list[multiprocessing.Process]) -> None:
    for burner in burners:
        burner.terminate()
    for burner in burners:
        burner.join(5)


def run_once(paths: list[str], timeout: float, keep: Path) -> tuple[int, list[str], float, int]:
    """One pytest run: (tests passed, ids of those that failed or errored, seconds, status).
    The output of a run that did not pass is written to ``keep``."""
    began = time.monotonic()
    command = [sys.executable, "-m", "pytest", *paths, "-q", "-p", "no:cacheprovider", "-rA"]
    try:
        done = subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return 0, [f"(the run took over {timeout:.0f} s and was stopped)"], timeout, -1
    outcomes = OUTCOME.findall(done.stdout)
    passed = sum(1 for kind, _ in outcomes if kind == "PASSED")
    failed = [test for kind, test in outcomes if kind != "PASSED"]
    if done.returncode != 0 and not failed:
        failed = [f"(pytest exited with status {done.returncode})"]
    if done.returncode != 0:
        keep.write_text(done.stdout + done.stderr)
    return passed, failed, time.monotonic() - began, done.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="how many runs (default 20)")
    parser.add_argument("--busy", action="store_true", help="a CPU burner per core meanwhile")
    parser.add_argument("--paths", nargs="+", default=DEFAULT_PATHS, help="what pytest runs")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per run at most")
    args = parser.parse_args()

    # SIGTERM (a timeout, say) ends the soak through the `finally` below: no burner left over.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    cores = os.cpu_count() or 1
    burners = start_burners(cores) if args.busy else []
    load = f"{len(burners)} CPU burner(s) on {cores} core(s)" if burners else "no extra load"
    print(f"soak: {args.runs} run(s) of pytest {' '.join(args.paths)}; {load}", flush=True)
    total_passed, total_failed, bad_runs = 0, Counter[str](), 0
    try:
        for run in range(1, args.runs + 1):
            keep = Path(tempfile.gettempdir()) / f"jarmo-soak-run-{os.getpid()}-{run}.log"
            passed, failed, seconds, status = run_once(args.paths, args.timeout, keep)
            total_passed += passed
            total_failed.update(failed)
            bad_runs += status != 0
            note = f" — {', '.join(failed)} (output: {keep})" if status != 0 else ""
            print(
                f"run {run}: {passed} passed, {len(failed)} failed in {seconds:.0f} s{note}",
                flush=True,
            )
    finally:
        stop_burners(burners)
    for test, times in total_failed.most_common():
        print(f"  failed {times}x: {test}")
    failed_count = sum(total_failed.values())
    print(f"{total_passed} passed, {failed_count} failed in {args.runs} runs ({load})")
    return 0 if bad_runs == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
