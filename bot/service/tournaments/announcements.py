"""A tournament's posts, as announcements for the outbox: the round in the tournament's channel,
each match's welcome in its thread (its board, pinging both players), and the final table.

``Rounds`` writes each one in the transaction of the change it announces (the round with the
round change, a welcome with the match it welcomes to, the table with the end), so a bot that
stops right after the change posts it after its restart, and of two processes one posts it. The
payload holds ids only: the delivery loop rebuilds what to show from the store as it is then
(``posts``).

A round's post links each match's thread, and the threads are opened after the round is stored
(each needs the round's pairing). So the round's entry is written held for its writer, which
releases it once the round's matches are started; if the writer dies first, the hold runs out and
a delivery that still finds a match without its place waits (``NotReady``) for the restarted
bot's advance to open it, and posts the round as it stands at the last attempt rather than never.
A welcome is written with its match, whose thread exists by then, so it cannot come first.
"""

from __future__ import annotations

from bot import store as st

# Long enough for the writer to open the round's threads (a few Discord calls per match); only
# after a crash does anything wait this long.
ROUND_HOLD_SECONDS = 300.0


def round_announcement(tournament_id: int, number: int) -> st.Announcement:
    """The post of round ``number``, held for the writer until it has started the matches."""
    return st.announcement(
        f"round_paired:{tournament_id}:{number}",
        st.RoundPost(tournament_id, number),
        held_seconds=ROUND_HOLD_SECONDS,
    )


def welcome_announcement(pairing: st.PairingRecord) -> st.Announcement:
    """The welcome of ``pairing``'s match in its channel."""
    where = f"{pairing.tournament_id}:{pairing.round}:{pairing.board}"
    return st.announcement(
        f"match_welcome:{where}",
        st.WelcomePost(pairing.tournament_id, pairing.round, pairing.board),
    )


def final_announcement(tournament_id: int) -> st.Announcement:
    """The final table's post."""
    return st.announcement(f"final_table:{tournament_id}", st.FinalTablePost(tournament_id))
