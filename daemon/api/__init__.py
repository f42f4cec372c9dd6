"""The local API: the socket frontends talk to (``server``), its version (``version``), the
table requests it answers (``requests``) and the views it publishes to subscribers
(``views``). It knows the daemon only through the narrow Protocols ``host.ApiHost`` and
``views.ViewHost``, which the wiring (daemon/app.py) satisfies.

``ApiError`` and ``Message`` are re-exported here for the tournament modules (daemon/event*.py),
which import them from ``fourwinds.daemon.api``.
"""

from fourwinds.daemon.api.server import ApiError as ApiError
from fourwinds.daemon.api.server import Message as Message

PUBLIC = ("server", "version", "requests", "views")
"""The modules other parts of the daemon may import; anything else here is internal."""
