"""Use cases of the bot, transport-agnostic: Discord, the console and tests all call these."""

from bot.service.errors import (
    BadMove,
    ChallengeUnavailable,
    ChannelBusy,
    ClockUnavailable,
    Code,
    GameChanged,
    GamePaused,
    NoGameHere,
    NotAllowed,
    NotAPlayer,
    NotYourTurn,
    Refusal,
    TimeUp,
    VacationRefused,
)
from bot.service.kit import ServiceKit, utc_now
from bot.service.models import (
    Actor,
    BoardView,
    ChallengeRequest,
    ChallengeView,
    GameLine,
    GameSummary,
    MatchStandings,
    Place,
    Report,
    ServiceConfig,
)
from bot.service.offers import Offer, PauseOffer, StopOffer
from bot.service.play import read_action, read_point
from bot.service.service import JarmoService
from bot.service.timecontrol import ClockView

__all__ = [
    "Actor",
    "BadMove",
    "BoardView",
    "ChallengeRequest",
    "ChallengeUnavailable",
    "ChallengeView",
    "ChannelBusy",
    "ClockUnavailable",
    "ClockView",
    "Code",
    "GameChanged",
    "GameLine",
    "GamePaused",
    "GameSummary",
    "JarmoService",
    "MatchStandings",
    "NoGameHere",
    "NotAPlayer",
    "NotAllowed",
    "NotYourTurn",
    "Offer",
    "PauseOffer",
    "Place",
    "Refusal",
    "Report",
    "ServiceConfig",
    "ServiceKit",
    "StopOffer",
    "TimeUp",
    "VacationRefused",
    "read_action",
    "read_point",
    "utc_now",
]
