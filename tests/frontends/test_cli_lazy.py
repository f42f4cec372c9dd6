"""The command line imports only the module of the command it runs (frontends/cli/__init__.py)."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import subprocess
import sys

import pytest

from fourwinds.frontends import cli
from fourwinds.frontends.cli import commands


def _registered() -> dict[str, str]:
    """Every subcommand name, mapped to the command module that registers it."""
    owner: dict[str, str] = {}
    for info in pkgutil.iter_modules(commands.__path__):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        register = getattr(module, "register", None)
        if not callable(register):
            continue
        sub = argparse.ArgumentParser().add_subparsers()
        register(sub)
        for name in sub.choices:
            owner[name] = info.name
    return owner


def test_every_subcommand_is_found_in_the_module_that_registers_it() -> None:
    owner = _registered()
    assert len(owner) > 20
    assert {name: cli.module_of(name) for name in owner} == owner


def test_an_unknown_command_has_no_module() -> None:
    assert cli.module_of("no-such-command") is None
    assert cli.module_of("actions") is None  # a module of several commands is no command


def modules_after(*commands: list[str]) -> str:
    """The modules a fresh interpreter holds after running these command lines (each
    ``--help``-like, ending in SystemExit), as the printed sorted list."""
    code = (
        "import sys\n"
        "from fourwinds.frontends import cli\n"
        f"for argv in {list(commands)!r}:\n"
        "    try:\n"
        "        cli.main(argv)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(sorted(sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    return out.strip().splitlines()[-1]


def test_a_daemon_start_does_not_import_the_other_commands() -> None:
    loaded = modules_after(["-v", "daemon", "--help"])
    assert "fourwinds.frontends.cli.commands.daemon" in loaded
    for other in (
        "cli.commands.play",
        "cli.commands.demo",
        "bots.table_demo",
        "terminal.curses_table",
    ):
        assert f"fourwinds.frontends.{other}'" not in loaded


@pytest.mark.parametrize("argv", [["--help"], ["-v"]])
def test_help_without_a_command_lists_every_command(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = cli.main(argv)
    except SystemExit as exit_:
        code = exit_.code  # type: ignore[assignment]
    out = capsys.readouterr().out
    assert code in (0, 2)
    for name in ("play", "daemon", "tables", "more-time", "verify"):
        assert name in out


def test_a_status_act_or_bot_command_does_not_load_what_it_does_not_use() -> None:
    """`fourwinds status` and `act` are what scripts run over and over, and every bot seat is
    a process: they start without the table's state machine (its signing and crypto), which
    only the daemon needs, without reading the package metadata, which only ``--version``
    needs, and a built-in bot without the Botzone adapter."""
    loaded = modules_after(["status", "--help"], ["act", "--help"], ["bot", "--help"])
    for heavy in (
        "fourwinds.protocol.table.machine.state",
        "fourwinds.protocol.table.wire.signing",
        "importlib.metadata",
        "fourwinds.frontends.bots.botzone_proc",
    ):
        assert f"'{heavy}'" not in loaded


def test_version_is_looked_up_when_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["--version"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out.startswith("fourwinds ")


def test_a_daemon_without_mdns_does_not_import_zeroconf() -> None:
    """Most daemons of the suite and every `--no-mdns` one (a venue where multicast is
    blocked) never announce: their start does not import zeroconf (daemon/peers/mdns.py), nor
    list the network adapters for a daemon bound to one address."""
    code = (
        "import sys\n"
        "import fourwinds.daemon.main, fourwinds.daemon.app\n"
        "from fourwinds.daemon.peers.reach import OwnAddresses\n"
        "OwnAddresses().get('127.0.0.1', 7420)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('zeroconf', 'ifaddr') or m == 'fourwinds.daemon.peers.mdns'))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip().splitlines()[-1] == "[]"
