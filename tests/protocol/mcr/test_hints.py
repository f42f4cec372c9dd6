"""The MCR hints count what the table already decides (docs/RULES.md B5, issue 22 item 14): a
hint once said "6p completes the hand but scores 7 (8 needed)" and the player then won on
6p with 11, Last Tile (the other three 6p were public). Hints score Last Tile from the public
tiles and Last Tile Claim from an empty wall, say when self-drawing changes the score or
makes the hand win, and give each wait's live count."""

from __future__ import annotations

from collections.abc import Mapping

from fourwinds.protocol.mcr.table_view import hand_hints
from fourwinds.protocol.notation import parse_tiles
from fourwinds.protocol.tiles import Kind

LAST_TILE_HAND = tuple(sorted(parse_tiles("7p 8p 9p 9p 9p 4s 4s 4s 5s 6s 7s 7s 7s")))
SIX_P = parse_tiles("6p")[0]
DRAWN_HAND = tuple(sorted(parse_tiles("2m 3m 4m 4s 5s 6s 7s 7s 4z 4z 4z 7z 7z")))
SEVEN_S = parse_tiles("7s")[0]


def _hint(
    hand: tuple[Kind, ...], wait: str, public: dict[Kind, int], wall_empty: bool = False
) -> str:
    """The hint line of ``wait`` for a concealed ``hand`` (East in an East round)."""
    lines = hand_hints((), hand, 0, 0, 0, tuple(sorted(public.items())), wall_empty)
    return next(line for line in lines if line.startswith((f"{wait} (", f"wins on {wait} (")))


def test_hint_last_tile_counts_when_the_other_three_are_public() -> None:
    assert _hint(LAST_TILE_HAND, "6p", {}).startswith(
        "6p (4 left) completes the hand but scores 7 on a discard (8 needed); "
        "self-drawn it wins: 9 (Fully Concealed Hand 4, "
    )
    hint = _hint(LAST_TILE_HAND, "6p", {SIX_P: 3})
    assert hint.startswith("wins on 6p (1 left): 11 (Last Tile 4, Concealed Hand 2, "), hint
    assert hint.endswith("; self-drawn 13"), hint


def test_hint_last_tile_claim_when_the_wall_is_empty() -> None:
    hint = _hint(LAST_TILE_HAND, "6p", {SIX_P: 1}, wall_empty=True)
    assert hint.startswith("wins on 6p (3 left): 15 (Last Tile Claim 8, "), hint
    assert "self-drawn" not in hint  # no tile is left to draw


def test_hint_says_when_self_drawing_makes_the_hand_win() -> None:
    assert _hint(DRAWN_HAND, "7s", {SEVEN_S: 1}) == (
        "7s (1 left) completes the hand but scores 4 on a discard (8 needed); "
        "self-drawn it wins: 8 (Fully Concealed Hand 4, Two Concealed Pungs 2, "
        "Pung of Terminals or Honors 1, One Voided Suit 1)"
    )


def test_hint_live_count_leaves_out_our_own_and_the_public_copies() -> None:
    assert _hint(LAST_TILE_HAND, "9p", {}).startswith("wins on 9p (1 left): ")
    assert _hint(DRAWN_HAND, "7z", {SEVEN_S: 1}).startswith("7z (2 left) ")
    assert _hint(DRAWN_HAND, "7s", {SEVEN_S: 2}).startswith("7s (0 left) ")


def _live_wins(
    hand: tuple[Kind, ...], public: dict[Kind, int], wall_empty: bool = False
) -> Mapping[str, object] | None:
    from fourwinds.protocol.mcr.table_view import live_wins

    return live_wins((), hand, 0, 0, 0, tuple(sorted(public.items())), wall_empty)


def test_live_wins_count_the_live_tiles_of_every_wait_that_wins() -> None:
    """The view's ``live_wins`` (issue 22, "the count of live tiles that win for you"): the
    waits whose tile wins, on a discard or self-drawn, and their live tiles summed; the same
    waits and counts the hint lines give."""
    everything = ["6p", "9p", "4s", "7s"]
    assert _live_wins(LAST_TILE_HAND, {SIX_P: 3}) == {"left": 4, "tiles": everything}
    # 6p scores 7 on a discard but wins self-drawn: its 4 count while a tile can be drawn
    assert _live_wins(LAST_TILE_HAND, {}) == {"left": 7, "tiles": everything}
    assert _live_wins(DRAWN_HAND, {SEVEN_S: 1}) == {"left": 3, "tiles": ["7s", "7z"]}
    for hand, public in ((LAST_TILE_HAND, {SIX_P: 1}), (DRAWN_HAND, {SEVEN_S: 1})):
        lines = hand_hints((), hand, 0, 0, 0, tuple(sorted(public.items())), False)
        winning = [
            line for line in lines if line.startswith("wins on") or "self-drawn it wins" in line
        ]
        left = sum(int(line.split("(")[1].split(" ")[0]) for line in winning)
        assert _live_wins(hand, public) == {
            "left": left,
            "tiles": [line.removeprefix("wins on ").split(" ")[0] for line in winning],
        }, (lines, _live_wins(hand, public))


def test_live_wins_when_no_tile_wins_or_the_hand_is_not_ready() -> None:
    not_ready = tuple(sorted(parse_tiles("1m 1m 5m 9m 2p 6p 8p 3s 3s 7s 1z 1z 5z")))
    assert _live_wins(not_ready, {}) is None
    fourteen = tuple(sorted((*LAST_TILE_HAND, SIX_P)))
    assert _live_wins(fourteen, {}) is None
