"""An MCR table without flowers (the ``flowers`` table option off; docs/RULES.md B1,
"A table without flowers"): 136 tiles, no flowers round, no flower points."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest

from fourwinds.protocol.american.tileset import AMERICAN_SET
from fourwinds.protocol.canonical import to_plain
from fourwinds.protocol.mcr.actions import Discard, ExposeFlower, FlowersDone
from fourwinds.protocol.mcr.autoplay import play_hand
from fourwinds.protocol.mcr.config import (
    TableMode,
    TableOptions,
    check_pairs,
    from_pairs,
    pairs_of,
)
from fourwinds.protocol.mcr.engine import legal_actions, new_hand, public_digest
from fourwinds.protocol.mcr.events import DrawSource, FlowerExposed, FlowersFinished, TileDrawn
from fourwinds.protocol.mcr.fans import FAN_NAME, Fan
from fourwinds.protocol.mcr.state import HandState, Phase, evolve
from fourwinds.protocol.mcr.tileset import MCR_SET, MCR_TILES
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.tiles import Kind, is_bonus

NO_FLOWERS = TableOptions(flowers=False)


def _wall(seed: int, flowers: bool = False) -> list[Kind]:
    faces = list(MCR_SET.played(flowers=flowers).kinds)
    random.Random(seed).shuffle(faces)
    return faces


def test_b1_no_flowers_set_is_the_136_tiles_without_a_flower_or_season() -> None:
    tiles = MCR_SET.played(flowers=False).kinds
    assert len(tiles) == 136
    assert not any(is_bonus(k) for k in tiles)
    assert Counter(tiles) == Counter(k for k in MCR_TILES if not is_bonus(k))
    assert tiles == MCR_TILES[:136]  # a tile id names the same face in both sets
    with pytest.raises(ValueError, match="American"):
        AMERICAN_SET.played(flowers=False)


def test_b3_no_flowers_hand_starts_at_easts_first_turn_with_no_flowers_round() -> None:
    state, _ = new_hand(NO_FLOWERS, _wall(1), (3, 4, 2, 6))
    assert len(state.faces) == 136 and state.wall.remaining == 136 - 53
    assert state.phase is Phase.TURN and state.turn is Seat.EAST and state.may_declare
    legal = legal_actions(state, Seat.EAST)
    assert legal and all(not isinstance(a, (ExposeFlower, FlowersDone)) for a in legal)
    assert sum(isinstance(a, Discard) for a in legal) == 14


def test_b3_no_flowers_wall_is_refused_with_144_faces_and_a_flower_face() -> None:
    with pytest.raises(ValueError, match="without flowers has 136 slots, got 144"):
        new_hand(NO_FLOWERS, list(MCR_TILES), (1, 1, 1, 1))
    faces = _wall(2)
    faces[0] = Kind.FLOWER_1
    with pytest.raises(ValueError, match="not from one MCR tile set"):
        new_hand(NO_FLOWERS, faces, (1, 1, 1, 1))


def _played(seed: int, flowers: bool) -> tuple[HandState, list[object]]:
    events: list[object] = []
    state, first = new_hand(
        TableOptions(flowers=flowers), _wall(seed, flowers), (seed % 6 + 1, 2, 3, 4)
    )
    events.extend(first)
    end = play_hand(state, random.Random(seed), lambda _s, _a, evs: events.extend(evs))
    return end, events


@pytest.mark.parametrize("seed", range(6))
def test_b3_no_flowers_hand_never_has_a_flower_step(seed: int) -> None:
    end, events = _played(seed, flowers=False)
    assert end.phase is Phase.ENDED
    assert not any(isinstance(e, (FlowerExposed, FlowersFinished)) for e in events)
    assert not any(
        isinstance(e, TileDrawn) and e.source is DrawSource.FLOWER_REPLACEMENT for e in events
    )
    assert all(not seat.flowers for seat in end.seats)


@pytest.mark.slow
def test_b5_no_flowers_wins_score_no_flower_points() -> None:
    flower_fan = FAN_NAME[Fan.FLOWER_TILES]
    wins = 0
    for seed in range(40):
        end, _ = _played(seed, flowers=False)
        result = end.result
        assert result is not None
        if result.winner is None:
            continue
        wins += 1
        assert flower_fan not in {name for name, _, _ in result.fans}
        assert result.total == sum(points * count for _, points, count in result.fans)
        assert result.total >= 8
    assert wins >= 5


def test_no_flowers_option_reads_from_the_tables_pairs_and_is_off_only_when_given() -> None:
    assert from_pairs(()) == TableOptions()
    assert from_pairs(()).flowers
    assert from_pairs(pairs_of(flowers=False)) == NO_FLOWERS
    assert pairs_of(flowers=True) == ()
    assert from_pairs((("mode", "tournament"), ("flowers", False))) == TableOptions(
        mode=TableMode.TOURNAMENT, flowers=False
    )
    assert check_pairs((("flowers", "no"),)) == (
        "options.rules flowers must be true or false, not 'no'"
    )
    assert check_pairs((("mode", "casual"),)) is not None
    with pytest.raises(ValueError, match="flowers must be true or false"):
        from_pairs((("flowers", 0),))


def test_a_hand_with_flowers_hashes_as_before_the_option() -> None:
    """Stored tables replay: their signed state hashes fold in the engine's public digest,
    whose options must encode as they did before ``flowers`` existed."""
    assert to_plain(TableOptions()) == ["TableOptions", "friendly", 16, None, 8]
    assert to_plain(NO_FLOWERS) == ["TableOptions", "friendly", 16, None, 8, False]
    with_flowers, _ = new_hand(TableOptions(), _wall(3, True), (1, 2, 3, 4))
    before = evolve(with_flowers, options=_OptionsBeforeFlowers())
    assert public_digest(with_flowers) == public_digest(before)
    without, _ = new_hand(NO_FLOWERS, _wall(3), (1, 2, 3, 4))
    assert public_digest(without) != public_digest(evolve(without, options=TableOptions()))


@dataclass(frozen=True)
class _OptionsBeforeFlowers:
    """protocol/mcr/config.py's TableOptions as it was before the flowers option."""

    mode: TableMode = TableMode.FRIENDLY
    max_hands: int = 16
    deadline: float | None = None
    min_points: int = 8


_OptionsBeforeFlowers.__name__ = "TableOptions"
