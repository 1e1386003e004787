"""Nothing committed is lost: a clean restart, and a writer killed with SIGKILL mid-stream."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import timedelta
from pathlib import Path

from bot.store import (
    FinalMove,
    GameEnding,
    GameRecord,
    NextGame,
    Store,
    open_any,
    open_store,
)
from tests.store.store_helpers import (
    ALICE,
    BOB,
    GUILD,
    T0,
    StartMatch,
    challenge,
    play_quiet,
    play_to_end,
)

REPO = Path(__file__).resolve().parents[2]


async def test_everything_survives_a_restart(
    store_target: Path | str, store: Store, start_match: StartMatch
) -> None:
    await store.players.upsert(GUILD, ALICE, "Alice")
    await store.players.upsert(GUILD, BOB, "Bob")
    await store.state.set("commands", "abc123")
    pending = await store.challenges.create(challenge(channel=5), now=T0)
    await store.challenges.attach_message(pending.id, 555)
    declined = await store.challenges.create(challenge(channel=6), now=T0)
    declined = await store.challenges.close(declined.id, "declined", now=T0)
    running, first = await start_match(channel=7, game_count=2)
    final = await play_to_end(store, first, random.Random(41))
    outcome = final.game.outcome()
    assert outcome is not None
    end = await store.games.end(
        first.id,
        GameEnding(
            status="finished",
            winner=outcome.winner,
            points=outcome.points,
            termination=outcome.termination.value,
            game=final.game,
            then=NextGame(type(final.game).new(ruleset="classic", max_plies=200)),
            final_move=FinalMove(final.mover, final.move),
        ),
        expected_version=final.before.version,
        now=T0,
    )
    assert end.next_game is not None
    second = await play_quiet(store, end.next_game, 5, random.Random(42))
    before = (
        await store.players.get(GUILD, ALICE),
        await store.players.get(GUILD, BOB),
        await store.results.player_stats(GUILD, BOB),
        await store.state.get("commands"),
        await store.challenges.get(pending.id),
        await store.challenges.get(declined.id),
        await store.games.match(running.id),
        await store.games.match_games(running.id),
        await store.games.actions(first.id),
        await store.games.actions(second.id),
    )
    await store.close()

    async with open_any(store_target) as reopened:
        after = (
            await reopened.players.get(GUILD, ALICE),
            await reopened.players.get(GUILD, BOB),
            await reopened.results.player_stats(GUILD, BOB),
            await reopened.state.get("commands"),
            await reopened.challenges.get(pending.id),
            await reopened.challenges.get(declined.id),
            await reopened.games.match(running.id),
            await reopened.games.match_games(running.id),
            await reopened.games.actions(first.id),
            await reopened.games.actions(second.id),
        )
        assert after == before
        assert await reopened.games.active(7) == second
        assert await reopened.challenges.pending(5, now=T0) == before[4]
        # ... and the game goes on where it stopped.
        moved = await play_quiet(reopened, second, 1, random.Random(43))
        assert moved.version == 6


# The child writes games as fast as it can and reports each commit on stdout *after* it
# returned; whatever it reported must be in the database after it is killed.
CHILD = """
import asyncio, itertools, random, sys
from datetime import UTC, datetime, timedelta
from bot.jarmo import Game
from bot.store import ChallengeOptions, FinalMove, GameEnding, MatchOver, NewChallenge, open_store

async def main(path, seed):
    now = datetime(2025, 3, 1, tzinfo=UTC)
    rng = random.Random(seed)
    async with open_store(path) as store:
        for channel in itertools.count(1):
            new = NewChallenge(1, channel, 101, 202, ChallengeOptions(), now + timedelta(hours=1))
            posted = await store.challenges.create(new, now=now)
            fresh = Game.new(ruleset="classic", max_plies=200)
            _, record = await store.challenges.accept(
                posted.id, first_white_id=101, first_game=fresh, now=now)
            print("game", record.id, 0, flush=True)
            while True:
                game = Game.from_dict(record.engine.to_dict())
                mover = record.player_id(game.turn)
                move = game.play(rng.choice(game.legal_moves()))
                if game.over:
                    o = game.outcome()
                    ending = GameEnding(
                        status="finished", winner=o.winner, points=o.points,
                        termination=o.termination.value, game=game,
                        then=MatchOver("finished", o.winner and record.player_id(o.winner)),
                        final_move=FinalMove(mover, move))
                    end = await store.games.end(
                        record.id, ending, expected_version=record.version, now=now)
                    print("ended", record.id, end.game.version, flush=True)
                    break
                record = await store.games.record_move(
                    record.id, expected_version=record.version, player_id=mover, move=move,
                    game=game, now=now)
                print("game", record.id, record.version, flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


def run_and_kill(db_path: Path, commits: int, seed: int) -> list[tuple[str, int, int]]:
    """Start the child, SIGKILL it once it has reported ``commits`` commits; return them all."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db_path), str(seed)],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    reported = []
    try:
        for line in child.stdout:
            kind, game_id, version = line.split()
            reported.append((kind, int(game_id), int(version)))
            if len(reported) == commits:
                child.send_signal(signal.SIGKILL)  # it is still writing: no clean shutdown
                break
        reported += [(k, int(g), int(v)) for k, g, v in map(str.split, child.stdout)]
    finally:
        child.kill()
        child.wait()
    assert child.returncode == -signal.SIGKILL, "the child died before it was killed"
    return reported


async def check_after_kill(db_path: Path, reported: list[tuple[str, int, int]]) -> None:
    latest: dict[int, int] = {}
    ended = set()
    for kind, game_id, version in reported:
        latest[game_id] = version
        if kind == "ended":
            ended.add(game_id)
    async with open_store(db_path) as store:
        for game_id, version in latest.items():
            game = await store.games.get(game_id)  # replays: raises CorruptGame if inconsistent
            assert game.version >= version
            match = await store.games.match(game.match_id)
            if game_id in ended:
                assert game.status == "finished" and match.state == "finished"
            assert (game.status == "active") == (match.state == "running")
        last = max(latest)
        active = await store.games.active((await store.games.get(last)).channel_id)
        if active is not None:  # the store is writable again after the crash
            await play_quiet(store, active, 1, random.Random(44), now=T0 + timedelta(hours=2))


def test_commits_survive_sigkill_mid_write(db_path: Path) -> None:
    reported = run_and_kill(db_path, commits=400, seed=45)
    assert len(reported) >= 400
    assert any(kind == "ended" for kind, _, _ in reported)
    with closing(sqlite3.connect(db_path)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    asyncio.run(check_after_kill(db_path, reported))
    # A second crash on top of the recovered file.
    reported += run_and_kill(db_path, commits=100, seed=46)
    asyncio.run(check_after_kill(db_path, reported))


def test_all_games_load_after_sigkill(db_path: Path) -> None:
    run_and_kill(db_path, commits=250, seed=47)

    with sqlite3.connect(db_path) as db:
        ids = [row[0] for row in db.execute("SELECT id FROM games ORDER BY id")]

    async def load_everything() -> list[GameRecord]:
        async with open_store(db_path) as store:
            return [await store.games.get(game_id) for game_id in ids]

    games = asyncio.run(load_everything())
    assert games and sum(g.status == "active" for g in games) <= 1
