"""0012: a pairing remembers the moderator who forced its result.

Why: a moderator may end a round before its matches are over; the thread, its standings, the
table and the players' histories all say who did. ``forced_by`` is that moderator's user id,
written with the result; NULL for every other pairing (a result played out, a withdrawal, a
bye), so the pairings stored before this change read as not forced. Adding a nullable column
needs no table rebuild on either backend.
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"


def upgrade() -> None:
    op.add_column("tournament_pairings", sa.Column("forced_by", sa.BigInteger))
