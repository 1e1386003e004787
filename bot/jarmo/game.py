"""The game: position, legal actions, applying them, end conditions and the score.

State is kept in flat lists indexed by point (see ``board``) with incremental counters, so that
a random playout costs a few microseconds a ply; everything derivable is derived on demand.
"""

from __future__ import annotations

from bisect import insort
from functools import cache
from typing import Any

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
    camp_points,
    enemy_camp_points,
    row_of,
    shuffle_forbidden,
)
from .layouts import DEFAULT_LAYOUT, Layout, get_layout
from .notation import format_action, parse_indices
from .position import LastAction, Outcome, Piece, PieceKind, Position, Side, Termination
from .refusals import explain_refusal
from .rulesets import DEFAULT_RULESET, Ruleset, get_ruleset

PIECES_PER_SIDE = 5
DEFAULT_MAX_PLIES = 200
FORMAT_VERSION = 1

KIND_NAMES: tuple[PieceKind, PieceKind, PieceKind] = ("archer", "marked", "guard")
KIND_INDEX = {name: i for i, name in enumerate(KIND_NAMES)}


Target = tuple[int, str, str]  # destination, "P-Q", "PxQ"
STEP_TEXT = tuple(tuple(format_action(a, b, None) for b in POINT_NAMES) for a in POINT_NAMES)
CAPTURE_TEXT = tuple(
    tuple(format_action(a, b, None, capture=True) for b in POINT_NAMES) for a in POINT_NAMES
)


@cache
def _targets(layout: Layout, forward_only: bool) -> tuple[tuple[tuple[Target, ...], ...], ...]:
    """Per side and origin, the steps the geometry allows (empty from the enemy camp)."""
    per_side = []
    for side in (0, 1):
        ahead = 1 if side == 0 else -1
        rows = []
        for p in range(POINT_COUNT):
            if IN_ENEMY_CAMP[side][p]:
                rows.append(())  # a piece in the enemy camp never moves again
                continue
            rows.append(
                tuple(
                    (q, STEP_TEXT[p][q], CAPTURE_TEXT[p][q])
                    for q in layout.neighbours[p]
                    if not forward_only or (row_of(q) - row_of(p)) * ahead > 0
                )
            )
        per_side.append(tuple(rows))
    return tuple(per_side)


class Game:
    """A game of Jarmo under one ruleset and layout. Create it with ``Game.new``."""

    __slots__ = (
        "_captured",
        "_history",
        "_in_camp",
        "_kind",
        "_layout",
        "_legal",
        "_max_plies",
        "_on_board",
        "_owner",
        "_pieces",
        "_recent",
        "_reserve",
        "_rules",
        "_side",
        "_stop",
        "_targets",
    )

    def __init__(self, rules: Ruleset, layout: Layout, max_plies: int) -> None:
        if max_plies < 1:
            raise ValueError("max_plies must be at least 1")
        self._rules = rules
        self._layout = layout
        self._max_plies = max_plies
        self._targets = _targets(layout, rules.forward_only)
        self._owner = [EMPTY] * POINT_COUNT
        self._kind = [ARCHER] * POINT_COUNT
        self._pieces: list[list[int]] = [[], []]  # sorted point indices per side
        self._captured = [0, 0]
        self._reserve = [0, 0]
        self._on_board = [0, 0]
        self._in_camp = [0, 0]  # pieces standing in the camp they attack
        self._recent: list[list[int]] = [[], []]  # each side's last four actions (step codes)
        self._history: list[str] = []
        self._side = 0  # index of the side to move; White moves first
        self._stop: Termination | None = None  # end rules 1-3, decided when an action is played
        self._legal: tuple[str, ...] | None = None

    # ----------------------------------------------------------------- construction

    @classmethod
    def new(
        cls,
        ruleset: str = DEFAULT_RULESET,
        layout: str = DEFAULT_LAYOUT,
        max_plies: int = DEFAULT_MAX_PLIES,
    ) -> Game:
        """A game in the start position. ``ValueError`` for an unknown ruleset or layout."""
        game = cls(get_ruleset(ruleset), get_layout(layout), max_plies)
        for side in (0, 1):
            for p in camp_points(side):
                game._put(p, side, ARCHER)
        return game

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
        """An independent copy (cheap; for search and previews)."""
        twin = Game.__new__(Game)
        twin._rules, twin._layout, twin._targets = self._rules, self._layout, self._targets
        twin._max_plies, twin._stop, twin._legal = self._max_plies, self._stop, self._legal
        twin._owner, twin._kind = self._owner[:], self._kind[:]
        twin._pieces = [self._pieces[0][:], self._pieces[1][:]]
        twin._recent = [self._recent[0][:], self._recent[1][:]]
        twin._captured, twin._reserve = self._captured[:], self._reserve[:]
        twin._on_board, twin._in_camp = self._on_board[:], self._in_camp[:]
        twin._history, twin._side = self._history[:], self._side
        return twin

    # ----------------------------------------------------------------- reading

    @property
    def ruleset(self) -> str:
        """The ruleset's name."""
        return self._rules.name

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
    def history(self) -> list[str]:
        """The canonical actions played so far (a copy)."""
        return self._history[:]

    @property
    def over(self) -> bool:
        """True when the game has ended by any of the end rules."""
        return self._stop is not None or not self._legal_tuple()

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
            if self._legal_tuple():
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

    # ----------------------------------------------------------------- legal actions

    def legal_moves(self) -> list[str]:
        """Every legal action for the side to move, canonical, ordered by origin then target;
        redeploys / places come last. Empty when the game is over."""
        return list(self._legal_tuple())

    def _legal_tuple(self) -> tuple[str, ...]:
        legal = self._legal
        if legal is None:
            legal = self._legal = () if self._stop is not None else self._generate()
        return legal

    def _generate(self) -> tuple[str, ...]:
        side = self._side
        me = side + 1
        owner = self._owner
        targets = self._targets[side]
        moves = [
            capture if owner[q] else step
            for p in self._pieces[side]
            for q, step, capture in targets[p]
            if owner[q] != me
        ]
        recent = self._recent[side]
        if len(recent) == 4 and recent[0] == recent[2] and self._rules.no_shuffling:
            forbidden = shuffle_forbidden(recent)
            if forbidden != NOT_A_STEP:
                p, q = divmod(forbidden, POINT_COUNT)
                for text in (STEP_TEXT[p][q], CAPTURE_TEXT[p][q]):
                    if text in moves:
                        moves.remove(text)
        if self._rules.guards:
            if self._reserve[side] or self._captured[side]:
                free = self._free_camp_points(side)
                if self._reserve[side]:
                    moves.extend("@" + POINT_NAMES[r] for r in free)
                if self._captured[side]:
                    moves.extend(self._steps_with_place(side, free))
        elif self._captured[side] and self._can_redeploy(side):
            moves.extend("@" + POINT_NAMES[r] for r in self._free_camp_points(side))
        return tuple(moves)

    def _steps_with_place(self, side: int, free: list[int]) -> list[str]:
        """ludos: a guard stepping into the enemy camp may place the piece it recovers at once."""
        if not free:
            return []
        kind, owner, in_camp = self._kind, self._owner, IN_ENEMY_CAMP[side]
        out = []
        for p in self._pieces[side]:
            if kind[p] != GUARD:
                continue
            for q, step, capture in self._targets[side][p]:
                if in_camp[q] and owner[q] != side + 1:
                    text = capture if owner[q] else step
                    out.extend(f"{text}@{POINT_NAMES[r]}" for r in free)
        return out

    def _can_redeploy(self, side: int) -> bool:
        """classic/jasir: a captured piece and a marked own piece in the enemy camp."""
        if self._rules.guards or not self._captured[side]:
            return False
        return any(self._kind[p] == MARKED for p in self._pieces[side] if IN_ENEMY_CAMP[side][p])

    def _free_camp_points(self, side: int) -> list[int]:
        return [p for p in camp_points(side) if self._owner[p] == EMPTY]

    # ----------------------------------------------------------------- playing

    def play(self, text: str) -> str:
        """Play an action given in any accepted notation and return its canonical form.

        Raises ``NotationError`` for unreadable text and ``IllegalMove`` (with the reason) for an
        action the rules forbid here; either way the game is left untouched.
        """
        origin, target, place = parse_indices(text)
        legal = self._legal_tuple()
        side = self._side
        if origin < 0:
            notation = "@" + POINT_NAMES[place]
        else:
            notation = (CAPTURE_TEXT if self._owner[target] > EMPTY else STEP_TEXT)[origin][target]
            if place >= 0:
                notation += "@" + POINT_NAMES[place]
        # The generator is the single source of truth; the checks below only explain a refusal.
        if notation not in legal:
            explain_refusal(self, side, origin, target, place, text)
        if origin < 0:
            self._apply_place(side, place)
        else:
            self._apply_step(side, origin, target, place)
        self._history.append(notation)
        self._side = 1 - side
        self._legal = None
        self._check_end()
        return notation

    def _apply_step(self, side: int, p: int, q: int, place: int) -> None:
        mover = self._kind[p]
        self._take(p)
        if self._owner[q] != EMPTY:
            self._take(q)
            self._captured[1 - side] += 1
            if not self._rules.guards:
                mover = MARKED
            elif not IN_ENEMY_CAMP[side][q]:
                mover = GUARD  # capturing a piece outside its own camp promotes; a guard stays one
        if mover == GUARD and IN_ENEMY_CAMP[side][q]:
            mover = ARCHER
            if self._captured[side]:
                self._captured[side] -= 1
                self._reserve[side] += 1
        self._put(q, side, mover)
        if place >= 0:
            self._reserve[side] -= 1
            self._put(place, side, ARCHER)
            self._remember(side, NOT_A_STEP)
        else:
            self._remember(side, p * POINT_COUNT + q)

    def _apply_place(self, side: int, r: int) -> None:
        if self._rules.guards:
            self._reserve[side] -= 1
        else:
            self._captured[side] -= 1
            for m in enemy_camp_points(side):  # Decision (rules §3.2): the leftmost is unmarked
                if self._owner[m] == side + 1 and self._kind[m] == MARKED:
                    self._kind[m] = ARCHER
                    break
        self._put(r, side, ARCHER)
        self._remember(side, NOT_A_STEP)

    # ----------------------------------------------------------------- state updates

    def _put(self, p: int, side: int, kind: int) -> None:
        self._owner[p] = side + 1
        self._kind[p] = kind
        insort(self._pieces[side], p)
        self._on_board[side] += 1
        if IN_ENEMY_CAMP[side][p]:
            self._in_camp[side] += 1

    def _take(self, p: int) -> None:
        side = self._owner[p] - 1
        self._owner[p] = EMPTY
        self._pieces[side].remove(p)
        self._on_board[side] -= 1
        if IN_ENEMY_CAMP[side][p]:
            self._in_camp[side] -= 1

    def _remember(self, side: int, code: int) -> None:
        recent = self._recent[side]
        recent.append(code)
        if len(recent) > 4:
            del recent[0]

    def _check_end(self) -> None:
        """End rules 1-3 (rules §4); rule 4 (no legal action) is derived when asked."""
        if self._in_camp[0] == self._on_board[0] or self._in_camp[1] == self._on_board[1]:
            self._stop = Termination.CAMP
        elif (
            self._rules.repetition_ends
            and shuffle_forbidden(self._recent[0]) != NOT_A_STEP
            and shuffle_forbidden(self._recent[1]) != NOT_A_STEP
        ):
            self._stop = Termination.REPETITION
        elif len(self._history) >= self._max_plies:
            self._stop = Termination.PLY_LIMIT

    # ----------------------------------------------------------------- views

    def position(self) -> Position:
        """A read-only snapshot of the position (for renderers)."""
        pieces = tuple(
            Piece(POINT_NAMES[p], SIDE_NAMES[self._owner[p] - 1], KIND_NAMES[self._kind[p]])
            for p in range(POINT_COUNT)
            if self._owner[p] != EMPTY
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
        for action in self._history:
            fresh.play(action)
            frames.append(fresh.position())
        return frames

    # ----------------------------------------------------------------- serialisation

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable snapshot; ``Game.from_dict`` rebuilds an identical game."""
        return {
            "format": FORMAT_VERSION,
            "ruleset": self._rules.name,
            "layout": self._layout.name,
            "max_plies": self._max_plies,
            "turn": SIDE_NAMES[self._side],
            "pieces": [
                [POINT_NAMES[p], SIDE_NAMES[self._owner[p] - 1], KIND_NAMES[self._kind[p]]]
                for p in range(POINT_COUNT)
                if self._owner[p] != EMPTY
            ],
            "captured": {"white": self._captured[0], "black": self._captured[1]},
            "reserve": {"white": self._reserve[0], "black": self._reserve[1]},
            "recent": {
                name: [_code_text(c) for c in self._recent[i]] for i, name in enumerate(SIDE_NAMES)
            },
            "history": self._history[:],
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
                game._recent[i] = [_text_code(t) for t in data["recent"][name]][-4:]
                total = game._on_board[i] + game._captured[i] + game._reserve[i]
                if total != PIECES_PER_SIDE or game._captured[i] < 0 or game._reserve[i] < 0:
                    raise ValueError(f"{name} has {total} pieces, not {PIECES_PER_SIDE}")
            game._history = [str(a) for a in data["history"]]
            game._side = SIDE_INDEX[data["turn"]]
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"malformed game data: {exc!r}") from exc
        game._check_end()
        return game

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"<Game {self._rules.name}/{self._layout.name} ply={self.ply} turn={self.turn} "
            f"points={self.points()}{' over' if self.over else ''}>"
        )


def _code_text(code: int) -> str:
    if code == NOT_A_STEP:
        return "@"
    p, q = divmod(code, POINT_COUNT)
    return f"{POINT_NAMES[p]}-{POINT_NAMES[q]}"


def _text_code(text: str) -> int:
    if text == "@":
        return NOT_A_STEP
    p, _, q = text.partition("-")
    return POINT_INDEX[p] * POINT_COUNT + POINT_INDEX[q]


def _last_action(notation: str) -> LastAction:
    origin, target, place = parse_indices(notation)
    return LastAction(
        notation=notation,
        origin=POINT_NAMES[origin] if origin >= 0 else None,
        target=POINT_NAMES[target] if target >= 0 else None,
        capture="x" in notation,
        placed=POINT_NAMES[place] if place >= 0 else None,
    )
