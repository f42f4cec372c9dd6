"""Printing long output to a pipe that may close early (`fourwinds replay FILE | head`).

When the reader goes away, Python raises ``BrokenPipeError`` at the next write, and again
when it flushes stdout at exit ("Exception ignored ... BrokenPipeError"). ``print_lines``
stops writing instead and points stdout at the null device, so the command ends quietly.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable


def print_lines(lines: Iterable[str]) -> bool:
    """Print each line on stdout; False if the reader closed the pipe first."""
    try:
        for line in lines:
            print(line)
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
        return False
    return True


def silence_stdout() -> None:
    """Point stdout's file descriptor at the null device, so the exit flush finds a sink."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real descriptor (captured output): nothing to flush
        pass
