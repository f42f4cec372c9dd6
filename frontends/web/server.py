"""The web server: the page's static files, its WebSocket, and the guard in front of both.

Routes: ``/`` (the page; ``/?token=...`` sets the token cookie and redirects to ``/`` so the
token leaves the address bar and the history; ``/?token=...&room=EVENT`` to the room screen),
``/room?event=EVENT`` (the room screen of an event, for a projector: room.html),
``/static/<file>`` (the pages' CSS, JavaScript and icon: package data, served from memory)
and ``/ws`` (the pages' link: bridge.py). Every request passes ``Guard`` first (guard.py)
and every answer carries its headers.
"""

from __future__ import annotations

import importlib.resources
from collections.abc import Awaitable, Callable, Mapping
from urllib.parse import quote

from aiohttp import web

from fourwinds.frontends.web.bridge import Bridge
from fourwinds.frontends.web.guard import Guard

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
ROOM_NAME = 64
"""Longest event name a room address carries (an event's name is at most 64 characters)."""
TYPES = {
    ".html": "text/html",
    ".css": "text/css",
    ".js": "text/javascript",
    ".svg": "image/svg+xml",
}


def static_files() -> dict[str, tuple[bytes, str]]:
    """The page's files (name -> content, content type), read once from the package."""
    folder = importlib.resources.files("fourwinds.frontends.web").joinpath("static")
    files = {}
    for entry in folder.iterdir():
        suffix = "." + entry.name.rsplit(".", 1)[-1]
        if entry.is_file() and suffix in TYPES:
            files[entry.name] = (entry.read_bytes(), TYPES[suffix])
    return files


def make_app(
    guard: Guard, bridge: Bridge, files: Mapping[str, tuple[bytes, str]] | None = None
) -> web.Application:
    """The aiohttp application (tests run it with a bridge of their own)."""
    files = dict(files if files is not None else static_files())

    @web.middleware
    async def guarded(request: web.Request, handler: Handler) -> web.StreamResponse:
        token = request.query.get("token") if request.path == "/" else None
        websocket = request.headers.get("Upgrade", "").lower() == "websocket"
        problem = guard.refusal(request.headers, request.cookies, token, websocket)
        if problem is not None:
            response: web.StreamResponse = web.Response(status=403, text=problem + "\n")
        else:
            try:
                response = await handler(request)
            except web.HTTPException as error:
                response = web.Response(status=error.status, text=error.text)
        if not response.prepared:
            response.headers.update(guard.headers())
        return response

    async def page(request: web.Request) -> web.StreamResponse:
        if "token" in request.query:  # first load: the token becomes a cookie
            room = request.query.get("room")
            where = f"/room?event={quote(room[:ROOM_NAME], safe='')}" if room else "/"
            response = web.Response(status=303, headers={"Location": where})
            response.set_cookie(
                guard.cookie, guard.token, httponly=True, samesite="Strict", path="/"
            )
            return response
        body, kind = files["index.html"]
        return web.Response(body=body, content_type=kind, charset="utf-8")

    async def room(request: web.Request) -> web.StreamResponse:
        body, kind = files["room.html"]
        return web.Response(body=body, content_type=kind, charset="utf-8")

    async def static(request: web.Request) -> web.StreamResponse:
        found = files.get(request.match_info["name"])
        if found is None or found[1] == "text/html":
            raise web.HTTPNotFound(text="no such file\n")
        body, kind = found
        return web.Response(
            body=body, content_type=kind, charset="utf-8" if kind != "image/svg+xml" else None
        )

    async def socket(request: web.Request) -> web.StreamResponse:
        return await bridge.serve(request)

    async def close_pages(app: web.Application) -> None:
        await bridge.close_pages()

    app = web.Application(middlewares=[guarded], client_max_size=64 * 1024)
    app.on_shutdown.append(close_pages)  # the server stops: the pages are told at once
    app.router.add_get("/", page)
    app.router.add_get("/room", room)
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/ws", socket)
    return app
