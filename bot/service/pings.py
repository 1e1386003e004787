"""Turn pings: how a player is told it is their move, in every server (``mention``, the
default: the move's board mentions them; ``dm``: a direct message; ``off``: nothing).

A direct message goes through the outbox, written with the move itself, so it is sent exactly
once whichever process delivers it. A game against the computer pings nobody: the computer
answers while its player is looking."""

from __future__ import annotations

from dataclasses import dataclass

from bot import store as st
from bot.jarmo import Game
from bot.service.kit import ServiceKit

TurnPing = st.TurnPing
TURN_PINGS = st.TURN_PINGS


@dataclass(frozen=True, slots=True)
class TurnPingPlan:
    """How a move's player to move is told (``mode``), the direct message to write with the
    move (``announce``), and whether the mover is yet to hear that a direct message to them
    was refused (``dm_refused``)."""

    mode: st.TurnPing = "mention"
    announce: tuple[st.Announcement, ...] = ()
    dm_refused: bool = False


NO_PING = TurnPingPlan("off")


class TurnPings:
    """The players' turn ping settings, and the ping of each move."""

    def __init__(self, kit: ServiceKit) -> None:
        self._kit = kit

    async def choose(self, user_id: int, mode: st.TurnPing) -> st.TurnPing:
        """Make ``mode`` the player's turn pings, in every server. Raises ``ValueError`` for
        a mode that is none of ``mention``, ``dm`` and ``off``."""
        await self._kit.store.pings.choose(user_id, mode)
        return mode

    def plan(self, record: st.GameRecord, mover_id: int, game: Game) -> TurnPingPlan:
        """The ping of the move that took ``record`` (as it was before) to ``game``, by
        ``mover_id``, from the players' settings read with ``record`` (nothing is read again):
        the direct message when the player to move asked for one."""
        kit = self._kit
        if kit.is_computer(record.white_id) or kit.is_computer(record.black_id):
            return NO_PING
        if game.over:
            return TurnPingPlan()
        to_move = record.player_id(game.turn)
        mode = record.ping_setting(to_move).mode
        refused = record.ping_setting(mover_id).dm_refused
        if mode != "dm":
            return TurnPingPlan(mode, dm_refused=refused)
        version, plies = record.version + 1, len(game.history)
        post = st.TurnPingPost(version, plies, game.history[-1], mover_id, to_move)
        direct = st.announcement(f"turn_ping:{record.id}:{version}", post, to_user=to_move)
        return TurnPingPlan("dm", (direct,), refused)

    async def take_dm_refused(self, user_id: int) -> bool:
        """Whether the player is yet to hear that a direct message to them was refused (true
        once: whoever asks first tells them)."""
        return await self._kit.store.pings.take_dm_refused(user_id)

    async def dm_refused(self, user_id: int) -> None:
        """A direct message to the player was refused: tell them with their next command."""
        await self._kit.store.pings.refuse_dm(user_id)
