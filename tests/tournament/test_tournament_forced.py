"""A moderator's forced round as its players read it: the thread is told who ended the match
and the result the table counts, and the thread's standings and name say the same result."""

from __future__ import annotations

from bot.cogs.threads import finished_name
from bot.i18n import ENGLISH
from bot.service import JarmoService, Place, read_action
from bot.service import models as service_models
from bot.store import PairingResult, SqliteStore
from bot.words import Voice, shared_catalogue, standings_text, unchanged
from bot.words import tournaments as tournament_words
from bot.words.placings import placing_lines
from tests.tournament.event_service import GUILD, LOBBY, MODERATOR, always, player, sign_up

VOICE = Voice(shared_catalogue(ENGLISH), name=lambda user: f"<@{user}>", strong=unchanged)


async def test_a_forced_match_counts_the_games_finished_in_its_thread_and_the_table(
    service: JarmoService, store: SqliteStore
) -> None:
    tournament_id = await sign_up(service, 4, format="swiss", rounds=2)
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    ahead_board, level_board = [
        p for p in await store.tournaments.pairings(tournament_id) if p.round == 1
    ]
    a, b = ahead_board.first_id, ahead_board.second_id
    assert b is not None
    assert ahead_board.match_id is not None
    match = await store.games.match(ahead_board.match_id)
    here = Place(GUILD, match.channel_id)
    # Game 1 (a has White): b captures and the players stop there, 4-5. Game 2 is under way.
    await service.play.move(here, player(a), read_action("A1-B3"))
    await service.play.move(here, player(b), read_action("A5xB3"))
    offer = await service.play.offer_stop(here, player(a))
    await service.play.accept_stop(here, player(b), offer)
    await service.play.move(here, player(b), read_action("A1-B3"))

    forced = await service.tournaments.force(LOBBY, MODERATOR, moderator=True)

    standings = await service.standings.current(here)
    assert finished_name(standings) == f"P{a} vs P{b} · classic — P{b} won"
    assert standings.counted == service_models.CountedResult(b, {a: 4, b: 5}, forced_by=99)
    assert standings.totals == {a: 4, b: 5}  # the game stopped in play counts for nobody
    assert (
        f"<@99> stopped the match; the tournament counts it as won by <@{b}>, <@{a}> 4 – 5 <@{b}>."
        in standings_text(standings, VOICE).split("\n")
    )
    table = await service.tournaments.standings(LOBBY)
    row = next(r for r in table.standings.rows if r.player == b)
    assert row.rounds[0] is not None
    assert (row.rounds[0].outcome, row.rounds[0].points) == ("win", (5, 4))
    told = {m.channel_id: m for m in forced.matches}
    assert told[match.channel_id].result == PairingResult(b, 4, 5, forced_by=99)
    assert tournament_words.forced_text(forced, told[match.channel_id], VOICE).split("\n") == [
        "<@99> ended round 1 of Spring cup before this match was over. The games finished so "
        "far decide it; the game in play does not count.",
        f"The match was stopped; the tournament counts it as won by <@{b}>, <@{a}> 4 – 5 <@{b}>.",
    ]

    # The other match had no game finished: a draw, 0-0, in its thread as in the table.
    assert level_board.match_id is not None
    level = await store.games.match(level_board.match_id)
    level_standings = await service.standings.current(Place(GUILD, level.channel_id))
    first, second = level_board.first_id, level_board.second_id
    assert second is not None
    assert level_standings.counted == service_models.CountedResult(
        None, {first: 0, second: 0}, forced_by=99
    )
    assert (
        f"<@99> stopped the match; the tournament counts it as drawn, <@{first}> 0 – 0 <@{second}>."
        in standings_text(level_standings, VOICE).split("\n")
    )
    assert finished_name(level_standings).endswith(" — drawn")
    row = next(r for r in table.standings.rows if r.player == first)
    assert row.rounds[0] is not None
    assert (row.rounds[0].outcome, row.rounds[0].points) == ("draw", (0, 0))


async def test_a_withdrawal_shows_in_the_thread_as_the_forfeit_the_table_counts(
    service: JarmoService, store: SqliteStore
) -> None:
    tournament_id = await sign_up(service, 4, format="round-robin")
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    pairing = next(p for p in await store.tournaments.pairings(tournament_id) if p.round == 1)
    assert pairing.match_id is not None
    match = await store.games.match(pairing.match_id)

    await service.tournaments.leave(LOBBY, player(pairing.first_id))

    standings = await service.standings.current(Place(GUILD, match.channel_id))
    assert standings.counted is not None and standings.counted.forfeit
    assert standings.counted.forced_by is None  # a withdrawal is no moderator's forced result
    assert (
        f"The match was stopped; the tournament counts it as won by <@{pairing.second_id}> by "
        "forfeit." in standings_text(standings, VOICE).split("\n")
    )
    assert finished_name(standings).endswith(f"P{pairing.second_id} won")


async def test_a_last_round_forced_mid_game_gives_one_result_in_standings_table_and_history(
    service: JarmoService, store: SqliteStore
) -> None:
    # A one-round Swiss: its only round is the last. Game 1 is stopped at 4-5 and game 2 is
    # under way with its pieces all on the board (5-5) when a moderator forces the round.
    tournament_id = await sign_up(service, 4, format="swiss", rounds=1)
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    board = next(p for p in await store.tournaments.pairings(tournament_id) if p.round == 1)
    a, b = board.first_id, board.second_id
    assert b is not None and board.match_id is not None
    here = Place(GUILD, (await store.games.match(board.match_id)).channel_id)
    await service.play.move(here, player(a), read_action("A1-B3"))
    await service.play.move(here, player(b), read_action("A5xB3"))
    offer = await service.play.offer_stop(here, player(a))
    await service.play.accept_stop(here, player(b), offer)
    await service.play.move(here, player(b), read_action("A1-B3"))

    await service.tournaments.force(LOBBY, MODERATOR, moderator=True)
    await service.tournaments.rounds.advance(tournament_id)

    assert (await store.tournaments.get(tournament_id)).status == "finished"
    standings = await service.standings.current(here)
    assert standings_text(standings, VOICE).split("\n")[1:5] == [
        f"Game 1: <@{a}> (White) 4 – 5 <@{b}> (Black) · stopped by agreement",
        f"Game 2: <@{b}> (White) v <@{a}> (Black) — aborted, counts for nothing",
        f"Total: <@{a}> 4 – 5 <@{b}>",
        f"<@99> stopped the match; the tournament counts it as won by <@{b}>, <@{a}> 4 – 5 <@{b}>.",
    ]
    table = await service.tournaments.standings(LOBBY)
    assert table.final
    rows = {row.player: row for row in table.standings.rows}
    assert (rows[a].game_points, rows[b].game_points) == (4, 5)  # game 2's 5-5 counts nothing
    [cell] = rows[b].rounds
    assert cell is not None and cell.points == (5, 4)
    history = await service.stats.history(GUILD, b)
    assert [(line.result, line.points) for line in history.lines] == [("win", (5, 4))]
    [placing] = await service.tournaments.history.placings(GUILD, b)
    assert placing.rank == 1


async def test_the_moderator_who_forced_a_match_is_named_in_its_standings_table_and_history(
    service: JarmoService, store: SqliteStore
) -> None:
    # A one-round Swiss of four: one match has a game finished (4-5), the other none, when
    # the moderator forces the round, which ends the event.
    tournament_id = await sign_up(service, 4, format="swiss", rounds=1)
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    board, other = await store.tournaments.pairings(tournament_id)
    a, b = board.first_id, board.second_id
    assert b is not None and board.match_id is not None
    here = Place(GUILD, (await store.games.match(board.match_id)).channel_id)
    await service.play.move(here, player(a), read_action("A1-B3"))
    await service.play.move(here, player(b), read_action("A5xB3"))
    offer = await service.play.offer_stop(here, player(a))
    await service.play.accept_stop(here, player(b), offer)

    await service.tournaments.force(LOBBY, MODERATOR, moderator=True)
    await service.tournaments.rounds.advance(tournament_id)

    # Stored with the result, for both matches the force decided.
    stored = await store.tournaments.pairings(tournament_id)
    assert [(p.decided, p.forced_by) for p in stored] == [(True, 99), (True, 99)]
    # The thread's standings: who stopped it, and the result counted.
    standings = standings_text(await service.standings.current(here), VOICE)
    assert (
        f"<@99> stopped the match; the tournament counts it as won by <@{b}>, <@{a}> 4 – 5 <@{b}>."
        in standings.split("\n")
    )
    # The table's text: each forced round marks its moderator.
    table = await service.tournaments.standings(LOBBY)
    record = table.tournament
    lines = tournament_words.table_lines(
        table.standings, VOICE, title=record.name, format=record.format, rounds=table.rounds
    )
    row = next(line for line in lines if f". <@{b}>: " in line)
    assert row.endswith(f"Round 1: won against <@{a}>, 5–4 (forced by <@99>).")
    row = next(line for line in lines if f". <@{a}>: " in line)
    assert row.endswith(f"Round 1: lost to <@{b}>, 4–5 (forced by <@99>), started.")
    # The history: the placing line says which round was forced and by whom.
    for who in (a, b, other.first_id):
        placings = await service.tournaments.history.placings(GUILD, who)
        assert [p.forced for p in placings] == [((1, 99),)]
        [_, line] = placing_lines(placings, VOICE)
        assert line.endswith(" · round 1 forced by <@99>"), line


async def test_results_not_forced_name_no_moderator(
    service: JarmoService, store: SqliteStore
) -> None:
    # A withdrawal's forfeit and a bye are decided without a moderator's force.
    tournament_id = await sign_up(service, 3, format="round-robin")
    await service.tournaments.start(LOBBY, MODERATOR, moderator=True, is_member=always)
    match = next(p for p in await store.tournaments.pairings(tournament_id) if p.second_id)
    await service.tournaments.leave(LOBBY, player(match.first_id))

    decided = [p for p in await store.tournaments.pairings(tournament_id) if p.decided]
    assert decided and all(p.forced_by is None for p in decided)
    table = await service.tournaments.standings(LOBBY)
    record = table.tournament
    lines = tournament_words.table_lines(
        table.standings, VOICE, title=record.name, format=record.format, rounds=table.rounds
    )
    assert not any("forced" in line for line in lines), lines
