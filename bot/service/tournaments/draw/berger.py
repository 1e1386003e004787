"""Round robin by the Berger tables: everyone meets everyone once, a bye for an odd field.

Seeds are the event's player order. With an even field of ``n`` the last seed stays put while
the others turn around a circle by ``n/2 - 1`` places a round; an odd field adds an empty seat,
and whoever faces it has the bye. This gives the published Berger tables, colours included.
"""

from __future__ import annotations

from bot.service.tournaments.draw.models import Event, Pairing, PairingError, PlayerId, Round


def round_robin_rounds(count: int) -> int:
    """How many rounds a round robin of ``count`` players has (the most a caller may ask for)."""
    return count if count % 2 else count - 1


def round_robin_round(event: Event, number: int) -> Round:
    """Round ``number`` of the event's round robin. Pairings with a withdrawn player become
    walkovers (the other wins without play); a player whose opponent is the empty seat of an
    odd field has the bye.

    Raises ``PairingError`` for fewer than two players or a round outside the tournament.
    """
    seeds: list[PlayerId | None] = list(event.players)
    if len(seeds) < 2:
        raise PairingError("a round robin needs at least two players")
    if not 1 <= number <= round_robin_rounds(len(seeds)):
        raise PairingError(f"a round robin of {len(seeds)} has no round {number}")
    if len(seeds) % 2:
        seeds.append(None)
    pairings: list[Pairing] = []
    walkovers: list[Pairing] = []
    bye: PlayerId | None = None
    for first, second in _table(seeds, number):
        if first is None or second is None:
            bye = second if first is None else first
            bye = None if bye in event.withdrawn else bye
            continue
        absent = {first, second} & event.withdrawn
        if len(absent) == 1:
            walkovers.append(Pairing(first, second))
        elif not absent:
            pairings.append(Pairing(first, second))
    return Round(number, tuple(pairings), bye, tuple(walkovers))


def _table(
    seeds: list[PlayerId | None], number: int
) -> list[tuple[PlayerId | None, PlayerId | None]]:
    """Round ``number``'s pairs of an even list of seats, the starting seat first."""
    fixed, circle = seeds[-1], seeds[:-1]
    size = len(circle)
    shift = ((number - 1) * (len(seeds) // 2 - 1)) % size
    turned = circle[size - shift :] + circle[: size - shift]  # turned right by ``shift``
    head: tuple[PlayerId | None, PlayerId | None] = (
        (turned[0], fixed) if number % 2 else (fixed, turned[0])
    )
    return [head, *((turned[i], turned[size - i]) for i in range(1, len(seeds) // 2))]
