"""Challenges: posting one, accepting (which starts the match), declining, withdrawing, and
letting overdue ones expire."""

from __future__ import annotations

import re
from datetime import timedelta

from bot import store as st
from bot.jarmo import Game
from bot.service import errors
from bot.service._reports import Reports
from bot.service._seats import check_here
from bot.service.game_options import CHALLENGE_RULES, check_game_options
from bot.service.kit import ServiceKit
from bot.service.models import Actor, BoardView, ChallengeRequest, ChallengeView, Place
from bot.service.ratings import new_skill
from bot.service.timecontrol import NO_LIMIT
from bot.service.venues import NewMatch, Venue

COMPUTER_LEVELS = ("easy", "medium", "hard")
DEFAULT_COMPUTER_LEVEL = "medium"
_SIDES: dict[str, st.SidePreference] = {"white": "white", "black": "black", "random": "random"}
# Two whole ratings joined by a dash ("1000-1300", or with an en dash as phones type it); at
# most five digits each, so no text makes a huge number.
_RATING_RANGE = re.compile(r"\s*(\d{1,5})\s*[-\u2013]\s*(\d{1,5})\s*")


def parse_rating_range(text: str) -> st.RatingRange:
    """The range ``text`` (``"1000-1300"``) names, both ends included. Raises
    ``ChallengeUnavailable`` (``BAD_RATING_RANGE``) for anything else: no range, a negative
    end, or a lowest rating above the highest."""
    found = _RATING_RANGE.fullmatch(text)
    if found is None or int(found[1]) > int(found[2]):
        raise errors.ChallengeUnavailable(errors.Code.BAD_RATING_RANGE, text=text)
    return st.RatingRange(int(found[1]), int(found[2]))


class ChallengeCases:
    """The challenge use cases over one service kit."""

    def __init__(self, kit: ServiceKit, reports: Reports) -> None:
        self._kit = kit
        self._reports = reports

    async def post(
        self, place: Place, challenger: Actor, request: ChallengeRequest
    ) -> ChallengeView:
        """Post a challenge in a channel. Raises ``ChallengeUnavailable`` for a bad opponent or
        option and ``ChannelBusy`` when the channel already has a game or challenge."""
        kit = self._kit
        opponent = request.opponent
        if opponent is None:
            return await self._post_open(place, challenger, request)
        if request.rating_range is not None:
            raise errors.ChallengeUnavailable(errors.Code.RATING_RANGE_NEEDS_OPEN_CHALLENGE)
        if opponent.user_id == challenger.user_id:
            raise errors.ChallengeUnavailable(errors.Code.SELF_CHALLENGE)
        if opponent.is_bot and not kit.is_computer(opponent.user_id):
            raise errors.ChallengeUnavailable(errors.Code.BOT_OPPONENT, name=opponent.display_name)
        return await self.post_options(place, challenger, opponent, self._options(request))

    async def _post_open(
        self, place: Place, challenger: Actor, request: ChallengeRequest
    ) -> ChallengeView:
        """An open challenge: anyone in the channel (rated within its range, if it has one)
        may accept it."""
        limits = None if request.rating_range is None else parse_rating_range(request.rating_range)
        options = self._options(request)
        await self._kit.names.remember(place, challenger)
        record = await self._create(place, challenger.user_id, None, options, limits)
        return ChallengeView(record, challenger.display_name, "")

    async def post_options(
        self, place: Place, challenger: Actor, opponent: Actor, options: st.ChallengeOptions
    ) -> ChallengeView:
        """Post a challenge whose options are already settled (a rematch copies its match's).
        Raises ``ChannelBusy`` when the channel already has a game or challenge."""
        kit = self._kit
        await kit.names.remember(place, challenger)
        await kit.names.remember(place, opponent)
        record = await self._create(place, challenger.user_id, opponent.user_id, options)
        return ChallengeView(record, challenger.display_name, opponent.display_name)

    async def _create(
        self,
        place: Place,
        challenger_id: int,
        challenged_id: int | None,
        options: st.ChallengeOptions,
        rating_range: st.RatingRange | None = None,
    ) -> st.ChallengeRecord:
        kit = self._kit
        now = kit.now()
        new = st.NewChallenge(
            guild_id=place.guild_id,
            channel_id=place.channel_id,
            challenger_id=challenger_id,
            challenged_id=challenged_id,
            options=options,
            expires_at=now + timedelta(seconds=kit.config.challenge_expiry_seconds),
            rating_range=rating_range,
        )
        async with kit.locks(place.channel_id):
            try:
                return await kit.store.challenges.create(new, now=now)
            except st.ChannelTaken as busy:
                raise await self._busy(busy, place.channel_id) from None

    def _options(self, request: ChallengeRequest) -> st.ChallengeOptions:
        side = _SIDES.get(request.side)
        if side is None:
            raise errors.ChallengeUnavailable(errors.Code.UNKNOWN_SIDE, side=request.side)
        level = self._level(request)  # checked first: it says whether a clock is allowed
        settings = check_game_options(
            self._kit.config,
            CHALLENGE_RULES,
            games=request.games,
            ruleset=request.ruleset,
            time_per_move=self._time_per_move(request),
        )
        return settings.challenge(side, level)

    def _level(self, request: ChallengeRequest) -> str | None:
        if not self._plays_computer(request):
            return None
        level = request.level or DEFAULT_COMPUTER_LEVEL
        if level not in COMPUTER_LEVELS:
            raise errors.ChallengeUnavailable(errors.Code.UNKNOWN_LEVEL, level=level)
        return level

    def _time_per_move(self, request: ChallengeRequest) -> str | None:
        # The computer answers at once and cannot lose on time while the bot is down, so games
        # against it run without a clock.
        if not self._plays_computer(request):
            return request.time_per_move
        if request.time_per_move not in (None, NO_LIMIT):
            raise errors.ChallengeUnavailable(errors.Code.COMPUTER_HAS_NO_CLOCK)
        return NO_LIMIT

    def _plays_computer(self, request: ChallengeRequest) -> bool:
        return request.opponent is not None and self._kit.is_computer(request.opponent.user_id)

    async def attach_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows a challenge, so it can be updated when it expires."""
        await self._kit.store.challenges.attach_message(challenge_id, message_id)

    async def view(self, challenge_id: int) -> ChallengeView:
        """A challenge with its players' names. Raises ``ChallengeUnavailable`` if unknown."""
        return await self._named(await self._challenge(challenge_id))

    async def _challenge(self, challenge_id: int) -> st.ChallengeRecord:
        try:
            return await self._kit.store.challenges.get(challenge_id)
        except st.NotFound:
            raise errors.ChallengeUnavailable(errors.Code.CHALLENGE_GONE) from None

    async def _named(self, record: st.ChallengeRecord) -> ChallengeView:
        names, challenged = self._kit.names, record.challenged_id
        return ChallengeView(
            record,
            await names(record.guild_id, record.challenger_id),
            "" if challenged is None else await names(record.guild_id, challenged),
        )

    async def accept(
        self,
        actor: Actor,
        challenge_id: int,
        *,
        venue: Venue | None = None,
        place: Place | None = None,
    ) -> BoardView:
        """The challenged player accepts: the match and its first game start, in the channel
        ``venue`` opens for it (if any) or else where the challenge was posted. ``place``:
        where the answer was given, which must be where the challenge was posted."""
        kit = self._kit
        record = await self._challenge(challenge_id)
        check_here(place, record.guild_id, record.channel_id)
        if record.challenged_id is None:
            await self._check_may_accept_open(actor, record)
        elif actor.user_id != record.challenged_id:
            raise errors.NotAllowed(errors.Code.ONLY_CHALLENGED_ANSWERS, answer="accept")
        await kit.names.remember(Place(record.guild_id, record.channel_id), actor)
        side = record.options.side
        if side == "random":
            side = kit.rng.choice(("white", "black"))
        first_white = record.challenger_id if side == "white" else actor.user_id
        _, game_record = await self._start(record, first_white, venue, actor)
        return await self._reports.view(game_record)

    async def _check_may_accept_open(self, actor: Actor, record: st.ChallengeRecord) -> None:
        """Refuse the challenger's own click, and a player rated outside the range (in the
        challenge's ruleset and server; a player with no rated game there counts as new)."""
        if actor.user_id == record.challenger_id:
            raise errors.NotAllowed(errors.Code.OWN_OPEN_CHALLENGE)
        limits = record.rating_range
        if limits is None:
            return
        rating = await self._rating(record.guild_id, record.options.ruleset, actor.user_id)
        if not limits.holds(rating):
            raise errors.NotAllowed(
                errors.Code.OUTSIDE_RATING_RANGE,
                rating=round(rating),
                lowest=limits.lowest,
                highest=limits.highest,
                ruleset=record.options.ruleset,
            )

    async def _rating(self, guild_id: int | None, ruleset: str, user_id: int) -> float:
        for rating in await self._kit.store.ratings.player_ratings(guild_id, user_id):
            if rating.ruleset == ruleset:
                return rating.skill.rating
        return new_skill().rating

    async def start_arranged(
        self,
        place: Place,
        first: Actor,
        second: Actor,
        options: st.ChallengeOptions,
        *,
        venue: Venue,
        tournament_name: str | None = None,
    ) -> st.MatchRecord | None:
        """Start a match that nobody needs to accept (a tournament's pairing, arranged in
        ``place``): it is challenged and accepted at once, in the place ``venue`` opens for it,
        with ``first`` playing White first. ``None`` when the venue opens no place (try again
        later). Raises ``ChannelBusy`` or ``ChallengeUnavailable`` as :meth:`accept` does."""
        opened = await venue.open(
            NewMatch(
                place, first.display_name, second.display_name, options.ruleset, tournament_name
            )
        )
        if opened is None:
            return None
        where = Place(place.guild_id, opened)
        record = await self._create(where, first.user_id, second.user_id, options)
        match, _ = await self._start(record, first.user_id, None, second)
        return match

    async def _start(
        self,
        record: st.ChallengeRecord,
        first_white_id: int,
        venue: Venue | None,
        acceptor: Actor,
    ) -> tuple[st.MatchRecord, st.GameRecord]:
        """``acceptor`` accepts ``record``: its match and the match's first game start, in the
        place ``venue`` opens (if any) or else in the challenge's channel."""
        kit = self._kit
        options = record.options
        game = Game.new(options.ruleset, options.layout, options.max_plies)
        async with kit.locks(record.channel_id):
            channel_id = await self._open_venue(record.id, venue, acceptor)
            try:
                started = await kit.store.challenges.accept(
                    record.id,
                    first_white_id=first_white_id,
                    first_game=game,
                    now=kit.now(),
                    channel_id=channel_id,
                    acceptor_id=acceptor.user_id,
                )
            except st.ChallengeClosed as closed:
                raise _closed(closed) from None
            except st.ChannelTaken as busy:
                raise await self._busy(busy, channel_id or record.channel_id) from None
            kit.signals.new_deadline(started[1].match)
        return started

    async def _busy(self, busy: st.ChannelTaken, channel_id: int) -> errors.Refusal:
        """The refusal for a channel that is taken. A game that cannot be loaded is named as
        damaged, as every other command names it, since only a moderator's abort frees it."""
        if busy.reason == "game":
            try:
                await self._kit.store.games.active(channel_id)
            except st.CorruptGame as damaged:
                return errors.GameDamaged(damaged.game_id, damaged.reason)
        return _busy(busy)

    async def _open_venue(
        self, challenge_id: int, venue: Venue | None, acceptor: Actor
    ) -> int | None:
        """The match's own channel from ``venue``, opened only for a challenge that can still be
        accepted (a second click must not open a second thread)."""
        if venue is None:
            return None
        record = await self._challenge(challenge_id)
        if record.status != "pending":
            raise _closed(st.ChallengeClosed(challenge_id, record.status))
        if record.is_overdue(self._kit.now()):
            raise errors.ChallengeUnavailable(errors.Code.CHALLENGE_EXPIRED)
        named = await self._named(record)
        return await venue.open(
            NewMatch(
                Place(record.guild_id, record.channel_id),
                named.challenger_name,
                named.challenged_name or acceptor.display_name,
                record.options.ruleset,
            )
        )

    async def decline(
        self, actor: Actor, challenge_id: int, *, place: Place | None = None
    ) -> ChallengeView:
        """The challenged player says no (in ``place``, where the challenge was posted)."""
        return await self._close(actor, challenge_id, "declined", place)

    async def cancel(
        self, actor: Actor, challenge_id: int, *, place: Place | None = None
    ) -> ChallengeView:
        """The challenger withdraws the challenge (in ``place``, where it was posted)."""
        return await self._close(actor, challenge_id, "cancelled", place)

    async def _close(
        self,
        actor: Actor,
        challenge_id: int,
        status: st.ClosedChallengeStatus,
        place: Place | None,
    ) -> ChallengeView:
        kit = self._kit
        record = await self._challenge(challenge_id)
        check_here(place, record.guild_id, record.channel_id)
        allowed = record.challenged_id if status == "declined" else record.challenger_id
        if actor.user_id != allowed:
            if status == "declined":
                raise errors.NotAllowed(errors.Code.ONLY_CHALLENGED_ANSWERS, answer="decline")
            raise errors.NotAllowed(errors.Code.ONLY_CHALLENGER_CANCELS)
        async with kit.locks(record.channel_id):
            try:
                record = await kit.store.challenges.close(challenge_id, status, now=kit.now())
            except st.ChallengeClosed as closed:
                raise _closed(closed) from None
        return await self._named(record)

    async def expire_overdue(self) -> list[ChallengeView]:
        """Mark overdue challenges expired (so their messages can say so)."""
        expired = await self._kit.store.challenges.expire_overdue(now=self._kit.now())
        return [await self._named(record) for record in expired]


def _busy(busy: st.ChannelTaken) -> errors.ChannelBusy:
    if busy.reason == "game":
        return errors.ChannelBusy(errors.Code.CHANNEL_HAS_GAME)
    return errors.ChannelBusy(errors.Code.CHANNEL_HAS_CHALLENGE)


def _closed(closed: st.ChallengeClosed) -> errors.ChallengeUnavailable:
    if closed.status == "expired":
        return errors.ChallengeUnavailable(errors.Code.CHALLENGE_EXPIRED)
    return errors.ChallengeUnavailable(errors.Code.CHALLENGE_ANSWERED, status=closed.status)
