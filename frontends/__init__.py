"""Thin frontends: CLI, curses table, bots and the Python client of the local API."""
