"""Records of the announcement outbox: what must be posted because something happened that
nobody's interaction is waiting for (a timeout, a reminder, the computer's move, a tournament's
round, a match's welcome in its thread, a tournament's final table)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from datetime import datetime
from typing import Any, Literal, get_type_hints

AnnouncementKind = Literal[
    "reminder",
    "timeout",
    "computer_move",
    "round_paired",
    "match_welcome",
    "final_table",
    "turn_ping",
    "vacation_start",
    "vacation_end",
]
Settlement = Literal["sent", "dropped", "retry"]
# The lease of an announcement its writer holds (``held_seconds``) to post it itself. A claim
# takes a fresh random lease instead, so a writer whose hold ran out and was claimed by the
# delivery loop can no longer settle it.
WRITER_LEASE = "writer"


@dataclass(frozen=True, slots=True)
class ReminderPost:
    """The player to move is reminded, at ``due_at``, that their time runs out at
    ``deadline_at``."""

    due_at: datetime
    user_id: int
    deadline_at: datetime
    # False: the player turned their pings off (an older post, without it, pinged).
    pinged: bool = True


@dataclass(frozen=True, slots=True)
class TimeoutPost:
    """The player to move ran out of time at ``deadline_at`` and lost the game (the final
    board is rebuilt from the game)."""

    due_at: datetime
    user_id: int
    deadline_at: datetime


@dataclass(frozen=True, slots=True)
class ComputerMovePost:
    """The computer (``actor_id``) played ``move``, which took its game to ``version`` and
    ``plies`` actions."""

    version: int
    move: str
    actor_id: int
    # 0 in a post stored before it had plies, when a game's version was its ply count.
    plies: int = 0

    @property
    def plies_after(self) -> int:
        """How many actions the game had after the move."""
        return self.plies or self.version


@dataclass(frozen=True, slots=True)
class RoundPost:
    """Round ``round`` of a tournament is paired."""

    tournament_id: int
    round: int


@dataclass(frozen=True, slots=True)
class WelcomePost:
    """A tournament match (``round``, ``board``) starts in its thread."""

    tournament_id: int
    round: int
    board: int


@dataclass(frozen=True, slots=True)
class FinalTablePost:
    """A tournament has finished: its final table."""

    tournament_id: int


@dataclass(frozen=True, slots=True)
class TurnPingPost:
    """``user_id`` is told, by direct message, that it is their move: ``actor_id`` played
    ``move``, which took the game to ``version`` and ``plies`` actions."""

    version: int
    plies: int
    move: str
    actor_id: int
    user_id: int


@dataclass(frozen=True, slots=True)
class VacationStartPost:
    """``user_id`` went on vacation, until ``ends_at`` at the latest: their opponent in the
    game is told."""

    user_id: int
    ends_at: datetime


@dataclass(frozen=True, slots=True)
class VacationEndPost:
    """``user_id`` is back from vacation; ``automatic``: because their days ran out (told like
    a reminder, to them)."""

    user_id: int
    automatic: bool


Post = (
    ReminderPost
    | TimeoutPost
    | ComputerMovePost
    | RoundPost
    | WelcomePost
    | FinalTablePost
    | TurnPingPost
    | VacationStartPost
    | VacationEndPost
)
# Each kind of post and the ``kind`` it is stored as: the one place a stored row's kind and
# payload turn into a typed post, and back.
_KIND_OF: dict[type[Post], AnnouncementKind] = {
    ReminderPost: "reminder",
    TimeoutPost: "timeout",
    ComputerMovePost: "computer_move",
    RoundPost: "round_paired",
    WelcomePost: "match_welcome",
    FinalTablePost: "final_table",
    TurnPingPost: "turn_ping",
    VacationStartPost: "vacation_start",
    VacationEndPost: "vacation_end",
}
_KINDS: dict[str, type[Post]] = {kind: cls for cls, kind in _KIND_OF.items()}


def stored_post(post: Post) -> tuple[AnnouncementKind, dict[str, Any]]:
    """The kind and the JSON-able payload ``post`` is stored as."""
    payload = {
        f.name: value.isoformat() if isinstance(value, datetime) else value
        for f in fields(post)
        for value in [getattr(post, f.name)]
    }
    return _KIND_OF[type(post)], payload


def post_of(kind: str, payload: Mapping[str, Any]) -> Post:
    """The post a stored ``kind`` and ``payload`` hold. Raises ``ValueError`` for an unknown
    kind or a payload that does not fit it."""
    cls = _KINDS[checked_kind(kind)]
    values: dict[str, Any] = {}
    later = {f.name for f in fields(cls) if f.default is not MISSING}  # older payloads lack them
    for name, kind_of_value in get_type_hints(cls).items():
        if name in later and name not in payload:
            continue
        try:
            value = payload[name]
            values[name] = (
                datetime.fromisoformat(value) if kind_of_value is datetime else kind_of_value(value)
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"a {kind} announcement's {name!r} is missing or wrong") from exc
    return cls(**values)


def checked_kind(kind: str) -> AnnouncementKind:
    """``kind`` if some post is stored as it; ``ValueError`` otherwise. The one check of a
    kind before it is written (the schema leaves the column open, so a new kind needs no
    migration)."""
    cls = _KINDS.get(kind)
    if cls is None:
        raise ValueError(f"no announcement is of kind {kind!r}")
    return _KIND_OF[cls]


def announcement(
    key: str, post: Post, *, held_seconds: float = 0.0, to_user: int | None = None
) -> Announcement:
    """The announcement of ``post``, to write with the change it announces (see
    :class:`Announcement` for ``key``, ``held_seconds`` and ``to_user``)."""
    kind, payload = stored_post(post)
    return Announcement(key, kind, payload, held_seconds, to_user)


@dataclass(frozen=True, slots=True)
class Announcement:
    """An announcement to write together with the change it announces, in the form it is
    stored in (:func:`announcement` makes one from a typed post).

    ``key`` names the event (``"timeout:12"``): the same event is written once, whoever tries.
    ``payload`` is JSON-able data the front end rebuilds the message from. ``held_seconds``:
    the writer's caller posts it itself and keeps it that long before the delivery loop may.
    ``to_user``: a direct message to that user rather than a post in the channel (the game's,
    or the one the write names).
    """

    key: str
    kind: AnnouncementKind
    payload: Mapping[str, Any] = field(default_factory=dict)
    held_seconds: float = 0.0
    to_user: int | None = None


@dataclass(frozen=True, slots=True)
class ChannelAddress:
    """An announcement posted in a channel (or a thread)."""

    channel_id: int


@dataclass(frozen=True, slots=True)
class UserAddress:
    """An announcement sent to a user as a direct message."""

    user_id: int


Address = ChannelAddress | UserAddress


@dataclass(frozen=True, slots=True)
class OutboxEntry:
    """A pending announcement, as the delivery loop takes it."""

    id: int
    key: str
    kind: AnnouncementKind
    guild_id: int | None  # None: outside servers
    address: Address
    game_id: int | None  # None: about a tournament, not one game
    payload: Mapping[str, Any]
    created_at: datetime
    attempts: int  # including this one
    lease: str  # this claim's token: settling needs it (see ``OutboxStore.settle``)

    @property
    def channel_id(self) -> int:
        """The channel it is posted in; ``ValueError`` for a direct message."""
        if isinstance(self.address, UserAddress):
            raise ValueError(f"announcement {self.key} goes to a user, not a channel")
        return self.address.channel_id

    @property
    def post(self) -> Post:
        """What is to be posted, typed. Raises ``ValueError`` for a stored row that holds no
        post (an unknown kind, a damaged payload)."""
        return post_of(self.kind, self.payload)
