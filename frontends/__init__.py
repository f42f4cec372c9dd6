"""Thin frontends, one package per face: ``terminal`` (the curses table), ``web`` (the page),
``cli`` (the `fourwinds` command), ``bots`` (bot seats), and ``client``, the client of the
local daemon they all share."""
