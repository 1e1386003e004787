"""Every word an image draws, as a value the caller supplies in the reader's language.

The renderer sits beneath the catalogues (it may not import them), so the front ends build an
:class:`ImageWords` from the ``jarmo`` catalogue (``bot.words.images``) and pass it in. Texts
with a ``{field}`` are ``str.format`` templates. :data:`ENGLISH` is the fallback for callers
that pass none; a test holds it equal to the catalogue's English, so the two cannot drift.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.jarmo.position import Termination


@dataclass(frozen=True, slots=True, eq=False)
class ImageWords:
    """The words of the board images, replays and rating charts, in one language.

    Hashed by identity (it is a cache key): build one per language and keep it.
    """

    colours: Mapping[str, str]  # a side's colour ("White", "Green", ...) as the reader says it
    to_move: str  # {side}
    wins: str  # {side} {winner} {loser}: the winner's points, then the loser's
    draw: str  # {white} {black}
    aborted: str
    board_ends: Mapping[Termination, str]
    no_pieces_left: str  # {side}: a camp ending that left this side no piece on the board
    resigned: str  # {side}: the side that lost
    lost_on_time: str  # {side}
    stopped: str
    aborted_reason: str
    layout_lines: str  # {layout}
    move_number: str  # {number}
    start: str
    tag_to_move: str
    tag_winner: str
    tag_draw: str
    tag_resigned: str
    tag_out_of_time: str
    points: str
    captured: str
    reserve: str
    chart_title: str  # {name} {ruleset}: whose rating, in which rules
    chart_summary: str  # {rating} {change} {games}: games is ``games_count`` of the count
    games_count: Callable[[int], str]
    chart_older: str
    chart_latest: str
    review_ahead: str = "{side} ahead"  # {side}: a colour; a review graph's half
    review_mistake: str = "mistake"
    review_blunder: str = "blunder"

    def colour(self, english: str) -> str:
        """A side's colour name (``"White"``, ``"Blue"``, ...) in this language."""
        return self.colours.get(english, english)


def _english_games(count: int) -> str:
    return "1 game" if count == 1 else f"{count} games"


ENGLISH = ImageWords(
    colours={"White": "White", "Black": "Black", "Green": "Green", "Blue": "Blue"},
    to_move="{side} to move",
    wins="{side} wins {winner}–{loser}",
    draw="Draw {white}–{black}",
    aborted="Aborted",
    board_ends={
        Termination.CAMP: "all pieces in camp",
        Termination.REPETITION: "repetition",
        Termination.PLY_LIMIT: "move limit reached",
        Termination.NO_MOVES: "no legal move left",
    },
    no_pieces_left="{side} has no pieces left",
    resigned="{side} resigned",
    lost_on_time="{side} lost on time",
    stopped="stopped by agreement, scored as it stood",
    aborted_reason="aborted by a moderator, nothing counts",
    layout_lines="{layout} lines",
    move_number="move {number}",
    start="start",
    tag_to_move="TO MOVE",
    tag_winner="WINNER",
    tag_draw="DRAW",
    tag_resigned="RESIGNED",
    tag_out_of_time="OUT OF TIME",
    points="pts",
    captured="captured",
    reserve="reserve",
    chart_title="{name} · {ruleset} rating",
    chart_summary="{rating} ({change} over {games})",
    games_count=_english_games,
    chart_older="older",
    chart_latest="latest",
)
