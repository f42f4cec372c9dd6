"""SIGINT to `fourwinds play --web` alone (not to the terminal's process group) ends it at once.

A person who started `play --web` in one terminal may stop it from another (``kill -INT
PID``), or a desktop may send the signal to that process only. Then the bot seats it started
(each its own daemon and `fourwinds bot`) do not get the signal too and must be stopped by
`play` itself, and the page's WebSocket is still open in the browser: the web server must not
wait for the page to go away. The target is 2 s (docs/WEB.md); the bound below is looser so
that a busy machine does not fail the test, while the old behaviour (the server waiting
20-30 s for the open page) still does.

A page is opened the way the browser opens it (the printed address sets the token cookie,
then the WebSocket with our own Origin) by an aiohttp client that answers the server's pings
and its closing frame, as a browser does.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import threading
import time

import aiohttp
import pytest

from fourwinds.frontends.client.local_seats import bot_daemon_dirs, is_running
from testkit.machines import TEST_BOT_PAUSE, Machine

pytestmark = [pytest.mark.slow, pytest.mark.screen]

URL = re.compile(r"http://(127\.0\.0\.1:\d+)/\?token=[\w-]+")
EXIT_BOUND_S = 5.0  # the bound of this test; the target is 2 s (docs/WEB.md)


class OpenPage:
    """A page's WebSocket to the server, kept open (and answering) in a thread of its own."""

    def __init__(self, url: str, authority: str) -> None:
        self.url, self.authority = url, authority
        self.hello = threading.Event()
        self.closed = threading.Event()
        self.problem = ""
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self._thread.start()

    async def _run(self) -> None:
        try:
            # a cookie of 127.0.0.1, kept as a browser keeps it (aiohttp's jar refuses IPs)
            jar = aiohttp.CookieJar(unsafe=True)
            async with aiohttp.ClientSession(cookie_jar=jar) as session:
                async with session.get(self.url) as answer:  # the token becomes a cookie
                    assert answer.status == 200, answer.status
                async with session.ws_connect(
                    f"ws://{self.authority}/ws", origin=f"http://{self.authority}"
                ) as ws:
                    async for frame in ws:
                        if frame.type == aiohttp.WSMsgType.TEXT and '"hello"' in frame.data:
                            self.hello.set()
        except (aiohttp.ClientError, AssertionError, OSError) as error:
            self.problem = repr(error)
        finally:
            self.closed.set()


def test_sigint_to_play_web_alone_ends_it_quickly_and_cleanly(pat: Machine) -> None:
    data = pat.home / "fw"
    with open(pat.home / "web.out", "wb") as out, open(pat.home / "web.err", "wb") as err:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "fourwinds.frontends.cli",
                "play",
                "--web",
                "--bots",
                "3",
                "--practice",
                "--rules",
                "mcr",
                "--bot-pause",
                f"{TEST_BOT_PAUSE:g}",
                "--data-dir",
                str(data),
            ],
            cwd=pat.home,
            env=pat.env(FOURWINDS_CONFIG=os.devnull, DISPLAY="", WAYLAND_DISPLAY="", BROWSER=""),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
        )
    try:
        end = time.monotonic() + 90
        while not (found := URL.search((pat.home / "web.out").read_text(errors="replace"))):
            assert process.poll() is None and time.monotonic() < end, (
                f"`play --web` printed no address:\n{(pat.home / 'web.err').read_text()}"
            )
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.2)
        page = OpenPage(found.group(0), found.group(1))
        assert page.hello.wait(20), f"the page got no hello ({page.problem})"
        bots = bot_daemon_dirs(data)
        assert len(bots) == 3 and all(is_running(str(d)) for d in bots), bots

        started = time.monotonic()
        os.kill(process.pid, signal.SIGINT)  # this process only, not its group
        try:
            process.wait(EXIT_BOUND_S)
        except subprocess.TimeoutExpired:
            pytest.fail(f"`play --web` still runs {EXIT_BOUND_S:.0f} s after SIGINT")
        took = time.monotonic() - started
        print(f"`play --web` exited {took:.2f} s after SIGINT")
        stderr = (pat.home / "web.err").read_text(errors="replace")
        assert "Traceback" not in stderr, stderr
        assert process.returncode == 0, (process.returncode, stderr)
        assert page.closed.wait(5), "the page's WebSocket is still open"
        # its own bot seats are stopped; the player's daemon keeps the seat (README)
        assert not [d for d in bots if is_running(str(d))], "bot seats left running"
        assert is_running(str(data)), "the player's daemon stopped with `play --web`"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
