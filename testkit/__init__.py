"""What the tests and the benchmarks both use to run real daemons, networks and browsers.

Real daemon processes on loopback (``procs``: also ``start_logged`` for a `fourwinds bot`
seat), short scratch folders for their sockets (``dirs``), network namespaces for machines
(``netns``, ``machines``, ``relay``), the fault and adversary harnesses, a headless Chromium
(``browser``), a tmux terminal (``screen``), bot seats (``bots``) and random MCR winning hands
(``mcr_hands``); and the small readers several test folders share: the seat view
(``views``), a table payload (``payloads``), a seat's slots (``slots``), the code's imports
(``imports``). It lives beside ``tests/`` and ``benchmarks/`` so neither imports the other's
private helpers, and a helper two test folders need lives here once instead of copied into
each. It is not part of the installed package (pyproject.toml lists the packages that are).
"""
