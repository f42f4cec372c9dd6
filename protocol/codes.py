"""Codes people type: a private table's or a private event's, compared as typed by people
(case, spaces and dashes ignored). The daemon draws a code; the core only compares."""

from __future__ import annotations

import hmac


def normalize_code(code: str) -> bytes:
    """A code as compared: upper case, letters and digits only."""
    return "".join(c for c in code.upper() if c.isalnum()).encode()


def same_code(given: str, code: str) -> bool:
    """Whether ``given`` is ``code`` as a person might type it (in constant time)."""
    return hmac.compare_digest(normalize_code(given), normalize_code(code))
