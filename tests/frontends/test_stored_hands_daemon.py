"""`fourwinds export` and `history` at real daemons (issue 14): four daemons play a hand (the
practice and the fair deck), then the host's and a joiner's stored table are exported while the
daemons run, match the daemon's own transcript, verify OK under the id `fourwinds tables`
shows, and are listed by `history` with the players and final scores; once the daemons are
stopped, history and export still work from the disk alone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fourwinds.frontends import cli
from fourwinds.protocol.table.machine.transcript import parse_transcript
from tests.daemon.test_real_table import RealTable

pytestmark = pytest.mark.slow


@pytest.fixture(params=["practice", "masked"])
def played(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[RealTable]:
    table = RealTable(tmp_path, "mcr", deck=str(request.param))
    try:
        table.open()
        seats = table.bots(timeout=90)
        for seat in seats:
            seat.join(90)
            assert seat.error is None, seat.error
        phases = [
            table.query(i, type="view")["event"]["view"]["session"]["phase"] for i in range(4)
        ]
        assert phases == ["over"] * 4
        yield table
    finally:
        table.close()


def test_export_from_real_daemons_verifies_under_the_listed_id(
    played: RealTable, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = played.table[:8]
    for i in (0, 1):  # the host, and a joiner (whose daemon knows the name later)
        data_dir = str(played.daemons[i].data_dir)
        assert cli.main(["tables", "--data-dir", data_dir, "--wait", "0"]) == 0
        listing = capsys.readouterr().out
        assert f" {shown}" in listing
        out = tmp_path / f"seat{i}.fwt"
        assert cli.main(["export", "real", "--data-dir", data_dir, "-o", str(out)]) == 0
        assert f"({shown})" in capsys.readouterr().out
        held = parse_transcript(played.query(i, type="transcript")["transcript"])
        assert held.shown_id == shown  # the local API's transcript names it as tables does
        exported = parse_transcript(out.read_bytes())
        assert exported.payloads == held.payloads and exported.table == held.table
        assert cli.main(["verify", str(out)]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[0].startswith(f'table {shown} "real": mcr, {played.deck} deck')
        assert lines[-1] == "OK"
        assert cli.main(["history", "--data-dir", data_dir]) == 0
        history = capsys.readouterr().out
        assert f"  real  {shown}  mcr, {played.deck} deck" in history
        assert "players: bot0, bot1, bot2, bot3" in history
        assert "final scores: " in history
    played.close()  # no daemon running: history and export read the disk alone
    data_dir = str(played.daemons[2].data_dir)
    assert cli.main(["history", "--data-dir", data_dir]) == 0
    assert "final scores: " in capsys.readouterr().out
    out = tmp_path / "seat2.fwt"
    assert cli.main(["export", shown, "--data-dir", data_dir, "-o", str(out)]) == 0
    assert cli.main(["verify", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "OK"
