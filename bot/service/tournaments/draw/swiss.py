"""Swiss pairing: players meet others on the same score, never the same opponent twice while
that can be avoided, with colours kept within one of even and byes handed round.

Players are ranked by match points, then seed. The search pairs the best-ranked free player
first, trying partners in order of preference: not met before, no colour clash, the smallest
score difference, and within a score group the partner half a group below (the top half meets
the bottom half). It backtracks, remembering dead ends, so it finds a pairing that meets the
hard rules whenever one exists (within a search budget that small events never reach). The
rules are given up one at a time, colour clashes before rematches, only when no pairing keeps
them. The bye goes to the lowest-ranked player without
one (a higher one only if that lets the rest be paired without breaking a rule).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from bot.service.tournaments.draw.ledger import Record, ledger
from bot.service.tournaments.draw.models import Event, Pairing, PairingError, PlayerId, Round

# Each stage may look at this many partial pairings (over all its bye candidates) before it
# is given up for the next. Small events are searched to the end well within it; in large
# ones a pairing is found at once. The last stage allows every pair, so it never backtracks.
SEARCH_BUDGET = 100_000


class _OutOfBudget(Exception):
    pass


@dataclass(slots=True)
class _Budget:
    left: int


@dataclass(frozen=True, slots=True)
class _Rules:
    rematches: bool  # allowed
    clashes: bool  # allowed


_STAGES = (_Rules(False, False), _Rules(False, True), _Rules(True, False), _Rules(True, True))


def swiss_round(event: Event, number: int) -> Round:
    """The draw of round ``number`` for the players still in.

    Raises ``PairingError`` for fewer than two active players or a round that is not the next.
    """
    if len(event.active) < 2:
        raise PairingError("a Swiss round needs at least two players still in")
    if number != event.rounds_played + 1:
        raise PairingError(f"round {number} is not the next (played: {event.rounds_played})")
    records = ledger(event)
    ranked = sorted(event.active, key=lambda p: -records[p].match_points)  # stable: seeds
    for rules in _STAGES:
        budget = _Budget(SEARCH_BUDGET)
        for bye in _bye_candidates(ranked, records):
            field = [p for p in ranked if p != bye]
            pairs = _Search(field, records, rules, budget).run()
            if pairs is not None:
                return Round(number, _coloured(pairs, records, number), bye)
            if budget.left < 0:
                break
    raise AssertionError("the last stage allows every pairing")  # pragma: no cover


def _bye_candidates(
    ranked: list[PlayerId], records: dict[PlayerId, Record]
) -> Iterator[PlayerId | None]:
    """``None`` for an even field, else the players with the fewest byes, lowest-ranked first."""
    if len(ranked) % 2 == 0:
        yield None
        return
    fewest = min(records[p].byes for p in ranked)
    yield from (p for p in reversed(ranked) if records[p].byes == fewest)


class _Search:
    """A depth-first search for a perfect pairing of ``field`` under ``rules``."""

    def __init__(
        self, field: list[PlayerId], records: dict[PlayerId, Record], rules: _Rules, budget: _Budget
    ):
        self._field = field
        self._rules = rules
        self._budget = budget
        self._dead: set[int] = set()  # sets of free players (as bits) that cannot be paired
        index = {p: i for i, p in enumerate(field)}
        self._met = [sum(1 << index[o] for o in records[p].met if o in index) for p in field]
        balances = [records[p].colour_balance for p in field]
        self._due_second = sum(1 << i for i, b in enumerate(balances) if b > 0)
        self._due_first = sum(1 << i for i, b in enumerate(balances) if b < 0)
        everyone = (1 << len(field)) - 1
        self._allowed = [everyone & ~(1 << i) for i in range(len(field))]  # partners by rules
        for i in range(len(field)):
            if not rules.rematches:
                self._allowed[i] &= ~self._met[i]
            if not rules.clashes:
                self._allowed[i] &= ~self._clashing(i)
        scores = [records[p].match_points for p in field]
        self._group_end = _group_ends(scores)
        self._ideal = _ideal_partners(scores, self._group_end)

    def run(self) -> list[tuple[PlayerId, PlayerId]] | None:
        """The pairs, better-ranked player first, best board first, or ``None`` if there are
        none (or the search ran out of budget)."""
        try:
            found = self._pair((1 << len(self._field)) - 1)  # built from the last board up
        except _OutOfBudget:
            return None
        if found is None:
            return None
        return [(self._field[i], self._field[j]) for i, j in reversed(found)]

    def _pair(self, free: int) -> list[tuple[int, int]] | None:
        if not free:
            return []
        if free in self._dead or not self._colours_can_work(free) or self._stranded(free):
            return None
        self._budget.left -= 1
        if self._budget.left < 0:
            raise _OutOfBudget
        top = (free & -free).bit_length() - 1
        rest = free & ~(1 << top)
        for partner in self._partners(top, rest):
            found = self._pair(rest & ~(1 << partner))
            if found is not None:
                found.append((top, partner))
                return found
        self._dead.add(free)
        return None

    def _colours_can_work(self, free: int) -> bool:
        """Without clashes, each player due a colour needs a partner not due the same one."""
        if self._rules.clashes:
            return True
        second = (free & self._due_second).bit_count()
        first = (free & self._due_first).bit_count()
        neutral = free.bit_count() - second - first
        return second <= first + neutral and first <= second + neutral

    def _stranded(self, free: int) -> bool:
        """Whether a free player has no free partner left under the rules (a dead end found
        early, rather than after pairing everyone above them)."""
        allowed = self._allowed
        rest = free
        while rest:
            low = rest & -rest
            if not allowed[low.bit_length() - 1] & free:
                return True
            rest ^= low
        return False

    def _clashing(self, player: int) -> int:
        """The players due the same colour as ``player`` (as bits), if it is due one."""
        if self._due_second >> player & 1:
            return self._due_second
        return self._due_first if self._due_first >> player & 1 else 0

    def _partners(self, top: int, free: int) -> Iterator[int]:
        """The free players ``top`` may meet, best first: new opponents before rematches,
        no clash before a clash, then by :func:`_preference`."""
        clashing = self._clashing(top)
        met = self._met[top]
        for rematch in (False, True) if self._rules.rematches else (False,):
            for clash in (False, True) if self._rules.clashes else (False,):
                wanted = free & (met if rematch else ~met) & (clashing if clash else ~clashing)
                if wanted:
                    yield from (j for j in self._preference(top) if wanted >> j & 1)

    def _preference(self, top: int) -> Iterator[int]:
        """Everyone below ``top``: its own score group outward from the player half a group
        below, then the lower groups in rank order."""
        end, ideal = self._group_end[top], self._ideal[top]
        for step in range(len(self._field)):
            below, above = ideal - step, ideal + step
            if below <= top and above >= end:
                break
            if above < end:
                yield above
            if top < below < end and step:
                yield below
        yield from range(end, len(self._field))


def _group_ends(scores: list[int]) -> list[int]:
    """For each player (ranked), the index just past their score group."""
    ends = [0] * len(scores)
    end = len(scores)
    for i in range(len(scores) - 1, -1, -1):
        if i + 1 < len(scores) and scores[i + 1] != scores[i]:
            end = i + 1
        ends[i] = end
    return ends


def _ideal_partners(scores: list[int], group_end: list[int]) -> list[int]:
    """For each player, the one half a score group below; in the bottom half, the next one."""
    ideal = []
    start = 0
    for i, end in enumerate(group_end):
        if i and scores[i - 1] != scores[i]:
            start = i
        half = (end - start) // 2
        ideal.append(i + half if i + half < end and i < start + half else i + 1)
    return ideal


def _coloured(
    pairs: list[tuple[PlayerId, PlayerId]], records: dict[PlayerId, Record], number: int
) -> tuple[Pairing, ...]:
    """Each pair with its starting player: the one further behind on starts, else the one who
    did not start last time, else (round one) the better-ranked on every other board."""
    pairings = []
    for board, (high, low) in enumerate(pairs):
        a, b = records[high], records[low]
        if a.colour_balance != b.colour_balance:
            high_starts = a.colour_balance < b.colour_balance
        elif a.last_started is not None and a.last_started != b.last_started:
            high_starts = not a.last_started
        else:
            high_starts = (board + number) % 2 == 1
        pairings.append(Pairing(high, low) if high_starts else Pairing(low, high))
    return tuple(pairings)
