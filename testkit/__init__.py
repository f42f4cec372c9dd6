"""What the tests and the benchmarks both use to run real daemons, networks and browsers.

Real daemon processes on loopback (``procs``), network namespaces for machines (``netns``,
``machines``, ``relay``), the fault and adversary harnesses, a headless Chromium
(``browser``), a tmux terminal (``screen``), bot seats (``bots``) and random MCR winning hands
(``mcr_hands``). It lives beside ``tests/`` and ``benchmarks/`` so neither imports the other's
private helpers, and it is not part of the installed package (pyproject.toml lists the
packages that are).
"""
