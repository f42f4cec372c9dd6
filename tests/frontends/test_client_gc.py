"""A local-API client dropped without ``close()`` never hangs its process (client/client.py).

A client in a reference cycle (a script's, or a failed test's traceback holding it) is
collected with its socket in one garbage collection. With a ZeroMQ context of its own, that
context could be finalized first and wait for ever for the socket (a whole suite run hung so
on 2026-12-04, in the test after a failed one). The clients share the process's one context,
so collecting them only closes sockets."""

from __future__ import annotations

import subprocess
import sys

from testkit.procs import ROOT

DROP_IN_CYCLES = """
import gc
from fourwinds.frontends.client.client import Client

class Holder:
    pass

for i in range(100):
    client = Client("ipc:///nonexistent/fourwinds-%d" % i)
    holder = Holder()
    holder.client, holder.me, client.holder = client, holder, holder   # a cycle
    del client, holder
    if i % 10 == 0:
        gc.collect()
gc.collect()
print("collected")
"""


def test_clients_dropped_in_reference_cycles_are_collected_without_hanging() -> None:
    done = subprocess.run(
        [sys.executable, "-c", DROP_IN_CYCLES], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "collected"
