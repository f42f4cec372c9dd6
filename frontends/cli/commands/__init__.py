"""Subcommands of the `fourwinds` command; each module registers itself (see cli.py)."""
