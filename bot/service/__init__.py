"""Use cases of the bot, transport-agnostic: Discord, the console and tests all call these."""

from bot.service.errors import (
    BadMove,
    ChallengeUnavailable,
    ChannelBusy,
    ClockUnavailable,
    GameChanged,
    GamePaused,
    NoGameHere,
    NotAllowed,
    NotAPlayer,
    NotYourTurn,
    TimeUp,
    UserError,
)
from bot.service.models import (
    Actor,
    BoardView,
    ChallengeRequest,
    ChallengeView,
    GameLine,
    GameSummary,
    Place,
    Report,
    ServiceConfig,
    Standings,
)
from bot.service.offers import Offer, PauseOffer, StopOffer
from bot.service.service import JarmoService, utc_now
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
    "GameChanged",
    "GameLine",
    "GamePaused",
    "GameSummary",
    "JarmoService",
    "NoGameHere",
    "NotAPlayer",
    "NotAllowed",
    "NotYourTurn",
    "Offer",
    "PauseOffer",
    "Place",
    "Report",
    "ServiceConfig",
    "Standings",
    "StopOffer",
    "TimeUp",
    "UserError",
    "utc_now",
]
