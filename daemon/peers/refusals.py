"""Why the daemon drops something a peer sent, counted by a fixed set of reasons.

A refusal's reason is one of ``Refusal``'s members, never text a peer chose: a frame whose
kind is a 240 KB nested value once became part of the reason, which was a key of the refusal
counter and a log line (3,000 such frames took the daemon from 50 to 947 MB and its log to
745 MB, and the ``status`` reply no longer fitted the client's limit). The detail (what was
wrong, the peer's own words) goes to the log only, truncated to ``DETAIL_CHARS``, and at most
once per source (an address) per ``LOG_EVERY_S``: the line after a quiet minute says how many
were refused meanwhile. ``status`` shows the counts by reason (docs/SECURITY.md).
"""

from __future__ import annotations

import logging
from collections import Counter, OrderedDict
from enum import Enum

from fourwinds.protocol.errors import FourwindsError

log = logging.getLogger("fourwinds.daemon.peers.refusals")

DETAIL_CHARS = 200
LOG_EVERY_S = 60.0
SOURCES_KEPT = 1024
"""Sources whose last log line is remembered; beyond that the oldest is forgotten (it may log
one line early: memory stays bounded whatever the number of addresses)."""


class Refusal(Enum):
    """Every reason the peer side of the daemon drops something. The values are the keys of
    ``status``'s ``refused`` counts."""

    ZAP_NOT_CURVE = "zap: not a CURVE connection"
    ZAP_UNKNOWN_KEY = "zap: unknown key"
    ZAP_GUEST_LIMIT = "zap: too many new guests (rate limit)"
    FRAME_PARTS = "frame: wrong number of parts"
    FRAME_NO_KEY = "frame: no authenticated key"
    FRAME_VERSION = "frame: another protocol version"
    FRAME_MALFORMED = "frame: malformed"
    GUEST_RATE = "frame: too many frames from an unknown key (rate limit)"
    BEFORE_HELLO = "handler: frame before hello"
    HELLO_MISMATCH = "handler: hello key does not match the connection"
    NOT_SEATED = "handler: frame a guest may not send"
    NOT_MEMBER = "handler: frame from a key not seated at that table"
    UNKNOWN_TABLE = "handler: frame for a table not here (left or set aside)"
    OUT_OF_PLACE = "handler: frame out of place"
    PAIRING = "handler: pairing refused (a wrong code, a full table...)"
    HANDLER = "handler: refused"
    INTERNAL = "handler: internal error"
    SOCKET_CLOSED = "socket: connection closed (peer gone, or a frame over the size limit)"
    SOCKET_HANDSHAKE = "socket: handshake failed"

    @property
    def quiet(self) -> bool:
        """Counted, logged only at debug level: frames peers keep sending for a table we
        left or set aside, and connections that simply end, are no news."""
        return self in (Refusal.UNKNOWN_TABLE, Refusal.SOCKET_CLOSED)


class Refused(FourwindsError):
    """A frame we drop: a fixed ``reason`` (counted) and a ``detail`` (logged, truncated)."""

    def __init__(self, reason: Refusal, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"{reason.value}: {detail}" if detail else reason.value)


def truncate(text: str, limit: int = DETAIL_CHARS) -> str:
    """``text`` cut to ``limit`` characters (marked), one line."""
    text = text.replace("\n", " ").replace("\r", " ")
    return text if len(text) <= limit else text[: limit - 15] + "... (truncated)"


class Refusals:
    """The refusal counts (``counts``: a Counter keyed by ``Refusal.value``, so at most
    ``len(Refusal)`` keys) and the log lines, at most one per source per LOG_EVERY_S."""

    def __init__(self, counts: Counter[str] | None = None) -> None:
        self.counts: Counter[str] = Counter() if counts is None else counts
        self._logged: OrderedDict[str, tuple[float, int]] = OrderedDict()  # source -> (when, held)

    def note(self, reason: Refusal, source: str, detail: str, now: float) -> None:
        """Count one refusal; log it unless ``source`` was logged within LOG_EVERY_S."""
        self.counts[reason.value] += 1
        source = truncate(source, 64)
        if reason.quiet:
            log.debug("dropped a frame from %s: %s (%s)", source, reason.value, truncate(detail))
            return
        last = self._logged.get(source)
        if last is not None and now - last[0] < LOG_EVERY_S:
            self._logged[source] = (last[0], last[1] + 1)
            return
        held = 0 if last is None else last[1]
        self._logged[source] = (now, 0)
        self._logged.move_to_end(source)
        while len(self._logged) > SOURCES_KEPT:
            self._logged.popitem(last=False)
        more = f" (and {held:,} more refused from there since the last line)" if held else ""
        text = truncate(detail)
        log.warning(
            "refused from %s: %s%s%s", source, reason.value, f" ({text})" if text else "", more
        )
