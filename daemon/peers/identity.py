"""The daemon's persistent Ed25519 identity: one key per player, created on first start.

The same key signs every table message (the session uses it) and, converted to X25519, is the
daemon's CURVE key on the wire, so a peer pinned by its identity key is also the only one the
transport admits. The private key is stored as its 32-byte raw seed in a file of mode 0600
inside a 0700 directory; a file with looser permissions is refused rather than used.
"""

from __future__ import annotations

import functools
import getpass
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from nacl.bindings import crypto_core_ed25519_is_valid_point
from nacl.exceptions import CryptoError
from nacl.signing import SigningKey, VerifyKey
from zmq.utils import z85

from fourwinds.daemon.entropy import fresh_bytes, place_label
from fourwinds.daemon.paths import ensure_private_dir
from fourwinds.protocol.errors import FourwindsError

MAGIC = b"fourwinds-ed25519-v1\n"


class IdentityError(FourwindsError):
    """The identity file is unreadable, corrupt or readable by others."""


NAME_LIMIT = 32


def default_player_name() -> str:
    """The name other players see when none is configured: the login name (a key fingerprint
    means nothing across a table; ``whoami`` still shows it), "player" where there is none."""
    try:
        login = getpass.getuser().strip()
    except (OSError, KeyError):  # no USER/LOGNAME and no passwd entry (some containers)
        login = ""
    return login[:NAME_LIMIT] or "player"


def fingerprint(public_key: bytes) -> str:
    """A short, readable fingerprint of an Ed25519 public key: ``1a2b:3c4d:5e6f:7a8b``."""
    if len(public_key) != 32:
        raise ValueError("an Ed25519 public key is 32 bytes")
    digest = hashlib.sha256(b"fourwinds-fp" + public_key).hexdigest()[:16]
    return ":".join(digest[i : i + 4] for i in range(0, 16, 4))


class BadKey(FourwindsError):
    """Bytes that are not a usable Ed25519 public key; ``reason`` says why (one line)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


_P = 2**255 - 19
_D = (-121665 * pow(121666, _P - 2, _P)) % _P


def _on_curve(y: int, x_odd: bool) -> bool:
    """Does the encoding (y, sign of x) name a point of the Edwards curve at all?
    x^2 = (y^2 - 1) / (d y^2 + 1) must have a square root, and x = 0 has no odd sign."""
    y2 = y * y % _P
    x2 = (y2 - 1) * pow(_D * y2 + 1, _P - 2, _P) % _P
    if x2 == 0:
        return not x_odd
    return pow(x2, (_P - 1) // 2, _P) == 1


@functools.lru_cache(maxsize=4096)
def _key_problem(raw: bytes) -> str:
    """Why ``raw`` (32 bytes) is no usable Ed25519 public key, or "" (cached: keys recur)."""
    if raw == bytes(32):
        return "it is 32 zero bytes"
    number = int.from_bytes(raw, "little")
    y, x_odd = number & ((1 << 255) - 1), bool(number >> 255)
    if y >= _P:
        return "it is a non-canonical encoding (y is not below 2^255-19)"
    if not _on_curve(y, x_odd):
        return "it is not a point of the Ed25519 curve"
    if not crypto_core_ed25519_is_valid_point(raw):
        return "it is a point of small or mixed order (it has a small-order component)"
    try:  # what libsodium refuses to turn into a CURVE key, whatever else it may be
        VerifyKey(raw).to_curve25519_public_key()
    except (CryptoError, RuntimeError):
        return "libsodium cannot convert it to an X25519 key"
    return ""


def checked_public_key(raw: object) -> bytes:
    """``raw`` as an Ed25519 public key this daemon may pin, store, dial or derive a CURVE
    key from; ``BadKey`` with the reason otherwise. Every key that arrives from a peer, an
    announcement, a key beacon, the local API or a stored table goes through here first
    (docs/DAEMON.md, "Validation at the edges"): a key libsodium cannot convert (32 zero
    bytes, a small-order point, a non-canonical encoding) would otherwise raise deep inside
    the transport, on every start of a daemon that stored it."""
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        raise BadKey(f"a public key is 32 bytes, not {type(raw).__name__}")
    key = bytes(raw)
    if len(key) != 32:
        raise BadKey(f"a public key is 32 bytes, not {len(key)}")
    problem = _key_problem(key)
    if problem:
        raise BadKey(f"unusable public key {key.hex()[:16]}...: {problem}")
    return key


@functools.lru_cache(maxsize=1024)
def curve_public_from_ed25519(public_key: bytes) -> bytes:
    """The X25519 (CURVE) public key that belongs to an Ed25519 identity key, raw 32 bytes
    (cached: the daemon asks on every liveness check). ``BadKey`` for a key that has none:
    callers pass only keys ``checked_public_key`` let in, so that would be a bug, told as
    one line rather than as libsodium's "Unexpected library error"."""
    raw: bytes = VerifyKey(checked_public_key(public_key)).to_curve25519_public_key().encode()
    return raw


@dataclass(frozen=True)
class Identity:
    """This daemon's key pair (raw bytes) with its derived CURVE keys."""

    private_key: bytes  # 32-byte Ed25519 seed
    public_key: bytes  # 32 bytes

    @classmethod
    def generate(cls, seed: bytes) -> Identity:
        """The identity with this 32-byte seed (callers pass 32 fresh bytes: daemon/entropy.py)."""
        key = Ed25519PrivateKey.from_private_bytes(seed)
        public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        return cls(private_key=seed, public_key=public)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    @property
    def signing_key(self) -> Ed25519PrivateKey:
        return Ed25519PrivateKey.from_private_bytes(self.private_key)

    @property
    def curve_secret_z85(self) -> bytes:
        raw = SigningKey(self.private_key).to_curve25519_private_key().encode()
        encoded: bytes = z85.encode(raw)
        return encoded

    @property
    def curve_public_z85(self) -> bytes:
        encoded: bytes = z85.encode(curve_public_from_ed25519(self.public_key))
        return encoded

    def sign(self, data: bytes) -> bytes:
        return self.signing_key.sign(data)


def _check_mode(path: Path) -> None:
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise IdentityError(
            f"{path} is readable by other users (mode {mode:o}); run `chmod 600 {path}`"
        )


def load_identity(path: Path) -> Identity:
    """Read the identity at ``path``; raises IdentityError naming the problem."""
    _check_mode(path)
    data = path.read_bytes()
    if not data.startswith(MAGIC) or len(data) != len(MAGIC) + 32:
        raise IdentityError(f"{path} is not a fourwinds identity file")
    return Identity.generate(data[len(MAGIC) :])


def load_or_create_identity(path: Path) -> Identity:
    """The identity at ``path``, creating it (mode 0600, directory 0700) on first start."""
    ensure_private_dir(path.parent)
    if path.exists():
        return load_identity(path)
    identity = Identity.generate(fresh_bytes(32, f"identity:{place_label(path)}"))
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, MAGIC + identity.private_key)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
    return identity
