"""Issue 13 item 6: the CLI's small wrong or unhelpful messages, each said plainly.

`score mcr` says how many tiles it got and needs; a joker in an MCR hand is named as such;
`charleston --courtesy` without tiles says what to give, `none` offers none, and naming 1-3
tiles picks the courtesy pass of that size (it used to be "several ways" for any of them).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from fourwinds.frontends import cli
from fourwinds.frontends.cli import cli_common
from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.protocol.mcr.score_text import score_json_line
from fourwinds.protocol.table.views.view_types import ActionEntry
from tests.frontends import sample_views
from tests.frontends.fake_api import FakeApi


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _one_line_error(code: int, err: str) -> str:
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# --- score mcr -------------------------------------------------------------------------------


def test_score_mcr_with_13_tiles_says_it_got_13_and_needs_14(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _out, err = _run(["score", "mcr", "123m", "456m", "789m", "123p", "5p"], capsys)
    line = _one_line_error(code, err)
    assert "got 13 tiles, needs 14" in line
    assert "winning tile" in line and "not 12" not in line


def test_score_mcr_counts_sets_as_three_tiles(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = _run(
        ["score", "mcr", "456m", "789m", "123p", "5p", "--melds", "123m"], capsys
    )
    assert "got 10 tiles beside 1 set, needs 11" in _one_line_error(code, err)


@pytest.mark.parametrize(
    "tiles",
    [["123m", "456m", "789m", "123p", "5p", "J"], ["123m", "456m", "789m", "12p", "J", "55p"]],
)
def test_score_mcr_joker_is_named(tiles: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = _run(["score", "mcr", *tiles], capsys)
    line = _one_line_error(code, err)
    assert "a joker (J) is not an MCR tile" in line
    assert "Kind." not in line


def test_hint_mcr_joker_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = _run(["hint", "mcr", "123m456m789m123p", "J"], capsys)
    assert "a joker (J) is not an MCR tile" in _one_line_error(code, err)


def test_score_mcr_flower_points_to_the_flowers_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = _run(["score", "mcr", "123m456m789m123p55p", "1f"], capsys)
    assert "count the flowers with --flowers N" in _one_line_error(code, err)


def test_score_mcr_jsonl_joker_and_count_messages() -> None:
    hand = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "5p"]
    joker = score_json_line(json.dumps({"hand": hand, "win_tile": "J"}))
    assert joker == {"error": "a joker (J) is not an MCR tile: MCR is played without jokers"}
    short = score_json_line(json.dumps({"hand": hand[:12], "win_tile": "5p"}))
    assert "hand has 12 tiles, needs 13" in str(short["error"])
    flower = score_json_line(json.dumps({"hand": [*hand[:12], "F"], "win_tile": "5p"}))
    assert '"flowers": N' in str(flower["error"])


# --- charleston --courtesy -------------------------------------------------------------------


def _courtesy_event(seq: int = 5) -> ViewEvent:
    """The courtesy step as the daemon offers it: no pass (the default) or a pass of 1, 2 or
    3 tiles chosen from the rack (protocol/table/view_american.py)."""
    event = copy.deepcopy(sample_views.charleston_event(seq))
    view = event["view"]
    view["phase"] = "courtesy"
    view["phase_detail"] = "Charleston: courtesy pass"
    pool = sorted(set(view["hand"]) - {"J"})
    offers: list[ActionEntry] = [
        {
            "id": n,
            "type": "courtesy",
            "tiles": pool,
            "choose": n,
            "label": f"Courtesy pass: offer {n} tile{'s' if n > 1 else ''} across",
        }
        for n in (1, 2, 3)
    ]
    event["legal_actions"] = [
        {"id": 0, "type": "courtesy", "tiles": [], "label": "No courtesy pass", "default": True},
        *offers,
    ]
    return event


@pytest.fixture
def courtesy_api(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[FakeApi]:
    event = _courtesy_event()
    fake = FakeApi([event, sample_views.play_event(seq=event["seq"] + 1)])
    monkeypatch.setattr(cli_common, "connect", lambda data_dir=None, subscribe=False: fake)
    monkeypatch.setenv("FOURWINDS_CONFIG", str(tmp_path / "none.toml"))
    yield fake


def test_courtesy_without_tiles_says_what_to_give(
    courtesy_api: FakeApi, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = _run(["charleston", "--courtesy"], capsys)
    line = _one_line_error(code, err)
    assert "0 to 3 tiles" in line and "--courtesy none" in line
    assert "several ways" not in line and "ambiguous" not in line
    assert courtesy_api.table.requests == []


def test_courtesy_none_offers_no_tiles(
    courtesy_api: FakeApi, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _err = _run(["charleston", "--courtesy", "none"], capsys)
    assert code == 0, out
    assert out.strip() == "No courtesy pass: done"
    [sent] = courtesy_api.table.requests
    assert sent["action"] == 0 and not sent.get("tiles")


@pytest.mark.parametrize("tiles", [["8s"], ["1m", "3m"], ["1m", "3m", "6s"]])
def test_courtesy_with_tiles_picks_the_pass_of_that_size(
    tiles: list[str], courtesy_api: FakeApi, capsys: pytest.CaptureFixture[str]
) -> None:
    pool = courtesy_api.table.current["legal_actions"][1]["tiles"]
    assert all(t in pool for t in tiles)
    code, out, err = _run(["charleston", "--courtesy", *tiles], capsys)
    assert code == 0, err
    [sent] = courtesy_api.table.requests
    assert sent["action"] == len(tiles) and sent["tiles"] == tiles
    assert out.strip().endswith(f"{' '.join(tiles)}: done")


def test_courtesy_with_four_tiles_says_at_most_three(
    courtesy_api: FakeApi, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = _run(["charleston", "--courtesy", "1m", "3m", "6s", "8s"], capsys)
    assert "4 tiles named: a courtesy pass offers 0 to 3" in _one_line_error(code, err)
    assert courtesy_api.table.requests == []


def test_the_module_entry_point_gives_one_line_not_a_traceback(tmp_path: Path) -> None:
    """`python -m fourwinds.frontends.cli` (how tests and bot seats start daemons) reports a
    user mistake like the `fourwinds` command does."""
    import subprocess
    import sys

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "fourwinds.frontends.cli",
            "export",
            "nosuch",
            "--data-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("fourwinds: ")
