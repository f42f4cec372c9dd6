"""Which process holds a TCP port, for the one-line "port in use" error (Linux ``/proc``).

The listening socket's inode comes from ``/proc/net/tcp`` and ``tcp6``; the process is the one
with that socket among its open files (``/proc/<pid>/fd``). Another user's processes cannot be
looked into: then only their user is named. Where there is no ``/proc`` (macOS, BSD) nothing
is known and the caller just says the port is taken.
"""

from __future__ import annotations

import contextlib
import os
import pwd
from pathlib import Path

LISTEN = "0A"
PROC = Path("/proc")


def _listening_sockets(port: int, proc: Path) -> dict[str, int]:
    """inode -> owning uid of every socket listening on TCP ``port``."""
    found: dict[str, int] = {}
    for table in ("tcp", "tcp6"):
        try:
            lines = (proc / "net" / table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) < 10 or fields[3] != LISTEN:
                continue
            with contextlib.suppress(ValueError, IndexError):
                if int(fields[1].rsplit(":", 1)[1], 16) == port:
                    found[fields[9]] = int(fields[7])
    return found


def _command(pid: str, proc: Path) -> str:
    try:
        raw = (proc / pid / "cmdline").read_bytes()
    except OSError:
        return ""
    words = [w.decode(errors="replace") for w in raw.split(b"\0") if w]
    if len(words) > 1 and "python" in os.path.basename(words[0]) and words[1] == "-m":
        words = words[2:]  # "python -m fourwinds.frontends.cli daemon": the module is enough
    text = " ".join(" ".join(words).split())  # one line, whatever the arguments hold
    return text if len(text) <= 70 else text[:67] + "..."


def _user(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def port_holder(port: int, proc: Path = PROC) -> str | None:
    """Who listens on TCP ``port``: "pid 1234 (fourwinds daemon ...)", "a process of user
    bob", or None when it cannot be known."""
    sockets = _listening_sockets(port, proc)
    if not sockets:
        return None
    wanted = {f"socket:[{inode}]" for inode in sockets}
    try:
        pids = [entry.name for entry in proc.iterdir() if entry.name.isdigit()]
    except OSError:
        pids = []
    for pid in pids:
        try:
            fds = list((proc / pid / "fd").iterdir())
        except OSError:
            continue  # gone, or another user's
        for fd in fds:
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target in wanted:
                command = _command(pid, proc)
                return f"pid {pid} ({command})" if command else f"pid {pid}"
    uid = next(iter(sockets.values()))
    return None if uid == os.getuid() else f"a process of user {_user(uid)}"
