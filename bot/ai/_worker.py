"""One search process of the pool (``python -m bot.ai._worker``).

It reads one request per line on stdin (JSON: ``game``, ``level``, ``seed``, ``time_limit``)
and writes one answer per line on stdout: ``{"move": ...}``, or ``{"refused": reason}`` for a
request ``choose_move_from_dict`` refuses. It says :data:`READY` once its imports are done and
ends when stdin closes, so a bot killed outright leaves no search process behind.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Any

from bot.jarmo import Game

from ._api import analyse, choose_move_from_dict
from ._process import READY

# The bot's own process answers interactions and draws boards: when the cores are busy, it goes
# first, and a search (bounded by time, not by nodes) only sees a little less of the tree.
NICENESS = 5


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The answer line for one request line (already parsed): the move, or for an analysis
    (a request with a ``node_limit``) the search's whole answer."""
    try:
        if request.get("node_limit") is not None:
            return _analysis(request)
        move = choose_move_from_dict(
            request["game"], request["level"], request["seed"], request["time_limit"]
        )
    except (ValueError, KeyError, TypeError) as exc:
        return {"refused": f"{type(exc).__name__}: {exc}"}
    return {"move": move}


def _analysis(request: dict[str, Any]) -> dict[str, Any]:
    found = analyse(
        Game.from_dict(request["game"]),
        level=request["level"],
        seed=request["seed"],
        time_limit=request["time_limit"],
        node_limit=request["node_limit"],
        vary=False,  # an analysis (a review) names the best move, the same on every run
    )
    return {
        "move": found.move, "score": found.score, "depth": found.depth,
        "nodes": found.nodes, "pv": list(found.pv),
    }  # fmt: skip


def main() -> None:
    """Answer requests until stdin closes."""
    # Ctrl-C reaches the whole process group; the bot stops its workers itself when it stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(NICENESS)
    print(READY, flush=True)
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError as exc:
            reply = {"refused": f"not a JSON request: {exc}"}
        else:
            reply = answer(request)
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
