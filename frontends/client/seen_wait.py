"""Joining by name waits until the daemon has seen the table or the event on the network.

A daemon learns of the tables and events around it by mDNS: a few seconds after it starts,
or after a host or a director made one. A person who types `fourwinds play --join kitchen`
or `fourwinds tournament join club` right after the host said "made" should not be refused
for being quick, and a daemon just started by that very command has seen nothing yet. So both
commands look first, and where nothing of that name is seen yet they say they are looking,
look again every quarter second up to ``JOIN_WAIT_S``, say how long they have looked every
``PROGRESS_S``, and then give up with the same hint: the command that lists what is seen, and
``--peer`` for a network that blocks multicast.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from fourwinds.protocol.errors import FourwindsError

JOIN_WAIT_S = 10.0
"""How long a join by name waits for the daemon to see what it names."""
PROGRESS_S = 2.0
"""How often the wait says it is still looking."""
LOOK_EVERY_S = 0.25


@dataclass(frozen=True)
class Sought:
    """What a person joins by name: ``noun`` ("table", "event"), the name or id they typed,
    the command that lists what the daemon has seen, and whose address ``--peer`` takes."""

    noun: str
    ref: str
    listing: str
    owner: str


def wait_until_seen(sought: Sought, seen: Callable[[], bool], say: Callable[[str], None]) -> None:
    """Return once ``seen()`` is true (at once when it already is); FourwindsError after
    JOIN_WAIT_S of looking, naming what to do."""
    if seen():
        return
    start = time.monotonic()
    said = start
    say(f"looking for {sought.noun} {sought.ref} on the network (up to {JOIN_WAIT_S:.0f} s)...")
    while True:
        time.sleep(LOOK_EVERY_S)
        if seen():
            return
        now = time.monotonic()
        if now - start >= JOIN_WAIT_S:
            raise FourwindsError(
                f"no {sought.noun} {sought.ref!r} seen on the network within "
                f"{JOIN_WAIT_S:.0f} s; {sought.listing} lists those seen (where multicast is "
                f"blocked, give the {sought.owner}'s address: --peer HOST:PORT)"
            )
        if now - said >= PROGRESS_S:
            say(f"still looking for {sought.ref} ({now - start:.0f} s)...")
            said = now
