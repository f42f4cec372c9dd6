"""Stored hands for people (issue 14): `export`, `history`, and `verify`/`replay` of whole
matches, cut transcripts and record logs, through the CLI entry point in-process.

Record logs are written with the daemon's own ``Store`` from the records a harness seat
persisted, exactly as a daemon writes them; a real daemon is in test_stored_hands_daemon.py.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest

from fourwinds.daemon.store.disk import Store
from fourwinds.frontends import cli
from fourwinds.frontends.cli.completion_scripts import bash_script
from fourwinds.frontends.client.stored import scan_log
from fourwinds.protocol.table.machine.harness import Harness, play_match
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.transcript import (
    MAX_TRANSCRIPT_MESSAGES,
    TRANSCRIPT_MAGIC,
    export_transcript,
    parse_transcript,
)
from fourwinds.protocol.table.wire.strict import MAX_ITEMS, pack
from testkit.procs import ROOT

ENTRY = "import sys; from fourwinds.frontends.cli import main; sys.exit(main())"
"""The `fourwinds` console script's entry point, for a shell pipeline."""

# One worker runs the module: its matches are module fixtures (~11 s to play the 16 hands),
# which every worker that ran one of its tests would otherwise play again.
pytestmark = pytest.mark.xdist_group("stored_hands")


@pytest.fixture(scope="module")
def long_match() -> Harness:
    """A default-length MCR match (16 hands) on the practice deck: over 4,096 messages."""
    return play_match("mcr", b"stored hands", options=TableOptions(deck=DeckKind.PRACTICE))


@pytest.fixture(scope="module")
def long_file(long_match: Harness, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("long") / "long.fwt"
    path.write_bytes(export_transcript(long_match.sessions[0]))
    return path


@pytest.fixture(scope="module")
def short_match() -> Harness:
    return play_match(
        "american", b"stored short", options=TableOptions(deck=DeckKind.PRACTICE, hands=2)
    )


def _store_table(data_dir: Path, records: list[bytes], name: str) -> bytes:
    """A table folder as the daemon writes it (meta and record log); its listed id."""
    store = Store(data_dir / "tables")
    table_id = os.urandom(16)
    store.write_meta(
        table_id, {"table_id": table_id, "name": name, "rules": "x", "members": [], "place": 1}
    )
    log = store.open_log(table_id)
    log.append(records)
    log.close()
    return table_id


def test_a_whole_16_hand_match_verifies_and_replays(
    long_match: Harness, long_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    messages = sum(len(c.accepted) for c in long_match.sessions[0].chains)
    assert messages > MAX_ITEMS  # the old limit: "not valid msgpack (ValueError)"
    assert cli.main(["verify", str(long_file)]) == 0
    out = capsys.readouterr().out
    assert "16 hand(s) checked" in out and f"{messages} signed messages" in out
    assert out.rstrip().endswith("OK")
    assert cli.main(["replay", str(long_file)]) == 0
    out = capsys.readouterr().out
    assert "== Hand 16:" in out and "== Match over" in out


def test_verify_names_a_demo_transcript_by_its_8_digit_id(
    long_match: Harness, long_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["verify", str(long_file)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f'table {long_match.sessions[0].table.hex()[:8]} "harness": mcr')


def test_a_cut_transcript_is_one_line_and_exit_2(
    long_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cut = tmp_path / "cut.fwt"
    cut.write_bytes(long_file.read_bytes()[: long_file.stat().st_size // 2])
    for command in ("replay", "verify"):
        assert cli.main([command, str(cut)]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.count("\n") == 1
        assert "cut short" in captured.err and str(cut) in captured.err


def test_a_transcript_over_the_message_bound_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    huge = tmp_path / "huge.fwt"
    huge.write_bytes(pack([TRANSCRIPT_MAGIC, 1, bytes(16), [b""] * (MAX_TRANSCRIPT_MESSAGES + 1)]))
    assert cli.main(["verify", str(huge)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "limit" in err


def test_replay_piped_into_head_ends_quietly(long_file: Path) -> None:
    # --verbose writes far more than a pipe holds, so the writer meets the closed pipe
    done = subprocess.run(
        f"'{sys.executable}' -c '{ENTRY}' replay --verbose '{long_file}' | head -1; "
        "exit ${PIPESTATUS[0]}",
        shell=True,
        executable="bash",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0
    assert done.stdout.startswith("== Hand 1:") and done.stdout.count("\n") == 1
    assert done.stderr == ""


def test_verify_and_replay_read_a_record_log_directly(
    short_match: Harness, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = _store_table(tmp_path, short_match.records[2], "club")
    log = tmp_path / "tables" / listed.hex() / "records.log"
    assert cli.main(["verify", str(log)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0].startswith(f'table {listed.hex()[:8]} "harness"')
    assert captured.out.rstrip().endswith("OK")
    assert "record log" in captured.err and "fourwinds export" in captured.err
    assert captured.err.count("\n") == 1
    assert cli.main(["replay", str(log.parent)]) == 0  # the table folder works too
    assert "== Match over" in capsys.readouterr().out


def test_export_writes_what_verify_reads_with_the_listed_id(
    short_match: Harness,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = tmp_path / "data"
    listed = _store_table(data, short_match.records[1], "club")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    assert cli.main(["export", "club", "--data-dir", str(data)]) == 0
    assert "written to harness-" in capsys.readouterr().out
    [written] = list(work.glob("harness-*.fwt"))
    transcript = parse_transcript(written.read_bytes())
    assert transcript.listed_id == listed
    assert (
        transcript.payloads == parse_transcript(export_transcript(short_match.sessions[1])).payloads
    )  # what the daemon exports
    assert cli.main(["verify", str(written)]) == 0
    assert capsys.readouterr().out.startswith(f'table {listed.hex()[:8]} "harness"')
    # by id prefix, to a named file; and the default name again replaces its own file
    assert cli.main(["export", listed.hex()[:6], "--data-dir", str(data), "-o", "x.fwt"]) == 0
    assert (work / "x.fwt").read_bytes() == written.read_bytes()
    assert cli.main(["export", "--data-dir", str(data)]) == 0  # the only table
    capsys.readouterr()


def test_export_to_stdout(
    short_match: Harness, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    listed = _store_table(tmp_path, short_match.records[0], "club")
    assert cli.main(["export", "club", "--data-dir", str(tmp_path), "-o", "-"]) == 0
    captured = capsysbinary.readouterr()
    assert parse_transcript(captured.out).listed_id == listed
    assert b"messages" in captured.err


def test_export_refuses_in_one_line(
    short_match: Harness,
    long_match: Harness,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = tmp_path / "data"
    assert cli.main(["export", "club", "--data-dir", str(data)]) == 2
    assert "no stored tables" in capsys.readouterr().err
    _store_table(data, short_match.records[0], "club")
    assert cli.main(["export", "kitchen", "--data-dir", str(data)]) == 2
    assert "no stored table 'kitchen'" in capsys.readouterr().err
    monkeypatch.chdir(tmp_path)
    assert cli.main(["export", "club", "--data-dir", str(data)]) == 0
    [written] = list(tmp_path.glob("harness-*.fwt"))
    written.write_bytes(export_transcript(long_match.sessions[0]))  # another table's
    assert cli.main(["export", "club", "--data-dir", str(data)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not this table's transcript" in err
    assert parse_transcript(written.read_bytes()).table == long_match.sessions[0].table


def test_history_lists_finished_unfinished_and_left_matches_without_a_daemon(
    short_match: Harness, long_match: Harness, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = short_match.records[3]
    unfinished = _store_table(tmp_path, records[: len(records) * 3 // 5], "half")
    finished = _store_table(tmp_path, long_match.records[0], "whole")
    left = _store_table(tmp_path, records, "gone")
    Store(tmp_path / "tables").leave(left)
    aside = _store_table(tmp_path, records, "damaged")
    Store(tmp_path / "tables").set_aside(aside, "records.log record 9 at byte 1,234: bad")
    assert cli.main(["history", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    blocks = {line.split()[3]: line for line in out.splitlines() if not line.startswith(" ")}
    assert set(blocks) == {
        unfinished.hex()[:8],
        finished.hex()[:8],
        left.hex()[:8],
        aside.hex()[:8],
    }
    assert "mcr, practice deck" in blocks[finished.hex()[:8]]
    assert blocks[left.hex()[:8]].endswith(", left")
    assert blocks[aside.hex()[:8]].endswith(", set aside")
    assert "set aside by the daemon: records.log record 9 at byte 1,234: bad" in out
    scores = long_match.sessions[0].scores
    best = max(range(4), key=lambda p: scores[p])
    assert f"final scores: seat {best} {scores[best]:+d}" in out
    assert "in progress, hand 2 of 2" in out or "in progress, hand 1 of 2" in out
    assert "players: seat 0, seat 1, seat 2, seat 3" in out
    assert cli.main(["history", "--data-dir", str(tmp_path), "--json"]) == 0
    import json

    entries = {e["table"]: e for e in map(json.loads, capsys.readouterr().out.splitlines())}
    assert entries[finished.hex()[:8]]["state"] == "over"
    assert entries[finished.hex()[:8]]["hands"] == 16
    assert entries[finished.hex()[:8]]["scores"] == list(scores)
    assert entries[unfinished.hex()[:8]]["state"] == "in progress"
    assert entries[left.hex()[:8]]["left"] is True


def test_history_of_an_empty_data_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["history", "--data-dir", str(tmp_path)]) == 0
    assert "No stored matches" in capsys.readouterr().out


def test_a_damaged_record_log_is_named_not_a_traceback(
    short_match: Harness, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = _store_table(tmp_path, short_match.records[0], "club")
    log = tmp_path / "tables" / listed.hex() / "records.log"
    data = bytearray(log.read_bytes())
    data[len(data) // 2] ^= 0x01
    log.write_bytes(bytes(data))
    read = scan_log(bytes(data))
    assert read.damage is not None and not read.torn
    assert cli.main(["verify", str(log)]) == 1
    captured = capsys.readouterr()
    assert f"damaged at record {len(read.records)} at byte" in captured.err
    assert "BAD" in captured.out
    assert cli.main(["history", "--data-dir", str(tmp_path)]) == 0
    assert "note:" in capsys.readouterr().out


def test_a_torn_tail_is_read_up_to_the_last_whole_record(short_match: Harness) -> None:
    import struct
    import zlib

    blob = b"".join(struct.pack(">II", len(r), zlib.crc32(r)) + r for r in short_match.records[0])
    read = scan_log(blob[:-3])
    assert read.torn and read.damage is None
    assert read.records == tuple(short_match.records[0][:-1])


def test_not_a_transcript_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "meta.msgpack"
    junk.write_bytes(msgpack.packb({"name": "x"}))
    assert cli.main(["verify", str(junk)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert cli.main(["replay", str(tmp_path / "missing.fwt")]) == 2
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_completion_offers_the_commands_and_file_names(tmp_path: Path) -> None:
    (tmp_path / "game.fwt").write_bytes(b"")
    script = bash_script(cli.build_parser())

    def complete(*words: str) -> list[str]:
        line = " ".join(f"'{w}'" for w in words)
        program = (
            f"{script}\nCOMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; "
            '_fourwinds; printf "%s\\n" "${COMPREPLY[@]}"'
        )
        return subprocess.run(
            ["bash", "-c", program],
            capture_output=True,
            text=True,
            timeout=20,
            check=True,
            cwd=tmp_path,
        ).stdout.split()

    assert {"export", "history"} <= set(complete("fourwinds", "h") + complete("fourwinds", "e"))
    assert complete("fourwinds", "verify", "g") == ["game.fwt"]
    assert complete("fourwinds", "export", "-o", "g") == ["game.fwt"]
    assert "--json" in complete("fourwinds", "history", "--")


def test_the_wire_tells_a_cut_value_and_a_size_limit_apart() -> None:
    from fourwinds.protocol.table.wire.strict import WireCut, WireError, unpack

    data = pack([1, [b"x" * 50, b"y" * 50]])
    with pytest.raises(WireCut, match="cut short"):
        unpack(data[:-10])
    with pytest.raises(WireError, match="over a size limit") as caught:
        unpack(pack(list(range(MAX_ITEMS + 1))))
    assert not isinstance(caught.value, WireCut)
    assert unpack(pack(list(range(MAX_ITEMS + 1))), max_items=MAX_ITEMS + 1)[-1] == MAX_ITEMS


def test_history_replays_only_the_tables_whose_log_changed(
    short_match: Harness, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    records = short_match.records[0]
    listed = _store_table(tmp_path, records[:-40], "club")
    assert cli.main(["history", "--data-dir", str(tmp_path)]) == 0
    assert "in progress" in capsys.readouterr().out
    cache_path = tmp_path / "history-cache.json"
    cache = json.loads(cache_path.read_text())
    [(log_key, held)] = cache["tables"].items()
    assert log_key.endswith("records.log")
    held["entry"]["result"] = "from the cache"
    cache_path.write_text(json.dumps(cache))
    assert cli.main(["history", "--data-dir", str(tmp_path)]) == 0
    assert "    from the cache" in capsys.readouterr().out
    log = Store(tmp_path / "tables").open_log(listed)  # the match goes on: replayed again
    log.append(records[-40:])
    log.close()
    assert cli.main(["history", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "from the cache" not in out and "final scores" in out


def test_export_to_a_pipe_closed_early_says_so(long_match: Harness, tmp_path: Path) -> None:
    _store_table(tmp_path, long_match.records[0], "long")  # about 0.9 MB
    reader = f"'{sys.executable}' -c 'import sys; sys.stdin.buffer.read(10)'"
    fourwinds = f"'{sys.executable}' -c '{ENTRY}'"
    done = subprocess.run(
        f"{fourwinds} export long --data-dir '{tmp_path}' -o - | {reader}; exit ${{PIPESTATUS[0]}}",
        shell=True,
        executable="bash",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "closed stdout" in done.stderr
