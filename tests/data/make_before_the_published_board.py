"""Writes ``before_the_published_board.sqlite``: a database as the bot stored it before the
published board became the only board for new games (made with the code of commit 8ae14a6).

It is kept as made, so that the tests read what an older bot really wrote. To make it again,
run this file with that commit's code first on the import path: ``git worktree add /tmp/old
8ae14a6``, then ``PYTHONPATH=/tmp/old python tests/data/make_before_the_published_board.py``.

It holds, on the ``bow`` board, in one server:
- channel ``PLAYING``: a match of two games between Ann and Bob, game 1 in progress after moves
  along lines that the published board does not have;
- channel ``FINISHED``: a finished one-game match between Ann and Cat;
- channel ``SIGNUP``: a Swiss tournament open for sign-up, with Ann, Bob and Cat entered.
"""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from pathlib import Path

from bot.service import Actor, ChallengeRequest, JarmoService, Place, read_action
from bot.service.errors import NoGameHere
from bot.service.tournaments.views import TournamentRequest
from bot.store import open_store

OUT = Path(__file__).with_name("before_the_published_board.sqlite")
GUILD = 900_000_000_000_000_001
PLAYING, FINISHED, SIGNUP = (
    900_000_000_000_000_002,
    900_000_000_000_000_003,
    900_000_000_000_000_004,
)
ANN = Actor(900_000_000_000_000_011, "Ann")
BOB = Actor(900_000_000_000_000_012, "Bob")
CAT = Actor(900_000_000_000_000_013, "Cat")


# The lines of the bow board that the published board has too; every other bow line is not
# on the published board.
SHARED_LINES = {
    frozenset(line.split("-"))
    for row in (
        "A1-B3 A1-C2 A2-C3 A3-B1 A3-B5 A4-C3 A5-B3 A5-C4 B1-D2 B2-C4 B3-C5",
        "B4-D3 B5-D4 C1-D3 C1-E2 C2-E3 C3-D1 C5-E4 D3-E1 D3-E5 D4-E2 D5-E3",
    )
    for line in row.split()
}


def off_the_published_board(move: str) -> bool:
    return frozenset((move[:2], move[3:5])) not in SHARED_LINES


async def main() -> None:
    OUT.unlink(missing_ok=True)
    async with open_store(OUT) as store:
        service = JarmoService(store)
        await play_a_game_halfway(service)
        await finish_a_game(service)
        await open_a_tournament(service)


async def play_a_game_halfway(service: JarmoService) -> None:
    place = Place(GUILD, PLAYING)
    offer = await service.challenges.post(
        place, ANN, ChallengeRequest(BOB, games=2, layout="bow", side="white")
    )
    await service.challenges.accept(BOB, offer.challenge.id)
    for ply in range(8):
        view = await service.play.board(place)
        moves = view.game.game.legal_moves()
        old_lines = [m for m in moves if off_the_published_board(m)]
        move = (old_lines or moves)[ply % len(old_lines or moves)]
        await service.play.move(place, ANN if ply % 2 == 0 else BOB, read_action(move))


async def finish_a_game(service: JarmoService) -> None:
    place = Place(GUILD, FINISHED)
    offer = await service.challenges.post(
        place, ANN, ChallengeRequest(CAT, games=1, layout="bow", side="white")
    )
    await service.challenges.accept(CAT, offer.challenge.id)
    rng = random.Random(1)
    while True:
        try:
            view = await service.play.board(place)
        except NoGameHere:  # the match is over
            return
        game = view.game.game
        mover = ANN if game.turn == "white" else CAT
        await service.play.move(place, mover, read_action(rng.choice(game.legal_moves())))


async def open_a_tournament(service: JarmoService) -> None:
    place = Place(GUILD, SIGNUP)
    request = TournamentRequest("Bow Cup", "swiss", 2, 2, "classic", "bow")
    view = await service.tournaments.create(place, ANN, request, moderator=True)
    for player in (ANN, BOB, CAT):
        await service.tournaments.join(view.tournament.id, player)


if __name__ == "__main__":
    print(datetime.now(UTC).isoformat(timespec="seconds"), OUT)
    asyncio.run(main())
