"""The local API's version, which every message carries as ``"v"`` (docs/LOCAL-API.md).

In a module of its own so that a frontend (``fourwinds status``, a bot seat) can name it
without importing the daemon's server side (asyncio, the socket loop): the frontends run as a
process per command, and what they import is paid at every start.
"""

from __future__ import annotations

API_VERSION = 1
