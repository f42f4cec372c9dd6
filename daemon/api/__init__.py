"""The local API: the socket frontends talk to (``server``), its version (``version``), and
the table requests it answers (``requests``). It knows the daemon only through the narrow
``requests.ApiHost`` Protocol the wiring hands it.

``ApiError`` and ``Message`` are re-exported here for the tournament modules (daemon/event*.py),
which import them from ``fourwinds.daemon.api``.
"""

from fourwinds.daemon.api.server import ApiError as ApiError
from fourwinds.daemon.api.server import Message as Message

PUBLIC = ("server", "version", "requests")
"""The modules other parts of the daemon may import; anything else here is internal."""
