"""The engine's exceptions: all are ``ValueError`` so callers can treat bad input uniformly."""

from __future__ import annotations


class JarmoError(ValueError):
    """Base of every error the rules engine raises about user input."""


class NotationError(JarmoError):
    """The text is not a move, point or redeploy in any accepted notation."""

    def __init__(self, text: str, expected: str) -> None:
        self.text = text
        self.expected = expected
        shown = text.strip() or "an empty move"
        super().__init__(f"I can't read {shown!r}: {expected}")


class IllegalMove(JarmoError):
    """A well-formed action that the rules do not allow in this position.

    ``reason`` is a short machine-readable code (see the constants below); the message is a
    sentence for the player that says why.
    """

    GAME_OVER = "game_over"
    NO_PIECE = "no_piece"
    NOT_YOUR_PIECE = "not_your_piece"
    NO_LINE = "no_line"
    OWN_PIECE_THERE = "own_piece_there"
    IN_ENEMY_CAMP = "in_enemy_camp"
    BACKWARDS = "backwards"
    SHUFFLING = "shuffling"
    NO_REDEPLOY = "no_redeploy"
    BAD_PLACE = "bad_place"
    NOT_ALLOWED = "not_allowed"  # a refusal no specific check explains (should not happen)

    def __init__(self, reason: str, message: str, move: str | None = None) -> None:
        self.reason = reason
        self.move = move
        super().__init__(message)
