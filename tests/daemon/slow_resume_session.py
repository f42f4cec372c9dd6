"""The toy session (tests/daemon/toy_session.py) with a resume that keeps a CPU busy for
``RESUME_S`` seconds (``FOURWINDS_TOY_RESUME_S``), like a long match's thousands of
signatures checked again: the daemon must go on answering and stopping meanwhile."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence

from tests.daemon import toy_session
from tests.daemon.toy_session import (  # noqa: F401  (the session port, as the toy has it)
    Session,
    apply_message,
    awaits_us,
    handle_message,
    join_table,
    last_seq,
    local_action,
    messages_since,
    new_table,
    opens_table,
    seat_keys,
    seat_view,
    send_action,
    settle,
    tick,
    transcript,
)

RESUME_S = float(os.environ.get("FOURWINDS_TOY_RESUME_S", "3"))


def resume(records: Sequence[bytes], identity_private_key: bytes) -> Session:
    deadline = time.monotonic() + RESUME_S
    spins = 0
    while time.monotonic() < deadline:  # pure Python work: it holds the GIL as it runs
        spins += sum(range(1000)) % 7
    return toy_session.resume(records, identity_private_key)
