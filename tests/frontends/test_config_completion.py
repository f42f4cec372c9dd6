"""The config file (TOML) and shell completion generated from the argparse tree."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import fields
from pathlib import Path

import pytest

from fourwinds.frontends import cli
from fourwinds.frontends.cli.completion_scripts import bash_script, command_tree
from fourwinds.frontends.cli.player_config import (
    Config,
    ConfigError,
    config_text,
    load_config,
    parse_config,
)


def test_config_reads_every_setting(tmp_path: Path) -> None:
    text = (
        'name = "Ada"\nrules = "mcr"\nbots = 2\nascii = true\ntable = "den"\n'
        'card = "~/x.card"\npeers = ["10.0.0.2:7420"]\n'
    )
    config = parse_config(text)
    assert config.name == "Ada" and config.rules == "mcr" and config.bots == 2
    assert config.ascii is True and config.table == "den"
    assert config.peers == ("10.0.0.2:7420",)
    assert config.card is not None and not config.card.startswith("~")


def test_config_reads_the_daemon_and_timer_settings() -> None:
    config = parse_config(
        "port = 7500\ncall_window = 12\nturn_window = 30.5\nexchange_window = 45\nnext_window = 0\n"
    )
    assert config.port == 7500
    assert (
        config.call_window,
        config.turn_window,
        config.exchange_window,
        config.next_window,
    ) == (12.0, 30.5, 45.0, 0.0)
    assert isinstance(config.port, int)


def test_config_reads_the_exchange_window_by_its_old_name_too() -> None:
    assert parse_config("charleston_window = 40\n").exchange_window == 40.0
    with pytest.raises(ConfigError, match="'charleston_window' is the old name of"):
        parse_config("charleston_window = 40\nexchange_window = 40\n")
    with pytest.raises(ConfigError, match=r"'exchange_window' must be 0\.1 to 3600"):
        parse_config("charleston_window = 0\n")


def test_config_init_explains_every_key_and_reads_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "config.toml"
    monkeypatch.setenv("FOURWINDS_CONFIG", str(path))
    assert cli.main(["config", "init"]) == 0
    text = path.read_text()
    assert load_config(path) == Config()  # every key commented out: the defaults
    for key in fields(Config):  # each key has its explanation and an example
        line = next(
            n for n, ln in enumerate(text.splitlines()) if ln.startswith(f"# {key.name} = ")
        )
        assert text.splitlines()[line - 1].startswith("# "), key.name
    uncommented = re.sub(r"(?m)^# (\w+ = )", r"\1", text)  # every example is valid
    everything = parse_config(uncommented)
    assert everything.port == 7420 and everything.next_window == 60.0
    assert everything.peers == ("10.0.4.17:7420",)


def test_missing_config_file_gives_defaults(tmp_path: Path) -> None:
    assert load_config(tmp_path / "absent.toml") == Config()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('rules = "riichi"', "'rules' must be one of american, mcr"),
        ("bots = 7", "'bots' must be 0 to 3"),
        ('bots = "two"', "'bots' must be an integer, not str"),
        ("ascii = 1", "'ascii' must be true or false, not int"),
        ('colour = "red"', "unknown key 'colour'"),
        ('peers = ["nohost"]', "'peers' must be a list of \"HOST:PORT\""),
        ('name = "', "config file"),
        ("port = 70000", "'port' must be 0 to 65534"),
        ("call_window = 0", "'call_window' must be 0.1 to 3600 seconds"),
        ('next_window = "soon"', "'next_window' must be a number, not str"),
        ("turn_window = true", "'turn_window' must be a number, not bool"),
    ],
)
def test_bad_config_is_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_config(text, "cfg.toml")


def test_config_text_round_trips() -> None:
    config = Config(
        name='A "quoted" name',
        rules="mcr",
        bots=1,
        ascii=True,
        peers=("h:1", "k:2"),
        port=7500,
        call_window=2.5,
        next_window=0.0,
    )
    assert parse_config(config_text(config)) == config


def test_config_command_init_show_and_bad_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cfg" / "config.toml"
    monkeypatch.setenv("FOURWINDS_CONFIG", str(path))
    assert cli.main(["config", "init", "--name", "Ada"]) == 0
    assert load_config(path).name == "Ada"
    assert cli.main(["config", "init"]) == 2  # exists already
    capsys.readouterr()
    assert cli.main(["config", "show"]) == 0
    assert 'name = "Ada"' in capsys.readouterr().out
    path.write_text("bots = 9\n")
    assert cli.main(["status"]) == 2
    assert "'bots' must be 0 to 3" in capsys.readouterr().err


def test_completion_tree_has_commands_options_and_choices() -> None:
    tree = command_tree(cli.build_parser())
    assert {"play", "discard", "charleston", "bot", "completion"} <= set(tree.commands)
    assert "--bots" in tree.commands["play"].options
    assert tree.commands["play"].choices["--rules"] == ["american", "mcr"]
    assert tree.commands["completion"].positional_choices == ["bash", "zsh"]


def _complete(words: list[str]) -> list[str]:
    script = bash_script(cli.build_parser())
    line = " ".join(f"'{w}'" for w in words)
    program = (
        f"{script}\nCOMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; _fourwinds; "
        'printf "%s\\n" "${COMPREPLY[@]}"'
    )
    done = subprocess.run(
        ["bash", "-c", program], capture_output=True, text=True, timeout=20, check=True
    )
    return done.stdout.split()


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completion_completes_commands_options_and_values() -> None:
    assert {"play", "pass"} <= set(_complete(["fourwinds", "p"]))
    assert "--bots" in _complete(["fourwinds", "play", "--b"])
    assert _complete(["fourwinds", "play", "--rules", ""]) == ["american", "mcr"]
    assert _complete(["fourwinds", "completion", "z"]) == ["zsh"]
    assert "--json" in _complete(["fourwinds", "status", "--"])


def test_completion_command_prints_scripts(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["completion", "bash"]) == 0
    assert "complete -F _fourwinds fourwinds" in capsys.readouterr().out
    assert cli.main(["completion", "zsh"]) == 0
    assert "bashcompinit" in capsys.readouterr().out


def test_verbose_sets_the_log_level_and_target(tmp_path: Path) -> None:
    import argparse
    import logging

    from fourwinds.frontends.cli.cli_common import setup_logging

    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    try:
        setup_logging(argparse.Namespace(verbose=0))
        assert root.level == logging.WARNING
        setup_logging(argparse.Namespace(verbose=2), tmp_path / "play.log")
        assert root.level == logging.DEBUG
        logging.getLogger("fourwinds.test").debug("to the file")
        for handler in root.handlers:
            handler.flush()
        assert "to the file" in (tmp_path / "play.log").read_text()
    finally:
        for handler in root.handlers:
            if handler.get_name() == "fourwinds":
                handler.close()
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
