"""`fourwinds leave [TABLE]` at real daemons (issue 22, item 8): before it, nothing left a
table whose match never started, and every later `play` asked which of several tables."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fourwinds.frontends.cli.commands.play import Kind, choose_table, my_tables
from fourwinds.frontends.cli.player_config import Config
from testkit.procs import DaemonProcess, fourwinds_cli, request

pytestmark = pytest.mark.slow
REAL = "fourwinds.daemon.table_runtimes.real_session"


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[DaemonProcess]:
    d = DaemonProcess(tmp_path / "me", "Ann", session_module=REAL)
    d.start()
    try:
        yield d
    finally:
        d.stop()


def _play_args(**given: object) -> argparse.Namespace:
    return argparse.Namespace(join=None, table=None, **given)


def test_leave_names_the_tables_then_leaves_one_and_play_stops_asking(
    daemon: DaemonProcess,
) -> None:
    data = str(daemon.data_dir)
    for name in ("kitchen", "den"):
        hosted = fourwinds_cli("host", name, "--rules", "mcr", "--practice", "--data-dir", data)
        assert hosted.returncode == 0, hosted.stderr
    # two tables: `play` cannot choose without asking, nor can `leave`
    with pytest.raises(Exception, match=r"several tables \(kitchen, den\)"):
        choose_table(_play_args(), Config(), my_tables(data), interactive=False)
    several = fourwinds_cli("leave", "--data-dir", data)
    assert several.returncode == 2
    assert several.stderr.strip() == (
        "fourwinds: you sit at several tables (kitchen, den): fourwinds leave TABLE"
    )
    unknown = fourwinds_cli("leave", "attic", "--data-dir", data)
    assert unknown.returncode == 2
    assert unknown.stderr.strip() == (
        "fourwinds: you sit at no table 'attic' (yours: kitchen, den)"
    )
    left = fourwinds_cli("leave", "kitchen", "--data-dir", data, "--json")
    assert left.returncode == 0, left.stderr
    answer = json.loads(left.stdout)
    assert answer["ok"] and answer["name"] == "kitchen" and not answer["seated"]
    tables = request(daemon.client(subscribe=False), type="tables")["tables"]
    assert [t["name"] for t in tables] == ["den"]
    target = choose_table(_play_args(), Config(), my_tables(data), interactive=False)
    assert (target.kind, target.name) == (Kind.RETURN, "den")
    # the one table left needs no name
    last = fourwinds_cli("leave", "--data-dir", data)
    assert last.returncode == 0, last.stderr
    assert last.stdout.strip() == "you left den"
    assert not request(daemon.client(subscribe=False), type="tables")["tables"]
    # its folder is kept (history, export): only set aside as left
    assert len(list((daemon.data_dir / "tables").glob("left-*"))) == 2


def test_a_joiner_leaving_the_lobby_frees_its_place_at_the_host(tmp_path: Path) -> None:
    """Two daemons: the host's roster drops the joiner at once and its lobby shows the
    place free again (before, the host kept the joiner for ever)."""
    host = DaemonProcess(tmp_path / "host", "Ann", session_module=REAL)
    guest = DaemonProcess(tmp_path / "guest", "Bob", session_module=REAL)
    try:
        host.start()
        guest.start()
        hosted = fourwinds_cli(
            "host",
            "kitchen",
            "--rules",
            "mcr",
            "--practice",
            "--data-dir",
            str(host.data_dir),
            "--json",
        )
        assert hosted.returncode == 0, hosted.stderr
        table = json.loads(hosted.stdout)["table"]
        key = request(host.client(subscribe=False), type="whoami")["public_key"]
        joined = fourwinds_cli(
            "join",
            table,
            "--host",
            "127.0.0.1",
            "--port",
            str(host.port),
            "--key",
            key,
            "--data-dir",
            str(guest.data_dir),
        )
        assert joined.returncode == 0, joined.stderr
        api = host.client(subscribe=False)

        def seated() -> int:
            return int(request(api, type="tables")["tables"][0]["seated"])

        deadline = time.monotonic() + 10
        while seated() != 2 and time.monotonic() < deadline:
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.1)
        assert seated() == 2
        left = fourwinds_cli("leave", "--data-dir", str(guest.data_dir))
        assert left.returncode == 0, left.stderr
        assert left.stdout.splitlines() == [
            "you left kitchen",
            "your place is free again for someone else",
        ]
        deadline = time.monotonic() + 5
        while seated() != 1 and time.monotonic() < deadline:
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.1)
        assert seated() == 1
        event = request(api, type="view", table="kitchen")["event"]
        assert [m["player"] for m in event["members"]] == [""]  # the host alone
        assert [p["name"] for p in event["view"]["players"]][1] == "seat 1"
    finally:
        guest.stop()
        host.stop()
