"""Thread names: the players and the ruleset, then the result, always within Discord's 100
characters however long the players' names are."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.cogs.threads import NAME_LIMIT, finished_name, thread_name
from bot.service import MatchStandings
from bot.store import MatchRecord, MatchState

LONG = "Ｗ" * 32 + " the Magnificent Destroyer of Ludos Boards"


def standings(state: MatchState, winner: int | None, names: dict[int, str]) -> MatchStandings:
    match = MatchRecord(
        id=1, guild_id=1, channel_id=2, challenge_id=None, first_white_id=101,
        first_black_id=202, ruleset="ludos", layout="bow", game_count=1, max_plies=200,
        state=state, winner_id=winner, created_at=datetime.now(UTC), finished_at=None,
    )  # fmt: skip
    return MatchStandings(match, names, [], {}, None, 0, None, True, winner)


def test_a_thread_is_named_after_the_players_and_the_ruleset() -> None:
    assert thread_name("Ann", "Bob", "classic") == "Ann vs Bob · classic"


@pytest.mark.parametrize(
    ("state", "winner", "result"),
    [("finished", 101, "Ann won"), ("finished", None, "drawn"), ("aborted", None, "aborted"),
     ("forfeited", 202, "Bob won")],
)  # fmt: skip
def test_a_finished_matchs_thread_carries_the_result(
    state: MatchState, winner: int | None, result: str
) -> None:
    name = finished_name(standings(state, winner, {101: "Ann", 202: "Bob"}))
    assert name == f"Ann vs Bob · ludos — {result}"


def test_long_names_are_shortened_within_discords_limit() -> None:
    names = {101: LONG, 202: LONG + LONG}
    started = thread_name(LONG, LONG + LONG, "classic")
    ended = finished_name(standings("finished", 202, names))
    for name in (started, ended):
        assert 1 <= len(name) <= NAME_LIMIT
        assert "…" in name
    assert ended.endswith(" won") and "· ludos" in ended
