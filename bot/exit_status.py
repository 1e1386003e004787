"""The exit status of every ``jarmo-bot`` command: one scheme, in one place.

A script or a supervisor tells "something is wrong with what the command looked at" (1) from
"the command could not even start" (2), whichever command it ran. ``EPILOG`` says the same at
the end of each command's ``--help``; the README's "Exit status" section lists it too.
"""

from __future__ import annotations

from enum import IntEnum


class ExitStatus(IntEnum):
    """What a ``jarmo-bot`` command's exit status means."""

    OK = 0
    """Done; a check found nothing wrong."""
    PROBLEM = 1
    """The command ran and found a problem or failed: damaged games, ratings that differ from
    the recomputed ones, an unhealthy bot, a copy that failed, the bot or a game that stopped
    on an error, Discord out of reach."""
    CANNOT_START = 2
    """The command could not start: bad arguments or configuration, no token or a rejected
    one, or a database that is missing, cannot be opened or reached, is in use by another
    process, is read-only or is from a newer version. Nothing was changed."""
    INTERRUPTED = 130
    """Stopped by Ctrl-C (128 + SIGINT, as shells report it)."""


EPILOG = """\
exit status:
  0    done; a check found nothing wrong
  1    the command ran and found a problem or failed (damaged games, ratings that
       differ, an unhealthy bot, a failed copy, an error while running)
  2    it could not start: bad arguments or configuration, no token or a rejected one,
       or a database that is missing, cannot be opened, is in use, read-only or newer
  130  interrupted (Ctrl-C)
`health` answers 0 or 1 only: Docker's HEALTHCHECK reserves 2."""
