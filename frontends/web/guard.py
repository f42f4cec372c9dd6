"""Which HTTP requests the web server answers at all, and the headers every answer carries.

The server listens on 127.0.0.1 only, but every program of every user of the machine can
reach that port, and so can any web page the browser shows (by a cross-site request, or by
DNS rebinding: a hostile name that resolves to 127.0.0.1). So a request is answered only when

* its ``Host`` is exactly our own address and port (a rebinding name fails this),
* its ``Origin``, when it has one, is exactly our own origin (a WebSocket must have one: a
  page elsewhere cannot open ours, whatever the browser lets it try), and
* it carries the token: in the URL the server printed (``?token=``; the first load turns it
  into a cookie, then drops it from the address bar) or in that cookie (``HttpOnly``,
  ``SameSite=Strict``).

Everything refused gets 403 with one line saying why, and nothing else happens.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass

COOKIE_PREFIX = "fourwinds_token"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' {ws}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


@dataclass(frozen=True)
class Guard:
    """The server's own address and its token."""

    host: str  # "127.0.0.1"
    port: int
    token: str

    @property
    def authority(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def origin(self) -> str:
        return f"http://{self.authority}"

    @property
    def cookie(self) -> str:
        """The token cookie's name, this server's own (cookies ignore the port)."""
        return f"{COOKIE_PREFIX}_{self.port}"

    @property
    def url(self) -> str:
        """The address to open: it carries the token."""
        return f"{self.origin}/?token={self.token}"

    def refusal(
        self,
        headers: Mapping[str, str],
        cookies: Mapping[str, str],
        query_token: str | None,
        websocket: bool,
    ) -> str | None:
        """Why this request is refused, or None when it may be answered."""
        host = headers.get("Host", "")
        if host != self.authority:
            return f"wrong Host {host!r}: this server answers only at {self.authority}"
        origin = headers.get("Origin")
        if origin is None and websocket:
            return "a WebSocket without an Origin"
        if origin is not None and origin != self.origin:
            return f"foreign Origin {origin!r}"
        given = query_token if query_token is not None else cookies.get(self.cookie, "")
        if not given or not hmac.compare_digest(given.encode(), self.token.encode()):
            return "no valid token: open the address `fourwinds web` printed"
        return None

    def headers(self) -> dict[str, str]:
        """Added to every answer: a strict CSP, no sniffing, no referrer, no caching."""
        return {
            "Content-Security-Policy": CSP.format(ws=f"ws://{self.authority}"),
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
            "X-Frame-Options": "DENY",
            "Cross-Origin-Opener-Policy": "same-origin",
            "Cross-Origin-Resource-Policy": "same-origin",
            "Cache-Control": "no-store",
        }
