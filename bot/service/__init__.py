"""Use cases of the bot, transport-agnostic: Discord, the console and tests all call these."""

from bot.service.errors import (
    BadMove,
    ChallengeUnavailable,
    ChannelBusy,
    GameChanged,
    NoGameHere,
    NotAllowed,
    NotAPlayer,
    NotYourTurn,
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
    StopOffer,
)
from bot.service.service import JarmoService, utc_now

__all__ = [
    "Actor",
    "BadMove",
    "BoardView",
    "ChallengeRequest",
    "ChallengeUnavailable",
    "ChallengeView",
    "ChannelBusy",
    "GameChanged",
    "GameLine",
    "GameSummary",
    "JarmoService",
    "NoGameHere",
    "NotAPlayer",
    "NotAllowed",
    "NotYourTurn",
    "Place",
    "Report",
    "ServiceConfig",
    "Standings",
    "StopOffer",
    "UserError",
    "utc_now",
]
