"""Signed links to the live board: a token names a game, when it expires and, where the link
was made for one, the user it was given to. HMAC-SHA256 over those, URL-safe base64 without
padding, so the token rides in a URL fragment as it is."""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from datetime import UTC, datetime

_SIGNATURE_BYTES = 32


class BadToken(ValueError):
    """A token that is not one of ours, was changed, or has expired (``expired``)."""

    def __init__(self, reason: str, *, expired: bool = False) -> None:
        self.expired = expired
        super().__init__(reason)


@dataclass(frozen=True)
class WatchGrant:
    """What a valid token allows: watching ``game_id`` until ``expires_at``, and moving for
    ``user_id`` if they play in it."""

    game_id: int
    user_id: int | None
    expires_at: datetime


def _body(game_id: int, expires_at: datetime, user_id: int | None) -> bytes:
    return f"{game_id}.{int(expires_at.timestamp())}.{user_id or 0}".encode()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign_watch_token(
    secret: bytes, game_id: int, *, expires_at: datetime, user_id: int | None = None
) -> str:
    """A token that lets its holder watch ``game_id`` until ``expires_at`` (and ``user_id``
    move, if they play)."""
    body = _body(game_id, expires_at, user_id)
    signature = hmac.new(secret, body, hashlib.sha256).digest()
    return _b64(body + signature)


def read_watch_token(secret: bytes, token: str, *, now: datetime) -> WatchGrant:
    """What ``token`` grants at ``now``. Raises ``BadToken``."""
    try:
        raw = _unb64(token)
    except ValueError:
        raise BadToken("not a token") from None
    body, signature = raw[:-_SIGNATURE_BYTES], raw[-_SIGNATURE_BYTES:]
    expected = hmac.new(secret, body, hashlib.sha256).digest()
    if len(raw) <= _SIGNATURE_BYTES or not hmac.compare_digest(signature, expected):
        raise BadToken("not signed by us")
    game, expiry, user = (int(part) for part in body.decode().split("."))
    expires_at = datetime.fromtimestamp(expiry, UTC)
    if expires_at <= now:
        raise BadToken("expired", expired=True)
    return WatchGrant(game, user or None, expires_at)
