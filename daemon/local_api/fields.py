"""Fields of a local API request, checked where they enter (daemon/checks.py)."""

from __future__ import annotations

from fourwinds.daemon.checks import BadInput, local_name
from fourwinds.daemon.local_api.server import ApiError, Message


def text(request: Message, name: str, default: str | None = None, limit: int = 60) -> str:
    """A name in a request: control characters removed, 1 to ``limit`` characters
    (daemon/checks.py)."""
    try:
        return local_name(request.get(name, default), name, limit)
    except BadInput as error:
        raise ApiError(error.reason) from None
