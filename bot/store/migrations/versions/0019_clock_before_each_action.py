"""0019: each action keeps the clock as it was before it.

Why: a takeback puts the game back exactly as it was before the move, deadline included. The
deadline cannot be rebuilt from the move times when the clock stood during that turn (a pause,
a vacation), and a reminder already sent for the turn must not be sent again. So each action
stores the game's ``deadline_at`` and ``reminders_sent`` from before it. NULL for actions stored
before this change (a takeback of one of those rebuilds the deadline as before) and for a game
without a clock. Adding nullable columns needs no table rebuild on either backend.
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"


def upgrade() -> None:
    op.add_column("actions", sa.Column("deadline_before", sa.Text))
    op.add_column("actions", sa.Column("reminders_before", sa.Integer))
