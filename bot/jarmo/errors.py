"""The engine's exceptions: all are ``ValueError`` so callers can treat bad input uniformly.

Each carries a :class:`Problem` and the values that explain it (points by name, sides, counts),
so a front end can say it in its own words and language; the exception's own message is the
engine's plain-English account, for logs and for programs that use the engine directly.
"""

from __future__ import annotations

from enum import StrEnum


class Problem(StrEnum):
    """Exactly what is wrong with an action."""

    # the text
    UNREADABLE = "unreadable"  # details: wanted ("action" or "point")
    NOT_A_POINT = "not-a-point"  # token, wanted
    SAME_POINT = "same-point"  # wanted
    TOO_LONG = "too-long"  # length, limit, wanted
    # the position
    GAME_OVER = "game-over"
    NOT_ALLOWED = "not-allowed"
    NO_PIECE = "no-piece"  # point
    NOT_YOUR_PIECE = "not-your-piece"  # point, owner (a side), ruleset
    IN_ENEMY_CAMP = "in-enemy-camp"  # point
    NO_LINE = "no-line"  # origin, target, layout, options (the reachable points, or "")
    BACKWARDS = "backwards"  # origin, target, ruleset
    OWN_PIECE_THERE = "own-piece-there"  # point
    SHUFFLING = "shuffling"  # origin, target
    PLACE_NEEDS_LUDOS = "place-needs-ludos"  # origin, target
    NOTHING_RECOVERED = "nothing-recovered"
    NOT_IN_CAMP = "not-in-camp"  # point, row
    POINT_TAKEN = "point-taken"  # point
    NO_RESERVE = "no-reserve"
    NO_CAPTURED = "no-captured"
    NO_MARKED_PIECE = "no-marked-piece"
    CAMP_FULL = "camp-full"


class JarmoError(ValueError):
    """Base of every error the rules engine raises about user input."""

    def __init__(self, message: str, problem: Problem, details: dict[str, str]) -> None:
        self.problem = problem
        self.details = details
        super().__init__(message)


class NotationError(JarmoError):
    """The text is not a move, point or redeploy in any accepted notation."""

    def __init__(self, text: str, expected: str, problem: Problem, **details: str) -> None:
        self.text = text
        self.expected = expected
        shown = text.strip() or "an empty move"
        super().__init__(f"I can't read {shown!r}: {expected}", problem, details)


class IllegalMove(JarmoError):
    """A well-formed action that the rules do not allow in this position.

    ``problem`` and ``details`` say exactly what; the message is a sentence that says why.
    """

    def __init__(self, message: str, move: str | None, problem: Problem, **details: str) -> None:
        self.move = move
        super().__init__(message, problem, details)
