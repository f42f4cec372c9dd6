"""Run the web server for `fourwinds web` and `fourwinds play --web` until Ctrl-C.

It binds 127.0.0.1 on a free port (never anything else), makes up a fresh token, prints the
address with the token and opens the browser at it. The browser is opened through a small
file of ours (mode 0600, in the daemon's private runtime folder) that forwards to the
address, so the token never appears on a command line other users of the machine could read
(``ps``). Where no browser can be opened (no display, none installed) the printed address is
all there is, and that is not an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import os
import secrets
import signal
import socket
import sys
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from aiohttp import web

from fourwinds.daemon.paths import default_paths
from fourwinds.frontends.client.local_seats import Started
from fourwinds.frontends.web.bridge import Bridge
from fourwinds.frontends.web.guard import Guard
from fourwinds.frontends.web.link import open_link
from fourwinds.frontends.web.seats import BotKeeper
from fourwinds.frontends.web.server import make_app
from fourwinds.protocol.bot_level import BotLevel

log = logging.getLogger(__name__)
LOOPBACK = "127.0.0.1"
OPENER = "web-open.html"
SHUTDOWN_S = 1.0
"""How long a stopping server waits for a page's request still being answered (a join can
take 30 s): the pages are closed first (Bridge.close_pages), so stopping never waits for
the browser; the whole of Ctrl-C stays within 2 s (docs/WEB.md)."""


def serve(
    data_dir: str | None,
    state: Path,
    *,
    table: str | None = None,
    browser: bool = True,
    verbose: int = 0,
    bot_pause: float = 0.0,
    bot_level: BotLevel = BotLevel.NORMAL,
    say: Callable[[str], None] = print,
    room: str | None = None,
) -> int:
    """Serve the page until SIGINT, SIGTERM or SIGHUP; 0. ``table``: the table the page
    shows first (None: the lobby, or the one table you sit at). Bot seats started from the
    page are stopped when it ends (those a caller started are the caller's); ``room``: the
    room screen of that event instead (room.html, for a projector). Bot seats wait
    ``bot_pause`` seconds before a decision, as `play`'s do (bot_pause.py), and play at
    ``bot_level`` unless the page's host form names another level."""
    return asyncio.run(
        _serve(data_dir, state, table, browser, verbose, bot_pause, bot_level, say, room)
    )


async def _serve(
    data_dir: str | None,
    state: Path,
    table: str | None,
    browser: bool,
    verbose: int,
    bot_pause: float,
    bot_level: BotLevel,
    say: Callable[[str], None],
    room: str | None,
) -> int:
    link = await open_link(data_dir)
    bots = BotKeeper(state, Started(), verbose, bot_pause, bot_level)
    runner: web.AppRunner | None = None
    try:
        hello = await link.request({"type": "hello"})
        bridge = Bridge(
            link, bots, table, {"name": hello.get("name"), "fingerprint": hello.get("fingerprint")}
        )
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.bind((LOOPBACK, 0))
        guard = Guard(LOOPBACK, int(listener.getsockname()[1]), secrets.token_urlsafe(32))
        runner = web.AppRunner(
            make_app(guard, bridge),
            access_log=None,
            handle_signals=False,
            shutdown_timeout=SHUTDOWN_S,
        )
        await runner.setup()
        await web.SockSite(runner, listener).start()
        url = guard.url if room is None else f"{guard.url}&room={quote(room, safe='')}"
        if room is None:
            say(f"the table is at {url}")
            say(
                "Ctrl-C stops this web server; your daemon keeps your seat "
                "(`fourwinds web` again returns to the table)"
            )
        else:
            say(f"the room screen of {room} is at {url} (for a projector: full screen, F11)")
            say("Ctrl-C stops this web server; the event goes on")
        if browser:
            open_browser(url, default_paths(data_dir).runtime)
        await _until_stopped()
        return 0
    finally:
        if runner is not None:
            await runner.cleanup()
        await link.close()
        await asyncio.to_thread(bots.stop)


async def _until_stopped() -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.remove_signal_handler(signum)


def can_open_browser() -> bool:
    """Is there a browser to open? On Linux and the BSDs only with a display (or $BROWSER):
    without one Python would start a text browser in this very terminal."""
    if sys.platform in ("darwin", "win32") or os.environ.get("BROWSER"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def open_browser(url: str, runtime: Path) -> None:
    """Open ``url`` in the user's browser through a private forwarding file, in the
    background (a browser may take a while to start); never fails."""
    if not can_open_browser():
        log.info("no display: not opening a browser")
        return
    try:
        opener = runtime / OPENER
        runtime.mkdir(parents=True, exist_ok=True)
        fd = os.open(opener, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            target = html.escape(url, quote=True)
            out.write(
                f'<!doctype html><meta charset="utf-8">'
                f'<meta http-equiv="refresh" content="0;url={target}">'
                f'<title>fourwinds</title><a href="{target}">fourwinds</a>\n'
            )
        address = opener.resolve().as_uri()
    except OSError as error:
        log.info("cannot write %s (%s): opening the address itself", OPENER, error)
        address = url

    def run() -> None:
        with contextlib.suppress(Exception):
            webbrowser.open(address)

    threading.Thread(target=run, name="open-browser", daemon=True).start()
