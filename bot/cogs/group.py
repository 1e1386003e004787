"""The one slash command group, ``/jarmo``: every feature's ``GroupCog`` declares it with these
settings, and the command tree merges their sub-commands into it (see ``JarmoTree``)."""

GROUP_NAME = "jarmo"
GROUP_DESCRIPTION = "Play Jarmo, the old Tatar battle game"
