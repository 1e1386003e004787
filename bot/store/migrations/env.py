"""Alembic's entry point: runs the revisions on the connection ``bot.store._migrations`` hands
over in ``config.attributes``, inside that connection's transaction."""

from alembic import context

context.configure(
    connection=context.config.attributes["connection"],
    **context.config.attributes["options"],
)
with context.begin_transaction():
    context.run_migrations()
