"""The live board's plain HTTP routes: security headers on every answer, no cookies, the page,
the health check, the page's configuration, and a clean 404."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.web.app import CONTENT_SECURITY_POLICY
from tests.web.conftest import Live, LiveFactory


def _check_headers(headers: object) -> None:
    from multidict import CIMultiDictProxy

    assert isinstance(headers, CIMultiDictProxy)
    assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "frame-ancestors https://discord.com" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert "Set-Cookie" not in headers


@pytest.mark.parametrize("path", ["/healthz", "/config.json", "/", "/watch", "/nothing-here"])
async def test_every_answer_carries_the_security_headers(live: Live, path: str) -> None:
    answer = await live.client.get(path)
    _check_headers(answer.headers)


async def test_health_says_ok(live: Live) -> None:
    answer = await live.client.get("/healthz")
    assert (answer.status, await answer.text()) == (200, "ok")


async def test_the_pages_configuration_has_no_secret(live_factory: LiveFactory) -> None:
    live = await live_factory(
        activity=True, client_id=42, client_secret="shh", bot_token="bot-token"
    )
    answer = await live.client.get("/config.json")
    assert await answer.json() == {"client_id": "42", "activity": True}
    assert "shh" not in await answer.text()


async def test_the_sdk_mock_is_offered_only_where_the_server_was_built_so(
    live_factory: LiveFactory,
) -> None:
    plain = await live_factory(activity=True, client_id=42, client_secret="s", bot_token="t")
    assert "sdk_mock" not in await (await plain.client.get("/config.json")).json()
    testing = await live_factory(sdk_mock=True)
    assert (await (await testing.client.get("/config.json")).json())["sdk_mock"] is True


async def test_the_activity_is_off_without_its_secret(live_factory: LiveFactory) -> None:
    live = await live_factory(activity=True, client_id=42)
    assert (await (await live.client.get("/config.json")).json())["activity"] is False


async def test_both_pages_serve_the_built_page_and_its_files(
    live_factory: LiveFactory, tmp_path: Path
) -> None:
    static = tmp_path / "built"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>Jarmo</title>")
    (static / "app.js").write_text("console.log(1)")
    live = await live_factory(static_dir=static)
    for path in ("/", "/watch"):
        answer = await live.client.get(path)
        assert answer.status == 200 and "Jarmo" in await answer.text()
    script = await live.client.get("/static/app.js")
    assert script.status == 200
    _check_headers(script.headers)


async def test_a_missing_page_is_a_plain_404(live: Live) -> None:
    for path in ("/", "/static/app.js", "/nothing-here"):
        answer = await live.client.get(path)
        assert answer.status == 404
        assert "Traceback" not in await answer.text()
