"""The toy rule set has no tournaments (its adapter declares no ``tournament``, an optional
member): an event of its rules is refused with one line saying so wherever an event is made
(the command line, the local API's ``tournament_create``) and wherever an event's record is
checked, never a traceback; the built-in rule sets make events as before. A rule set module
whose ``tournament`` is neither a ``TournamentRules`` nor None is refused where it is
loaded."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from fourwinds.daemon.app import Daemon
from fourwinds.daemon.local_api.server import ApiError
from fourwinds.frontends import cli
from fourwinds.frontends.cli.rule_plugins import add_rulesets
from fourwinds.protocol.table.rules import registry
from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.event_rules import (
    NoTournaments,
    event_rule_names,
    event_ruleset,
)
from fourwinds.protocol.tournament.problems import ProblemKind
from testkit.tournament_event import EventMaker
from tests.daemon.test_events import run
from tests.daemon.test_shell import call

REFUSED = "Pungs and a pair (pungs) has no tournaments: an event plays american or mcr"


def test_the_registry_knows_it_but_an_event_of_it_is_refused_in_one_line(pungs: str) -> None:
    assert event_rule_names() == ("american", "mcr")
    with pytest.raises(NoTournaments) as refused:
        event_ruleset(pungs)
    assert str(refused.value) == REFUSED
    verdict = check_event(EventMaker(rules=pungs).records)
    assert not verdict.ok and verdict.create is None
    assert [p.kind for p in verdict.problems] == [ProblemKind.NO_CREATE]
    assert REFUSED in verdict.problems[0].line() and "\n" not in verdict.problems[0].line()


def test_without_the_toy_loaded_its_name_is_unknown() -> None:
    with pytest.raises(NoTournaments, match=r"unknown rules 'pungs' \(american or mcr\)"):
        event_ruleset("pungs")
    problem = check_event(EventMaker(rules="pungs").records).problems[0]
    assert "unknown rules 'pungs'" in problem.line()


def test_tournament_create_refuses_it_on_the_command_line(
    pungs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["tournament", "create", "club", "--rules", pungs, "--data-dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert code != 0 and "Traceback" not in err
    assert REFUSED in err and len(err.strip().splitlines()) == 1, err


def test_the_local_api_refuses_it_and_still_makes_a_built_in_event(
    pungs: str, tmp_path: Path
) -> None:
    async def body(ds: list[Daemon]) -> None:
        (director,) = ds
        with pytest.raises(ApiError) as refused:
            await call(director, type="tournament_create", name="toy night", rules=pungs)
        assert str(refused.value) == REFUSED
        with pytest.raises(ApiError, match="unknown rules 'chess'"):
            await call(director, type="tournament_create", name="toy night", rules="chess")
        made = await call(director, type="tournament_create", name="club", deck="practice")
        assert made["ok"] and made["rules"] == "mcr"

    run(tmp_path, 1, body)


def test_a_rule_set_whose_tournament_is_not_a_tournament_rules_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "_ADDED", {})
    monkeypatch.setattr(registry, "_REFUSED", [])
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "toy_counts.py").write_text(
        "from tests.toyrules.ruleset import PungsRuleSet\n"
        "class Counts(PungsRuleSet):\n"
        "    @property\n"
        "    def tournament(self):\n"
        "        return 16\n"
        "RULESET = Counts(name='counts')\n"
    )
    problems = add_rulesets(["toy_counts"])
    assert problems == (
        "rule set module 'toy_counts': its RULESET is not a rule set: its "
        "tournament (what its tournaments count) is not a TournamentRules or "
        "None",
    )
    assert registry.rule_names() == ("american", "mcr")
    sys.modules.pop("toy_counts", None)
