"""A match's settings are checked in one place for challenges, rematches and tournaments: the
engine's rulesets and match lengths, the time per move, the configured defaults."""

from __future__ import annotations

import pytest

from bot.jarmo import DEFAULT_LAYOUT, RULESETS
from bot.jarmo.match import MATCH_LENGTHS
from bot.service import ChallengeUnavailable, Code, Refusal, ServiceConfig
from bot.service.errors import TournamentRefused
from bot.service.game_options import (
    CHALLENGE_RULES,
    TOURNAMENT_RULES,
    GameOptions,
    OptionRules,
    check_game_options,
)

CONFIG = ServiceConfig(default_ruleset="jasir", time_per_move_seconds=3600, max_plies=150)


def test_unset_options_are_the_configured_defaults_on_the_published_board() -> None:
    settled = check_game_options(CONFIG, CHALLENGE_RULES, games=2, ruleset=None, time_per_move=None)
    assert settled == GameOptions(2, "jasir", DEFAULT_LAYOUT, 150, 3600)


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_every_ruleset_of_the_engine_is_accepted(ruleset: str) -> None:
    settled = check_game_options(
        CONFIG, TOURNAMENT_RULES, games=4, ruleset=ruleset, time_per_move="none"
    )
    assert (settled.ruleset, settled.game_count, settled.time_per_move_seconds) == (
        ruleset,
        4,
        None,
    )


def test_a_challenge_may_have_every_match_length_a_tournament_only_even_ones() -> None:
    assert CHALLENGE_RULES.lengths == MATCH_LENGTHS
    assert set(TOURNAMENT_RULES.lengths) < set(MATCH_LENGTHS)
    assert all(length % 2 == 0 for length in TOURNAMENT_RULES.lengths)


@pytest.mark.parametrize(
    ("rules", "kind"),
    [(CHALLENGE_RULES, ChallengeUnavailable), (TOURNAMENT_RULES, TournamentRefused)],
)
@pytest.mark.parametrize(
    ("games", "ruleset", "time_per_move", "code", "fields"),
    [
        (
            2,
            "chess",
            None,
            Code.UNKNOWN_RULESET,
            {"name": "chess", "known": "classic, jasir, ludos"},
        ),
        (2, None, "soon", Code.BAD_TIME_LIMIT, {"text": "soon"}),
        (3, None, None, None, {"games": 3}),
    ],
)
def test_a_bad_option_is_refused_as_the_asker_refuses(
    rules: OptionRules,
    kind: type[Refusal],
    games: int,
    ruleset: str | None,
    time_per_move: str | None,
    code: Code | None,
    fields: dict[str, object],
) -> None:
    with pytest.raises(kind) as refused:
        check_game_options(CONFIG, rules, games=games, ruleset=ruleset, time_per_move=time_per_move)
    assert refused.value.code == (code or rules.bad_length)
    assert refused.value.fields == fields


def test_a_challenge_for_a_settled_match_keeps_its_settings() -> None:
    settings = GameOptions(4, "ludos", "bow", 200, None)
    options = settings.challenge("black", "hard")
    assert (options.game_count, options.ruleset, options.layout) == (4, "ludos", "bow")
    assert (options.side, options.vs_computer_level) == ("black", "hard")
    assert (options.max_plies, options.time_per_move_seconds) == (200, None)
