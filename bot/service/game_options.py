"""The settings a match's games are played with, checked in one place: for a challenge, a
rematch and a tournament's matches alike. The rulesets and match lengths are the engine's."""

from __future__ import annotations

from dataclasses import dataclass

from bot import store as st
from bot.jarmo import DEFAULT_LAYOUT, RULESETS
from bot.jarmo.match import MATCH_LENGTHS
from bot.service import errors
from bot.service.models import ServiceConfig
from bot.service.timecontrol import TimeControlError, parse_time_per_move

TOURNAMENT_MATCH_LENGTHS = (2, 4, 6)  # even, so both players start as often


@dataclass(frozen=True, slots=True)
class OptionRules:
    """What one kind of match allows: its lengths, and how a bad option is refused."""

    lengths: tuple[int, ...]
    bad_length: errors.Code
    refusal: type[errors.Refusal]


CHALLENGE_RULES = OptionRules(
    MATCH_LENGTHS, errors.Code.BAD_GAME_COUNT, errors.ChallengeUnavailable
)
TOURNAMENT_RULES = OptionRules(
    TOURNAMENT_MATCH_LENGTHS, errors.Code.BAD_TOURNAMENT_GAMES, errors.TournamentRefused
)


@dataclass(frozen=True, slots=True)
class GameOptions:
    """A match's settings, checked: how many games, the ruleset, the board (layout), the ply
    guard and the time per move (``None``: no limit)."""

    game_count: int
    ruleset: str
    layout: str
    max_plies: int
    time_per_move_seconds: int | None

    @classmethod
    def of_match(cls, match: st.MatchRecord) -> GameOptions:
        """A stored match's settings, on the published board (a rematch's)."""
        return cls(
            match.game_count,
            match.ruleset,
            DEFAULT_LAYOUT,
            match.max_plies,
            match.time_per_move_seconds,
        )

    def challenge(self, side: st.SidePreference, level: str | None = None) -> st.ChallengeOptions:
        """The options of a challenge to play these settings, with ``side`` for the
        challenger and the computer's ``level`` when it is the opponent."""
        return st.ChallengeOptions(
            game_count=self.game_count,
            ruleset=self.ruleset,
            layout=self.layout,
            side=side,
            max_plies=self.max_plies,
            vs_computer_level=level,
            time_per_move_seconds=self.time_per_move_seconds,
        )


def check_game_options(
    config: ServiceConfig,
    rules: OptionRules,
    *,
    games: int,
    ruleset: str | None,
    time_per_move: str | None,
) -> GameOptions:
    """The settings asked for, checked against ``rules``; ``None`` means the configured
    default. Every new match is on the published board. Raises ``rules.refusal`` with
    ``rules.bad_length``, ``UNKNOWN_RULESET`` or ``BAD_TIME_LIMIT``."""
    if games not in rules.lengths:
        raise rules.refusal(rules.bad_length, games=games)
    chosen = ruleset or config.default_ruleset
    if chosen not in RULESETS:
        raise rules.refusal(
            errors.Code.UNKNOWN_RULESET, name=chosen, known=", ".join(sorted(RULESETS))
        )
    if time_per_move is None:
        seconds = config.time_per_move_seconds
    else:
        try:
            seconds = parse_time_per_move(time_per_move)
        except TimeControlError as exc:
            raise rules.refusal(errors.Code.BAD_TIME_LIMIT, text=exc.text) from None
    return GameOptions(games, chosen, DEFAULT_LAYOUT, config.max_plies, seconds)
