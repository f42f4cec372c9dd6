"""The daemon's fresh randomness (daemon/entropy.py): the system's unless a test fixes it."""

from __future__ import annotations

import pytest

from fourwinds.daemon import entropy


@pytest.fixture(autouse=True)
def _fresh_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(entropy, "_drawn", {})


def test_without_the_variable_every_draw_is_new(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(entropy.VARIABLE, raising=False)
    draws = {entropy.fresh_bytes(16, "table:x") for _ in range(20)}
    assert len(draws) == 20


def test_a_fixed_seed_gives_the_same_stream_on_every_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(entropy.VARIABLE, "deal-1")
    first = [
        entropy.fresh_bytes(32, "identity:Pat/id"),
        entropy.fresh_bytes(32, "identity:Pat/id"),
        entropy.fresh_bytes(16, "table:k:t"),
        entropy.fresh_bytes(70, "other"),
    ]
    monkeypatch.setattr(entropy, "_drawn", {})  # a new process
    again = [
        entropy.fresh_bytes(32, "identity:Pat/id"),
        entropy.fresh_bytes(32, "identity:Pat/id"),
        entropy.fresh_bytes(16, "table:k:t"),
        entropy.fresh_bytes(70, "other"),
    ]
    assert first == again
    assert first[0] != first[1]  # the second draw of a label is the next block
    assert [len(b) for b in first] == [32, 32, 16, 70]
    monkeypatch.setattr(entropy, "_drawn", {})
    monkeypatch.setenv(entropy.VARIABLE, "deal-2")
    assert entropy.fresh_bytes(32, "identity:Pat/id") != first[0]  # another seed, another deal
