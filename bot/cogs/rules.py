"""The ``/jarmo rules`` card: the rules in brief, the ruleset notes and the picture key."""

from __future__ import annotations

from functools import lru_cache

import discord

from bot.cogs.replies import EMBED_COLOUR
from bot.cogs.words import discord_words
from bot.i18n import N_
from bot.jarmo import Game
from bot.render import ImageWords, render_board

RULES_SUMMARY = N_("""\
**Board and pieces**
• 25 points joined by the 39 lines of the published board, drawn on every picture: long lines \
a knight's jump apart, and short ones around the centre. A piece moves along a line to the \
point at its other end, one action per turn.
• Each side starts with five archers in its camp, its home row: White row 1, Black row 5. \
White moves first.
• Step onto an enemy piece to capture it (never compulsory). A piece that reaches the enemy camp \
never moves again, but can still be captured: an enemy piece that reached your camp is taken by \
stepping back onto it.

**End and score**
• The game ends when one side has all its pieces left on the board in the enemy camp (or none \
left), when the player to move has no possible action, or after {max_moves} moves (both \
players' moves count).
• Each piece in the enemy camp scores 2 points, every other piece on the board 1; captured \
pieces score nothing. More points wins; equal points is a draw.
• A match is 1, 2, 4 or 6 games, sides swapping each game. The sum of each player's points over \
the games decides it; equal sums draw. Resigning or losing on time forfeits the rest of the \
match.

Moves are written `A1-C2` (`a1 c2` works too); `/jarmo move`'s autocomplete lists yours.""")

RULES_FIELDS = (
    (
        "classic",
        N_(
            "A piece that captures gets a mark. A whole turn can be a **redeploy** "
            "(`/jarmo redeploy B1`): if you have a captured piece and a marked piece in the "
            "enemy camp, put the captured piece back on an empty point of your camp; your "
            "leftmost marked piece in the enemy camp loses its mark, so each mark is used once. "
            "No endless "
            "back-and-forth: after going X, back, X, back you may not play X again at once."
        ),
    ),
    (
        "jasir",
        N_(
            "Classic, but no step may go back, away from the enemy camp; sideways steps are "
            "allowed."
        ),
    ),
    (
        "ludos",
        N_(
            "The sides are **Green** (White, moves first) and **Blue** (Black). No marks: an "
            "archer that captures a piece standing outside that piece's own camp becomes a "
            "**guard** (a guard that captures stays one). When a guard enters the enemy camp it "
            "turns back into an archer and wins back one of your captured pieces, if any, into "
            "your reserve. Place a reserve piece on an empty "
            "point of your camp, either at once as part of the step that recovered it "
            "(`/jarmo move D3-E5@B1`) or later as a whole turn (`/jarmo redeploy B1`). "
            "Back-and-forth is allowed, but when both players have just gone X, back, X, back the "
            "game ends (repetition). Equal points: more pieces in the enemy camp wins."
        ),
    ),
    (
        N_("Tournament tables"),
        N_(
            "Match points (MP): a match won 2, drawn 1, lost 0, a bye 2. Ties on MP go to "
            "**Buchholz** (your opponents' MP added up), then **Sonneborn-Berger** (the MP of "
            "the opponents you beat, plus half the MP of those you drew with), then game points."
        ),
    ),
    (
        N_("The picture"),
        N_(
            "Tinted bands: the camps. Black's (Blue's) pieces have an inner ring. The bar of "
            "the side to move is outlined.\n"
            "Orange band across a piece: marked. Shield: a guard.\n"
            "Last move: an orange arrow from a faded disc (where the piece stood) to an orange "
            "ring; a red ring with × means it captured; a purple ring with + is a redeployed or "
            "placed piece.\n"
            "Under each name: the enemy pieces that side has captured, and its reserve. The top "
            "line shows the ruleset and how many moves have been played."
        ),
    ),
)


def rules_embed(max_moves: int, language: str | None = None) -> discord.Embed:
    """The ``/jarmo rules`` card for a bot whose games end after ``max_moves`` moves."""
    _ = discord_words(language).gettext
    embed = discord.Embed(
        title=_("How to play Jarmo"),
        description=_(RULES_SUMMARY).format(max_moves=max_moves),
        colour=EMBED_COLOUR,
    )
    for name, value in RULES_FIELDS:
        embed.add_field(name=_(name), value=_(value), inline=False)
    return embed


@lru_cache(maxsize=16)  # a few rulesets in a few languages (``ImageWords`` hash by identity)
def start_image(ruleset: str, words: ImageWords) -> bytes:
    """The start position of ``ruleset`` as a PNG, its texts in ``words`` (made once each)."""
    return render_board(Game.new(ruleset=ruleset), words=words)
