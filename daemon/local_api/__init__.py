"""The local API: the socket frontends talk to (``server``), its version (``version``), the
routing of each request (``routing``), the table requests it answers (``requests``; opening,
joining and dropping a table: ``opening``; a request's fields: ``fields``) and the views it
publishes to subscribers (``views``). It knows the daemon only through the narrow
Protocols ``host.ApiHost`` and ``views.ViewHost``, which the wiring (daemon/app.py)
satisfies; another part that calls its table requests (the tournament's tables) is given an
``ApiHost`` too.
"""

PUBLIC = ("server", "version", "routing", "requests", "opening", "views", "host")
"""The modules other parts of the daemon may import; anything else here is internal."""
