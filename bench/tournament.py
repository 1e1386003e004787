"""Tournament speed: pairing a Swiss round of 200 players, and the standings image
of 64 players, as medians of repeated runs. The targets are 50 ms for the pairing, and 100 ms
and 500 KB for the image.

A field plays by seed with some upsets (seeded random results), so the late rounds have the
score groups, colour debts, byes and rematch threats of a real event. Each round is timed
separately; the figure that counts is the slowest round's median. On a shared, busy machine
the figures are noisy: compare runs made side by side.

    .venv/bin/python bench/tournament.py [--players 200] [--rounds 15] [--runs 15]
        [--sample docs/images/tournament-table.png]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from bot.i18n import ENGLISH
from bot.render import render_standings_table
from bot.service.tournaments.draw import (
    Bye,
    Event,
    MatchResult,
    Pairing,
    Round,
    forfeit,
    standings,
    swiss_round,
)
from bot.words import Voice, shared_catalogue
from bot.words.tournaments import table_words

NAMES = (
    "Aigerim", "Bulat", "Dilya", "Émile Zola", "Farida", "Gulnaz", "Ilnur", "Jasmine",
    "Kamil", "Leysan", "Marat", "Nail", "Olesya", "Rustam", "Sabina", "Timur", "Ümit",
    "Venera", "Yuliya", "Zarina", "Алсу", "Радик", "李雷", "さくら", "Ada Lovelace 🦉",
)  # fmt: skip


def result(rng: random.Random, number: int, pairing: Pairing) -> MatchResult:
    """The lower seed wins two times in three; one match in five is drawn."""
    a, b = pairing.players
    roll = rng.random()
    if roll < 0.2:
        return MatchResult(number, a, b, None, (6, 6))
    favourite, outsider = (a, b) if a < b else (b, a)
    winner = favourite if roll < 0.73 else outsider
    points = (rng.randint(7, 12), rng.randint(0, 6))
    return MatchResult(number, a, b, winner, points if winner == a else points[::-1])


def play(event: Event, draw: Round, rng: random.Random) -> Event:
    """``event`` with ``draw`` played out."""
    results = tuple(result(rng, draw.number, p) for p in draw.pairings)
    return event.with_round(results, None if draw.bye is None else Bye(draw.number, draw.bye))


def bench_pairing(players: int, rounds: int, runs: int) -> list[float]:
    """Median milliseconds to pair each round of one seeded event."""
    rng = random.Random(19)
    event = Event(tuple(range(1, players + 1)))
    medians = []
    for number in range(1, rounds + 1):
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            draw = swiss_round(event, number)
            times.append((time.perf_counter() - start) * 1000)
        medians.append(statistics.median(times))
        event = play(event, draw, rng)
    return medians


def finished_event(players: int, rounds: int) -> Event:
    """A seeded Swiss event of ``players`` played through ``rounds`` rounds, in which the
    fourth-lowest seed withdraws during the last round but one (that match is forfeited)."""
    rng = random.Random(64)
    leaving = players - 3
    event = Event(tuple(range(1, players + 1)))
    for number in range(1, rounds + 1):
        draw = swiss_round(event, number)
        if number == rounds - 1:
            event = event.with_withdrawal(leaving)
            (left,) = (p for p in draw.pairings if leaving in p.players)
            event = event.with_round((forfeit(number, left, absent=leaving),))
            draw = Round(number, tuple(p for p in draw.pairings if p != left), draw.bye)
        event = play(event, draw, rng)
    return event


def table_png(event: Event, rounds: int) -> bytes:
    """The event's standings image in English."""
    table = standings(event)
    names = {p: NAMES[(p - 1) % len(NAMES)] for p in event.players}
    voice = Voice(shared_catalogue(ENGLISH), name=str)
    words = table_words(
        voice, title="Kazan Autumn Swiss", format="swiss", played=table.rounds, rounds=rounds
    )
    return render_standings_table(table.rows, names=names, words=words, rounds=rounds)


def bench_table(players: int, rounds: int, runs: int) -> tuple[float, int]:
    """Median milliseconds and bytes of the standings image."""
    event = finished_event(players, rounds)
    table_png(event, rounds)  # fonts and glyphs loaded once, as in a running bot
    times, size = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        size = len(table_png(event, rounds))
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=15)  # the most a Swiss may have
    parser.add_argument("--table-players", type=int, default=64)
    parser.add_argument("--table-rounds", type=int, default=7)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--sample", type=Path, help="also write a final table of 8 players")
    args = parser.parse_args()
    medians = bench_pairing(args.players, args.rounds, args.runs)
    rounds = " ".join(f"{m:.1f}" for m in medians)
    print(f"swiss pairing, {args.players} players, median ms by round: {rounds}")
    print(f"  slowest round {max(medians):.1f} ms (target <= 50 ms)")
    ms, size = bench_table(args.table_players, args.table_rounds, args.runs)
    print(
        f"standings image, {args.table_players} players x {args.table_rounds} rounds: "
        f"median {ms:.1f} ms (target <= 100 ms), {size / 1024:.0f} KB (target <= 500 KB)"
    )
    if args.sample:
        args.sample.write_bytes(table_png(finished_event(8, 5), 5))
        print(f"wrote {args.sample}")


if __name__ == "__main__":
    main()
