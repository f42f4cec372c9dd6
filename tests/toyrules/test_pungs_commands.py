"""A rule set without commands or a Botzone game (the toy one) leaves the command line whole:
`score`, `hint`, `demo` and the rule sets' own verbs list the built-in rule sets' commands
only, and a Botzone seat refuses its table with the line it gives an American one."""

from __future__ import annotations

import pytest

from fourwinds.frontends import cli
from fourwinds.protocol.table.rules.botzone import botzone_game, botzone_refusal
from fourwinds.protocol.table.rules.commands import (
    NO_COMMANDS,
    commands_of,
    every_command,
    own_verbs,
)
from fourwinds.protocol.table.rules.registry import rule_names, ruleset_named


def test_a_rule_set_without_commands_adds_none(
    pungs: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert pungs in rule_names()
    assert commands_of(ruleset_named(pungs)) is NO_COMMANDS
    assert {c.name for c in every_command() if c.verb == "score"} == {"american", "mcr"}
    assert list(own_verbs()) == ["card", "charleston"]  # both American's
    for verb in ("score", "hint", "demo", "card"):
        with pytest.raises(SystemExit) as shown:
            cli.main([verb, "--help"])
        assert shown.value.code == 0
        assert f"    {pungs} " not in capsys.readouterr().out
    with pytest.raises(SystemExit) as refused:
        cli.main(["score", pungs])
    assert refused.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_a_botzone_seat_refuses_a_table_whose_rules_speak_no_botzone_game(pungs: str) -> None:
    assert botzone_game(pungs) is None and botzone_game("no-such-rules") is None
    assert botzone_game("mcr") is not None
    assert botzone_refusal(pungs) == f"a Botzone bot plays MCR tables; this one plays {pungs}"
