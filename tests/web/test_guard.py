"""Who the web server answers: only requests with the token, our own Host and our own Origin.

The server runs on 127.0.0.1 with a fake daemon link (no daemon needed: a refused request
never reaches it). Requests are made as another program or a hostile page would make them:
without the token, with a foreign ``Origin`` (a cross-site WebSocket), with a foreign ``Host``
(DNS rebinding). The page's requests the bridge does not relay (``stop``) are refused too.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, cast

import aiohttp
import pytest
from aiohttp import web

from fourwinds.frontends.web.bridge import Bridge
from fourwinds.frontends.web.guard import Guard
from fourwinds.frontends.web.link import AsyncLink
from fourwinds.frontends.web.seats import BotKeeper
from fourwinds.frontends.web.server import make_app, static_files

TOKEN = "t0ken-for-the-tests_0123456789abcdef"


class FakeLink:
    """Answers like a daemon that sits at no table; remembers what it was asked."""

    def __init__(self) -> None:
        self.asked: list[dict[str, Any]] = []
        self.lost = False

    def listen(self, listener: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
        return lambda: None

    async def request(
        self, message: Mapping[str, Any], timeout: float | None = None
    ) -> dict[str, Any]:
        self.asked.append(dict(message))
        if message.get("type") == "tables":
            return {"ok": True, "tables": [], "seen": [], "peers": []}
        return {"ok": False, "error": "no such table"}


Check = Callable[[aiohttp.ClientSession, Guard, FakeLink], Awaitable[None]]


def served(check: Check, tmp_path: Path) -> FakeLink:
    """Run the server on 127.0.0.1 (a free port) while ``check`` makes its requests."""
    link = FakeLink()

    async def main() -> None:
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        guard = Guard("127.0.0.1", listener.getsockname()[1], TOKEN)
        bridge = Bridge(cast(AsyncLink, link), BotKeeper(tmp_path), None, {"name": "Pat"})
        runner = web.AppRunner(make_app(guard, bridge), access_log=None)
        await runner.setup()
        await web.SockSite(runner, listener).start()
        try:
            async with aiohttp.ClientSession() as session:
                await check(session, guard, link)
        finally:
            await runner.cleanup()

    asyncio.run(main())
    return link


def _cookie(guard: Guard) -> dict[str, str]:
    return {"Cookie": f"{guard.cookie}={guard.token}"}


def test_the_first_load_turns_the_token_into_a_strict_cookie(tmp_path: Path) -> None:
    async def check(session: aiohttp.ClientSession, guard: Guard, link: FakeLink) -> None:
        async with session.get(guard.url, allow_redirects=False) as answer:
            assert answer.status == 303 and answer.headers["Location"] == "/"
            cookie = answer.headers["Set-Cookie"]
            assert f"{guard.cookie}={TOKEN}" in cookie and "HttpOnly" in cookie
            assert "SameSite=Strict" in cookie
        async with session.get(f"{guard.origin}/", headers=_cookie(guard)) as answer:
            assert answer.status == 200
            assert "<title>fourwinds</title>" in await answer.text()
            csp = answer.headers["Content-Security-Policy"]
            assert "default-src 'none'" in csp and "script-src 'self'" in csp
            assert "frame-ancestors 'none'" in csp and "unsafe" not in csp
            assert answer.headers["X-Content-Type-Options"] == "nosniff"
        async with session.get(f"{guard.origin}/static/app.js", headers=_cookie(guard)) as a:
            assert a.status == 200 and a.content_type == "text/javascript"

    served(check, tmp_path)


def test_requests_without_the_token_are_refused(tmp_path: Path) -> None:
    async def check(session: aiohttp.ClientSession, guard: Guard, link: FakeLink) -> None:
        for path in ("/", "/static/app.js", "/?token=wrong", "/ws"):
            async with session.get(f"{guard.origin}{path}") as answer:
                assert answer.status == 403, path
                assert "no valid token" in await answer.text()
        wrong = {"Cookie": f"{guard.cookie}=not-the-token"}
        async with session.get(f"{guard.origin}/", headers=wrong) as answer:
            assert answer.status == 403
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(f"ws://{guard.authority}/ws", origin=guard.origin)
        assert refused.value.status == 403

    assert served(check, tmp_path).asked == []  # the daemon heard nothing


def test_a_foreign_origin_is_refused_also_with_the_token(tmp_path: Path) -> None:
    async def check(session: aiohttp.ClientSession, guard: Guard, link: FakeLink) -> None:
        for origin in (
            "http://evil.example",
            f"http://localhost:{guard.port}",
            f"https://{guard.authority}",
            "null",
        ):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(
                    f"ws://{guard.authority}/ws", origin=origin, headers=_cookie(guard)
                )
            assert refused.value.status == 403, origin
            async with session.get(
                f"{guard.origin}/", headers={**_cookie(guard), "Origin": origin}
            ) as answer:
                assert answer.status == 403 and "foreign Origin" in await answer.text()
        with pytest.raises(aiohttp.WSServerHandshakeError):  # a WebSocket must say where from
            await session.ws_connect(f"ws://{guard.authority}/ws", headers=_cookie(guard))
        async with session.ws_connect(
            f"ws://{guard.authority}/ws", origin=guard.origin, headers=_cookie(guard)
        ) as ws:
            hello = json.loads(await ws.receive_str())
            assert hello == {"type": "hello", "name": "Pat", "table": None}

    served(check, tmp_path)


def test_a_foreign_host_is_refused_also_with_the_token(tmp_path: Path) -> None:
    """DNS rebinding: a hostile name resolving to 127.0.0.1 sends its own name as Host."""

    async def check(session: aiohttp.ClientSession, guard: Guard, link: FakeLink) -> None:
        for host in (
            f"evil.example:{guard.port}",
            f"localhost:{guard.port}",
            "127.0.0.1",
            f"127.0.0.1:{guard.port + 1}",
        ):
            async with session.get(
                f"{guard.origin}/", headers={**_cookie(guard), "Host": host}
            ) as answer:
                assert answer.status == 403, host
                assert "wrong Host" in await answer.text()
            async with session.get(
                f"{guard.origin}/?token={TOKEN}", headers={"Host": host}, allow_redirects=False
            ) as answer:
                assert answer.status == 403 and "Set-Cookie" not in answer.headers

    assert served(check, tmp_path).asked == []


def test_the_page_may_not_stop_the_daemon_or_send_unknown_requests(tmp_path: Path) -> None:
    async def check(session: aiohttp.ClientSession, guard: Guard, link: FakeLink) -> None:
        async with session.ws_connect(
            f"ws://{guard.authority}/ws", origin=guard.origin, headers=_cookie(guard)
        ) as ws:
            await ws.receive_str()  # hello
            for request in (
                {"id": 1, "type": "stop"},
                {"id": 2, "type": "transcript"},
                {"id": 3, "type": "host", "rules": "chess"},
            ):
                await ws.send_str(json.dumps(request))
                answer = json.loads(await ws.receive_str())
                assert answer["id"] == request["id"] and answer["ok"] is False, answer
            await ws.send_str("not json")
            assert json.loads(await ws.receive_str())["error"] == "not a JSON map"
            await ws.send_str(json.dumps({"id": 4, "type": "tables"}))
            assert json.loads(await ws.receive_str())["ok"] is True

    assert [m["type"] for m in served(check, tmp_path).asked] == ["tables"]


def test_the_page_is_package_data_and_fetches_nothing_from_outside() -> None:
    files = static_files()
    assert {"index.html", "app.css", "app.js", "tiles.js", "views.js", "icon.svg"} <= set(files)
    for name, (body, _) in files.items():
        text = body.decode()
        for marker in ("https://", "//cdn", "<script>", " on" + "click=", "eval("):
            assert marker not in text, (name, marker)
        # the only http:// is the SVG namespace name, never fetched
        assert text.replace("http://www.w3.org/2000/svg", "").count("http://") == 0, name


def test_two_web_servers_on_one_machine_keep_their_own_token_cookies(tmp_path: Path) -> None:
    """A browser keeps cookies per host, whatever the port: the second server's first load
    must not replace the first server's token, or its page is logged out (issue 22, 17)."""

    async def main() -> list[int]:
        runners, guards = [], []
        for n in range(2):
            listener = socket.socket()
            listener.bind(("127.0.0.1", 0))
            guard = Guard("127.0.0.1", listener.getsockname()[1], f"{TOKEN}-{n}")
            bridge = Bridge(
                cast(AsyncLink, FakeLink()), BotKeeper(tmp_path / str(n)), None, {"name": "Pat"}
            )
            runner = web.AppRunner(make_app(guard, bridge), access_log=None)
            await runner.setup()
            await web.SockSite(runner, listener).start()
            runners.append(runner)
            guards.append(guard)
        try:
            # one cookie jar for both, as one browser has (unsafe: it keeps IP-address hosts)
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as s:
                for guard in guards:
                    async with s.get(guard.url) as answer:
                        assert answer.status == 200  # redirected to "/" with the cookie
                statuses = []
                for guard in guards:  # a reload of each page: the cookie alone
                    async with s.get(f"{guard.origin}/") as answer:
                        statuses.append(answer.status)
                return statuses
        finally:
            for runner in runners:
                await runner.cleanup()

    assert asyncio.run(main()) == [200, 200]
