"""The words drawn in the images (boards, replays, rating charts), in the reader's language.

The renderer cannot read the catalogues, so a front end passes it these:
``render_board(..., words=image_words(voice.catalogue))``.
"""

from __future__ import annotations

from bot.i18n import N_, Catalogue
from bot.jarmo import Termination
from bot.render import ImageWords

_COLOURS = (N_("White"), N_("Black"), N_("Green"), N_("Blue"))
_BOARD_ENDS = {
    # TRANSLATORS: the reasons below follow the result in an image's header, e.g. "All
    # pieces in camp · Classic · move 35"; they start with a small letter.
    Termination.CAMP: N_("all pieces in camp"),
    Termination.REPETITION: N_("repetition"),
    Termination.PLY_LIMIT: N_("move limit reached"),
    Termination.NO_MOVES: N_("no legal move left"),
}
_BUILT: dict[tuple[str, str], ImageWords] = {}


def image_words(catalogue: Catalogue) -> ImageWords:
    """The images' words from ``catalogue`` (the shared ``jarmo`` one, in the reader's
    language). The same language always gives the same value, which the renderer's caches
    are keyed on."""
    found = _BUILT.get((catalogue.domain, catalogue.language))
    if found is None:  # two threads may both build it: either value serves
        found = _BUILT[catalogue.domain, catalogue.language] = _build(catalogue)
    return found


def _build(catalogue: Catalogue) -> ImageWords:
    text = catalogue.gettext

    def games(count: int) -> str:
        # TRANSLATORS: how many games a rating chart covers, put in "{games}" just below.
        return catalogue.ngettext("{count} game", "{count} games", count).format(count=count)

    return ImageWords(
        colours={colour: text(colour) for colour in _COLOURS},
        # TRANSLATORS: the header of a board image while a game is on; {side} is a colour.
        to_move=text(N_("{side} to move")),
        # TRANSLATORS: {winner} and {loser} are the two sides' points, e.g. "White wins 7–4".
        wins=text(N_("{side} wins {winner}–{loser}")),
        draw=text(N_("Draw {white}–{black}")),
        aborted=text(N_("Aborted")),
        board_ends={reason: text(message) for reason, message in _BOARD_ENDS.items()},
        # TRANSLATORS: a game that ended because one side has no piece left on the board (all
        # captured); {side} is a colour, e.g. "Black has no pieces left · Classic · move 35".
        no_pieces_left=text(N_("{side} has no pieces left")),
        resigned=text(N_("{side} resigned")),
        lost_on_time=text(N_("{side} lost on time")),
        stopped=text(N_("stopped by agreement, scored as it stood")),
        aborted_reason=text(N_("aborted by a moderator, nothing counts")),
        # TRANSLATORS: a board layout other than the usual one, e.g. "cross lines".
        layout_lines=text(N_("{layout} lines")),
        # TRANSLATORS: the position after the {number}th move, in an image's header.
        move_number=text(N_("move {number}")),
        # TRANSLATORS: an image's header before the first move.
        start=text(N_("start")),
        # TRANSLATORS: the labels below are short tags in capitals on a player's bar.
        tag_to_move=text(N_("TO MOVE")),
        tag_winner=text(N_("WINNER")),
        tag_draw=text(N_("DRAW")),
        tag_resigned=text(N_("RESIGNED")),
        tag_out_of_time=text(N_("OUT OF TIME")),
        # TRANSLATORS: "points", abbreviated, after a player's score in an image.
        points=text(N_("pts")),
        # TRANSLATORS: followed by small icons of the enemy pieces a player has taken.
        captured=text(N_("captured")),
        # TRANSLATORS: followed by small icons of the pieces a player can still place.
        reserve=text(N_("reserve")),
        # TRANSLATORS: a rating chart's title; {ruleset} is the rules' name as typed in
        # commands (classic, ...), e.g. "Ann · classic rating".
        chart_title=text(N_("{name} · {ruleset} rating")),
        # TRANSLATORS: a rating chart's summary, e.g. "1068 (+68 over 9 games)".
        chart_summary=text(N_("{rating} ({change} over {games})")),
        games_count=games,
        # TRANSLATORS: under the left end of a rating chart's time axis.
        chart_older=text(N_("older")),
        # TRANSLATORS: under the right end of a rating chart's time axis.
        chart_latest=text(N_("latest")),
        # TRANSLATORS: a game review's graph: its upper half is "White ahead", its lower half
        # "Black ahead"; {side} is a colour.
        review_ahead=text(N_("{side} ahead")),
        # TRANSLATORS: the legend of a game review's graph: the dots on bad moves.
        review_mistake=text(N_("mistake")),
        review_blunder=text(N_("blunder")),
    )
