"""A tiny rule set for testing the table session without the real engines.

Four seats are dealt four tiles; all four pass one tile to the right at once (a Charleston in
miniature); then East draws, and turns go draw-discard; after each discard the other three
answer pass or take (a pair of the discard's kind wins); three alike after a draw win. The
wall is cut short so hands are quick. It follows the engine contract of protocol/game.py:
faces by slot, HIDDEN where this seat cannot see, actions carrying the faces they show.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from fourwinds.protocol.bot_level import BotLevel
from fourwinds.protocol.canonical import digest
from fourwinds.protocol.errors import IllegalAction
from fourwinds.protocol.mcr.tileset import MCR_SET
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.options import TableOptions
from fourwinds.protocol.table.rules.registry import register_rules
from fourwinds.protocol.table.rules.rules_adapter import (
    DeckOp,
    DeckOpKind,
    HandOutcome,
    HandSetup,
    RulesAdapter,
    WindowKind,
)
from fourwinds.protocol.table.wire.codec import ActionCodec, encode
from fourwinds.protocol.tiles import Kind

WALL_END = 44
HIDDEN = Kind.HIDDEN


@dataclass(frozen=True)
class PassTile:
    seat: Seat
    slot: int


@dataclass(frozen=True)
class Discard:
    seat: Seat
    slot: int
    face: Kind


@dataclass(frozen=True)
class Win:
    seat: Seat
    slots: tuple[int, int, int]
    faces: tuple[Kind, Kind, Kind]


@dataclass(frozen=True)
class Pass:
    seat: Seat


@dataclass(frozen=True)
class Take:
    seat: Seat
    slots: tuple[int, int]
    faces: tuple[Kind, Kind]


Action = PassTile | Discard | Win | Pass | Take


@dataclass(frozen=True)
class Dealt:
    seat: Seat
    slots: tuple[int, ...]
    audience: Seat | None = None


@dataclass(frozen=True)
class Moved:
    source: Seat
    seat: Seat
    slot: int
    audience: Seat | None = None


@dataclass(frozen=True)
class Shown:
    seat: Seat
    slots: tuple[int, ...]
    audience: Seat | None = None


@dataclass(frozen=True)
class ToyState:
    faces: tuple[Kind, ...]
    hands: tuple[tuple[int, ...], ...]
    phase: str  # swap, turn, calls, over
    turn: Seat
    next_draw: int
    passes: tuple[int | None, ...] = (None, None, None, None)
    answers: tuple[Action | None, ...] = (None, None, None, None)
    pending: int | None = None
    discards: tuple[int, ...] = ()
    outcome: HandOutcome | None = None


def _with(
    hands: tuple[tuple[int, ...], ...], seat: Seat, hand: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    return tuple(hand if i == seat else h for i, h in enumerate(hands))


class ToyRules:
    """The toy rule set as a ``RulesAdapter``."""

    name = "toy"
    tile_set = MCR_SET

    def __init__(self, rules_text: str = "") -> None:
        self._codec = ActionCodec((PassTile, Discard, Win, Pass, Take))

    def default_hands(self) -> int:
        return 2

    def option_problem(self, options: TableOptions) -> str | None:
        return None

    def flowers(self, options: TableOptions) -> bool:
        return True

    def start(self, setup: HandSetup) -> tuple[Any, tuple[Any, ...]]:
        hands = tuple(tuple(range(4 * w, 4 * w + 4)) for w in SEATS)
        state = ToyState((HIDDEN,) * 144, hands, "swap", Seat.EAST, 16)
        return state, tuple(Dealt(w, hands[w]) for w in SEATS)

    def legal_actions(self, state: Any, seat: Seat) -> tuple[Any, ...]:
        s: ToyState = state
        hand = s.hands[seat]
        if s.phase == "swap":
            return () if s.passes[seat] is not None else tuple(PassTile(seat, x) for x in hand)
        if s.phase == "turn" and seat == s.turn:
            out: list[Action] = [Discard(seat, x, s.faces[x]) for x in hand]
            groups: dict[Kind, list[int]] = {}
            for x in hand:
                if s.faces[x] != HIDDEN:
                    groups.setdefault(s.faces[x], []).append(x)
            for kind, slots in groups.items():
                if len(slots) >= 3:
                    out.append(Win(seat, (slots[0], slots[1], slots[2]), (kind, kind, kind)))
            return tuple(out)
        if s.phase == "calls" and seat != s.turn and s.answers[seat] is None:
            assert s.pending is not None
            face = s.faces[s.pending]
            mine = [x for x in hand if s.faces[x] == face and face != HIDDEN]
            takes = [Take(seat, (mine[0], mine[1]), (face, face))] if len(mine) >= 2 else []
            return (Pass(seat), *takes)
        return ()

    def _own(self, s: ToyState, seat: Seat, slots: Sequence[int], faces: Sequence[Kind]) -> None:
        for slot, face in zip(slots, faces, strict=True):
            if slot not in s.hands[seat]:
                raise IllegalAction(f"slot {slot} is not in your hand", seat)
            if s.faces[slot] not in (HIDDEN, face):
                raise IllegalAction(f"slot {slot} is not {face.name}", seat)

    def apply(self, state: Any, action: Any) -> tuple[Any, tuple[Any, ...]]:
        s: ToyState = state
        seat = action.seat
        if isinstance(action, PassTile):
            if s.phase != "swap" or s.passes[seat] is not None:
                raise IllegalAction("not passing now", seat)
            self._own(s, seat, (action.slot,), (s.faces[action.slot],))
            passes = tuple(action.slot if i == seat else p for i, p in enumerate(s.passes))
            s = replace(s, passes=passes)
            if any(p is None for p in passes):
                return s, ()
            hands = s.hands
            events = []
            for w in SEATS:
                slot = passes[w]
                assert slot is not None
                hands = _with(hands, w, tuple(x for x in hands[w] if x != slot))
            for w in SEATS:
                slot = passes[w]
                assert slot is not None
                hands = _with(hands, w.right, (*hands[w.right], slot))
                events.append(Moved(w, w.right, slot))
            s = replace(
                s,
                hands=_with(hands, Seat.EAST, (*hands[Seat.EAST], s.next_draw)),
                phase="turn",
                next_draw=s.next_draw + 1,
            )
            return s, (*events, Dealt(Seat.EAST, (s.next_draw - 1,)))
        if isinstance(action, (Discard, Win)):
            if s.phase != "turn" or seat != s.turn:
                raise IllegalAction("not your turn", seat)
            if isinstance(action, Win):
                self._own(s, seat, action.slots, action.faces)
                if len(set(action.faces)) != 1:
                    raise IllegalAction("three alike are needed", seat)
                faces = self._faces(s, dict(zip(action.slots, action.faces, strict=True)))
                out = HandOutcome(
                    seat,
                    tuple(9 if w == seat else -3 for w in SEATS),  # type: ignore[arg-type]
                    f"{seat.name} wins with three {action.faces[0].name}",
                )
                return (
                    replace(s, faces=faces, phase="over", outcome=out),
                    (Shown(seat, action.slots),),
                )
            self._own(s, seat, (action.slot,), (action.face,))
            faces = self._faces(s, {action.slot: action.face})
            hand = tuple(x for x in s.hands[seat] if x != action.slot)
            s = replace(
                s,
                faces=faces,
                hands=_with(s.hands, seat, hand),
                phase="calls",
                pending=action.slot,
                answers=(None, None, None, None),
            )
            return s, (Shown(seat, (action.slot,)),)
        if s.phase != "calls" or seat == s.turn or s.answers[seat] is not None:
            raise IllegalAction("no discard to answer", seat)
        assert s.pending is not None
        if isinstance(action, Take):
            self._own(s, seat, action.slots, action.faces)
            if set(action.faces) != {s.faces[s.pending]}:
                raise IllegalAction("that pair does not match the discard", seat)
        answers = tuple(action if i == seat else a for i, a in enumerate(s.answers))
        s = replace(s, answers=answers)
        if sum(a is not None for a in answers) < 3:
            return s, ()
        return self._settle(s)

    def _faces(self, s: ToyState, new: Mapping[int, Kind]) -> tuple[Kind, ...]:
        return tuple(new.get(i, f) for i, f in enumerate(s.faces))

    def _settle(self, s: ToyState) -> tuple[ToyState, tuple[Any, ...]]:
        for w in (s.turn.right, s.turn.across, s.turn.left):
            answer = s.answers[w]
            if isinstance(answer, Take):
                s = replace(
                    s, faces=self._faces(s, dict(zip(answer.slots, answer.faces, strict=True)))
                )
                pay = tuple(6 if x == w else (-6 if x == s.turn else 0) for x in SEATS)
                out = HandOutcome(w, pay, f"{w.name} takes {s.turn.name}'s discard")  # type: ignore[arg-type]
                return replace(s, phase="over", outcome=out), (Shown(w, answer.slots),)
        assert s.pending is not None
        discards = (*s.discards, s.pending)
        if s.next_draw >= WALL_END:
            out = HandOutcome(None, (0, 0, 0, 0), "wall game")
            return replace(s, phase="over", outcome=out, discards=discards, pending=None), ()
        nxt = s.turn.right
        hands = _with(s.hands, nxt, (*s.hands[nxt], s.next_draw))
        s = replace(
            s,
            hands=hands,
            turn=nxt,
            phase="turn",
            next_draw=s.next_draw + 1,
            pending=None,
            discards=discards,
            answers=(None, None, None, None),
        )
        return s, (Dealt(nxt, (s.next_draw - 1,)),)

    def learn(self, state: Any, faces: Mapping[int, Kind]) -> Any:
        s: ToyState = state
        return replace(s, faces=self._faces(s, faces))

    def public_digest(self, state: Any) -> bytes:
        s: ToyState = state
        public = set(s.discards) | ({s.pending} if s.pending is not None else set())
        faces = [s.faces[x] for x in sorted(public)]
        passes = [p is not None for p in s.passes]
        return digest(
            [
                list(s.hands),
                s.phase,
                s.turn,
                s.next_draw,
                passes,
                [encode(a) if a is not None else None for a in s.answers],
                s.pending,
                list(s.discards),
                faces,
                s.outcome,
            ]
        )

    def actor(self, action: Any) -> Seat:
        seat: Seat = action.seat
        return seat

    def window(self, state: Any, seat: Seat) -> WindowKind:
        phase = state.phase
        return {"swap": WindowKind.EXCHANGE, "calls": WindowKind.CALL}.get(phase, WindowKind.TURN)

    def default_action(self, state: Any, seat: Seat) -> Any:
        s: ToyState = state
        if s.phase == "swap":
            return PassTile(seat, s.hands[seat][0])
        if s.phase == "calls":
            return Pass(seat)
        slot = s.hands[seat][-1]
        return Discard(seat, slot, s.faces[slot])

    def forced_action(self, state: Any, seat: Seat) -> Any | None:
        return None

    def offered_actions(self, state: Any, seat: Seat) -> tuple[Any, ...]:
        return self.legal_actions(state, seat)

    def knows_own_tiles(self, state: Any, seat: Seat) -> bool:
        faces = state.faces
        return all(faces[x] != Kind.HIDDEN for x in state.hands[seat])

    def awaiting(self, state: Any) -> tuple[Seat, ...]:
        return tuple(w for w in SEATS if self.legal_actions(state, w))

    def claimed_faces(self, state: Any, action: Any) -> Mapping[int, Kind]:
        if isinstance(action, Discard):
            return {action.slot: action.face}
        if isinstance(action, (Win, Take)):
            return dict(zip(action.slots, action.faces, strict=True))
        return {}

    def deck_ops(self, events: Sequence[Any]) -> tuple[DeckOp, ...]:
        ops = []
        for e in events:
            if isinstance(e, Dealt):
                ops.append(DeckOp(DeckOpKind.DRAW, e.slots, e.seat))
            elif isinstance(e, Moved):
                ops.append(DeckOp(DeckOpKind.TRANSFER, (e.slot,), e.seat, e.source))
            elif isinstance(e, Shown):
                ops.append(DeckOp(DeckOpKind.REVEAL, e.slots))
        return tuple(ops)

    def outcome(self, state: Any) -> HandOutcome | None:
        result: HandOutcome | None = state.outcome
        return result

    def encode_action(self, action: Any) -> Any:
        return encode(action)

    def decode_action(self, plain: Any) -> Any:
        return self._codec.decode(plain)

    def choose(
        self, state: Any, seat: Seat, entropy: bytes, level: BotLevel = BotLevel.NORMAL
    ) -> Any:
        s: ToyState = state
        legal = self.legal_actions(s, seat)
        for kind in (Win, Take):
            for action in legal:
                if isinstance(action, kind):
                    return action
        if s.phase == "calls":
            return Pass(seat)
        counts = Counter(s.faces[x] for x in s.hands[seat])
        pick = min(s.hands[seat], key=lambda x: (counts[s.faces[x]], s.faces[x], x))
        if s.phase == "swap":
            return PassTile(seat, pick)
        return Discard(seat, pick, s.faces[pick])

    def describe_action(self, action: Any) -> str:
        return type(action).__name__ + " " + repr(encode(action)[2:])

    def choice_faces(self, state: ToyState, action: Any) -> tuple[object, ...] | None:
        return None  # no bot of ours suggests at this table: actions compare as they are


def toy_adapter(rules_text: str) -> RulesAdapter:
    return ToyRules(rules_text)


register_rules("toy", toy_adapter)
