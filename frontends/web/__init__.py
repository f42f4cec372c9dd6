"""`fourwinds web`: the table in the browser, one more thin frontend on the local API.

A small aiohttp server on 127.0.0.1 bridges a browser page to the player's own daemon:
``link.py`` talks to the daemon (asyncio ZeroMQ), ``guard.py`` decides which HTTP requests are
answered at all (token, Host, Origin), ``bridge.py`` relays the page's requests and the
daemon's view events over a WebSocket, ``seats.py`` hosts a table with bot seats as `play`
does, ``server.py`` puts the app together and ``launch.py`` runs it for the commands. The page
itself is static files in ``static/`` (HTML, CSS, a little JavaScript; no build step, nothing
fetched from outside). No game logic lives here: what a player may do comes from the view's
``legal_actions``. See docs/WEB.md.
"""
