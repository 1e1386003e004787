"""Iterative-deepening negamax alpha-beta with a transposition table and capture quiescence.

Results depend only on the position, the seed and the node budget unless the wall-clock limit
is reached first: the clock is the one source of non-determinism, so tests and the ladder bench
use node budgets.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Final

from bot.jarmo import CAPTURE, Game
from bot.jarmo.board import IN_ENEMY_CAMP, POINT_COUNT
from bot.jarmo.codes import DECODE, PLACE_UNIT

from ._eval import PIECE_VALUES, POINT, Evaluator

# A finished game scores its point margin (rules §5-6: a match adds up the games' points, so
# every point counts, not only the result) plus a bonus for the result itself. The bonus is a
# level's character: a large one plays for the win and ends the game as soon as it is ahead;
# a small one keeps playing for the points a match is decided by.
RESULT_BONUS: Final = 300
INF: Final = 1_000_000
EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2
CLOCK_EVERY: Final = 1024  # nodes between two readings of the clock
# The clock stops the search this long before the time limit: unwinding, the line read back and
# the caller's own work must fit in the limit too, on a busy machine.
TIME_MARGIN: Final = 0.15
TT_MAX: Final = 400_000  # entries; cleared when full (a move's search rarely gets there)
# The hash ignores the ply count, so near the ply guard a stored score may be wrong: stop using
# the table when the end is this close.
TT_PLY_MARGIN: Final = 48
MAX_PLY: Final = 128
CONTEMPT: Final = 50
# Ordering sorts ints: a move's key above its index in the list (fewer than 1024 moves).
_INDEX_BITS: Final = 10
_LAST_INDEX: Final = (1 << _INDEX_BITS) - 1


class _OutOfBudget(Exception):
    """Raised inside the tree when time or nodes run out; the search unwinds to the root."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a search may do: depth, nodes (deterministic) and wall-clock seconds."""

    max_depth: int
    node_limit: int | None
    time_limit: float | None
    noise: int = 0  # easy levels: random spread added to root scores, in hundredths of a point
    result_bonus: int = RESULT_BONUS  # what a won / lost game adds to its point margin
    # Variety: the move is drawn (by the seed) from those scoring within this margin of the
    # best, so that the same moves by a person lead to different games. The most it gives up.
    variety: int = 0


@dataclass(frozen=True, slots=True)
class RootResult:
    """What the search found: the move, its score for the mover, depth completed, nodes."""

    move: int
    score: int
    depth: int
    nodes: int
    pv: tuple[int, ...]


class Searcher:
    """One search from one position; create, call ``run`` once. ``weights`` replaces the
    evaluation's fitted weights (for tests and tuning)."""

    def __init__(
        self, game: Game, budget: Budget, seed: int, weights: tuple[int, ...] | None = None
    ) -> None:
        self.game = game
        self.evaluate = Evaluator(game, weights).evaluate
        # Live views of the game's state, read at every node without a call.
        self.occupancy, self.owners, self.kinds = game.occupancy, game.owners, game.kinds
        self.root_side = game.turn_index
        self.budget = budget
        self.rng = random.Random(seed)
        self.nodes = 0
        self.node_limit = budget.node_limit if budget.node_limit is not None else 1 << 62
        # The table is left alone this close to the ply guard (see TT_PLY_MARGIN).
        self.tt_before_ply = game.max_plies - TT_PLY_MARGIN
        self.deadline = (
            time.perf_counter() + budget.time_limit - min(TIME_MARGIN, budget.time_limit / 10)
            if budget.time_limit is not None
            else None
        )
        self.next_check = min(self.node_limit, CLOCK_EVERY)
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.killers = [[0, 0] for _ in range(MAX_PLY + 2)]
        self.history = [[0] * PLACE_UNIT for _ in range(2)]  # by step, for quiet moves
        self.partial: tuple[int, int] | None = None  # a new best move of an unfinished iteration
        # The last finished iteration's moves with exact scores within reach of the variety
        # margin (a move searched against a raised floor that failed low is not among them).
        self.scored: list[tuple[int, int]] = []
        # Leaves scored by the evaluation rather than by the end of the game. An iteration that
        # adds none has searched every line to its end: its score is exact at any depth.
        self.horizon = 0

    # ------------------------------------------------------------------ root

    def run(self) -> RootResult:
        """Deepen until the budget is spent, a result is proven or the depth cap is reached."""
        moves = self.game.legal_codes()
        self.rng.shuffle(moves)  # the seed breaks ties: the first of equal moves wins
        moves = self._ordered(moves, 0, 0)
        best = RootResult(moves[0], 0, 0, 0, (moves[0],))
        if len(moves) == 1 and not self.budget.noise:
            return best
        scored: list[tuple[int, int]] = []
        interrupted = False
        for depth in range(1, self.budget.max_depth + 1):
            horizon = self.horizon
            try:
                move, score = self._root(moves, depth)
            except _OutOfBudget:
                if self.partial is not None:
                    # A move that beat the previous best in the unfinished iteration is better
                    # informed than that best, even though the iteration did not finish.
                    move, score = self.partial
                    best = RootResult(move, score, best.depth, self.nodes, (move,))
                    interrupted = True
                break
            best = RootResult(move, score, depth, self.nodes, (move,))
            scored = self.scored
            moves.remove(move)
            moves.insert(0, move)
            if self.horizon == horizon:
                break  # every line was played to the end: more depth changes nothing
        if self.budget.variety and not interrupted:
            best = self._varied(best, scored)
        pv = best.pv if interrupted or not best.depth else self._pv(best.move, best.depth)
        return RootResult(best.move, best.score, best.depth, self.nodes, pv)

    def _varied(self, best: RootResult, scored: list[tuple[int, int]]) -> RootResult:
        """A move drawn by the seed from those of the last finished iteration that score within
        the variety margin of the best (the best included)."""
        floor = best.score - self.budget.variety
        near = [(move, score) for move, score in scored if score >= floor]
        if len(near) < 2:
            return best
        move, score = near[self.rng.randrange(len(near))]
        return RootResult(move, score, best.depth, best.nodes, (move,))

    def _root(self, moves: list[int], depth: int) -> tuple[int, int]:
        game = self.game
        noise = self.budget.noise
        # Reset for each iteration here, not in ``run``: there mypy would narrow it to None for
        # the reads after this call, and the compiled code would check that narrowed type.
        self.partial = None
        variety = self.budget.variety
        scored: list[tuple[int, int]] = []
        alpha = -INF
        best_move, best_noisy, best_score = moves[0], -INF, -INF
        for i, move in enumerate(moves):
            horizon = self.horizon
            # A move must beat the best so far to replace it, or come within the
            # variety margin of it to be one of the moves to draw from: the window's floor.
            floor = alpha - variety if alpha > -INF else -INF
            game.push(move)
            try:
                if noise or i == 0:
                    # With noise every root score must be exact, so no window is narrowed.
                    score = -self._negamax(depth - 1, -INF, INF if noise else -floor, 1)
                else:
                    score = -self._negamax(depth - 1, -floor - 1, -floor, 1)
                    if score > floor:
                        score = -self._negamax(depth - 1, -INF, -floor, 1)
            finally:
                game.pop()
            if score > floor:
                scored.append((move, score))
            noisy = score
            if noise and self.horizon != horizon:  # no noise on a game's known outcome
                noisy += self.rng.randint(-noise, noise)
            if noisy > best_noisy:
                best_move, best_noisy, best_score = move, noisy, score
                if i and not noise:
                    self.partial = (move, score)
            alpha = max(alpha, score)
        self.scored = scored
        return best_move, best_score

    def _pv(self, move: int, depth: int) -> tuple[int, ...]:
        """The principal variation read back from the table (for analysis output)."""
        game = self.game
        line = [move]
        game.push(move)
        while len(line) < depth:
            entry = self.tt.get(game.key)
            if entry is None or not entry[3] or entry[3] not in game.legal_codes():
                break
            line.append(entry[3])
            game.push(entry[3])
        for _ in line:
            game.pop()
        return tuple(line)

    # ------------------------------------------------------------------ tree

    def _check_budget(self) -> None:
        """Called when the node count reaches ``next_check``: raises ``_OutOfBudget`` when the
        budget is spent, else sets the next check (the clock is read every ``CLOCK_EVERY``
        nodes)."""
        nodes = self.nodes
        if nodes >= self.node_limit or (
            self.deadline is not None and time.perf_counter() > self.deadline
        ):
            raise _OutOfBudget
        self.next_check = min(self.node_limit, nodes + CLOCK_EVERY)

    def _terminal(self) -> int:
        """Score of a finished game for the side to move: the point margin plus a result bonus."""
        game = self.game
        s = game.turn_index
        mine, theirs = game.counts(s), game.counts(1 - s)
        margin = POINT * (mine[0] + mine[1] - theirs[0] - theirs[1])
        result = margin
        if not result and game.rules.camp_tiebreak:
            result = mine[1] - theirs[1]
        if result == 0:
            # Contempt: the searching side counts a draw as a little worse than an even game,
            # so it keeps playing for a win while it has an about-even alternative.
            return margin - CONTEMPT if s == self.root_side else margin + CONTEMPT
        return margin + (self.budget.result_bonus if result > 0 else -self.budget.result_bonus)

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        nodes = self.nodes = self.nodes + 1
        if nodes >= self.next_check:
            self._check_budget()
        game = self.game
        if game.stopped:
            return self._terminal()
        if depth <= 0 or ply >= MAX_PLY:
            return self._quiesce(alpha, beta, ply)
        use_tt = game.ply < self.tt_before_ply
        tt_move = 0
        key = game.key
        if use_tt:
            entry = self.tt.get(key)
            if entry is not None:
                e_depth, flag, e_score, tt_move = entry
                # A negative depth marks a subtree searched to the end of every line.
                if (e_depth < 0 or e_depth >= depth) and (
                    flag == EXACT
                    or (flag == LOWER and e_score >= beta)
                    or (flag == UPPER and e_score <= alpha)
                ):
                    if e_depth >= 0:
                        self.horizon += 1
                    return e_score
        horizon = self.horizon
        moves = game.legal_codes()
        if not moves:
            return self._terminal()  # end rule 4: no legal action
        moves = self._ordered(moves, tt_move, ply)
        alpha_in = alpha
        best, best_move = -INF, moves[0]
        push, pop, negamax = game.push, game.pop, self._negamax
        for i, move in enumerate(moves):
            quiet = not move & CAPTURE
            push(move)
            try:
                if i == 0:
                    score = -negamax(depth - 1, -beta, -alpha, ply + 1)
                else:
                    # Late quiet moves are searched one ply shallower first (LMR).
                    reduce = 1 if depth >= 3 and i >= 4 and quiet else 0
                    score = -negamax(depth - 1 - reduce, -alpha - 1, -alpha, ply + 1)
                    if score > alpha and reduce:
                        score = -negamax(depth - 1, -alpha - 1, -alpha, ply + 1)
                    if alpha < score < beta:
                        score = -negamax(depth - 1, -beta, -alpha, ply + 1)
            finally:
                pop()
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if quiet:
                            self._reward(move, depth, ply)
                        break
        if use_tt:
            flag = UPPER if best <= alpha_in else LOWER if best >= beta else EXACT
            if len(self.tt) >= TT_MAX:
                self.tt.clear()
            self.tt[key] = (depth if self.horizon != horizon else -1, flag, best, best_move)
        return best

    def _quiesce(self, alpha: int, beta: int, ply: int) -> int:
        """Captures (and game-ending entries) only, so that the horizon is not mid-exchange."""
        nodes = self.nodes = self.nodes + 1
        if nodes >= self.next_check:
            self._check_budget()
        game = self.game
        if game.stopped:
            return self._terminal()
        self.horizon += 1
        stand = self.evaluate()
        if stand >= beta or ply >= MAX_PLY:
            return stand
        if stand > alpha:
            alpha = stand
        best = stand
        side = self.root_side ^ ply & 1
        runners = self.occupancy[side] & _RUNNER_POINTS[side]
        # With one runner left, its entry into the camp ends the game: tactical too.
        moves = game.capture_codes() if runners & runners - 1 else _last_runner_tactics(game, side)
        if len(moves) > 1:
            owners, kinds = self.owners, self.kinds
            moves.sort(
                key=lambda m: PIECE_VALUES[owners[t := DECODE[m][1]]][kinds[t]][t], reverse=True
            )
        push, pop, quiesce = game.push, game.pop, self._quiesce
        for move in moves:
            push(move)
            try:
                score = -quiesce(-beta, -alpha, ply + 1)
            finally:
                pop()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    # ------------------------------------------------------------------ ordering

    def _ordered(self, moves: list[int], tt_move: int, ply: int) -> list[int]:
        """The moves, best first: the table's move, captures of the most valuable pieces by
        the least valuable, killers, entries into the enemy camp, then by history."""
        side = self.root_side ^ ply & 1  # every action is one turn
        owners, kinds = self.owners, self.kinds
        killer, second_killer = self.killers[ply]
        history = self.history[side]
        camp_bonus = _CAMP_BONUS[side]
        values = PIECE_VALUES
        keyed = []
        for i, move in enumerate(moves):
            if move == tt_move:
                key = 1 << 40
            elif move & CAPTURE:
                origin, target, _ = DECODE[move]
                key = (
                    (1 << 30)
                    + 100 * values[owners[target]][kinds[target]][target]
                    - values[side + 1][kinds[origin]][origin] // 10
                )
            elif move == killer:
                key = 1 << 29
            elif move == second_killer:
                key = (1 << 29) - 1
            else:
                key = history[move % PLACE_UNIT] + camp_bonus[move]
            keyed.append(key << _INDEX_BITS | _LAST_INDEX - i)
        keyed.sort(reverse=True)  # equal keys keep their order, as the index breaks the tie
        return [moves[_LAST_INDEX - (packed & _LAST_INDEX)] for packed in keyed]

    def _reward(self, move: int, depth: int, ply: int) -> None:
        killers = self.killers[ply]
        if killers[0] != move:
            killers[1], killers[0] = killers[0], move
        table = self.history[self.root_side ^ ply & 1]
        key = move % PLACE_UNIT
        table[key] = min(table[key] + depth * depth, 1 << 19)


#: Per side and quiet code, what ordering adds for a step into the enemy camp: cashing in the
#: camp point is usually worth a look early.
_CAMP_BONUS: Final = tuple(
    tuple(
        1 << 20 if DECODE[code][0] >= 0 and IN_ENEMY_CAMP[side][DECODE[code][1]] else 0
        for code in range(CAPTURE)
    )
    for side in (0, 1)
)
#: Per side, the points outside the camp it attacks: where its pieces still run.
_RUNNER_POINTS: Final = tuple(
    sum(1 << p for p in range(POINT_COUNT) if not IN_ENEMY_CAMP[side][p]) for side in (0, 1)
)


def _last_runner_tactics(game: Game, side: int) -> list[int]:
    """The tactical moves when ``side`` has one piece left outside the enemy camp: captures
    (without a ludos place), and that piece's step into the camp, which ends the game. The
    engine's legal moves, so the no-shuffling rule holds."""
    camp = IN_ENEMY_CAMP[side]
    return [
        m
        for m in game.legal_codes()
        if CAPTURE <= m < CAPTURE + PLACE_UNIT or (m < PLACE_UNIT and camp[DECODE[m][1]])
    ]
