"""Watch and server tokens: what a good one grants, and that a forged, expired or changed one,
or one of the other kind, grants nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.web.tokens import (
    BadToken,
    read_server_token,
    read_watch_token,
    sign_server_token,
    sign_watch_token,
)

SECRET = b"k" * 32
NOW = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
LATER = NOW + timedelta(hours=24)


def test_a_good_token_grants_its_game_to_its_user_until_it_expires() -> None:
    token = sign_watch_token(SECRET, 12, expires_at=LATER, user_id=2**62 + 7)
    grant = read_watch_token(SECRET, token, now=NOW)
    assert (grant.game_id, grant.user_id, grant.expires_at) == (12, 2**62 + 7, LATER)
    assert "=" not in token and "+" not in token and "/" not in token  # rides in a fragment


def test_a_token_without_a_user_lets_only_watch() -> None:
    grant = read_watch_token(SECRET, sign_watch_token(SECRET, 12, expires_at=LATER), now=NOW)
    assert grant.user_id is None


def test_a_token_signed_with_another_secret_is_refused() -> None:
    token = sign_watch_token(b"x" * 32, 12, expires_at=LATER, user_id=5)
    with pytest.raises(BadToken) as refused:
        read_watch_token(SECRET, token, now=NOW)
    assert not refused.value.expired


@pytest.mark.parametrize("garbage", ["", "abc", "!!!!", "a" * 200])
def test_garbage_is_refused(garbage: str) -> None:
    with pytest.raises(BadToken):
        read_watch_token(SECRET, garbage, now=NOW)


def test_an_expired_token_is_refused_as_expired() -> None:
    token = sign_watch_token(SECRET, 12, expires_at=NOW, user_id=5)
    with pytest.raises(BadToken) as refused:
        read_watch_token(SECRET, token, now=NOW)
    assert refused.value.expired


def test_a_token_changed_to_another_game_is_refused() -> None:
    import base64

    token = sign_watch_token(SECRET, 12, expires_at=LATER, user_id=5)
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    other = raw.replace(b"12.", b"13.", 1)
    forged = base64.urlsafe_b64encode(other).rstrip(b"=").decode()
    with pytest.raises(BadToken):
        read_watch_token(SECRET, forged, now=NOW)
    assert read_watch_token(SECRET, token, now=NOW).game_id == 12


def test_a_server_token_grants_its_server_until_it_expires() -> None:
    grant = read_server_token(
        SECRET, sign_server_token(SECRET, 2**62 + 1, expires_at=LATER), now=NOW
    )
    assert (grant.guild_id, grant.expires_at) == (2**62 + 1, LATER)
    with pytest.raises(BadToken) as refused:
        read_server_token(SECRET, sign_server_token(SECRET, 1, expires_at=NOW), now=NOW)
    assert refused.value.expired


def test_one_kind_of_token_never_reads_as_the_other() -> None:
    server = sign_server_token(SECRET, 12, expires_at=LATER)
    watch = sign_watch_token(SECRET, 12, expires_at=LATER, user_id=5)
    with pytest.raises(BadToken) as refused:
        read_watch_token(SECRET, server, now=NOW)
    assert not refused.value.expired
    with pytest.raises(BadToken):
        read_server_token(SECRET, watch, now=NOW)
    with pytest.raises(BadToken):
        read_server_token(SECRET, sign_watch_token(SECRET, 12, expires_at=LATER), now=NOW)
