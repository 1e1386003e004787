"""Finding the game an action is about, and refusing actions that do not fit it: shared by the
use cases that change a game."""

from __future__ import annotations

from bot import store as st
from bot.service import errors
from bot.service.kit import ServiceKit
from bot.service.models import Actor, Place


async def active_game(kit: ServiceKit, place: Place) -> st.GameRecord:
    """The channel's active game. Raises ``NoGameHere``, or ``GameDamaged`` for a game that
    fails its check. A game of the channel's server is not one outside servers: a server the
    bot left keeps its games, and a user install there reaches none of them."""
    try:
        record = await kit.store.games.active(place.channel_id)
    except st.CorruptGame as damaged:
        raise errors.GameDamaged(damaged.game_id, damaged.reason) from None
    if record is None or record.guild_id != place.guild_id:
        raise errors.NoGameHere(errors.Code.NO_GAME)
    return record


def check_here(place: Place | None, guild_id: int | None, channel_id: int) -> None:
    """Refuse (``NOT_HERE``) an answer given in ``place`` to what was posted in the channel
    ``channel_id`` of ``guild_id``: a button copied into another chat reaches nothing. No
    ``place``: the caller is not a person in a chat (the computer, the console)."""
    if place is not None and (place.guild_id, place.channel_id) != (guild_id, channel_id):
        raise errors.NotAllowed(errors.Code.NOT_HERE)


async def game_by_id(kit: ServiceKit, game_id: int) -> st.GameRecord:
    """The game ``game_id``, wherever it is played. Raises ``NoGameHere`` for an unknown game,
    ``GameDamaged`` for one that fails its check."""
    try:
        return await kit.store.games.get(game_id)
    except st.NotFound:
        raise errors.NoGameHere(errors.Code.NO_GAME) from None
    except st.CorruptGame as damaged:
        raise errors.GameDamaged(damaged.game_id, damaged.reason) from None


async def players_game(
    kit: ServiceKit, place: Place, actor: Actor, *, needs_turn: bool = False
) -> st.GameRecord:
    """The channel's game, checking that the actor plays in it (and is to move, if asked).
    Raises ``NotAPlayer`` or ``NotYourTurn`` as well as what :func:`active_game` raises."""
    record = await active_game(kit, place)
    await check_seat(kit, record, actor.user_id, needs_turn=needs_turn)
    return record


async def check_seat(
    kit: ServiceKit, record: st.GameRecord, user_id: int, *, needs_turn: bool = False
) -> None:
    """Refuse a user who does not play in ``record`` (``NotAPlayer``), or, if ``needs_turn``,
    is not to move (``NotYourTurn``)."""
    side = record.side_of(user_id)
    if side is None:
        raise errors.NotAPlayer(errors.Code.NOT_A_PLAYER)
    if needs_turn and record.engine.turn != side:
        opponent = record.player_id(record.engine.turn)
        raise errors.NotYourTurn(
            errors.Code.NOT_YOUR_TURN,
            player=opponent,
            name=await kit.names(record.guild_id, opponent),
            side=record.engine.turn,
            ruleset=record.engine.ruleset,
        )


def check_clock(kit: ServiceKit, record: st.GameRecord) -> None:
    """Refuse an action that needs the clock running and not run out: ``GamePaused`` or
    ``TimeUp`` (which also wakes the scheduler to apply the timeout)."""
    clock = record.clock
    if clock.paused:
        raise errors.GamePaused(errors.Code.CLOCK_PAUSED)
    if clock.deadline_at is not None and kit.now() >= clock.deadline_at:
        kit.signals.deadlines_changed.set()  # let the scheduler apply the timeout right away
        raise errors.TimeUp(errors.Code.TIME_UP)


def game_changed() -> errors.GameChanged:
    """The refusal when another action got to the game first (the version check failed)."""
    return errors.GameChanged(errors.Code.CHANGED_MEANWHILE)
