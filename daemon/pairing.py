"""Private tables: joining needs the host's short code, checked with SPAKE2 so it never crosses
the wire; identity keys are pinned on the first successful join.

Exchange (joiner J, host H; both know each other's Ed25519 key from the connection):

1. J -> H  ``PairStart``  : SPAKE2 message A (password = code, idA = J's key, idB = H's key)
2. H -> J  ``PairReply``  : SPAKE2 message B
3. J -> H  ``PairConfirm``: HMAC(k, "joiner" | table | keys)  - proves J knew the code
4. H -> J  ``PairResult`` : admitted + HMAC(k, "host" | ...)   - proves H knew it too

A wrong code gives different keys on the two sides, so step 3 fails and the host refuses with
"wrong table code"; a man in the middle who swapped keys also fails, since both keys are bound
into the exchange. Guessing online is rate-limited per table. Public tables skip SPAKE2 (empty
messages): anyone may take a free seat, and their key is pinned from then on.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from spake2 import SPAKE2_A, SPAKE2_B

from fourwinds.protocol.errors import FourwindsError

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I/L
CODE_LENGTH = 6
MAX_FAILURES = 10          # wrong codes per table per window before the host stops listening
FAILURE_WINDOW_S = 60.0


class PairingError(FourwindsError):
    """Pairing failed; the message is what the user sees."""


def new_code(choice: Callable[[str], str] = secrets.choice) -> str:
    """A fresh table code, e.g. ``K7QX3M`` (about 30 bits; guessing is rate-limited)."""
    return "".join(choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> bytes:
    """Codes are typed by people: ignore case, spaces and dashes."""
    return "".join(c for c in code.upper() if c.isalnum()).encode()


def _mac(key: bytes, role: bytes, table_id: bytes, joiner: bytes, host: bytes) -> bytes:
    return hmac.new(key, b"fourwinds-pair|" + role + table_id + joiner + host,
                    hashlib.sha256).digest()


@dataclass
class JoinerPairing:
    """The joining side of one pairing attempt."""

    table_id: bytes
    joiner_key: bytes
    host_key: bytes
    code: str | None
    _spake: SPAKE2_A | None = None
    _key: bytes = b""

    def start(self) -> bytes:
        """The SPAKE2 message for ``PairStart`` (empty for a public table)."""
        if self.code is None:
            return b""
        self._spake = SPAKE2_A(normalize_code(self.code), idA=self.joiner_key,
                               idB=self.host_key)
        message: bytes = self._spake.start()
        return message

    def confirm(self, reply: bytes) -> bytes:
        """The MAC for ``PairConfirm`` from the host's ``PairReply``."""
        if self._spake is None:
            raise PairingError("the host asked for a table code; give one with --code")
        try:
            self._key = self._spake.finish(reply)
        except Exception as error:  # spake2 raises its own error types on bad input
            raise PairingError(f"bad pairing reply from the host ({error})") from None
        return _mac(self._key, b"joiner", self.table_id, self.joiner_key, self.host_key)

    def check_result(self, admitted: bool, reason: str, mac: bytes) -> None:
        """Raise PairingError unless the host admitted us and (private) proved the code."""
        if not admitted:
            raise PairingError(f"the host refused: {reason}")
        if self.code is None:
            return
        expected = _mac(self._key, b"host", self.table_id, self.joiner_key, self.host_key)
        if not self._key or not hmac.compare_digest(mac, expected):
            raise PairingError("the host could not prove it knows the table code; "
                               "someone may be impersonating it")


@dataclass
class HostPairing:
    """The host side: one pending exchange per joiner key, failures rate-limited."""

    table_id: bytes
    host_key: bytes
    code: str | None
    _pending: dict[bytes, bytes] = field(default_factory=dict)      # joiner -> SPAKE2 key
    _failures: list[float] = field(default_factory=list)

    def locked(self, now: float) -> bool:
        self._failures = [t for t in self._failures if now - t < FAILURE_WINDOW_S]
        return len(self._failures) >= MAX_FAILURES

    def reply(self, joiner_key: bytes, message: bytes, now: float) -> bytes:
        """Answer a ``PairStart``: our SPAKE2 message (raises PairingError to refuse)."""
        if self.code is None:
            return b""
        if self.locked(now):
            raise PairingError("too many wrong codes for this table; try again in a minute")
        if not message:
            raise PairingError("this table is private: joining needs its code")
        spake = SPAKE2_B(normalize_code(self.code), idA=joiner_key, idB=self.host_key)
        ours: bytes = spake.start()
        try:
            self._pending[joiner_key] = spake.finish(message)
        except Exception as error:
            raise PairingError(f"bad pairing message ({error})") from None
        if len(self._pending) > 32:   # bound memory: forget the oldest attempt
            self._pending.pop(next(iter(self._pending)))
        return ours

    def check(self, joiner_key: bytes, mac: bytes, now: float) -> bytes:
        """Check a ``PairConfirm``; returns our MAC for ``PairResult`` or raises PairingError."""
        if self.code is None:
            return b""
        key = self._pending.pop(joiner_key, None)
        if key is None:
            raise PairingError("no pairing in progress for this key")
        expected = _mac(key, b"joiner", self.table_id, joiner_key, self.host_key)
        if not hmac.compare_digest(mac, expected):
            self._failures.append(now)
            raise PairingError("wrong table code")
        return _mac(key, b"host", self.table_id, joiner_key, self.host_key)
