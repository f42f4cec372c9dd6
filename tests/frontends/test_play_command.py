"""`fourwinds play`: where it sits down (back to your table, join, host), one-line errors
and no offline demo, the join's wait for mDNS, the table timers; processes it starts are
stopped. The slow test plays solo, leaves with Q and comes back to the same table."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from fourwinds.frontends import cli
from fourwinds.frontends.cli.commands import play
from fourwinds.frontends.cli.commands.play import Kind, Mine, choose_table
from fourwinds.frontends.cli.commands.table_cmds import table_options
from fourwinds.frontends.cli.player_config import Config
from fourwinds.frontends.client import seen_wait
from fourwinds.frontends.client.local_seats import Started, fourwinds_command, is_running
from fourwinds.protocol.errors import FourwindsError

MAIN = cli.main  # kept: the tests that forbid the demo replace cli.main
KITCHEN = Mine("ab12cd34" * 4, "kitchen", "mcr", 2)
CLUB = Mine("ef56ab78" * 4, "club", "american", 4)


@pytest.fixture(autouse=True)
def _no_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("FOURWINDS_CONFIG", str(tmp_path / "none.toml"))


def _args(*argv: str) -> argparse.Namespace:
    return cli.build_parser().parse_args(["play", *argv])


def _choose(
    *argv: str, mine: tuple[Mine, ...] = (), config: Config | None = None, interactive: bool = False
) -> play.Target:
    return choose_table(_args(*argv), config or Config(), list(mine), interactive=interactive)


def test_play_alone_returns_to_the_one_table_you_sit_at() -> None:
    assert _choose(mine=(KITCHEN,)) == play.Target(Kind.RETURN, KITCHEN.table, "kitchen")
    assert _choose() == play.Target(Kind.HOST, "")
    assert _choose(config=Config(table="den")) == play.Target(Kind.HOST, "den")


def test_join_and_table_find_the_tables_you_sit_at() -> None:
    for argv in (
        ("--join", "kitchen"),
        ("--join", KITCHEN.table),
        ("--join", KITCHEN.table[:8]),
        ("--table", "kitchen"),
    ):
        assert _choose(*argv, mine=(KITCHEN, CLUB)).kind is Kind.RETURN, argv
        assert _choose(*argv, mine=(KITCHEN, CLUB)).ref == KITCHEN.table
    assert _choose("--join", "den", mine=(KITCHEN,)) == play.Target(Kind.JOIN, "den", "den")
    assert _choose("--table", "den", mine=(KITCHEN,)) == play.Target(Kind.HOST, "den", "den")


def test_several_tables_without_a_terminal_is_one_clear_error() -> None:
    with pytest.raises(FourwindsError) as error:
        _choose(mine=(KITCHEN, CLUB))
    assert str(error.value) == "you sit at several tables (kitchen, club): play --table NAME"
    assert _choose(mine=(KITCHEN, CLUB), config=Config(table="club")).ref == CLUB.table


def test_several_tables_on_a_terminal_asks_which(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = iter(["2", "kitchen", "nine"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert _choose(mine=(KITCHEN, CLUB), interactive=True).ref == CLUB.table
    assert "1. kitchen" in capsys.readouterr().err
    assert _choose(mine=(KITCHEN, CLUB), interactive=True).ref == KITCHEN.table
    with pytest.raises(FourwindsError, match="no table 'nine' among yours"):
        _choose(mine=(KITCHEN, CLUB), interactive=True)


def test_the_offline_demo_is_gone() -> None:
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["play", "--no-fallback"])


def _no_daemon(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`play` with no daemon and no tables on disk; the offline demo must never run."""
    monkeypatch.setattr(play, "my_tables", lambda data_dir: [])

    def no_demo(*_: object, **__: object) -> int:
        raise AssertionError("play ran the offline demo")

    monkeypatch.setattr("fourwinds.frontends.cli.main", no_demo)


@pytest.mark.parametrize(
    "failure",
    [
        FourwindsError("cannot join kitchen: table is full"),
        ConnectionResetError("the daemon went away"),
        TimeoutError("the daemon did not answer 'tables'"),
    ],
)
def test_every_failure_is_one_line_and_status_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    failure: Exception,
) -> None:
    _no_daemon(monkeypatch, tmp_path)
    monkeypatch.setattr(play, "has_terminal", lambda: True)

    def fail(*_: object, **__: object) -> object:
        raise failure

    monkeypatch.setattr(play, "ensure_daemon", fail)
    assert MAIN(["play", "--data-dir", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and err.splitlines()[-1] == f"fourwinds: {failure}", err
    assert "demo" not in err and "Traceback" not in err


def test_play_without_a_terminal_says_so_before_touching_anything(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _no_daemon(monkeypatch, tmp_path)
    monkeypatch.setattr(play, "has_terminal", lambda: False)
    monkeypatch.setattr(play, "ensure_daemon", lambda *a, **k: pytest.fail("daemon started"))
    assert MAIN(["play", "--data-dir", str(tmp_path / "d")]) == 2
    assert capsys.readouterr().err.startswith("fourwinds: play needs a terminal")


class SeenLater:
    """A daemon whose mDNS sees table ``kitchen`` only on the ``after``-th ``tables``."""

    def __init__(self, after: int) -> None:
        self.after = after
        self.asked = 0
        self.sent: list[dict[str, Any]] = []

    def request(self, message: Mapping[str, Any]) -> dict[str, Any]:
        self.sent.append(dict(message))
        if message["type"] == "tables":
            self.asked += 1
            seen = [{"name": "kitchen", "table": "ab" * 16}] if self.asked >= self.after else []
            return {"ok": True, "tables": [], "seen": seen, "peers": []}
        if message["type"] == "join":
            return {"ok": True, "table": "ab" * 16}
        return {"ok": False, "error": "not here"}


def test_join_waits_for_the_table_to_be_seen(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(seen_wait, "PROGRESS_S", 0.1)
    monkeypatch.setattr("fourwinds.frontends.client.seen_wait.time.sleep", lambda s: None)
    api = SeenLater(after=4)
    assert play._join(api, "kitchen", "K7QX3M") == "ab" * 16  # type: ignore[arg-type]
    assert api.sent[-1] == {"type": "join", "table": "kitchen", "code": "K7QX3M"}
    assert "looking for table kitchen on the network" in capsys.readouterr().err


def test_join_gives_up_after_the_wait_with_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seen_wait, "JOIN_WAIT_S", 0.3)
    api = SeenLater(after=10**6)
    with pytest.raises(FourwindsError) as error:
        play._join(api, "kitchen", None)  # type: ignore[arg-type]
    assert "no table 'kitchen' seen on the network within 0 s" in str(error.value)
    assert "fourwinds tables" in str(error.value) and "--peer HOST:PORT" in str(error.value)
    assert not any(m["type"] == "join" for m in api.sent)


def test_table_timers_are_sent_only_when_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert set(table_options(_args(), "american")) == {"hands", "deck", "auto_pass"}
    given = table_options(
        _args(
            "--call-window",
            "12",
            "--next-window",
            "0",
            "--turn-window",
            "30",
            "--exchange-window",
            "45",
        ),
        "mcr",
    )
    assert {
        k: given[k] for k in ("call_window", "turn_window", "exchange_window", "next_window")
    } == {"call_window": 12.0, "turn_window": 30.0, "exchange_window": 45.0, "next_window": 0.0}
    old_flag = table_options(_args("--charleston-window", "50"), "american")
    assert old_flag["exchange_window"] == 50.0 and "charleston_window" not in old_flag
    config = tmp_path / "config.toml"
    config.write_text("call_window = 5\nnext_window = 90\n")
    monkeypatch.setenv("FOURWINDS_CONFIG", str(config))
    from_file = table_options(_args("--call-window", "3"), "mcr")
    assert (from_file["call_window"], from_file["next_window"]) == (3.0, 90.0)
    with pytest.raises(FourwindsError, match=r"--call-window 0: must be 0\.1 to 3600 seconds"):
        table_options(_args("--call-window", "0"), "mcr")


def test_config_flowers_false_hosts_mcr_tables_without_flowers_and_leaves_american_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("flowers = false\n")
    monkeypatch.setenv("FOURWINDS_CONFIG", str(config))
    assert table_options(_args(), "mcr")["rules"] == {"flowers": False}
    assert "rules" not in table_options(_args(), "american")


def test_no_flowers_is_the_mcr_rule_sets_option_and_refused_for_american(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FOURWINDS_CONFIG", str(tmp_path / "none.toml"))
    assert "rules" not in table_options(_args(), "mcr")
    assert table_options(_args("--no-flowers"), "mcr")["rules"] == {"flowers": False}
    with pytest.raises(
        FourwindsError,
        match=r"--no-flowers is for MCR tables \(add --rules "
        r"mcr\): an American wall always has its flowers",
    ):
        table_options(_args("--no-flowers"), "american")


def test_bots_option_is_checked() -> None:
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["play", "--bots", "5"])


def test_started_processes_are_stopped_by_pid() -> None:
    started = Started()
    process = started.add(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]))
    started.stop()
    assert process.poll() is not None and started.processes == []


def test_subprocesses_run_this_same_fourwinds() -> None:
    done = subprocess.run(
        fourwinds_command("--version"), capture_output=True, text=True, timeout=30, check=True
    )
    assert done.stdout.startswith("fourwinds ")


@pytest.mark.slow
def test_solo_play_quit_and_return_to_the_same_table(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`play` hosts a solo table (three bot seats, a loopback daemon on a free port, never
    announced), the screen is quit; `play` again returns to that table with the same bot
    seats (restarted), and `--table NAME` / `--join NAME` find it too. The daemon stays up
    after play exits, until `fourwinds stop`. Its bots, beside a person, pause the default
    second before a decision (frontends/bots/bot_pause.py), restarted ones too."""
    data = tmp_path / "me"
    shown: list[tuple[str, dict[str, Any]]] = []

    def screen(client: Any, ascii_only: bool = False) -> int:
        from fourwinds.frontends.client.daemon_link import current_view

        event = current_view(client.api, client.table)
        players = {p["name"] for p in event["view"]["players"]}
        bots = sum(is_running(str(b)) for b in (data / "bots").glob("*/bot[0-9]"))
        pauses = _bot_pauses(data)
        end = time.monotonic() + 10  # a bot's process may still be starting (under load)
        while len(pauses) < bots and time.monotonic() < end:
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.1)
            pauses = _bot_pauses(data)
        shown.append(
            (str(event["table"]), {"players": players, "bots running": bots, "pauses": pauses})
        )
        return 0

    monkeypatch.setattr(play, "has_terminal", lambda: True)
    monkeypatch.setattr("fourwinds.frontends.terminal.curses_table.run", screen)
    base = ["play", "--data-dir", str(data), "--rules", "mcr", "--table", "solo"]
    try:
        assert cli.main(base) == 0
        assert is_running(str(data))
        from fourwinds.frontends.client.local_seats import running_info

        info = running_info(str(data)) or {}
        assert info["listen"] == "127.0.0.1" and info["mdns"] is False and info["port"] != 7420
        table = shown[0][0]
        assert shown[0][1]["players"] >= {"Bot 1", "Bot 2", "Bot 3"}
        assert shown[0][1]["bots running"] == 3
        assert shown[0][1]["pauses"] == ["1", "1", "1"]
        bots = sorted((data / "bots").glob("*/bot[0-9]"))
        assert len(bots) == 3 and not any(is_running(str(b)) for b in bots)  # stopped on Q
        for argv in (
            ["play", "--data-dir", str(data)],
            [*base],
            ["play", "--data-dir", str(data), "--join", "solo"],
        ):
            assert cli.main(argv) == 0
            assert shown[-1] == (table, {**shown[0][1], "bots running": 3})  # restarted
        assert not any(is_running(str(b)) for b in bots)
        assert len(list((data / "tables").iterdir())) == 1  # no second table was hosted
    finally:
        assert cli.main(["stop", "--data-dir", str(data)]) == 0
    assert not is_running(str(data))


def _bot_pauses(data: Path) -> list[str]:
    """The ``--pause`` of each running `fourwinds bot` whose data directory is under
    ``data`` (read from its command line)."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            argv = cmdline.read_bytes().decode(errors="replace").split("\0")
        except OSError:
            continue
        if "bot" in argv and "--pause" in argv and any(str(data) in a for a in argv):
            found.append(argv[argv.index("--pause") + 1])
    return sorted(found)


class _ReadyAfter:
    """A local API whose table leaves the lobby after ``lobby`` ready requests."""

    def __init__(self, lobby: int) -> None:
        self.lobby = lobby
        self.asked = 0

    def request(self, message: Mapping[str, Any]) -> dict[str, Any]:
        assert message["type"] == "ready"
        self.asked += 1
        if self.asked <= self.lobby:
            return {"ok": False, "error": "the table is not waiting for this seat now"}
        return {"ok": True}


def test_a_solo_table_starts_without_pressing_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    """Our bots take the seats a moment after the table opens: play waits for them and says
    ready, instead of leaving the player in the lobby."""
    monkeypatch.setattr(time, "sleep", lambda s: None)
    api = _ReadyAfter(lobby=5)
    play._ready_with_bots(api, "t")  # type: ignore[arg-type]
    assert api.asked == 6


class _Daemon:
    """A local API that lets `play` host a table or join ``kitchen``, and records every
    request (the bots `play` seats are not started: ``seat_new_bots`` is replaced)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def request(self, message: Mapping[str, Any]) -> dict[str, Any]:
        self.sent.append(dict(message))
        kind = message["type"]
        if kind == "tables":
            return {
                "ok": True,
                "tables": [],
                "peers": [],
                "seen": [{"name": "kitchen", "table": "ab" * 16}],
            }
        if kind in ("join", "create"):
            return {"ok": True, "table": "ab" * 16}
        if kind == "status":
            return {"ok": True, "port": 7420}
        if kind == "whoami":
            return {"ok": True, "public_key": "cd" * 32}
        return {"ok": True}

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    ("argv", "says_ready"),
    [
        (("--join", "kitchen"), False),
        (("--bots", "0", "--table", "kitchen"), False),
        (("--bots", "2", "--table", "kitchen"), False),
        (("--bots", "3", "--table", "solo"), True),
    ],
    ids=["joiner", "host-alone", "host-with-two-bots", "solo-with-three-bots"],
)
def test_play_at_a_table_with_people_never_says_ready_for_the_player(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, argv: tuple[str, ...], says_ready: bool
) -> None:
    """Issue 22 item 1: three friends joined at once and only the last was made ready (its
    join came after the table filled, so play's ready went through). One rule now: at a
    table with other people, host or joiner, play never says ready for the player (each
    presses Ready in the lobby); a table of the player and three bots starts by itself."""
    _no_daemon(monkeypatch, tmp_path)
    monkeypatch.setattr(play, "has_terminal", lambda: True)
    daemon = _Daemon()
    monkeypatch.setattr(play, "ensure_daemon", lambda *a, **k: (daemon, None))
    monkeypatch.setattr(play, "seat_new_bots", lambda *a, **k: None)
    monkeypatch.setattr("fourwinds.frontends.terminal.curses_table.run", lambda link, **k: 0)
    assert MAIN(["play", "--data-dir", str(tmp_path / "d"), *argv]) == 0
    kinds = [m["type"] for m in daemon.sent]
    assert "join" in kinds or "create" in kinds, kinds
    assert ("ready" in kinds) is says_ready, kinds


def test_a_zombie_counts_as_stopped() -> None:
    """A bot seat's daemon that ended while its `play` is still open stays a zombie until
    play reaps it; `fourwinds stop` must not wait 10 s for it and give up."""
    from fourwinds.frontends.client.local_seats import _exited

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        deadline = 50
        while not _exited(child.pid) and deadline:
            deadline -= 1
            subprocess.run(["sleep", "0.1"], check=True)
        assert _exited(child.pid)  # ended, not yet reaped
    finally:
        child.wait()
    assert not _exited(os.getpid())


def test_a_daemon_killed_outright_is_not_running_while_a_zombie(tmp_path: Path) -> None:
    """A daemon killed with -9 leaves its endpoint file and, until its parent (a `play`)
    reaps it, a zombie: `is_running` says it is not running (the web server's link then
    tells the page the daemon is gone, instead of waiting on a process that has ended)."""
    import msgpack

    from fourwinds.daemon.paths import default_paths
    from fourwinds.frontends.client.local_seats import _exited, is_running

    data = str(tmp_path / "d")
    endpoint = default_paths(data).api_endpoint_file
    endpoint.parent.mkdir(parents=True, exist_ok=True)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        endpoint.write_bytes(msgpack.packb({"pid": child.pid, "endpoint": "ipc:///nowhere"}))
        assert is_running(data)
        child.kill()
        deadline = 50
        while not _exited(child.pid) and deadline:
            deadline -= 1
            subprocess.run(["sleep", "0.1"], check=True)
        assert not is_running(data)  # a zombie, not yet reaped
    finally:
        child.kill()
        child.wait()
    assert not is_running(data)
