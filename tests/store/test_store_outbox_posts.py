"""Each kind of announcement is a typed post, stored as the outbox's ``kind`` and JSON
``payload`` columns and read back in one place (``bot.store.outbox``): what is stored is what
earlier releases stored, so entries written before an upgrade are still delivered."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from bot import store as st

DUE = datetime(2026, 11, 21, 12, 30, tzinfo=UTC)
DEADLINE = datetime(2026, 11, 21, 13, 0, tzinfo=UTC)

# Each post with the kind and payload that it is stored as.
STORED: list[tuple[st.Post, str, dict[str, Any]]] = [
    (
        st.ReminderPost(DUE, 101, DEADLINE, pinged=False),
        "reminder",
        {
            "due_at": DUE.isoformat(),
            "user_id": 101,
            "deadline_at": DEADLINE.isoformat(),
            "pinged": False,
        },
    ),
    (
        st.TimeoutPost(DEADLINE, 202, DEADLINE),
        "timeout",
        {"due_at": DEADLINE.isoformat(), "user_id": 202, "deadline_at": DEADLINE.isoformat()},
    ),
    (
        st.ComputerMovePost(3, "A5-C4", 999, plies=2),
        "computer_move",
        {"version": 3, "move": "A5-C4", "actor_id": 999, "plies": 2},
    ),
    (st.RoundPost(1, 2), "round_paired", {"tournament_id": 1, "round": 2}),
    (st.WelcomePost(1, 2, 3), "match_welcome", {"tournament_id": 1, "round": 2, "board": 3}),
    (st.FinalTablePost(1), "final_table", {"tournament_id": 1}),
    (
        st.TurnPingPost(4, 3, "B5-A3", 202, 101),
        "turn_ping",
        {"version": 4, "plies": 3, "move": "B5-A3", "actor_id": 202, "user_id": 101},
    ),
]


@pytest.mark.parametrize(("post", "kind", "payload"), STORED)
def test_a_post_is_stored_as_before_and_read_back_as_itself(
    post: st.Post, kind: str, payload: dict[str, Any]
) -> None:
    written = st.announcement("key:1", post, held_seconds=5)
    assert (written.kind, dict(written.payload), written.held_seconds) == (kind, payload, 5)
    assert st.post_of(kind, payload) == post


def test_a_reminder_stored_before_pings_could_be_turned_off_pinged() -> None:
    stored = {"due_at": DUE.isoformat(), "user_id": 101, "deadline_at": DEADLINE.isoformat()}
    assert st.post_of("reminder", stored) == st.ReminderPost(DUE, 101, DEADLINE, pinged=True)


def test_a_computer_move_stored_before_its_plies_were_reads_its_version_as_them() -> None:
    # Then a game's version was its number of actions.
    post = st.post_of("computer_move", {"version": 3, "move": "A5-C4", "actor_id": 999})
    assert isinstance(post, st.ComputerMovePost)
    assert (post.version, post.plies_after) == (3, 3)
    stored = st.post_of("computer_move", {"version": 5, "move": "A5-C4", "actor_id": 1, "plies": 2})
    assert isinstance(stored, st.ComputerMovePost)
    assert (stored.version, stored.plies_after) == (5, 2)


@pytest.mark.parametrize(
    ("kind", "payload"),
    [
        ("no such kind", {}),
        ("round_paired", {"tournament_id": 1}),  # the round is missing
        ("reminder", {"due_at": "soon", "user_id": 1, "deadline_at": DEADLINE.isoformat()}),
    ],
)
def test_a_row_that_holds_no_post_is_refused(kind: str, payload: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=repr(kind) if kind == "no such kind" else kind):
        st.post_of(kind, payload)
