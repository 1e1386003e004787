"""The game: position, legal actions, making and unmaking them, end conditions and the score.

Inside, points and actions are small integers (``board``, ``codes``) and the state is flat lists
indexed by point with incremental counters and a Zobrist key, so that a search can walk a tree
with ``push``/``pop`` and a random playout costs a few microseconds a ply. Text and value objects
(``Action``, ``Position``, ``Outcome``) are made only at the edge.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Final

from .board import (
    ARCHER,
    EMPTY,
    GUARD,
    IN_ENEMY_CAMP,
    MARKED,
    NOT_A_STEP,
    POINT_COUNT,
    POINT_INDEX,
    POINT_NAMES,
    SIDE_INDEX,
    SIDE_NAMES,
    Point,
    camp_points,
    enemy_camp_points,
    shuffle_forbidden,
)
from .codes import (
    CAPTURE,
    CODE_MASK,
    CODE_OF_TEXT,
    DECODE,
    NO_POINT,
    NOTATION,
    PLACE_UNIT,
    ActionCode,
)
from .keys import CAPTURED_KEYS, PIECE_KEYS, RESERVE_KEYS, SIDE_KEY, STEP_KEYS
from .layouts import DEFAULT_LAYOUT, Layout, get_layout
from .notation import Action, parse_code
from .position import LastAction, Outcome, Piece, PieceKind, Position, Side, Termination
from .refusals import explain_refusal
from .rulesets import DEFAULT_RULESET, Ruleset, get_ruleset
from .steps import (
    CAMP_MASKS,
    ENEMY_SHIFT,
    FREE_PLACES,
    LOW_BITS,
    LOW_MASK,
    STEP_BITS,
    Slot,
    side_steps,
)

PIECES_PER_SIDE: Final = 5
DEFAULT_MAX_PLIES: Final = 200
FORMAT_VERSION: Final = 1

KIND_NAMES: Final[tuple[PieceKind, PieceKind, PieceKind]] = ("archer", "marked", "guard")
KIND_INDEX: Final = {name: i for i, name in enumerate(KIND_NAMES)}
CAMPS: Final = (camp_points(0), camp_points(1))
ENEMY_CAMPS: Final = (enemy_camp_points(0), enemy_camp_points(1))

# What ``pop`` needs to take an action back: the code, the mover's kind before it, the victim's
# kind (or -1), whether a piece was recovered, the point unmarked by a redeploy (or -1), and
# the key before it. (Only a running game can be pushed, so the ending before was none.) A
# step to an empty point, the common case, keeps only the key before it: nothing else changed
# that the action itself does not tell.
_Undo = tuple[int, int, int, bool, int, int]


def _shuffled(recent: list[int]) -> bool:
    """True when a side's last four actions are X, back, X, back (one ludos repetition)."""
    return len(recent) >= 4 and recent[-1] == recent[-3] and shuffle_forbidden(recent) >= 0


class Game:
    """A game of Jarmo under one ruleset and layout. Create it with ``Game.new``.

    Two levels of API: text and value objects for players and storage (``legal_moves``,
    ``play``, ``position``, ``to_dict``), and integer codes for a search (``legal_codes``,
    ``push``, ``pop``, ``key``), which skip parsing and checking.
    """

    __slots__ = (
        "_captured",
        "_guards",
        "_history",
        "_in_camp",
        "_key",
        "_kind",
        "_layout",
        "_legal",
        "_marked_in_camp",
        "_max_plies",
        "_no_shuffling",
        "_occupied",
        "_on_board",
        "_owner",
        "_recent",
        "_repetition_ends",
        "_reserve",
        "_rules",
        "_side",
        "_steps",
        "_stop",
        "_undo",
    )

    def __init__(self, rules: Ruleset, layout: Layout, max_plies: int) -> None:
        if max_plies < 1:
            raise ValueError("max_plies must be at least 1")
        self._rules = rules
        self._guards = rules.guards
        self._no_shuffling = rules.no_shuffling
        self._repetition_ends = rules.repetition_ends
        self._layout = layout
        self._max_plies = max_plies
        self._steps = side_steps(layout, rules.no_backwards)
        self._owner = [EMPTY] * POINT_COUNT  # side + 1 of the piece on each point
        self._kind = [ARCHER] * POINT_COUNT  # meaningful only where a piece stands
        self._occupied = [0, 0]  # each side's points as a bit mask
        self._captured = [0, 0]
        self._reserve = [0, 0]
        self._on_board = [0, 0]
        self._in_camp = [0, 0]  # pieces standing in the camp they attack
        self._marked_in_camp = [0, 0]  # classic/jasir: the redeploy right
        # Each side's actions, oldest first: step codes, or NOT_A_STEP for anything else. Only
        # the last four count (no shuffling, repetition); the rest lets ``pop`` go back.
        self._recent: list[list[int]] = [[], []]
        self._history: list[ActionCode] = []
        self._undo: list[_Undo | int] = []
        self._side = 0  # index of the side to move; White moves first
        self._stop: Termination | None = None  # end rules 1-3, decided when an action is made
        # The legal actions, kept once the game itself needs them (``over``, ``play``); never
        # handed out (callers get copies). A search's ``legal_codes`` leaves it alone.
        self._legal: list[ActionCode] | None = None
        self._key = 0

    # ----------------------------------------------------------------- construction

    @classmethod
    def new(
        cls,
        ruleset: str = DEFAULT_RULESET,
        layout: str = DEFAULT_LAYOUT,
        max_plies: int = DEFAULT_MAX_PLIES,
    ) -> Game:
        """A game in the start position. ``ValueError`` for an unknown ruleset or layout."""
        return _start(get_ruleset(ruleset), get_layout(layout), max_plies).copy()

    @classmethod
    def setup(
        cls,
        pieces: str,
        *,
        ruleset: str = DEFAULT_RULESET,
        layout: str = DEFAULT_LAYOUT,
        turn: Side = "white",
        reserve: dict[Side, int] | None = None,
        max_plies: int = DEFAULT_MAX_PLIES,
    ) -> Game:
        """A game in an arbitrary position, for tests, puzzles and analysis.

        ``pieces`` lists ``point:piece`` tokens, the piece being ``w`` or ``b`` optionally followed
        by ``m`` (marked) or ``g`` (guard): ``"A1:w C2:wm D5:b E3:bg"``. Pieces of a side that are
        neither on the board nor in ``reserve`` count as captured. ``ValueError`` if malformed.
        """
        kinds = {"": "archer", "m": "marked", "g": "guard"}
        placed = []
        for token in pieces.split():
            point, _, code = token.partition(":")
            if code[:1] not in ("w", "b") or code[1:] not in kinds:
                raise ValueError(f"bad piece {token!r}; expected e.g. A1:w, C2:wm or E3:bg")
            placed.append([point.upper(), "white" if code[0] == "w" else "black", kinds[code[1:]]])
        reserve = reserve or {"white": 0, "black": 0}
        reserve = {"white": reserve.get("white", 0), "black": reserve.get("black", 0)}
        on_board = {side: sum(1 for p in placed if p[1] == side) for side in SIDE_NAMES}
        return cls.from_dict(
            {
                "format": FORMAT_VERSION,
                "ruleset": ruleset,
                "layout": layout,
                "max_plies": max_plies,
                "turn": turn,
                "pieces": placed,
                "reserve": reserve,
                "captured": {s: PIECES_PER_SIDE - on_board[s] - reserve[s] for s in SIDE_NAMES},
                "recent": {"white": [], "black": []},
                "history": [],
            }
        )

    def copy(self) -> Game:
        """An independent copy, ``pop`` included (for previews; a search uses ``push``/``pop``)."""
        twin = Game(self._rules, self._layout, self._max_plies)
        twin._stop, twin._key, twin._legal = self._stop, self._key, self._legal
        twin._owner, twin._kind = self._owner[:], self._kind[:]
        twin._recent = [self._recent[0][:], self._recent[1][:]]
        twin._captured, twin._reserve = self._captured[:], self._reserve[:]
        twin._on_board, twin._in_camp = self._on_board[:], self._in_camp[:]
        twin._marked_in_camp, twin._occupied = self._marked_in_camp[:], self._occupied[:]
        twin._history, twin._undo, twin._side = self._history[:], self._undo[:], self._side
        return twin

    # ----------------------------------------------------------------- reading

    @property
    def ruleset(self) -> str:
        """The ruleset's name."""
        return self._rules.name

    @property
    def rules(self) -> Ruleset:
        """The ruleset's switches."""
        return self._rules

    @property
    def layout(self) -> Layout:
        """The layout the game is played on."""
        return self._layout

    @property
    def max_plies(self) -> int:
        """The ply guard: the game ends after this many actions."""
        return self._max_plies

    @property
    def ply(self) -> int:
        """How many actions have been played."""
        return len(self._history)

    @property
    def turn(self) -> Side:
        """The side to move (White moves first; every action is one turn)."""
        return SIDE_NAMES[self._side]

    @property
    def turn_index(self) -> int:
        """The side to move as an index: 0 White, 1 Black."""
        return self._side

    @property
    def history(self) -> list[str]:
        """The canonical text of the actions played so far (a new list)."""
        return [NOTATION[code] for code in self._history]

    @property
    def key(self) -> int:
        """A 64-bit key of the position (see ``keys``): equal positions have equal keys."""
        return self._key

    @property
    def over(self) -> bool:
        """True when the game has ended by any of the end rules."""
        return self._stop is not None or not self._legal_list()

    @property
    def stopped(self) -> bool:
        """True when end rules 1-3 ended the game (rule 4, no legal action, is ``over``)."""
        return self._stop is not None

    def points(self) -> dict[Side, int]:
        """Rules §5: 2 per own piece in the enemy camp, 1 per other own piece on the board."""
        return {
            "white": self._on_board[0] + self._in_camp[0],
            "black": self._on_board[1] + self._in_camp[1],
        }

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it runs."""
        termination = self._stop
        if termination is None:
            if self._legal_list():
                return None
            termination = Termination.NO_MOVES
        return Outcome(termination, self.points(), self.leader())

    def leader(self) -> Side | None:
        """The side that wins if the game ends as it stands (rules §5); ``None`` when level.

        Used for finished games and for games ended early by agreement or resignation scoring.
        """
        points = self.points()
        if points["white"] != points["black"]:
            return "white" if points["white"] > points["black"] else "black"
        if self._rules.camp_tiebreak and self._in_camp[0] != self._in_camp[1]:
            return "white" if self._in_camp[0] > self._in_camp[1] else "black"
        return None

    def winner(self) -> Side | None:
        """The winning side; ``None`` while running or after a draw."""
        outcome = self.outcome()
        return outcome.winner if outcome else None

    def captured(self, side: Side) -> int:
        """How many of ``side``'s pieces the opponent has taken (and not yet given back)."""
        return self._captured[SIDE_INDEX[side]]

    def reserve(self, side: Side) -> int:
        """ludos: how many recovered pieces ``side`` may place."""
        return self._reserve[SIDE_INDEX[side]]

    def piece_at(self, point: str) -> Piece | None:
        """The piece on a canonical point name, or ``None``."""
        p = POINT_INDEX[point]
        owner = self._owner[p]
        return (
            None
            if owner == EMPTY
            else Piece(point, SIDE_NAMES[owner - 1], KIND_NAMES[self._kind[p]])
        )

    # ----------------------------------------------------------------- integer-level reading

    @property
    def owners(self) -> Sequence[int]:
        """Per point, 0 when empty, else the side index + 1 of its piece (a live view)."""
        return self._owner

    @property
    def kinds(self) -> Sequence[int]:
        """Per point, the kind of its piece: ``board.ARCHER``/``MARKED``/``GUARD`` (a live view;
        meaningless on an empty point)."""
        return self._kind

    def occupied(self, side: int) -> int:
        """The points of side ``side``'s pieces as a bit mask (bit ``p`` for point ``p``)."""
        return self._occupied[side]

    @property
    def occupancy(self) -> Sequence[int]:
        """``occupied`` of White and Black (a live view, for a search reading it at every
        node)."""
        return self._occupied

    @property
    def captured_counts(self) -> Sequence[int]:
        """How many pieces White and Black have lost and not yet got back (a live view)."""
        return self._captured

    @property
    def reserve_counts(self) -> Sequence[int]:
        """ludos: how many recovered pieces White and Black may place (a live view)."""
        return self._reserve

    def counts(self, side: int) -> tuple[int, int, int, int]:
        """Side ``side``'s pieces on the board, in the enemy camp, captured and in reserve."""
        return (
            self._on_board[side],
            self._in_camp[side],
            self._captured[side],
            self._reserve[side],
        )

    def targets(self, side: int) -> tuple[tuple[Point, ...], ...]:
        """Per point, where a piece of side ``side`` could step by the lines and the ruleset's
        direction, whatever stands there (none from the enemy camp)."""
        return self._steps[side].targets

    def would_shuffle(self, origin: Point, target: Point) -> bool:
        """True when the no-shuffling rule forbids the side to move the step ``origin-target``."""
        return self._no_shuffling and shuffle_forbidden(self._recent[self._side]) == (
            origin * POINT_COUNT + target
        )

    def can_redeploy(self) -> bool:
        """classic/jasir: the side to move has a captured piece and a marked piece in the enemy
        camp (whether its camp has room is ``free_camp_points``)."""
        side = self._side
        return not self._guards and bool(self._captured[side] and self._marked_in_camp[side])

    def free_camp_points(self) -> list[Point]:
        """The empty points of the side to move's own camp, left to right."""
        owner = self._owner
        return [r for r in CAMPS[self._side] if owner[r] == EMPTY]

    # ----------------------------------------------------------------- legal actions

    def legal_moves(self) -> list[str]:
        """Every legal action for the side to move, canonical, ordered by origin then target;
        redeploys / places come last. Empty when the game is over."""
        return [NOTATION[code] for code in self._legal_list()]

    def legal_actions(self) -> list[Action]:
        """``legal_moves`` as ``Action`` values."""
        return [Action.from_code(code) for code in self._legal_list()]

    def _legal_list(self) -> list[ActionCode]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self.legal_codes()
        return legal

    def legal_codes(self) -> list[ActionCode]:
        """``legal_moves`` as integer codes, with the ``CAPTURE`` bit on captures (a new list)."""
        legal = self._legal
        if legal is not None:
            return legal[:]
        if self._stop is not None:
            return []
        side = self._side
        occupied = self._occupied
        own = occupied[side]
        board = own | occupied[1 - side] << ENEMY_SHIFT
        steps = self._steps[side]
        slots = steps.low[own & LOW_MASK] + steps.high[own >> LOW_BITS]
        moves: list[ActionCode] = []
        for mask, memo, _, origin in slots:
            try:
                moves += memo[board & mask]
            except KeyError:
                moves += steps.fill_steps(origin, board & mask)
        if self._no_shuffling:
            recent = self._recent[side]
            if len(recent) >= 4 and recent[-1] == recent[-3]:
                forbidden = shuffle_forbidden(recent)
                for code in (forbidden, forbidden | CAPTURE):
                    if code in moves:
                        moves.remove(code)
        if self._guards:
            if self._captured[side] or self._reserve[side]:
                moves += self._ludos_places(side, board, slots)
        elif self._captured[side] and self._marked_in_camp[side]:
            moves += FREE_PLACES[side][(own | occupied[1 - side]) & CAMP_MASKS[side]]
        return moves

    def _ludos_places(self, side: int, board: int, slots: tuple[Slot, ...]) -> list[ActionCode]:
        """ludos: places from the reserve, then a guard's steps into the enemy camp with the
        place of the piece it recovers (``slots`` are the side's, their steps looked up)."""
        free = FREE_PLACES[side][(board | board >> ENEMY_SHIFT) & CAMP_MASKS[side]]
        out = list(free) if self._reserve[side] else []
        if self._captured[side] and free:
            kind, in_camp = self._kind, IN_ENEMY_CAMP[side]
            for mask, steps, _, origin in slots:
                if kind[origin] == GUARD:
                    out += [
                        step + place
                        for step in steps[board & mask]
                        if in_camp[DECODE[step][1]]
                        for place in free
                    ]
        return out

    def capture_codes(self) -> list[ActionCode]:
        """The legal captures: ``legal_codes`` that step onto an enemy piece, without a ludos
        place, in the same order (a new list). A search's quiescence asks for these alone."""
        if self._stop is not None:
            return []
        side = self._side
        occupied = self._occupied
        own, enemy = occupied[side], occupied[1 - side]
        steps = self._steps[side]
        low, high = own & LOW_MASK, own >> LOW_BITS
        if not (steps.low_reach[low] | steps.high_reach[high]) & enemy:
            return []
        moves: list[ActionCode] = []
        for mask, _, memo, origin in steps.low[low] + steps.high[high]:
            key = enemy & mask
            if key:
                try:
                    moves += memo[key]
                except KeyError:
                    moves += steps.fill_captures(origin, key)
        if moves and self._no_shuffling:
            recent = self._recent[side]
            if len(recent) >= 4 and recent[-1] == recent[-3]:
                forbidden = shuffle_forbidden(recent) | CAPTURE
                if forbidden in moves:
                    moves.remove(forbidden)
        return moves

    def notation(self, action: Action) -> str:
        """The canonical text of ``action`` here: ``x`` for a step onto an occupied point."""
        code = action.code
        if action.target is not None and self._owner[action.target] != EMPTY:
            code |= CAPTURE
        return NOTATION[code]

    # ----------------------------------------------------------------- playing

    def play(self, action: str | Action) -> str:
        """Play an action, given in any accepted notation or as an ``Action``, and return its
        canonical text.

        Raises ``NotationError`` for unreadable text and ``IllegalMove`` (with its ``Problem``)
        for an action the rules forbid here; either way the game is left untouched.
        """
        if isinstance(action, str):
            code = CODE_OF_TEXT.get(action)  # canonical text, as from legal_moves()
            if code is None:
                code = parse_code(action)
        else:
            code = action.code
        legal = self._legal
        if legal is None:
            legal = self._legal = self.legal_codes()
        # The generator is the single source of truth; a refusal is only explained.
        if code not in legal:
            code ^= CAPTURE  # the capture mark was missing, or written where nothing is taken
            if code not in legal:
                explain_refusal(self, Action.from_code(code & CODE_MASK), str(action))
        self.push(code)
        return NOTATION[code]

    def push(self, code: ActionCode) -> None:
        """Make the action ``code``, which must be one of ``legal_codes()`` (a capture with its
        ``CAPTURE`` bit): nothing is checked (the search's fast path). ``pop`` takes it back."""
        if code >= PLACE_UNIT:  # a capture (it carries the bit) or a place / redeploy
            self._push_any(code)
            return
        # A step to an empty point, the common case, kept short.
        origin, target, _ = DECODE[code]
        side = self._side
        kind = self._kind
        mover = kind[origin]
        enters_camp = IN_ENEMY_CAMP[side][target]
        if enters_camp:
            if mover == GUARD:
                self._push_any(code)  # the guard becomes an archer and may recover a piece
                return
            self._in_camp[side] += 1
            if mover == MARKED:
                self._marked_in_camp[side] += 1
        owner = self._owner
        owner[origin] = EMPTY
        owner[target] = side + 1
        kind[target] = mover
        self._occupied[side] ^= STEP_BITS[code]
        key = self._key
        self._key = key ^ STEP_KEYS[side][mover][code]
        self._undo.append(key)
        recent = self._recent[side]
        recent.append(code)
        self._side = 1 - side
        self._legal = None
        history = self._history
        history.append(code)
        if (
            enters_camp
            or len(history) >= self._max_plies
            or (self._repetition_ends and len(recent) >= 4 and recent[-3] == code)
        ):
            self._stop = self._ending()

    def _push_any(self, code: ActionCode) -> None:
        """``push`` for every action: captures, places, a guard entering the enemy camp."""
        side = self._side
        other = 1 - side
        me = side + 1
        owner, kind = self._owner, self._kind
        mine_keys = PIECE_KEYS[side]
        occupied = self._occupied
        old_key = key = self._key
        origin, target, place = DECODE[code]
        before = victim = unmarked = NO_POINT
        recovered = False
        if origin >= 0:
            in_camp = IN_ENEMY_CAMP[side]
            mover = before = kind[origin]
            owner[origin] = EMPTY
            key ^= mine_keys[mover][origin]
            if owner[target]:  # a capture: the other side loses the piece on the target
                victim = kind[target]
                occupied[other] ^= 1 << target
                self._on_board[other] -= 1
                if IN_ENEMY_CAMP[other][target]:
                    self._in_camp[other] -= 1
                    if victim == MARKED:
                        self._marked_in_camp[other] -= 1
                lost = self._captured[other]
                self._captured[other] = lost + 1
                key ^= (
                    PIECE_KEYS[other][victim][target]
                    ^ CAPTURED_KEYS[other][lost]
                    ^ CAPTURED_KEYS[other][lost + 1]
                )
                if not self._guards:
                    mover = MARKED
                elif not in_camp[target]:
                    mover = GUARD  # capturing a piece outside its own camp promotes
            if in_camp[target]:
                self._in_camp[side] += 1
                if mover == MARKED:
                    self._marked_in_camp[side] += 1
                elif mover == GUARD:
                    mover = ARCHER
                    if self._captured[side]:  # the guard recovers a captured piece
                        recovered = True
                        key ^= self._recover(side)
            occupied[side] ^= 1 << origin | 1 << target
            owner[target] = me
            kind[target] = mover
            key ^= mine_keys[mover][target]
            if place < 0:
                self._recent[side].append(code & CODE_MASK)
            else:
                key ^= self._take_from_reserve(side)
        elif self._guards:
            key ^= self._take_from_reserve(side)
        else:
            unmarked, change = self._redeploy(side)
            key ^= change
        if place >= 0:
            owner[place] = me
            kind[place] = ARCHER
            occupied[side] |= 1 << place
            self._on_board[side] += 1
            key ^= mine_keys[ARCHER][place]
            self._recent[side].append(NOT_A_STEP)
        self._undo.append((code, before, victim, recovered, unmarked, old_key))
        self._history.append(code)
        self._side = other
        self._key = key ^ SIDE_KEY
        self._legal = None
        self._stop = self._ending()

    def _recover(self, side: int) -> int:
        """ludos: a captured piece of ``side`` goes to its reserve; returns the key change."""
        n, m = self._captured[side], self._reserve[side]
        self._captured[side], self._reserve[side] = n - 1, m + 1
        return (
            CAPTURED_KEYS[side][n]
            ^ CAPTURED_KEYS[side][n - 1]
            ^ RESERVE_KEYS[side][m]
            ^ RESERVE_KEYS[side][m + 1]
        )

    def _take_from_reserve(self, side: int) -> int:
        """ludos: a piece leaves the reserve to be placed; returns the key change."""
        m = self._reserve[side]
        self._reserve[side] = m - 1
        return RESERVE_KEYS[side][m] ^ RESERVE_KEYS[side][m - 1]

    def _redeploy(self, side: int) -> tuple[Point, int]:
        """classic/jasir: a captured piece comes back and the leftmost marked piece in the enemy
        camp loses its mark (Decision, rules §3.2). Returns that point and the key change."""
        n = self._captured[side]
        self._captured[side] = n - 1
        change = CAPTURED_KEYS[side][n] ^ CAPTURED_KEYS[side][n - 1]
        owner, kind, me = self._owner, self._kind, side + 1
        for m in ENEMY_CAMPS[side]:
            if owner[m] == me and kind[m] == MARKED:
                kind[m] = ARCHER
                self._marked_in_camp[side] -= 1
                return m, change ^ PIECE_KEYS[side][MARKED][m] ^ PIECE_KEYS[side][ARCHER][m]
        return NO_POINT, change

    def pop(self) -> ActionCode:
        """Take back the last ``push`` or ``play`` and return its code; the position, key and
        history are exactly as before. ``IndexError`` if nothing made here is left to take back
        (a game rebuilt by ``from_dict`` starts with nothing to take back)."""
        undo = self._undo
        if not undo:
            raise IndexError("no action to take back")
        record = undo.pop()
        code = self._history.pop()
        other = self._side
        side = self._side = 1 - other
        self._stop = self._legal = None  # only a running game can be pushed
        self._recent[side].pop()
        owner, kind = self._owner, self._kind
        if isinstance(record, int):  # a step to an empty point
            origin, target, _ = DECODE[code]
            mover = kind[origin] = kind[target]
            owner[target] = EMPTY
            owner[origin] = side + 1
            self._occupied[side] ^= STEP_BITS[code]
            if IN_ENEMY_CAMP[side][target]:
                self._in_camp[side] -= 1
                if mover == MARKED:
                    self._marked_in_camp[side] -= 1
            self._key = record
            return code
        code, before, victim, recovered, unmarked, self._key = record
        origin, target, place = DECODE[code]
        if place >= 0:
            owner[place] = EMPTY
            self._occupied[side] ^= 1 << place
            self._on_board[side] -= 1
            if origin >= 0 or self._guards:
                self._reserve[side] += 1
            else:
                self._captured[side] += 1
                if unmarked >= 0:
                    kind[unmarked] = MARKED
                    self._marked_in_camp[side] += 1
        if origin >= 0:
            self._occupied[side] ^= 1 << origin | 1 << target
            if IN_ENEMY_CAMP[side][target]:
                self._in_camp[side] -= 1
                if kind[target] == MARKED:
                    self._marked_in_camp[side] -= 1
            if recovered:
                self._reserve[side] -= 1
                self._captured[side] += 1
            owner[origin] = side + 1
            kind[origin] = before
            if victim >= 0:  # the captured piece comes back
                owner[target] = other + 1
                kind[target] = victim
                self._occupied[other] |= 1 << target
                self._on_board[other] += 1
                self._captured[other] -= 1
                if IN_ENEMY_CAMP[other][target]:
                    self._in_camp[other] += 1
                    self._marked_in_camp[other] += victim == MARKED
            else:
                owner[target] = EMPTY
        return code

    def _ending(self) -> Termination | None:
        """End rules 1-3 (rules §4), as ``push`` decides them; rule 4 (no legal action) is
        derived when asked."""
        in_camp, on_board = self._in_camp, self._on_board
        if in_camp[0] == on_board[0] or in_camp[1] == on_board[1]:
            return Termination.CAMP
        if self._repetition_ends and _shuffled(self._recent[0]) and _shuffled(self._recent[1]):
            return Termination.REPETITION
        if len(self._history) >= self._max_plies:
            return Termination.PLY_LIMIT
        return None

    # ----------------------------------------------------------------- set-up helpers

    def _put(self, p: Point, side: int, kind: int) -> None:
        self._owner[p] = side + 1
        self._kind[p] = kind
        self._occupied[side] |= 1 << p
        self._on_board[side] += 1
        if IN_ENEMY_CAMP[side][p]:
            self._in_camp[side] += 1
            self._marked_in_camp[side] += kind == MARKED

    def _fresh_key(self) -> int:
        """The key computed from scratch (``push``/``pop`` keep it up to date incrementally)."""
        key = SIDE_KEY if self._side else 0
        for p in range(POINT_COUNT):
            if self._owner[p]:
                key ^= PIECE_KEYS[self._owner[p] - 1][self._kind[p]][p]
        for side in (0, 1):
            key ^= CAPTURED_KEYS[side][self._captured[side]]
            key ^= RESERVE_KEYS[side][self._reserve[side]]
        return key

    # ----------------------------------------------------------------- views

    def position(self) -> Position:
        """A read-only snapshot of the position (for renderers)."""
        owner, kind = self._owner, self._kind
        pieces = tuple(
            Piece(POINT_NAMES[p], SIDE_NAMES[owner[p] - 1], KIND_NAMES[kind[p]])
            for p in range(POINT_COUNT)
            if owner[p] != EMPTY
        )
        return Position(
            ruleset=self._rules.name,
            layout=self._layout.name,
            lines=self._layout.lines,
            turn=self.turn,
            ply=self.ply,
            pieces=pieces,
            captured={"white": self._captured[0], "black": self._captured[1]},
            reserve={"white": self._reserve[0], "black": self._reserve[1]},
            points=self.points(),
            last=_last_action(self._history[-1]) if self._history else None,
            outcome=self.outcome(),
        )

    def positions(self) -> list[Position]:
        """Every position from the start to now; index ``i`` is the position after ``i`` plies."""
        fresh = Game.new(self._rules.name, self._layout.name, self._max_plies)
        frames = [fresh.position()]
        for code in self._history:
            fresh.push(code)
            frames.append(fresh.position())
        return frames

    # ----------------------------------------------------------------- serialisation

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable snapshot; ``Game.from_dict`` rebuilds an identical game."""
        owner, kind = self._owner, self._kind
        return {
            "format": FORMAT_VERSION,
            "ruleset": self._rules.name,
            "layout": self._layout.name,
            "max_plies": self._max_plies,
            "turn": SIDE_NAMES[self._side],
            "pieces": [
                [POINT_NAMES[p], SIDE_NAMES[owner[p] - 1], KIND_NAMES[kind[p]]]
                for p in range(POINT_COUNT)
                if owner[p] != EMPTY
            ],
            "captured": {"white": self._captured[0], "black": self._captured[1]},
            "reserve": {"white": self._reserve[0], "black": self._reserve[1]},
            "recent": {
                name: [_recent_text(c) for c in self._recent[i][-4:]]
                for i, name in enumerate(SIDE_NAMES)
            },
            "history": self.history,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Rebuild a game from ``to_dict`` output; ``ValueError`` if malformed or inconsistent."""
        try:
            if data["format"] != FORMAT_VERSION:
                raise ValueError(f"unsupported game format {data['format']!r}")
            game = cls(
                get_ruleset(data["ruleset"]), get_layout(data["layout"]), int(data["max_plies"])
            )
            for point, side, kind in data["pieces"]:
                p = POINT_INDEX[point]
                if game._owner[p] != EMPTY:
                    raise ValueError(f"two pieces on {point}")
                game._put(p, SIDE_INDEX[side], KIND_INDEX[kind])
            for i, name in enumerate(SIDE_NAMES):
                game._captured[i] = int(data["captured"][name])
                game._reserve[i] = int(data["reserve"][name])
                game._recent[i] = [_recent_code(t) for t in data["recent"][name]][-4:]
                total = game._on_board[i] + game._captured[i] + game._reserve[i]
                if total != PIECES_PER_SIDE or game._captured[i] < 0 or game._reserve[i] < 0:
                    raise ValueError(f"{name} has {total} pieces, not {PIECES_PER_SIDE}")
            game._history = [CODE_OF_TEXT[str(a)] for a in data["history"]]
            game._side = SIDE_INDEX[data["turn"]]
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"malformed game data: {exc!r}") from exc
        game._key = game._fresh_key()
        game._stop = game._ending()
        return game

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return (
            f"<Game {self._rules.name}/{self._layout.name} ply={self.ply} turn={self.turn} "
            f"points={self.points()}{' over' if self.over else ''}>"
        )


@lru_cache(maxsize=64)
def _start(rules: Ruleset, layout: Layout, max_plies: int) -> Game:
    """The start position, built once: a new game is a copy of it."""
    game = Game(rules, layout, max_plies)
    for side in (0, 1):
        for p in CAMPS[side]:
            game._put(p, side, ARCHER)
    game._key = game._fresh_key()
    return game


def _recent_text(code: int) -> str:
    return "@" if code == NOT_A_STEP else NOTATION[code]


def _recent_code(text: str) -> int:
    return NOT_A_STEP if text == "@" else CODE_OF_TEXT[text]


def _last_action(code: ActionCode) -> LastAction:
    origin, target, place = DECODE[code]
    return LastAction(
        notation=NOTATION[code],
        origin=POINT_NAMES[origin] if origin >= 0 else None,
        target=POINT_NAMES[target] if target >= 0 else None,
        capture=bool(code & CAPTURE),
        placed=POINT_NAMES[place] if place >= 0 else None,
    )
