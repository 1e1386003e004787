"""Signed links to the live board and to a server's page: a watch token names a game, when it
expires and, where the link was made for one, the user it was given to; a server token names a
server and when it expires. HMAC-SHA256 over those, URL-safe base64 without
padding, so the token rides in a URL fragment as it is."""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

_SIGNATURE_BYTES = 32


class BadToken(ValueError):
    """A token that is not one of ours, was changed, or has expired (``expired``)."""

    def __init__(self, reason: str, *, expired: bool = False) -> None:
        self.expired = expired
        super().__init__(reason)

    @property
    def code(self) -> Literal["bad_token", "expired_token"]:
        """The refusal's code, as the pages read it."""
        return "expired_token" if self.expired else "bad_token"


@dataclass(frozen=True)
class WatchGrant:
    """What a valid token allows: watching ``game_id`` until ``expires_at``, and moving for
    ``user_id`` if they play in it."""

    game_id: int
    user_id: int | None
    expires_at: datetime


@dataclass(frozen=True)
class ServerGrant:
    """What a server page's token allows: reading the page of ``guild_id`` until
    ``expires_at``."""

    guild_id: int
    expires_at: datetime


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _sign(secret: bytes, body: bytes) -> str:
    return _b64(body + hmac.new(secret, body, hashlib.sha256).digest())


def _signed_numbers(secret: bytes, token: str, *, kind: str | None, count: int) -> list[int]:
    """The ``count`` numbers ``token`` signs; ``kind`` is the first word of a token that is
    not a watch link's, so one kind never reads as another."""
    try:
        raw = _unb64(token)
    except ValueError:
        raise BadToken("not a token") from None
    body, signature = raw[:-_SIGNATURE_BYTES], raw[-_SIGNATURE_BYTES:]
    expected = hmac.new(secret, body, hashlib.sha256).digest()
    if len(raw) <= _SIGNATURE_BYTES or not hmac.compare_digest(signature, expected):
        raise BadToken("not signed by us")
    words = body.decode().split(".")
    if kind is not None:
        if words[0] != kind:
            raise BadToken(f"not a {kind} token")
        words = words[1:]
    try:
        numbers = [int(word) for word in words]
    except ValueError:
        raise BadToken("not this kind of token") from None
    if len(numbers) != count:
        raise BadToken("not this kind of token")
    return numbers


def _expiry(timestamp: int, now: datetime) -> datetime:
    expires_at = datetime.fromtimestamp(timestamp, UTC)
    if expires_at <= now:
        raise BadToken("expired", expired=True)
    return expires_at


def sign_watch_token(
    secret: bytes, game_id: int, *, expires_at: datetime, user_id: int | None = None
) -> str:
    """A token that lets its holder watch ``game_id`` until ``expires_at`` (and ``user_id``
    move, if they play)."""
    return _sign(secret, f"{game_id}.{int(expires_at.timestamp())}.{user_id or 0}".encode())


def read_watch_token(secret: bytes, token: str, *, now: datetime) -> WatchGrant:
    """What ``token`` grants at ``now``. Raises ``BadToken``."""
    game, expiry, user = _signed_numbers(secret, token, kind=None, count=3)
    return WatchGrant(game, user or None, _expiry(expiry, now))


def sign_server_token(secret: bytes, guild_id: int, *, expires_at: datetime) -> str:
    """A token that lets its holder read the server page of ``guild_id`` until
    ``expires_at``."""
    return _sign(secret, f"server.{guild_id}.{int(expires_at.timestamp())}".encode())


def read_server_token(secret: bytes, token: str, *, now: datetime) -> ServerGrant:
    """What a server page's ``token`` grants at ``now``. Raises ``BadToken``."""
    guild, expiry = _signed_numbers(secret, token, kind="server", count=2)
    return ServerGrant(guild, _expiry(expiry, now))
