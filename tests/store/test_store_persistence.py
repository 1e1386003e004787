"""Nothing committed is lost: a clean restart, and a writer killed with SIGKILL mid-stream."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from store_helpers import ALICE, BOB, GUILD, T0, StartMatch, challenge, play_quiet, play_to_end

from bot.store import GameRecord, GuildSettings, SqliteStore, open_store

REPO = Path(__file__).resolve().parents[2]


async def test_everything_survives_a_restart(
    db_path: Path, store: SqliteStore, start_match: StartMatch
) -> None:
    await store.upsert_player(GUILD, ALICE, "Alice")
    await store.upsert_player(GUILD, BOB, "Bob")
    await store.set_settings(GuildSettings(GUILD, "ludos", "bow", 120))
    pending = await store.create_challenge(challenge(channel=5), now=T0)
    await store.set_challenge_message(pending.id, 555)
    declined = await store.create_challenge(challenge(channel=6), now=T0)
    declined = await store.close_challenge(declined.id, "declined", now=T0)
    running, first = await start_match(channel=7, game_count=2)
    final = await play_to_end(store, first, random.Random(41))
    outcome = final.game.outcome()
    assert outcome is not None
    end = await store.end_game(
        first.id, expected_version=final.before.version, status="finished",
        winner=outcome.winner, points=outcome.points, termination=outcome.termination.value,
        game=final.game, move=(final.mover, final.move),
        next_game=type(final.game).new(ruleset="classic", layout="bow", max_plies=200), now=T0,
    )  # fmt: skip
    assert end.next_game is not None
    second = await play_quiet(store, end.next_game, 5, random.Random(42))
    before = (
        await store.get_player(GUILD, ALICE),
        await store.get_player(GUILD, BOB),
        await store.player_stats(GUILD, BOB),
        await store.get_settings(GUILD),
        await store.get_challenge(pending.id),
        await store.get_challenge(declined.id),
        await store.get_match(running.id),
        await store.match_games(running.id),
        await store.game_actions(first.id),
        await store.game_actions(second.id),
    )
    await store.close()

    async with open_store(db_path) as reopened:
        after = (
            await reopened.get_player(GUILD, ALICE),
            await reopened.get_player(GUILD, BOB),
            await reopened.player_stats(GUILD, BOB),
            await reopened.get_settings(GUILD),
            await reopened.get_challenge(pending.id),
            await reopened.get_challenge(declined.id),
            await reopened.get_match(running.id),
            await reopened.match_games(running.id),
            await reopened.game_actions(first.id),
            await reopened.game_actions(second.id),
        )
        assert after == before
        assert await reopened.active_game(7) == second
        assert await reopened.pending_challenge(5, now=T0) == before[4]
        # ... and the game goes on where it stopped.
        moved = await play_quiet(reopened, second, 1, random.Random(43))
        assert moved.version == 6


# The child writes games as fast as it can and reports each commit on stdout *after* it
# returned; whatever it reported must be in the database after it is killed.
CHILD = """
import asyncio, itertools, random, sys
from datetime import UTC, datetime, timedelta
from bot.jarmo import Game
from bot.store import ChallengeOptions, NewChallenge, open_store

async def main(path, seed):
    now = datetime(2025, 3, 1, tzinfo=UTC)
    rng = random.Random(seed)
    async with open_store(path) as store:
        for channel in itertools.count(1):
            new = NewChallenge(1, channel, 101, 202, ChallengeOptions(), now + timedelta(hours=1))
            posted = await store.create_challenge(new, now=now)
            fresh = Game.new(ruleset="classic", layout="bow", max_plies=200)
            _, record = await store.accept_challenge(
                posted.id, first_white_id=101, first_game=fresh, now=now)
            print("game", record.id, 0, flush=True)
            while True:
                game = Game.from_dict(record.game.to_dict())
                mover = record.player_id(game.turn)
                move = game.play(rng.choice(game.legal_moves()))
                if game.over:
                    o = game.outcome()
                    end = await store.end_game(
                        record.id, expected_version=record.version, status="finished",
                        winner=o.winner, points=o.points, termination=o.termination.value,
                        game=game, move=(mover, move), match_state="finished",
                        match_winner_id=o.winner and record.player_id(o.winner), now=now)
                    print("ended", record.id, end.game.version, flush=True)
                    break
                record = await store.record_move(
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
            game = await store.get_game(game_id)  # replays: raises CorruptGame if inconsistent
            assert game.version >= version
            match = await store.get_match(game.match_id)
            if game_id in ended:
                assert game.status == "finished" and match.state == "finished"
            assert (game.status == "active") == (match.state == "running")
        last = max(latest)
        active = await store.active_game((await store.get_game(last)).channel_id)
        if active is not None:  # the store is writable again after the crash
            await play_quiet(store, active, 1, random.Random(44), now=T0 + timedelta(hours=2))


def test_commits_survive_sigkill_mid_write(db_path: Path) -> None:
    reported = run_and_kill(db_path, commits=400, seed=45)
    assert len(reported) >= 400
    assert any(kind == "ended" for kind, _, _ in reported)
    with sqlite3.connect(db_path) as db:
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
            return [await store.get_game(game_id) for game_id in ids]

    games = asyncio.run(load_everything())
    assert games and sum(g.status == "active" for g in games) <= 1
