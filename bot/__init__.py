"""Jarmo for Discord: the rules engine, renderer, store, service and Discord adapter."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

DISTRIBUTION = "jarmo-bot"


def package_version() -> str:
    """The installed version of the ``jarmo-bot`` distribution (pyproject.toml's ``version``),
    or ``"unknown"`` when ``bot/`` runs from a source tree that was never installed."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown"
