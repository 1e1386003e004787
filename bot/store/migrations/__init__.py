"""Numbered schema migrations (``NNNN_name.sql``), applied in order by ``bot.store._migrations``.

Each file starts with a comment saying why it exists. Never edit a released file: add a new one.
"""
