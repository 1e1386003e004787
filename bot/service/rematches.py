"""Rematch: after a match ends, either player offers the same match again with sides swapped.
A person answers it as any challenge; the computer accepts at once."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot import store as st
from bot.service import errors
from bot.service._seats import check_here
from bot.service.challenges import ChallengeCases
from bot.service.game_options import GameOptions
from bot.service.kit import ServiceKit
from bot.service.models import Actor, BoardView, ChallengeView, Place

# The opponent as a member of the match's server now, or ``None`` if they left it.
MemberLookup = Callable[[int], Awaitable[Actor | None]]


@dataclass(frozen=True, slots=True)
class RematchOffered:
    """The rematch is a challenge for the opponent to answer."""

    challenge: ChallengeView


@dataclass(frozen=True, slots=True)
class RematchStarted:
    """The computer accepted: the rematch's first game is on."""

    board: BoardView


Rematch = RematchOffered | RematchStarted


class RematchCases:
    """The rematch use case, posting through the challenge use cases."""

    def __init__(self, kit: ServiceKit, challenges: ChallengeCases) -> None:
        self._kit = kit
        self._challenges = challenges

    async def offer(
        self, actor: Actor, match_id: int, members: MemberLookup, *, here: Place | None = None
    ) -> Rematch:
        """``actor`` offers a rematch of the ended match ``match_id``, in the match's channel.

        Raises ``NoGameHere`` for an unknown match, ``NotAllowed`` for someone who did not play
        in it, ``ChallengeUnavailable`` while it runs or when the opponent has left the server,
        and ``ChannelBusy`` when its channel already has a game or challenge."""
        kit = self._kit
        match = await self._ended_match(actor, match_id)
        check_here(here, match.guild_id, match.channel_id)
        place = Place(match.guild_id, match.channel_id)
        options = await self._swapped_options(match, actor.user_id)
        opponent_id = next(p for p in match.player_ids if p != actor.user_id)
        if kit.computer is not None and kit.is_computer(opponent_id):
            view = await self._challenges.post_options(place, actor, kit.computer, options)
            board = await self._challenges.accept(kit.computer, view.challenge.id)
            return RematchStarted(board)
        opponent = await members(opponent_id)
        if opponent is None:
            name = await kit.names(match.guild_id, opponent_id)
            raise errors.ChallengeUnavailable(errors.Code.OPPONENT_LEFT, name=name)
        view = await self._challenges.post_options(place, actor, opponent, options)
        return RematchOffered(view)

    async def _ended_match(self, actor: Actor, match_id: int) -> st.MatchRecord:
        try:
            match = await self._kit.store.games.match(match_id)
        except st.NotFound:
            raise errors.NoGameHere(errors.Code.NO_MATCH) from None
        if actor.user_id not in match.player_ids:
            raise errors.NotAllowed(errors.Code.REMATCH_ONLY_PLAYERS)
        if match.state == "running":
            raise errors.ChallengeUnavailable(errors.Code.MATCH_NOT_OVER)
        return match

    async def _swapped_options(self, match: st.MatchRecord, actor_id: int) -> st.ChallengeOptions:
        """The match's settings (from its challenge, which also knows the computer's level),
        with ``actor_id`` taking the side their opponent had in the first game, on the
        published board even when the match was played on an older one."""
        side: st.SidePreference = "black" if actor_id == match.first_white_id else "white"
        level: str | None = None
        if match.challenge_id is not None:
            # Only the challenge knows the computer's level; the match keeps all else.
            with contextlib.suppress(st.NotFound):
                challenge = await self._kit.store.challenges.get(match.challenge_id)
                level = challenge.options.vs_computer_level
        return GameOptions.of_match(match).challenge(side, level)
