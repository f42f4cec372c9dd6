"""What the page tests share: Pat, one player on a machine of their own (a home folder,
XDG directories and a login), whose `fourwinds play --web` each test starts."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from testkit.machines import Machine, one_player


@pytest.fixture
def pat() -> Iterator[Machine]:
    with one_player("Pat") as machine:
        yield machine
