"""The toy rule set, registered for one test at a time (``pungs`` fixture): the registry is
the process's, and the other tests' rule sets are the built-in ones only."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fourwinds.frontends.cli.rule_plugins import add_rulesets
from fourwinds.protocol.table.rules import registry

MODULE = "tests.toyrules.ruleset"
"""What the registry line names: ``FOURWINDS_RULESETS=tests.toyrules.ruleset``."""


@pytest.fixture
def pungs(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The toy rule set loaded as a daemon loads it, and forgotten after the test."""
    monkeypatch.setattr(registry, "_ADDED", {})
    monkeypatch.setattr(registry, "_REFUSED", [])
    assert add_rulesets([MODULE]) == ()
    yield "pungs"
