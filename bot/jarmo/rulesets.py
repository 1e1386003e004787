"""The three rulesets, as switches that the one game engine reads."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ruleset:
    """What distinguishes one ruleset from another (rules §3–§5)."""

    name: str
    forward_only: bool  # jasir: every step goes towards the enemy camp
    guards: bool  # ludos: archers/guards, recovery and place; otherwise marking and redeploy
    no_shuffling: bool  # classic/jasir: X, back, X, back forbids X
    repetition_ends: bool  # ludos: both sides shuffling ends the game
    camp_tiebreak: bool  # ludos: equal points → more pieces in the enemy camp wins


RULESETS: dict[str, Ruleset] = {
    "classic": Ruleset("classic", False, False, True, False, False),
    "jasir": Ruleset("jasir", True, False, True, False, False),
    "ludos": Ruleset("ludos", False, True, False, True, True),
}
DEFAULT_RULESET = "classic"


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name``; ``ValueError`` naming the known ones otherwise."""
    try:
        return RULESETS[name]
    except KeyError:
        known = ", ".join(RULESETS)
        raise ValueError(f"unknown ruleset {name!r}; choose one of {known}") from None
