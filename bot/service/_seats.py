"""Finding the game an action is about, and refusing actions that do not fit it: shared by the
use cases that change a game."""

from __future__ import annotations

from bot import store as st
from bot.jarmo.rulesets import side_name
from bot.service import errors
from bot.service.models import Actor, Place
from bot.service.unit import UnitOfWork


async def active_game(unit: UnitOfWork, place: Place) -> st.GameRecord:
    """The channel's active game. Raises ``NoGameHere``, or ``GameDamaged`` for a game that
    fails its check."""
    try:
        record = await unit.store.games.active(place.channel_id)
    except st.CorruptGame as damaged:
        raise errors.GameDamaged(damaged.game_id, damaged.reason) from None
    if record is None:
        raise errors.NoGameHere(
            "There is no game in this channel. Start one with /jarmo challenge."
        )
    return record


async def players_game(
    unit: UnitOfWork, place: Place, actor: Actor, *, needs_turn: bool = False
) -> st.GameRecord:
    """The channel's game, checking that the actor plays in it (and is to move, if asked).
    Raises ``NotAPlayer`` or ``NotYourTurn`` as well as what :func:`active_game` raises."""
    record = await active_game(unit, place)
    side = record.side_of(actor.user_id)
    if side is None:
        raise errors.NotAPlayer(
            "You are not playing in this channel's game. Watch with /jarmo board, or start "
            "your own game in another channel."
        )
    if needs_turn and record.game.turn != side:
        other = await unit.names(place.guild_id, record.player_id(record.game.turn))
        raise errors.NotYourTurn(
            f"It is {other}'s turn ({side_name(record.game.turn, record.game.ruleset)}). "
            "Wait for their move."
        )
    return record


def check_clock(unit: UnitOfWork, record: st.GameRecord) -> None:
    """Refuse an action that needs the clock running and not run out: ``GamePaused`` or
    ``TimeUp`` (which also wakes the scheduler to apply the timeout)."""
    clock = record.clock
    if clock.paused:
        raise errors.GamePaused(
            "The clock is paused, so no moves can be made. Use /jarmo resume to restart it "
            "(either player can)."
        )
    if clock.deadline_at is not None and unit.now() >= clock.deadline_at:
        unit.signals.deadlines_changed.set()  # let the scheduler apply the timeout right away
        raise errors.TimeUp(
            "The time for this move has run out, so the game is lost on time; the result "
            "will be posted here in a moment."
        )


def game_changed() -> errors.GameChanged:
    """The refusal when another action got to the game first (the version check failed)."""
    return errors.GameChanged(
        "Another action was applied to this game at the same moment. Look at the board "
        "(/jarmo board) and try again."
    )
