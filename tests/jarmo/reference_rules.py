"""A second, deliberately plain implementation of the rules, to check the engine against.

It shares nothing with ``bot.jarmo``: the board is the published one typed in as each point's
neighbours, points are names, the position is a dictionary, and every rule is written the way
the rules read, one step after another, with no tables, bits or caches. It is slow and only
serves the tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Each point's neighbours on the published board, as the rules list them point by point.
NEIGHBOURS: dict[str, tuple[str, ...]] = {
    "A1": ("B3", "C2"),
    "B1": ("A3", "D2"),
    "C1": ("A2", "D3", "E2"),
    "D1": ("B2", "C3"),
    "E1": ("C2", "D3"),
    "A2": ("C1", "C3"),
    "B2": ("B3", "C2", "C4", "D1"),
    "C2": ("A1", "B2", "D2", "E1", "E3"),
    "D2": ("B1", "B3", "C2", "D3"),
    "E2": ("C1", "D4"),
    "A3": ("B1", "B5"),
    "B3": ("A1", "A5", "B2", "B4", "C3", "C5", "D2"),
    "C3": ("A2", "A4", "B3", "D1", "E4"),
    "D3": ("B4", "C1", "D2", "D4", "E1", "E5"),
    "E3": ("C2", "D5"),
    "A4": ("C3", "C5"),
    "B4": ("B3", "C4", "D3", "D5"),
    "C4": ("A5", "B2", "B4", "D4", "E5"),
    "D4": ("B5", "C4", "D3", "E2"),
    "E4": ("C3", "C5"),
    "A5": ("B3", "C4"),
    "B5": ("A3", "D4"),
    "C5": ("A4", "B3", "E4"),
    "D5": ("B4", "E3"),
    "E5": ("C4", "D3"),
}
COLUMNS = "ABCDE"
OTHER = {"white": "black", "black": "white"}
CAMP_ROW = {"white": 1, "black": 5}  # each side's own camp


def row(point: str) -> int:
    return int(point[1])


def enemy_camp_row(side: str) -> int:
    return CAMP_ROW[OTHER[side]]


def own_camp(side: str) -> list[str]:
    return [f"{c}{CAMP_ROW[side]}" for c in COLUMNS]


@dataclass
class Piece:
    side: str
    kind: str  # "archer", "marked" or "guard"


@dataclass
class ReferenceGame:
    """One game under one ruleset; ``moves()`` and ``play()`` speak canonical notation."""

    ruleset: str
    max_plies: int = 200
    board: dict[str, Piece] = field(default_factory=dict)
    captured: dict[str, int] = field(default_factory=lambda: {"white": 0, "black": 0})
    reserve: dict[str, int] = field(default_factory=lambda: {"white": 0, "black": 0})
    turn: str = "white"
    ply: int = 0
    # Each side's own actions: (origin, target) for a plain step, None for anything else.
    actions: dict[str, list[tuple[str, str] | None]] = field(
        default_factory=lambda: {"white": [], "black": []}
    )
    every_action: list[tuple[str, str] | None] = field(default_factory=list)
    over: bool = False

    def __post_init__(self) -> None:
        for side in ("white", "black"):
            for point in own_camp(side):
                self.board[point] = Piece(side, "archer")

    # -- what may be played ----------------------------------------------------------------

    def moves(self) -> set[str]:
        if self.over:
            return set()
        side = self.turn
        found: set[str] = set()
        for origin, piece in list(self.board.items()):
            if piece.side != side or row(origin) == enemy_camp_row(side):
                continue  # a piece in the enemy camp never moves again
            for target in NEIGHBOURS[origin]:
                found |= self._steps(origin, target)
        empty_camp = [p for p in own_camp(side) if p not in self.board]
        if self.ruleset == "ludos":
            if self.reserve[side] > 0:
                found |= {f"@{p}" for p in empty_camp}
        elif self.captured[side] > 0 and self._marked_in_enemy_camp(side):
            found |= {f"@{p}" for p in empty_camp}
        return found

    def _steps(self, origin: str, target: str) -> set[str]:
        side = self.turn
        ahead = 1 if side == "white" else -1
        if self.ruleset == "jasir" and (row(target) - row(origin)) * ahead < 0:
            return set()
        occupant = self.board.get(target)
        if occupant is not None and occupant.side == side:
            return set()
        if self.ruleset != "ludos" and self._shuffling(origin, target):
            return set()
        text = f"{origin}{'x' if occupant else '-'}{target}"
        found = {text}
        if self.ruleset == "ludos" and self._recovers(origin, target):
            camp = own_camp(side)
            found |= {f"{text}@{p}" for p in camp if p not in self.board}
        return found

    def _shuffling(self, origin: str, target: str) -> bool:
        recent = self.actions[self.turn][-4:]
        step, back = (origin, target), (target, origin)
        return recent == [step, back, step, back]

    def _recovers(self, origin: str, target: str) -> bool:
        side = self.turn
        piece, occupant = self.board[origin], self.board.get(target)
        kind = piece.kind
        if occupant is not None and kind == "archer" and row(target) != CAMP_ROW[occupant.side]:
            kind = "guard"
        return kind == "guard" and row(target) == enemy_camp_row(side) and self.captured[side] > 0

    def _marked_in_enemy_camp(self, side: str) -> list[str]:
        return sorted(
            p
            for p, piece in self.board.items()
            if piece.side == side and piece.kind == "marked" and row(p) == enemy_camp_row(side)
        )

    # -- playing ---------------------------------------------------------------------------

    def play(self, text: str) -> None:
        assert text in self.moves(), text
        side = self.turn
        step_part, _, place = text.partition("@")
        if step_part:
            origin, target = step_part[:2], step_part[3:]
            self._step(origin, target)
            self.actions[side].append((origin, target) if not place else None)
            self.every_action.append((origin, target) if not place else None)
        else:
            self.actions[side].append(None)
            self.every_action.append(None)
        if place:
            self._place(place, redeploy=self.ruleset != "ludos")
        self.ply += 1
        self.turn = OTHER[side]
        self.over = self._ended()

    def _step(self, origin: str, target: str) -> None:
        side = self.turn
        piece = self.board.pop(origin)
        occupant = self.board.pop(target, None)
        if occupant is not None:
            self.captured[occupant.side] += 1
            if self.ruleset == "ludos":
                if piece.kind == "archer" and row(target) != CAMP_ROW[occupant.side]:
                    piece.kind = "guard"
            else:
                piece.kind = "marked"
        entering = row(target) == enemy_camp_row(side)
        if self.ruleset == "ludos" and piece.kind == "guard" and entering:
            piece.kind = "archer"
            if self.captured[side] > 0:
                self.captured[side] -= 1
                self.reserve[side] += 1
        self.board[target] = piece

    def _place(self, point: str, *, redeploy: bool) -> None:
        side = self.turn
        self.board[point] = Piece(side, "archer")
        if redeploy:
            self.captured[side] -= 1
            leftmost = self._marked_in_enemy_camp(side)[0]
            self.board[leftmost].kind = "archer"
        else:
            self.reserve[side] -= 1

    # -- the end ---------------------------------------------------------------------------

    def _ended(self) -> bool:
        for side in ("white", "black"):
            if all(
                row(p) == enemy_camp_row(side) for p, pc in self.board.items() if pc.side == side
            ):
                return True
        if self.ruleset == "ludos" and self._both_shuffle():
            return True
        if self.ply >= self.max_plies:
            return True
        return not self.moves()

    def _both_shuffle(self) -> bool:
        last = self.every_action[-8:]
        if len(last) < 8 or any(a is None for a in last):
            return False
        for side in ("white", "black"):
            mine = self.actions[side][-4:]
            step, back = mine[0], mine[1]
            if step is None or back != (step[1], step[0]) or mine != [step, back, step, back]:
                return False
        return True

    def points(self) -> dict[str, int]:
        score = {"white": 0, "black": 0}
        for p, piece in self.board.items():
            score[piece.side] += 2 if row(p) == enemy_camp_row(piece.side) else 1
        return score

    def winner(self) -> str | None:
        score = self.points()
        if score["white"] != score["black"]:
            return "white" if score["white"] > score["black"] else "black"
        if self.ruleset == "ludos":
            in_camp = {
                side: sum(
                    1
                    for p, pc in self.board.items()
                    if pc.side == side and row(p) == enemy_camp_row(side)
                )
                for side in ("white", "black")
            }
            if in_camp["white"] != in_camp["black"]:
                return "white" if in_camp["white"] > in_camp["black"] else "black"
        return None
