"""``jarmo-bot migrate-store``: an SQLite database copied into PostgreSQL, checked, refused when
it cannot be done; and ``jarmo-bot run`` with a database URL it cannot use."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import sqlite3
from collections.abc import Callable
from contextlib import closing
from datetime import timedelta
from pathlib import Path

import pytest

from bot.__main__ import main
from bot._migrate_cli import TABLES
from bot.store import (
    GameEnding,
    MatchOver,
    NewPairing,
    NewTournament,
    PairingResult,
    RatingChange,
    RatingUpdate,
    Skill,
    open_store,
)
from bot.store.postgres import open_postgres
from tests.postgres import PostgresServer
from tests.store.store_helpers import ALICE, BOB, GUILD, T0, challenge, new_game, play_quiet

CUP = NewTournament(
    guild_id=GUILD,
    channel_id=20,
    organiser_id=ALICE,
    name="Cup",
    format="swiss",
    rounds=0,
    game_count=2,
    ruleset="classic",
    layout="bow",
    max_plies=200,
)


async def fill(path: Path) -> None:
    """A small but complete SQLite database: names, state, turn pings, challenges, a rated match
    that ended, a running game with moves and a pending announcement, a quarantined game, a
    tournament with a withdrawal, a bye and a forced result."""
    async with open_store(path) as store:
        await store.players.upsert(GUILD, ALICE, "Alice")
        await store.state.set("commands", "abc")
        await store.pings.choose(ALICE, "dm")
        await store.pings.refuse_dm(ALICE)
        await store.challenges.create(challenge(channel=1), now=T0)
        ended = await store.challenges.create(challenge(channel=2), now=T0)
        _, first = await store.challenges.accept(
            ended.id, first_white_id=ALICE, first_game=new_game(), now=T0
        )
        change = [
            RatingChange(user, 0, Skill(25.0, 8.3, 0.0), Skill(25.5 + user / 1000, 8.0, 1.5))
            for user in (ALICE, BOB)
        ]
        await store.games.end(
            first.id,
            GameEnding(
                status="resigned", winner="white", points=first.engine.points(),
                termination="resigned", game=first.engine, then=MatchOver("forfeited", ALICE),
                ratings=RatingUpdate("classic", (change[0], change[1])),
            ),
            expected_version=0,
            now=T0,
        )  # fmt: skip
        running = await store.challenges.create(challenge(channel=3), now=T0)
        _, game = await store.challenges.accept(
            running.id, first_white_id=BOB, first_game=new_game(), now=T0
        )
        game = await play_quiet(store, game, 6, random.Random(3))
        await store.quarantine.set_aside(first.id, reason="a test", now=T0)
        await play_quiet(store, game, 1, random.Random(4))
        assert game.version == 6
        cup = await store.tournaments.create(CUP, now=T0)
        for user_id in (ALICE, BOB, 3):
            await store.tournaments.join(cup.id, user_id)
        await store.tournaments.withdraw(cup.id, 3)
        pairings = [NewPairing(ALICE, BOB), NewPairing(3, None, decided=True, winner_id=3)]
        await store.tournaments.start_round(cup.id, expected_round=0, pairings=pairings)
        assert await store.tournaments.attach_match(cup.id, 1, 1, first.match_id)
        forced = PairingResult(BOB, 4, 5, forced_by=ALICE)  # a moderator's forced result
        assert await store.tournaments.decide(cup.id, 1, 1, forced)
        ended_vacation = await store.vacations.start(ALICE, now=T0, ends_at=T0 + timedelta(days=2))
        assert ended_vacation is not None
        await store.vacations.end(ended_vacation.id, at=T0 + timedelta(hours=5))
        await store.vacations.start(ALICE, now=T0 + timedelta(days=1), ends_at=T0 + timedelta(3))


def migrate(source: Path, target: str) -> int:
    return main(["migrate-store", "--from", f"sqlite:///{source}", "--to", target])


async def test_everything_is_copied_and_checked(
    tmp_path: Path, postgres: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "jarmo.sqlite3"
    await fill(source)
    target = postgres.fresh_database(migrated=False)
    assert await _in_thread(migrate, source, target) == 0
    out = capsys.readouterr().out
    assert "games: 2" in out and "actions: 7" in out and "quarantined_games: 1" in out
    async with open_store(source) as before, open_postgres(target) as after:
        assert await after.ratings.tables() == await before.ratings.tables()
        assert await after.ratings.rated_games() == await before.ratings.rated_games()
        assert await after.games.active(3) == await before.games.active(3)
        assert await after.players.get(GUILD, ALICE) == await before.players.get(GUILD, ALICE)
        assert await after.state.get("commands") == "abc"
        # The game's record carries its players' turn pings, compared with it above.
        game = await after.games.active(3)
        assert game is not None and game.ping_setting(ALICE).dm_refused
        assert await after.challenges.pending(1, now=T0) == await before.challenges.pending(
            1, now=T0
        )
        assert await after.quarantine.damaged_games() == []
        cup = await before.tournaments.latest_in(CUP.channel_id)
        assert cup is not None and await after.tournaments.get(cup.id) == cup
        assert await after.tournaments.entries(cup.id) == await before.tournaments.entries(cup.id)
        copied = await after.tournaments.pairings(cup.id)
        assert copied == await before.tournaments.pairings(cup.id) and copied[0].match_id
        assert copied[0].forced_by == ALICE
        # New rows get new ids after the copied ones.
        fresh = await after.challenges.create(challenge(channel=9), now=T0)
        assert fresh.id == 4
        another = dataclasses.replace(CUP, channel_id=21)
        assert (await after.tournaments.create(another, now=T0)).id == cup.id + 1


def test_every_table_of_the_schema_is_copied(tmp_path: Path) -> None:
    """A table added by a later migration must be added to the copy too (the target keeps its
    own record of its schema version)."""
    path = tmp_path / "jarmo.sqlite3"
    asyncio.run(_create(path))
    with closing(sqlite3.connect(path)) as db:
        tables = {
            row[0]
            for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        }
    assert tables - {"alembic_version"} == set(TABLES)


async def _create(path: Path) -> None:
    async with open_store(path):
        pass


async def test_a_target_with_rows_is_refused_and_left_alone(
    tmp_path: Path, postgres: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "jarmo.sqlite3"
    await fill(source)
    target = postgres.fresh_database()
    async with open_postgres(target) as store:
        await store.state.set("mine", "keep")
    assert await _in_thread(migrate, source, target) == 2
    err = capsys.readouterr().err
    assert "already holds data" in err and len(err.strip().splitlines()) == 1
    async with open_postgres(target) as store:
        assert await store.state.get("mine") == "keep"
        assert await store.state.get("commands") is None


@pytest.mark.parametrize(
    ("source", "target", "expected"),
    [
        ("mysql://x/y", "postgresql:///db", "--from must be sqlite:///PATH"),
        ("sqlite:///nowhere.sqlite3", "postgresql:///db", "there is no SQLite database"),
        ("FILE", "sqlite:///other", "--to must be a postgresql:// URL"),
    ],
)
async def test_bad_arguments_get_one_clear_line(
    tmp_path: Path, source: str, target: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "jarmo.sqlite3"
    await fill(file)
    argv = ["migrate-store", "--from", source.replace("FILE", str(file)), "--to", target]
    assert await _in_thread(main, argv) == 2
    err = capsys.readouterr().err.strip()
    assert expected in err and len(err.splitlines()) == 1


async def test_an_unreachable_server_is_one_line_naming_host_and_database_not_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JARMO_CONFIG", raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("JARMO_DATABASE_URL", "postgresql://jarmo:s3cret@127.0.0.1:9/games")
    assert await _in_thread(main, ["run"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert "127.0.0.1:9" in err and "/games" in err and "cannot be reached" in err
    assert "s3cret" not in err


async def test_a_missing_database_is_named(
    tmp_path: Path,
    postgres: PostgresServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = postgres.admin_url.replace("/postgres?", "/no_such_db?")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JARMO_CONFIG", raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("JARMO_DATABASE_URL", url)
    assert await _in_thread(main, ["run"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert "/no_such_db" in err and "does not exist" in err


async def _in_thread(function: Callable[..., int], *args: object) -> int:
    """Run a command-line entry point (which runs its own event loop) off this test's loop."""
    return await asyncio.to_thread(function, *args)
