"""The words of vacations: a player's own answers (start, end, status, the time left), and the
notices each opponent reads in the game's channel or thread."""

from __future__ import annotations

from datetime import datetime

from bot.service.vacations import VacationAllowance, VacationStatus
from bot.words.voice import Voice, plain_time

HOURS_A_DAY = 24


def _when(moment: datetime, voice: Voice) -> str:
    return voice.when(moment) if voice.when is not None else plain_time(moment)


def vacation_time(hours: int, voice: Voice) -> str:
    """A length of vacation: '3 days', '5 hours', '3 days and 5 hours'."""
    days, rest = divmod(hours, HOURS_A_DAY)
    day_text = voice.ngettext("{count} day", "{count} days", days).format(count=days)
    hour_text = voice.ngettext("{count} hour", "{count} hours", rest).format(count=rest)
    if rest == 0:
        return day_text
    if days == 0:
        return hour_text
    return voice.gettext("{days} and {hours}").format(days=day_text, hours=hour_text)


def vacation_left_text(allowance: VacationAllowance, voice: Voice) -> str:
    """The vacation a player has left this year, as the stats and the games list show it."""
    return voice.gettext("Vacation left in {year}: {left} of {total}.").format(
        year=allowance.year,
        left=vacation_time(allowance.hours_left, voice),
        total=vacation_time(allowance.hours_per_year, voice),
    )


def vacation_line(status: VacationStatus, voice: Voice) -> str:
    """One line for a player's profile: away or not, and the time left this year."""
    left = vacation_left_text(status.allowance, voice)
    if status.vacation is None:
        return left
    away = voice.gettext("On vacation, until {end} at the latest.").format(
        end=_when(status.vacation.ends_at, voice)
    )
    return f"{away} {left}"


def vacation_status_text(status: VacationStatus, voice: Voice) -> str:
    """Where the player stands: away or not, and the time left this year."""
    _ = voice.gettext
    left = vacation_left_text(status.allowance, voice)
    if status.vacation is None:
        return _(
            "You are not on vacation. {left} While you are away every clock of yours stands, "
            "in every server; go away with {start}."
        ).format(left=left, start=voice.command("vacation start"))
    return _(
        "You are on vacation: every clock of yours stands. It ends by itself {end}, when your "
        "days run out, or earlier with {command}. {left}"
    ).format(
        end=_when(status.vacation.ends_at, voice),
        command=voice.command("vacation end"),
        left=left,
    )


def vacation_started_text(status: VacationStatus, voice: Voice) -> str:
    """The answer to the player who goes away."""
    if status.vacation is None:  # not started after all: say where the player stands
        return vacation_status_text(status, voice)
    _ = voice.gettext
    told = voice.ngettext(
        "The opponent of your {count} game is told.",
        "The opponents of your {count} games are told.",
        status.games,
    ).format(count=status.games)
    text = _(
        "Your vacation has begun: every clock of yours stands, in every server, until you come "
        "back with {command}. It ends by itself {end}, when your days run out."
    ).format(command=voice.command("vacation end"), end=_when(status.vacation.ends_at, voice))
    return f"{text} {told}" if status.games else text


def vacation_ended_text(status: VacationStatus, voice: Voice) -> str:
    """The answer to the player who comes back."""
    return voice.gettext(
        "Welcome back. Your clocks run again: each deadline moved on by the time you were "
        "away. {left}"
    ).format(left=vacation_left_text(status.allowance, voice))


def away_notice(player_id: int, opponent_id: int, ends_at: datetime, voice: Voice) -> str:
    """What the opponent reads in the game's channel as the player goes away."""
    return voice.gettext(
        "{opponent}: {player} is on vacation, until {end} at the latest. Their clock in this "
        "game stands until they are back; you can still move when it is your turn."
    ).format(
        opponent=voice.name(opponent_id),
        player=voice.name(player_id),
        end=_when(ends_at, voice),
    )


def back_notice(
    player_id: int,
    opponent_id: int,
    *,
    automatic: bool,
    deadline: datetime | None,
    voice: Voice,
) -> str:
    """What the game's channel reads as the player comes back; ``deadline`` is theirs if they
    are to move. The end when the days run out reads like a reminder, to the player."""
    _ = voice.gettext
    if automatic:
        text = _(
            "{player}, your vacation days have run out: your vacation has ended and your "
            "clock runs again."
        ).format(player=voice.name(player_id))
    else:
        text = _("{opponent}: {player} is back from vacation; their clock runs again.").format(
            opponent=voice.name(opponent_id), player=voice.name(player_id)
        )
    if deadline is None:
        return text
    runs_out = _("Their time for this move runs out {deadline}.")
    if automatic:
        runs_out = _("Your time for this move runs out {deadline}.")
    return f"{text} {runs_out.format(deadline=_when(deadline, voice))}"
