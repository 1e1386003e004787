"""Wording of game reviews: the labels, each player's accuracy, the move list with the better
moves, the turning points, the graph's alternative text and the progress line."""

from __future__ import annotations

from bot.i18n import N_, N_plural
from bot.jarmo import Side
from bot.service.reviews import Label, MoveReview, ReviewView
from bot.words.game import side_label
from bot.words.voice import Voice

LABELS: dict[Label, str] = {
    # TRANSLATORS: the five labels a review gives a move, from the best to the worst.
    Label.BEST: N_("best"),
    Label.GOOD: N_("good"),
    Label.INACCURACY: N_("inaccuracy"),
    Label.MISTAKE: N_("mistake"),
    Label.BLUNDER: N_("blunder"),
}
# The move list's marks after a move, as players of board games write them.
_MARKS = {Label.INACCURACY: "?!", Label.MISTAKE: "?", Label.BLUNDER: "??"}
#: Discord's limit for an embed's description, less room for the closing note.
MOVE_LIST_LIMIT = 3900
#: Discord's limit for an attachment's description (its alternative text).
ALT_TEXT_LIMIT = 1024


def label_name(label: Label, voice: Voice) -> str:
    """'blunder', in the reader's language."""
    return voice.gettext(LABELS[label])


def review_title(view: ReviewView, voice: Voice) -> str:
    """'Review · Ann v Bob'."""
    white, black = view.players
    return voice.gettext("Review · {white} v {black}").format(white=white, black=black)


def review_starting(voice: Voice) -> str:
    """'Reviewing the game…', before the first position is searched."""
    return voice.gettext("Reviewing the game…")


def review_failed(voice: Voice) -> str:
    """What the public "Reviewing…" message becomes when the review could not be finished."""
    return voice.gettext(
        "The review could not be finished. Nothing was stored; press Review or use "
        "/jarmo review to try again."
    )


def review_progress(done: int, total: int, voice: Voice) -> str:
    """'Reviewing the game: 12 of 40 positions searched…'."""
    return voice.gettext("Reviewing the game: {done} of {total} positions searched…").format(
        done=done, total=total
    )


def review_summary(view: ReviewView, voice: Voice) -> str:
    """One line per player: their side, accuracy and the counts of their poorer moves."""
    return "\n".join(_player_line(view, side, voice) for side in ("white", "black"))


def _player_line(view: ReviewView, side: Side, voice: Voice) -> str:
    _ = voice.gettext
    counts = view.review.counts(side)
    accuracy = view.review.accuracy[side]
    figure = (
        _("no moves") if accuracy is None else _("accuracy {percent}%").format(percent=accuracy)
    )
    tally = " · ".join(
        voice.ngettext(*_COUNTED[label], counts[label]).format(count=counts[label])
        for label in (Label.INACCURACY, Label.MISTAKE, Label.BLUNDER)
    )
    return _("{side} ({name}): {accuracy} · {tally}").format(
        side=side_label(side, view.ruleset, voice),
        name=voice.name(view.player(side)),
        accuracy=voice.strong(figure),
        tally=tally,
    )


_COUNTED = {
    Label.INACCURACY: N_plural("{count} inaccuracy", "{count} inaccuracies"),
    Label.MISTAKE: N_plural("{count} mistake", "{count} mistakes"),
    Label.BLUNDER: N_plural("{count} blunder", "{count} blunders"),
}


def move_note(move: MoveReview, voice: Voice) -> str:
    """'C2-A1?? (blunder; better C2-E3)', or the move alone when it was the best."""
    if move.label is Label.BEST or move.better is None:
        return move.played
    return voice.gettext("{move}{mark} ({label}; better {better})").format(
        move=move.played,
        mark=_MARKS.get(move.label, ""),
        label=label_name(move.label, voice),
        better=move.better,
    )


def review_moves_text(view: ReviewView, voice: Voice, *, limit: int = MOVE_LIST_LIMIT) -> str:
    """The move list, one line per move pair ('12. C2-A1?? (blunder; better C2-E3) · D4-E2'),
    then a note that unmarked moves were the best; cut to ``limit`` characters."""
    lines = []
    moves = view.review.moves
    for start in range(0, len(moves), 2):
        pair = " · ".join(move_note(move, voice) for move in moves[start : start + 2])
        lines.append(f"{start // 2 + 1}. {pair}")
    note = voice.quiet(voice.gettext("A move without a note was the best move."))
    text, shown = "", 0
    for line in lines:
        if len(text) + len(line) + len(note) + 3 > limit:
            break
        text, shown = f"{text}{line}\n", shown + 1
    if shown < len(lines):
        text += "…\n"
    return f"{text}{note}"


def turning_point_caption(view: ReviewView, ply: int, voice: Voice) -> str:
    """'Move 12, White (Ann): C2-A1, a blunder; better C2-E3.'"""
    move = view.review.moves[ply - 1]
    fields = {
        "number": (ply + 1) // 2,
        "side": side_label(move.side, view.ruleset, voice),
        "name": voice.name(view.player(move.side)),
        "move": move.played,
        "label": label_name(move.label, voice),
        "better": move.better or "",
    }
    if move.better is None:
        return voice.gettext("Move {number}, {side} ({name}): {move}, {label}.").format(**fields)
    return voice.gettext(
        "Move {number}, {side} ({name}): {move}, {label}; better {better}."
    ).format(**fields)


def graph_description(view: ReviewView, voice: Voice) -> str:
    """The graph's alternative text: what it shows, where it starts and ends, the marked moves."""
    _ = voice.gettext
    graph = view.review.graph()
    white = side_label("white", view.ruleset, voice)
    parts = [
        _(
            "Graph of {side}'s expected share of the game after each move, from {start}% at the "
            "start to {end}% after move {number}."
        ).format(
            side=white,
            start=round(graph[0] * 100),
            end=round(graph[-1] * 100),
            number=(len(graph)) // 2,
        )
    ]
    for label in (Label.MISTAKE, Label.BLUNDER):
        marked = [m for m in view.review.moves if m.label is label]
        if marked:
            # White's moves are written "12. C2-A1" and Black's "12… D4-E2", as in a move list.
            numbers = ", ".join(
                f"{(m.ply + 1) // 2}{'.' if m.side == 'white' else '…'} {m.played}" for m in marked
            )
            parts.append(
                _("Marked as {label}: {numbers}.").format(
                    label=label_name(label, voice), numbers=numbers
                )
            )
    return " ".join(parts)[:ALT_TEXT_LIMIT]
