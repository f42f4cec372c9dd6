"""`fourwinds tournament create | join | list | status | standings | export` at real daemon
processes (issue 23): a director creates an event, a player enters it by the director's
address, both daemons hold the same record, and the export passes `tournament verify`."""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from testkit.procs import DaemonProcess, fourwinds_cli, start_all

pytestmark = pytest.mark.slow
REAL = "fourwinds.daemon.table_runtimes.real_session"


def _json(*args: str) -> dict[str, object]:
    done = fourwinds_cli(*args, "--json")
    assert done.returncode == 0, done.stderr
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[DaemonProcess, DaemonProcess]]:
    ann = DaemonProcess(tmp_path / "ann", "Ann", session_module=REAL)
    bob = DaemonProcess(tmp_path / "bob", "Bob", session_module=REAL)
    start_all([ann, bob])
    try:
        yield ann, bob
    finally:
        ann.stop()
        bob.stop()


def test_a_player_enters_an_event_and_its_export_verifies(
    pair: tuple[DaemonProcess, DaemonProcess], tmp_path: Path
) -> None:
    ann, bob = pair
    made = _json(
        "tournament",
        "create",
        "club night",
        "--rounds",
        "3",
        "--hands",
        "1",
        "--deck",
        "practice",
        "--turn-seconds",
        "25",
        "--data-dir",
        str(ann.data_dir),
    )
    assert made["director"] is True and made["port"] == ann.port
    assert made["turn_seconds"] == 25
    entered = _json(
        "tournament",
        "join",
        "club night",
        "--peer",
        f"127.0.0.1:{ann.port}",
        "--data-dir",
        str(bob.data_dir),
    )
    assert entered["me"] == 0 and entered["event"] == made["event"]
    listed = fourwinds_cli("tournament", "list", "--data-dir", str(ann.data_dir))
    assert (
        "club night (MCR, 3 rounds of 1 hand, practice deck, 25 s a turn): you direct it"
        in listed.stdout
    )
    assert "  0  Bob" in listed.stdout
    shown = fourwinds_cli("tournament", "status", "club night", "--data-dir", str(bob.data_dir))
    assert "you are entrant 0" in shown.stdout and "1 entrant(s)" in shown.stdout
    standings = _json("tournament", "standings", "club night", "--data-dir", str(bob.data_dir))
    assert standings["standings"] == [
        {
            "rank": 1,
            "player": 0,
            "name": "Bob",
            "points": "0",
            "points_text": "0",
            "score": 0,
            "played": 0,
            "byes": 0,
        }
    ]
    assert standings["state"] == {  # the standings' label (issue 38 defect 7)
        "label": "before round 1",
        "provisional": False,
        "final": False,
        "round": 0,
        "tables": 0,
        "counted": 0,
    }
    started = fourwinds_cli("tournament", "start", "club night", "--data-dir", str(ann.data_dir))
    assert started.returncode == 0, started.stderr
    assert "round 1:" in started.stdout and "    table 1: " in started.stdout
    end = time.monotonic() + 15  # the round start travels to Bob's daemon meanwhile
    while (
        " table 1, you are"
        not in (
            seated := fourwinds_cli(
                "tournament", "status", "club night", "--data-dir", str(bob.data_dir)
            )
        ).stdout
        and time.monotonic() < end
    ):
        # sleep-ok: poll interval of a bounded wait
        time.sleep(0.3)
    assert " table 1, you are" in seated.stdout and "Bob" in seated.stdout, seated.stdout
    assert "    with a bot (" in seated.stdout, seated.stdout
    playing = fourwinds_cli(
        "tournament", "standings", "club night", "--data-dir", str(bob.data_dir)
    )
    assert "(provisional: round 1, 0 of 1 table in)" in playing.stdout, playing.stdout
    signed = fourwinds_cli(
        "tournament",
        "result",
        "club night",
        "--table",
        "1",
        "--scores",
        "90,-30,-30,-30",
        "--data-dir",
        str(bob.data_dir),
    )
    assert signed.returncode == 0, signed.stderr
    assert signed.stdout.startswith("the result counts: all four seats signed these scores")
    assert "table 1 result: 90, -30, -30, -30" in signed.stdout
    after = fourwinds_cli("tournament", "standings", "club night", "--data-dir", str(bob.data_dir))
    assert "(after round 1 of 3)" in after.stdout, after.stdout
    fixed = fourwinds_cli(
        "tournament",
        "correct",
        "club night",
        "--round",
        "1",
        "--table",
        "1",
        "--scores=-30,90,-30,-30",
        "--reason",
        "South won, not East",
        "--data-dir",
        str(ann.data_dir),
    )
    assert fixed.returncode == 0, fixed.stderr
    assert (
        "  correction: round 1, table 1 scores -30, 90, -30, -30: South won, not East"
        in fixed.stdout
    )
    fined = fourwinds_cli(
        "tournament",
        "penalty",
        "club night",
        "--round",
        "1",
        "--player",
        "Bob",
        "--points",
        "1/2",
        "--reason",
        "late",
        "--data-dir",
        str(ann.data_dir),
    )
    assert fined.returncode == 0, fined.stderr
    assert "Bob: -0.5 points, -0 score: late" in fined.stdout, fined.stdout
    bad = fourwinds_cli(
        "tournament",
        "result",
        "club night",
        "--table",
        "1",
        "--scores",
        "1,2",
        "--data-dir",
        str(bob.data_dir),
    )
    assert bad.returncode == 2 and "four whole numbers" in bad.stderr
    out = tmp_path / "club.export"
    _json("tournament", "export", "club night", str(out), "--data-dir", str(bob.data_dir))
    verified = fourwinds_cli("tournament", "verify", str(out))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.startswith(
        'OK: "club night", mcr, 1 entrants, 1 of 3 round(s) started, 1 table result(s)'
    )
    # one points format (issue 38 defect 5): the daemon's standings, the terminal's and the
    # export's verify show Bob's shared-out points alike, as a decimal
    exact = _json("tournament", "standings", "club night", "--data-dir", str(bob.data_dir))
    rows = exact["standings"]
    assert isinstance(rows, list) and len(rows) == 1
    row: dict[str, object] = rows[0]
    assert row["points"] in ("7/2", "1/2") and row["points_text"] in ("3.5", "0.5"), row
    shown_rows = fourwinds_cli(
        "tournament", "standings", "club night", "--data-dir", str(bob.data_dir)
    )
    bob_rows = [line.split() for line in (shown_rows.stdout + verified.stdout).splitlines()]
    points = {r[2] for r in bob_rows if len(r) >= 6 and r[0] == "1" and r[1] == "Bob"}
    assert points == {row["points_text"]}, shown_rows.stdout + verified.stdout
    assert "penalty: round 1, Bob: -0.5 points, -0 score: late" in verified.stdout
    # the director's sheets (issue 38): standings and results as CSV, the round's seating
    at_ann = ("--data-dir", str(ann.data_dir))
    table_csv = fourwinds_cli("tournament", "standings", "club night", "--csv", *at_ann)
    assert list(csv.reader(io.StringIO(table_csv.stdout))) == [
        ["rank", "player", "points", "score", "played", "byes", "standings"],
        ["1", "Bob", row["points_text"], str(row["score"]), "1", "0", "after round 1 of 3"],
    ], table_csv.stdout + table_csv.stderr
    results = fourwinds_cli("tournament", "results", "club night", "--csv", *at_ann)
    [header, line] = list(csv.reader(io.StringIO(results.stdout)))
    assert header[:4] == ["round", "table", "east", "east_score"] and len(header) == 10
    assert line[:2] == ["1", "1"] and [line[3], line[5], line[7], line[9]] == [
        "-30",
        "90",
        "-30",
        "-30",
    ], results.stdout  # the corrected scores
    assert sorted(line[2:10:2]) == ["Bob", "bot", "bot", "bot"], line
    sheet = fourwinds_cli("tournament", "sheet", "club night", *at_ann)
    assert sheet.returncode == 0, sheet.stderr
    by_name, by_table = sheet.stdout.split("club night, round 1: by table")
    assert "club night, round 1: by name" in by_name and "Bob" in by_name and "table  1" in by_name
    assert "table  1:" in by_table and "(bot)" in by_table and "Bob" in by_table
    sheets = fourwinds_cli("tournament", "sheet", "club night", "--scoresheets", *at_ann)
    assert "club night, round 1, table 1: scoresheet" in sheets.stdout, sheets.stderr
    assert "entered with: fourwinds tournament result 'club night' --table 1" in sheets.stdout


def test_a_wrong_code_and_an_unknown_event_are_one_line_each(
    pair: tuple[DaemonProcess, DaemonProcess],
) -> None:
    ann, bob = pair
    made = _json(
        "tournament",
        "create",
        "finals",
        "--private",
        "--no-flowers",
        "--data-dir",
        str(ann.data_dir),
    )
    assert made["code"] and made["flowers"] is False
    assert made["rules_label"] == "MCR, no flowers"  # an MCR event without flowers
    shown = fourwinds_cli("tournament", "status", "finals", "--data-dir", str(ann.data_dir))
    assert shown.stdout.startswith("finals (MCR, no flowers, 4 rounds of 4 hands"), shown.stdout
    american = fourwinds_cli(
        "tournament",
        "create",
        "cards",
        "--rules",
        "american",
        "--no-flowers",
        "--data-dir",
        str(ann.data_dir),
    )
    assert american.returncode != 0 and "Traceback" not in american.stderr
    assert "--no-flowers is for MCR tables" in american.stderr
    wrong = fourwinds_cli(
        "tournament",
        "join",
        "finals",
        "--peer",
        f"127.0.0.1:{ann.port}",
        "--code",
        "NOPE42",
        "--data-dir",
        str(bob.data_dir),
    )
    assert wrong.returncode != 0 and "Traceback" not in wrong.stderr
    assert wrong.stderr.strip() == "fourwinds: cannot join finals: wrong code for event finals"
    unknown = fourwinds_cli("tournament", "status", "derby", "--data-dir", str(bob.data_dir))
    assert unknown.returncode != 0
    assert "no event 'derby' here" in unknown.stderr and "Traceback" not in unknown.stderr
