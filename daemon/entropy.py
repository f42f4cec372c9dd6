"""Where the daemon's own fresh randomness comes from: the system (``os.urandom``), or, for
tests that must see the same deal twice, a stream fixed by ``FOURWINDS_INSECURE_TEST_ENTROPY``.

A table's wall and seats come from the four seats' commit-reveal, and each seat's secrets
are derived from its identity key and the table id (table_runtimes/seat_secrets.py). So the identity
key and the table id are the only fresh randomness a seat puts into a deal. A test that runs
all four seats on one machine (``fourwinds play`` with its bots) and sets the variable for
every process gets the same identities, table ids and so the same deal on every run, which
makes a test of "a hand that becomes ready" or "a hand long enough to fill a pond" certain
instead of a matter of luck.

The variable makes this daemon's keys predictable to anyone who knows it: it is for tests
only, never for a real table. It cannot steer a table with one seat that does not set it
(that seat's nonces are as random as ever), and a daemon that uses it logs a warning.
"""

from __future__ import annotations

import hashlib
import logging
import os
from pathlib import Path

VARIABLE = "FOURWINDS_INSECURE_TEST_ENTROPY"
LABEL_LIMIT = 512

log = logging.getLogger(__name__)
_drawn: dict[str, int] = {}
_warned = False


def test_seed() -> bytes | None:
    """The fixed seed from the environment, or None (the normal case: system randomness)."""
    value = os.environ.get(VARIABLE, "")
    return value.encode("utf-8")[:LABEL_LIMIT] if value else None


def fresh_bytes(size: int, label: str) -> bytes:
    """``size`` fresh random bytes; under the test variable the next bytes of the stream
    named ``label`` (the n-th call with one label gives the n-th block of that stream)."""
    seed = test_seed()
    if seed is None:
        return os.urandom(size)
    global _warned
    if not _warned:
        _warned = True
        log.warning(
            "%s is set: this daemon's keys and table ids are predictable (for tests only)", VARIABLE
        )
    label = label[:LABEL_LIMIT]
    count = _drawn.get(label, 0)
    _drawn[label] = count + 1
    out = b""
    block = 0
    while len(out) < size:
        out += hashlib.sha256(
            b"fourwinds-test-entropy\0"
            + seed
            + b"\0"
            + label.encode()
            + b"\0"
            + f"{count}:{block}".encode()
        ).digest()
        block += 1
    return out[:size]


def place_label(path: Path) -> str:
    """A label for a file that is the same on every run of a test: its path under the home
    folder (tests give each player a home of their own, named after the player)."""
    home = Path.home()
    try:
        return f"{home.name}/{path.relative_to(home)}"
    except ValueError:
        return str(path)
