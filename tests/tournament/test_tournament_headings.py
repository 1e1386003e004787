"""What the table says about the rounds at every moment of an event with byes (a round counts
as played only once all its matches are decided), and its tie-breaks worked out by hand."""

from __future__ import annotations

from bot.i18n import ENGLISH
from bot.service import JarmoService, Place
from bot.service.tournaments.draw import Bye, Event, MatchResult, standings
from bot.service.tournaments.views import TableView
from bot.store import SqliteStore
from bot.words import Voice, shared_catalogue, unchanged
from bot.words.tournaments import table_lines, table_words
from tests.tournament.event_service import (
    GUILD,
    LOBBY,
    MODERATOR,
    always,
    deliver_posts,
    play_current_round,
    player,
    sign_up,
)

VOICE = Voice(shared_catalogue(ENGLISH), name=lambda user: f"<@{user}>", strong=unchanged)


def heading(table: TableView) -> str:
    """The first line of the table's text version."""
    record = table.tournament
    lines = table_lines(
        table.standings, VOICE, title=record.name, format=record.format, rounds=table.rounds
    )
    return lines[0]


def picture_agrees(table: TableView) -> bool:
    """Whether the picture's heading says what the text version's does, as the cog makes
    both (the event's end known from its status)."""
    record = table.tournament
    words = table_words(
        VOICE,
        title=record.name,
        format=record.format,
        played=table.standings.rounds,
        rounds=table.rounds,
        in_progress=table.standings.in_progress,
        final=table.final,
    )
    lines = table_lines(
        table.standings,
        VOICE,
        title=record.name,
        format=record.format,
        rounds=table.rounds,
        final=table.final,
    )
    return lines[0] == f"{words.title} · {words.subtitle}" == heading(table)


def byes_in(table: TableView) -> dict[int, int]:
    """The round of each bye shown in the table, by player."""
    return {
        row.player: cell.round
        for row in table.standings.rows
        for cell in row.rounds
        if cell is not None and cell.outcome == "bye"
    }


async def tables_through(service: JarmoService, tournament_id: int) -> list[TableView]:
    """The table after the start and after every round, until the event has ended."""
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    await deliver_posts(service)
    seen = []
    while True:
        table = await service.tournaments.standings(LOBBY)
        seen.append(table)
        current = table.tournament.current_round
        if table.final:
            return seen
        # The bye of the round in progress shows in that round's column, not as a round played.
        assert current in byes_in(table).values()
        assert len(table.standings.rows[0].rounds) == current
        await play_current_round(service, tournament_id)


async def test_a_swiss_of_five_with_a_bye_counts_only_rounds_played_to_the_end(
    service: JarmoService,
) -> None:
    tournament_id = await sign_up(service, 5, format="swiss", rounds=3)

    tables = await tables_through(service, tournament_id)

    assert [heading(table) for table in tables] == [
        "Spring cup · Swiss · round 1 of 3 in progress",
        "Spring cup · Swiss · after round 1 of 3 · round 2 in progress",
        "Spring cup · Swiss · after round 2 of 3 · round 3 in progress",
        "Spring cup · Swiss · final table",
    ]
    assert all(picture_agrees(table) for table in tables)


async def test_a_round_robin_of_five_has_a_bye_every_round_and_says_so(
    service: JarmoService,
) -> None:
    tournament_id = await sign_up(service, 5, format="round-robin")

    tables = await tables_through(service, tournament_id)
    seen = [heading(table) for table in tables]

    assert seen[0] == "Spring cup · Round robin · round 1 of 5 in progress"
    assert seen[1:5] == [
        f"Spring cup · Round robin · after round {n} of 5 · round {n + 1} in progress"
        for n in range(1, 5)
    ]
    assert seen[5:] == ["Spring cup · Round robin · final table"]
    assert all(picture_agrees(table) for table in tables)
    final = await service.tournaments.standings(LOBBY)
    assert sorted(byes_in(final).values()) == [1, 2, 3, 4, 5]


async def test_a_decided_match_of_the_round_in_progress_is_counted_but_the_round_is_not(
    service: JarmoService, store: SqliteStore
) -> None:
    tournament_id = await sign_up(service, 4, format="round-robin")
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    first = next(p for p in await store.tournaments.pairings(tournament_id) if p.round == 1)
    assert first.match_id is not None
    match = await store.games.match(first.match_id)
    assert first.second_id is not None
    await service.play.resign(Place(GUILD, match.channel_id), player(first.second_id))

    table = await service.tournaments.standings(LOBBY)

    assert heading(table) == "Spring cup · Round robin · round 1 of 3 in progress"
    assert table.standings.rows[0].player == first.first_id
    assert table.standings.rows[0].match_points == 2


def test_an_event_knows_a_round_in_progress_from_one_played() -> None:
    paired = Event((1, 2, 3), byes=(Bye(1, 3),), unfinished=frozenset({1}))
    assert (paired.rounds_played, paired.rounds_paired, paired.round_in_progress) == (0, 1, 1)
    played = Event((1, 2, 3), (MatchResult(1, 1, 2, 1),), (Bye(1, 3),))
    assert (played.rounds_played, played.rounds_paired, played.round_in_progress) == (1, 1, None)
    table = standings(paired)
    assert (table.rounds, table.in_progress) == (0, 1)
    assert [cell.outcome if cell else None for cell in table.rows[0].rounds] == ["bye"]


def test_sonneborn_berger_and_buchholz_of_a_small_event_worked_out_by_hand() -> None:
    # Round 1: 1 beats 2, 3 draws 4. Round 2: 1 draws 3, 2 draws 4.
    # Match points: 1 has 3, 3 and 4 have 2, 2 has 1.
    # Buchholz (the opponents' match points): 1: 1+2=3; 2: 3+2=5; 3: 2+3=5; 4: 2+1=3.
    # Sonneborn-Berger (beaten opponents' points, half of those drawn with):
    # 1: 1 + 2/2 = 2; 2: 2/2 = 1; 3: 2/2 + 3/2 = 2½; 4: 2/2 + 1/2 = 1½.
    event = Event(
        (1, 2, 3, 4),
        (
            MatchResult(1, 1, 2, 1, (8, 4)),
            MatchResult(1, 3, 4, None, (6, 6)),
            MatchResult(2, 1, 3, None, (6, 6)),
            MatchResult(2, 2, 4, None, (6, 6)),
        ),
    )
    table = standings(event)
    rows = [(r.rank, r.player, r.match_points, r.buchholz, r.sonneborn_berger) for r in table.rows]
    assert rows == [(1, 1, 3, 3, 2), (2, 3, 2, 5, 2.5), (3, 4, 2, 3, 1.5), (4, 2, 1, 5, 1)]
    lines = table_lines(table, VOICE, title="Cup", format="swiss", rounds=2)
    assert "Buchholz 5, Sonneborn-Berger 2½." in lines[2]
