"""0017: an open challenge remembers the ratings of the players who may accept it.

Why: an open challenge may be limited to players rated within a range (``1000-1300``), and the
range must hold after a restart, when any shard process may answer the Accept button.
``min_rating`` and ``max_rating`` are its ends, both included; NULL for a challenge open to
anyone and for every challenge stored before this change. Adding nullable columns needs no table
rebuild on either backend.
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"


def upgrade() -> None:
    op.add_column("challenges", sa.Column("min_rating", sa.Integer))
    op.add_column("challenges", sa.Column("max_rating", sa.Integer))
