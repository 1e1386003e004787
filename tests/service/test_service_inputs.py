"""Move text in other Unicode forms reads as the notation, and suggestions while the database
cannot be read are an empty list, logged once when the outage begins and once when it ends."""

from __future__ import annotations

import logging

import pytest

from bot.jarmo import Action
from bot.jarmo.errors import NotationError, Problem
from bot.service import BadMove, Code, JarmoService, read_action, read_point
from bot.store import SqliteStore, StoreUnavailable
from tests.service.service_helpers import ANN, BOB, HERE, start_match


@pytest.mark.parametrize(
    "typed",
    [
        "Ａ１－Ｃ２",  # full-width letters, digits and hyphen
        "ａ１ ｃ２",  # full-width, lower case, a space
        "A1–C2",  # en dash
        "A1—C2",  # em dash
        "A1−C2",  # minus sign
        "A1‐C2",  # hyphen
        "A١-C٢",  # Arabic-Indic digits
        "𝐀𝟏-𝐂𝟐",  # mathematical bold
    ],
)
def test_other_forms_of_letters_digits_and_dashes_read_as_the_notation(typed: str) -> None:
    assert read_action(typed) == Action.parse("A1-C2")


def test_other_forms_of_a_point_and_a_ludos_place_read_too() -> None:
    assert read_point("＠Ｂ１") == "B1"
    assert read_action("Ｄ３－Ｅ５＠Ｂ１") == Action.parse("D3-E5@B1")


def test_long_text_is_still_refused_as_too_long_and_echoed_cut() -> None:
    typed = "Ａ１－Ｃ２" * 20
    with pytest.raises(BadMove) as refused:
        read_action(typed)
    cause = refused.value.cause
    assert refused.value.code is Code.UNREADABLE_MOVE and isinstance(cause, NotationError)
    assert cause.problem is Problem.TOO_LONG and len(cause.text) == 41  # 40 and "…"


async def test_suggestions_accept_full_width_text(service: JarmoService) -> None:
    await start_match(service)
    assert await service.play.move_suggestions(HERE, ANN.user_id, "ｂ１") == ["B1-A3", "B1-D2"]


async def test_suggestions_while_the_database_is_down_are_none_logged_once_per_outage(
    service: JarmoService,
    store: SqliteStore,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await start_match(service)
    readable = store.games.active

    async def server_gone(channel_id: int) -> object:
        raise StoreUnavailable("ConnectionRefusedError: connection refused")

    caplog.set_level(logging.DEBUG, logger="bot.service.play")
    monkeypatch.setattr(store.games, "active", server_gone)  # this store's reads only
    for typed in ("", "a", "a1", "a1-"):  # keystrokes during the outage
        assert await service.play.move_suggestions(HERE, ANN.user_id, typed) == []
    monkeypatch.setattr(store.games, "active", readable)  # the server is back
    for typed in ("b", "b1"):
        assert await service.play.move_suggestions(HERE, ANN.user_id, typed)
    assert await service.play.move_suggestions(HERE, BOB.user_id, "") == []

    logged = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert len(logged) == 2, logged
    (warned, began), (informed, ended) = logged
    assert warned == logging.WARNING and "move suggestions are off" in began
    assert "connection refused" in began
    assert informed == logging.INFO and "move suggestions are back" in ended
    assert not any(r.exc_info for r in caplog.records)  # no tracebacks
