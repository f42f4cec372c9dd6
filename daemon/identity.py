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
from nacl.signing import SigningKey, VerifyKey
from zmq.utils import z85

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
    except (OSError, KeyError):   # no USER/LOGNAME and no passwd entry (some containers)
        login = ""
    return login[:NAME_LIMIT] or "player"


def fingerprint(public_key: bytes) -> str:
    """A short, readable fingerprint of an Ed25519 public key: ``1a2b:3c4d:5e6f:7a8b``."""
    if len(public_key) != 32:
        raise ValueError("an Ed25519 public key is 32 bytes")
    digest = hashlib.sha256(b"fourwinds-fp" + public_key).hexdigest()[:16]
    return ":".join(digest[i:i + 4] for i in range(0, 16, 4))


@functools.lru_cache(maxsize=1024)
def curve_public_from_ed25519(public_key: bytes) -> bytes:
    """The X25519 (CURVE) public key that belongs to an Ed25519 identity key, raw 32 bytes
    (cached: the daemon asks on every liveness check)."""
    raw: bytes = VerifyKey(public_key).to_curve25519_public_key().encode()
    return raw


@dataclass(frozen=True)
class Identity:
    """This daemon's key pair (raw bytes) with its derived CURVE keys."""

    private_key: bytes  # 32-byte Ed25519 seed
    public_key: bytes   # 32 bytes

    @classmethod
    def generate(cls, seed: bytes) -> Identity:
        """The identity with this 32-byte seed (callers pass ``os.urandom(32)``)."""
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
            f"{path} is readable by other users (mode {mode:o}); run `chmod 600 {path}`")


def load_identity(path: Path) -> Identity:
    """Read the identity at ``path``; raises IdentityError naming the problem."""
    _check_mode(path)
    data = path.read_bytes()
    if not data.startswith(MAGIC) or len(data) != len(MAGIC) + 32:
        raise IdentityError(f"{path} is not a fourwinds identity file")
    return Identity.generate(data[len(MAGIC):])


def load_or_create_identity(path: Path) -> Identity:
    """The identity at ``path``, creating it (mode 0600, directory 0700) on first start."""
    ensure_private_dir(path.parent)
    if path.exists():
        return load_identity(path)
    identity = Identity.generate(os.urandom(32))
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
