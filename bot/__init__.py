"""Jarmo for Discord: the rules engine, renderer, store, service and Discord adapter."""
