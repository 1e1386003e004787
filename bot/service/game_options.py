"""The settings a match's games are played with, checked in one place for a challenge, a
rematch and a tournament's matches alike. The rulesets and match lengths are the engine's."""

from __future__ import annotations

from dataclasses import dataclass

from bot import store as st
from bot.jarmo import DEFAULT_LAYOUT, RULESETS
from bot.jarmo.match import EVEN_MATCH_LENGTHS, MATCH_LENGTHS
from bot.service.errors import ChallengeUnavailable, Code, Refusal, TournamentRefused
from bot.service.models import ServiceConfig
from bot.service.timecontrol import TimeControlError, parse_time_per_move


@dataclass(frozen=True, slots=True)
class OptionRules:
    """What one kind of match allows: its lengths, and how a bad option is refused."""

    lengths: tuple[int, ...]
    bad_length: Code
    refusal: type[Refusal]


CHALLENGE_RULES = OptionRules(MATCH_LENGTHS, Code.BAD_GAME_COUNT, ChallengeUnavailable)
# Even lengths only, so that both players of a tournament match start as often.
TOURNAMENT_RULES = OptionRules(EVEN_MATCH_LENGTHS, Code.BAD_TOURNAMENT_GAMES, TournamentRefused)


@dataclass(frozen=True, slots=True)
class GameOptions:
    """A match's settings, checked: games, ruleset, board, ply guard, time per move (``None``:
    no limit)."""

    game_count: int
    ruleset: str
    layout: str
    max_plies: int
    time_per_move_seconds: int | None

    @classmethod
    def of_match(cls, match: st.MatchRecord) -> GameOptions:
        """A stored match's settings, on the published board (a rematch's)."""
        time = match.time_per_move_seconds
        return cls(match.game_count, match.ruleset, DEFAULT_LAYOUT, match.max_plies, time)

    def challenge(self, side: st.SidePreference, level: str | None = None) -> st.ChallengeOptions:
        """A challenge's options for these settings: the challenger's ``side``, and the
        computer's ``level`` when it is the opponent."""
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
    """The settings asked for (``None``: the configured default), checked against ``rules``,
    on the published board. Raises ``rules.refusal`` with ``rules.bad_length``,
    ``UNKNOWN_RULESET`` or ``BAD_TIME_LIMIT``."""
    if games not in rules.lengths:
        raise rules.refusal(rules.bad_length, games=games)
    chosen = ruleset or config.default_ruleset
    if chosen not in RULESETS:
        known = ", ".join(sorted(RULESETS))
        raise rules.refusal(Code.UNKNOWN_RULESET, name=chosen, known=known)
    seconds = config.time_per_move_seconds
    try:
        if time_per_move is not None:
            seconds = parse_time_per_move(time_per_move)
    except TimeControlError as exc:
        raise rules.refusal(Code.BAD_TIME_LIMIT, text=exc.text) from None
    return GameOptions(games, chosen, DEFAULT_LAYOUT, config.max_plies, seconds)
