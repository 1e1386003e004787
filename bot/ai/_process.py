"""The parent's side of one search process (:mod:`bot.ai._worker`): JSON lines over a pipe."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from dataclasses import asdict
from typing import Any

from ._api import SearchResult
from ._pool import SearchPool, SearchRequest, WorkerDied

# What a worker says once it has imported the engine (bot/ai/_worker.py runs the other side).
READY = "jarmo-search ready"
# Starting Python and importing the engine takes a fraction of a second; a worker that has not
# said it is ready after this long is not going to.
LAUNCH_SECONDS = 30.0
# An idle worker ends as soon as its stdin closes; this is only a guard.
STOP_SECONDS = 2.0


class ProcessWorker:
    """One search process. ``launch`` starts it; ``close`` ends it."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self._process = process
        self._searching = False

    @classmethod
    async def launch(cls) -> ProcessWorker:
        """Start a search process and wait until it is ready. Raises ``WorkerDied``."""
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.ai._worker",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        worker = cls(process)
        try:
            greeting = await asyncio.wait_for(worker._read_line(), LAUNCH_SECONDS)
        except (TimeoutError, WorkerDied):
            await worker.close()
            raise WorkerDied(f"search process {process.pid} did not start") from None
        except asyncio.CancelledError:  # the pool closed while it started: leave no process
            await worker.close()
            raise
        if greeting != READY:
            await worker.close()
            raise WorkerDied(f"search process {process.pid} said {greeting!r}, not ready")
        return worker

    @property
    def pid(self) -> int:
        """The process id."""
        return self._process.pid

    @property
    def ended(self) -> bool:
        """Whether the process has ended (and been waited for)."""
        return self._process.returncode is not None

    async def search(self, request: SearchRequest) -> str:
        """The move for ``request``. Raises ``WorkerDied`` or ``ValueError`` (refused)."""
        return str((await self._ask(request))["move"])

    async def analyse(self, request: SearchRequest) -> SearchResult:
        """The search's whole answer for ``request``. Raises as :meth:`search` does."""
        reply = await self._ask(request)
        try:
            return SearchResult(
                str(reply["move"]), int(reply["score"]), int(reply["depth"]),
                int(reply["nodes"]), tuple(str(move) for move in reply["pv"]),
            )  # fmt: skip
        except (KeyError, TypeError, ValueError) as exc:
            raise WorkerDied(f"search process {self.pid} answered {reply!r}") from exc

    async def _ask(self, request: SearchRequest) -> dict[str, Any]:
        stdin = self._process.stdin
        assert stdin is not None  # opened with a pipe
        self._searching = True
        try:
            stdin.write(json.dumps(asdict(request)).encode() + b"\n")
            await stdin.drain()
            reply = json.loads(await self._read_line())
        except ConnectionError as exc:  # the pipe broke: the process is gone
            raise WorkerDied(self._gone()) from exc
        finally:
            self._searching = False
        if "refused" in reply:
            raise ValueError(str(reply["refused"]))
        return dict(reply)

    async def close(self) -> None:
        """End the process: at once if it is searching (its answer is no longer wanted), else
        by closing its stdin; then wait for it."""
        process = self._process
        if process.returncode is None:
            if self._searching:
                process.kill()
            elif process.stdin is not None:
                process.stdin.close()
            try:
                await asyncio.wait_for(process.wait(), STOP_SECONDS)
            except TimeoutError:
                process.kill()
        with contextlib.suppress(ProcessLookupError):
            await process.wait()

    async def _read_line(self) -> str:
        stdout = self._process.stdout
        assert stdout is not None  # opened with a pipe
        line = await stdout.readline()
        if not line:
            raise WorkerDied(self._gone())
        return line.decode().rstrip("\n")

    def _gone(self) -> str:
        return f"search process {self.pid} ended (exit code {self._process.returncode})"


def search_pool(workers: int) -> SearchPool:
    """A pool of ``workers`` search processes (not started yet: call ``start()``)."""
    return SearchPool(workers, launch=ProcessWorker.launch)
