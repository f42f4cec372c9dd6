"""Identity file creation and permissions; the fsynced record log and its torn-tail recovery."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from fourwinds.daemon.peers.identity import (
    IdentityError,
    fingerprint,
    load_identity,
    load_or_create_identity,
)
from fourwinds.daemon.store.disk import Store, StoreDamage, TableLog


def test_identity_created_on_first_start_with_mode_0600(tmp_path: Path) -> None:
    path = tmp_path / "data" / "identity.key"
    first = load_or_create_identity(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    again = load_or_create_identity(path)
    assert again.public_key == first.public_key
    assert again.fingerprint == fingerprint(first.public_key)
    assert len(first.fingerprint) == 19


def test_identity_signature_verifies(tmp_path: Path) -> None:
    ident = load_or_create_identity(tmp_path / "identity.key")
    sig = ident.sign(b"hello")
    ident.signing_key.public_key().verify(sig, b"hello")


def test_identity_readable_by_others_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "identity.key"
    load_or_create_identity(path)
    os.chmod(path, 0o644)
    with pytest.raises(IdentityError, match="readable by other users"):
        load_identity(path)


def test_identity_corrupt_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "identity.key"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, b"garbage")
    os.close(fd)
    with pytest.raises(IdentityError, match="not a fourwinds identity"):
        load_identity(path)


def test_log_appends_survive_reopen(tmp_path: Path) -> None:
    log = TableLog.open(tmp_path / "records.log")
    log.append([b"one", b"two"])
    log.append([b"three"])
    assert log.fsyncs == 2
    log.close()
    assert TableLog.open(tmp_path / "records.log").records == (b"one", b"two", b"three")


def test_log_torn_tail_is_cut(tmp_path: Path) -> None:
    path = tmp_path / "records.log"
    log = TableLog.open(path)
    log.append([b"complete"])
    log.close()
    with open(path, "ab") as handle:
        handle.write(b"\x00\x00\x00\x10\x01\x02")  # header of a record that never finished
    reopened = TableLog.open(path)
    assert reopened.records == (b"complete",)
    reopened.append([b"after"])
    reopened.close()
    assert TableLog.open(path).records == (b"complete", b"after")


def test_log_corrupt_checksum_is_damage_not_a_torn_tail(tmp_path: Path) -> None:
    """A whole last record with a bad checksum was not torn mid-write: nothing is cut."""
    path = tmp_path / "records.log"
    log = TableLog.open(path)
    log.append([b"aaaa", b"bbbb"])
    log.close()
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(StoreDamage, match="record 1 at byte 12: checksum mismatch"):
        TableLog.open(path)
    assert path.read_bytes() == bytes(data)


def test_store_lists_seated_tables_and_leave_keeps_transcript(tmp_path: Path) -> None:
    store = Store(tmp_path / "tables")
    assert list(store.table_ids()) == []
    store.write_meta(b"\x01" * 8, {"name": "east"})
    store.write_meta(b"\x02" * 8, {"name": "west"})
    assert list(store.table_ids()) == [b"\x01" * 8, b"\x02" * 8]
    assert store.read_meta(b"\x01" * 8) == {"name": "east"}
    store.leave(b"\x01" * 8)
    assert list(store.table_ids()) == [b"\x02" * 8]
    assert (tmp_path / "tables" / f"left-{'01' * 8}" / "meta.msgpack").exists()


def test_a_missing_runtime_dir_is_made_private_with_its_parents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A missing XDG_RUNTIME_DIR made by the daemon must be 0700, or platformdirs sends the
    next command's client to another folder than the daemon's socket."""
    from fourwinds.daemon.paths import ensure_private_dir, user_runtime_dir

    runtime = tmp_path / "run"
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    before = user_runtime_dir()
    ensure_private_dir(before)
    assert (runtime.stat().st_mode & 0o777) == 0o700
    assert (before.stat().st_mode & 0o777) == 0o700
    assert user_runtime_dir() == before
