"""The three rulesets, as switches that the one game engine reads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .position import Side

# What players read for white and black unless a ruleset names its sides otherwise.
STANDARD_SIDE_NAMES: Final = ("White", "Black")


@dataclass(frozen=True)
class Ruleset:
    """What distinguishes one ruleset from another (rules §3–§5)."""

    name: str
    no_backwards: bool  # jasir: no step away from the enemy camp (sideways is allowed)
    guards: bool  # ludos: archers/guards, recovery and place; otherwise marking and redeploy
    no_shuffling: bool  # classic/jasir: X, back, X, back forbids X
    repetition_ends: bool  # ludos: both sides shuffling ends the game
    camp_tiebreak: bool  # ludos: equal points → more pieces in the enemy camp wins
    # What players read for white and black: the Ludos rulebook calls its sides Green and Blue.
    side_names: tuple[str, str] = STANDARD_SIDE_NAMES


RULESETS: Final[dict[str, Ruleset]] = {
    "classic": Ruleset("classic", False, False, True, False, False),
    "jasir": Ruleset("jasir", True, False, True, False, False),
    "ludos": Ruleset("ludos", False, True, False, True, True, ("Green", "Blue")),
}
DEFAULT_RULESET: Final = "classic"


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name``; ``ValueError`` naming the known ones otherwise."""
    try:
        return RULESETS[name]
    except KeyError:
        known = ", ".join(RULESETS)
        raise ValueError(f"unknown ruleset {name!r}; choose one of {known}") from None


def side_name(side: Side, ruleset: str) -> str:
    """What players read for ``side`` in ``ruleset``: 'White' / 'Black', in ludos 'Green' /
    'Blue'. An unknown ruleset (an old record, say) gets the classic names."""
    known = RULESETS.get(ruleset)
    names = known.side_names if known else STANDARD_SIDE_NAMES
    return names[0] if side == "white" else names[1]
