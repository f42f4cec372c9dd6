"""Private tables: joining needs the host's short code, checked with SPAKE2 so it never crosses
the wire; identity keys are pinned on the first successful join.

Exchange (joiner J, host H; both know each other's Ed25519 key from the connection):

1. J -> H  ``PairStart``  : SPAKE2 message A (password = code, idA = J's key, idB = H's key)
2. H -> J  ``PairReply``  : SPAKE2 message B
3. J -> H  ``PairConfirm``: HMAC(k, "joiner" | table | keys)  - proves J knew the code
4. H -> J  ``PairResult`` : admitted + HMAC(k, "host" | ...)   - proves H knew it too

A wrong code gives different keys on the two sides, so step 3 fails and the host refuses with
"wrong table code"; a man in the middle who swapped keys also fails, since both keys are bound
into the exchange. Guessing online is rate-limited per key and per address (never per table:
a stranger's wrong codes must not lock out the friend who has the right one). Public tables
skip SPAKE2 (empty messages): anyone may take a free seat, and their key is pinned from then
on.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fourwinds.protocol.codes import normalize_code
from fourwinds.protocol.errors import FourwindsError

if TYPE_CHECKING:
    from spake2 import SPAKE2_A

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
CODE_LENGTH = 6
MAX_FAILURES = 5  # wrong codes from one key per window before it is not heard
MAX_ADDRESS_FAILURES = 10  # wrong codes from one address per window: its keys that failed
FAILURE_WINDOW_S = 60.0  # are not heard (a key that never failed always is)
FAILURE_SOURCES = 1024  # keys and addresses remembered (the oldest forgotten first)


class PairingError(FourwindsError):
    """Pairing failed; the message is what the user sees."""


def new_code(choice: Callable[[str], str] = secrets.choice) -> str:
    """A fresh table code, e.g. ``K7QX3M`` (about 30 bits; guessing is rate-limited)."""
    return "".join(choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _mac(key: bytes, role: bytes, table_id: bytes, joiner: bytes, host: bytes) -> bytes:
    return hmac.new(
        key, b"fourwinds-pair|" + role + table_id + joiner + host, hashlib.sha256
    ).digest()


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
        from spake2 import SPAKE2_A  # a private table's join only: ~17 ms of a start

        self._spake = SPAKE2_A(normalize_code(self.code), idA=self.joiner_key, idB=self.host_key)
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
            raise PairingError(
                "the host could not prove it knows the table code; someone may be impersonating it"
            )


@dataclass
class CodeGuesses:
    """Wrong codes counted per key and per address, never per table or event: a stranger's
    wrong codes must not lock out the friend who has the right one (module docstring)."""

    _by_key: dict[bytes, list[float]] = field(default_factory=dict)  # wrong codes' times
    _by_address: dict[str, list[float]] = field(default_factory=dict)

    def locked(self, now: float, key: bytes, address: str = "") -> bool:
        """Is ``key`` (at ``address``) not heard for now? Only a key that gave a wrong code
        within FAILURE_WINDOW_S can be: MAX_FAILURES of its own, or MAX_ADDRESS_FAILURES
        from its address (throwaway keys from one place). A key that never failed is always
        heard, so strangers cannot lock the friend with the right code out."""
        mine = _recent(self._by_key, key, now)
        if not mine:
            return False
        return (
            mine >= MAX_FAILURES or _recent(self._by_address, address, now) >= MAX_ADDRESS_FAILURES
        )

    def failed(self, now: float, key: bytes, address: str = "") -> None:
        """One more wrong code from ``key`` at ``address``."""
        _note(self._by_key, key, now)
        _note(self._by_address, address, now)


@dataclass
class HostPairing:
    """The host side: one pending exchange per joiner key, failures rate-limited."""

    table_id: bytes
    host_key: bytes
    code: str | None
    _pending: dict[bytes, bytes] = field(default_factory=dict)  # joiner -> SPAKE2 key
    guesses: CodeGuesses = field(default_factory=CodeGuesses)

    def locked(self, now: float, joiner_key: bytes, address: str = "") -> bool:
        """Is ``joiner_key`` (at ``address``) not heard for now (``CodeGuesses.locked``)?"""
        return self.guesses.locked(now, joiner_key, address)

    def reply(self, joiner_key: bytes, message: bytes, now: float, address: str = "") -> bytes:
        """Answer a ``PairStart``: our SPAKE2 message (raises PairingError to refuse)."""
        if self.code is None:
            return b""
        if self.locked(now, joiner_key, address):
            raise PairingError("too many wrong codes from you; try again in a minute")
        if not message:
            raise PairingError("this table is private: joining needs its code")
        from spake2 import SPAKE2_B  # a private table's join only: ~17 ms of a start

        spake = SPAKE2_B(normalize_code(self.code), idA=joiner_key, idB=self.host_key)
        ours: bytes = spake.start()
        try:
            self._pending[joiner_key] = spake.finish(message)
        except Exception as error:
            raise PairingError(f"bad pairing message ({error})") from None
        if len(self._pending) > 32:  # bound memory: forget the oldest attempt
            self._pending.pop(next(iter(self._pending)))
        return ours

    def check(self, joiner_key: bytes, mac: bytes, now: float, address: str = "") -> bytes:
        """Check a ``PairConfirm``; returns our MAC for ``PairResult`` or raises PairingError."""
        if self.code is None:
            return b""
        key = self._pending.pop(joiner_key, None)
        if key is None:
            raise PairingError("no pairing in progress for this key")
        expected = _mac(key, b"joiner", self.table_id, joiner_key, self.host_key)
        if not hmac.compare_digest(mac, expected):
            self.guesses.failed(now, joiner_key, address)
            raise PairingError("wrong table code")
        return _mac(key, b"host", self.table_id, joiner_key, self.host_key)


def _recent(failures: dict[Any, list[float]], source: object, now: float) -> int:
    """How many wrong codes ``source`` gave within FAILURE_WINDOW_S (older ones forgotten)."""
    times = [t for t in failures.get(source, ()) if now - t < FAILURE_WINDOW_S]
    if times:
        failures[source] = times
    else:
        failures.pop(source, None)
    return len(times)


def _note(failures: dict[Any, list[float]], source: object, now: float) -> None:
    """One more wrong code from ``source``; at most FAILURE_SOURCES sources are kept, and
    at most MAX_ADDRESS_FAILURES times each (enough to decide)."""
    times = [t for t in failures.pop(source, ()) if now - t < FAILURE_WINDOW_S]
    failures[source] = [*times, now][-MAX_ADDRESS_FAILURES:]
    while len(failures) > FAILURE_SOURCES:
        failures.pop(next(iter(failures)))
