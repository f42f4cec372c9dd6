"""The step machine: collect one input from every seat a step waits for, then resolve.

Every phase after the lobby is a sequence of steps. A step knows the set of table places it
waits for (all four for Ready, the dice and the hand's end; for play, every seat the engine
gives a legal action). Inputs are taken from each seat's chain in order; an input made for a
later step waits in that seat's inbox. When the set is complete the inputs are applied in a
fixed order (wind order for play, place order otherwise) and the next step starts, so the
order in which messages arrived never changes the result.

Each step has a *state hash*: the previous one, the hashes of the inputs that resolved it and
a digest of the new public state (the engine's ``public_digest`` during play). Every message
names the step it was made in and that hash; a different hash is a divergence.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

from fourwinds.protocol.canonical import digest
from fourwinds.protocol.deck import commit_reveal as deck_cr
from fourwinds.protocol.deck import dice as deck_dice
from fourwinds.protocol.errors import IllegalAction
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine import dice as cr
from fourwinds.protocol.table.machine import masked
from fourwinds.protocol.table.machine.acc import Acc, halt, report
from fourwinds.protocol.table.machine.flow import send
from fourwinds.protocol.table.machine.options import DeckKind
from fourwinds.protocol.table.machine.practice import practice_wall
from fourwinds.protocol.table.machine.problems import Problem, ProblemKind
from fourwinds.protocol.table.machine.state import (
    PHASE_MOVES,
    STEP_PHASES,
    ActionTaken,
    EngineEvent,
    Hand,
    HandBegan,
    HandFinished,
    Input,
    MatchFinished,
    Phase,
    SeatThinking,
    TableSession,
)
from fourwinds.protocol.table.rules.registry import ruleset_of
from fourwinds.protocol.table.rules.rotation import first_seating, wind_of
from fourwinds.protocol.table.rules.rules_adapter import (
    DeckOpKind,
    HandOutcome,
    HandSetup,
    WindowKind,
)
from fourwinds.protocol.table.wire.envelope import THINKING_SINCE, Envelope
from fourwinds.protocol.table.wire.messages import (
    Act,
    Commit,
    Echo,
    HandEnd,
    MsgKind,
    Ready,
    Reveal,
    decode_body,
)
from fourwinds.protocol.table.wire.strict import WireError
from fourwinds.protocol.values import evolve

EXPECTED_KIND = {
    Phase.READY: MsgKind.READY,
    Phase.COMMIT: MsgKind.COMMIT,
    Phase.ECHO: MsgKind.ECHO,
    Phase.REVEAL: MsgKind.REVEAL,
    Phase.PLAY: MsgKind.ACT,
    Phase.HAND_END: MsgKind.HAND_END,
}


def dice_context(s: TableSession, hand_no: int) -> bytes:
    return s.table + hand_no.to_bytes(4, "big")


ENGINE_DIGEST_EVERY = 16
"""During play the engine's public digest is folded into the state hash at the deal and every
this many steps (and the outcome at the end of the hand); in between, the hash chain of the
inputs binds the state, since the engines are deterministic. public_digest hashes the whole
hand, which would otherwise dominate the cost of a step."""


def _phase_digest(s: TableSession, full: bool) -> bytes:
    hand = s.hand
    if hand is None:
        return s.seating_hash
    if s.phase is Phase.PLAY and s.rules is not None:
        if full or s.step % ENGINE_DIGEST_EVERY == 0:
            return s.rules.public_digest(hand.engine)
        return b""
    return digest(
        [
            hand.hand_no,
            list(hand.commits),
            hand.seed,
            list(hand.dice),
            None if hand.outcome is None else hand.outcome,
        ]
    )


def start_step(
    s: TableSession, phase: Phase, acc: Acc, resolved: tuple[Envelope, ...], full: bool = False
) -> TableSession:
    """Enter the next step: new state hash, start time and the set of seats awaited. A move
    that ``PHASE_MOVES`` does not list is a fault of this code, never of a peer: raised."""
    if phase not in PHASE_MOVES[s.phase]:
        raise AssertionError(f"no step leads from {s.phase.value} to {phase.value}")
    s = evolve(
        s, phase=phase, inputs={}, step=s.step + 1, step_started=acc.now, thinking=frozenset()
    )
    h = hashlib.sha256(
        b"fourwinds-step\0"
        + (s.step_hash or s.lobby_hash())
        + s.step.to_bytes(8, "big")
        + phase.value.encode()
    )
    for env in resolved:
        h.update(env.msg_hash)
    h.update(_phase_digest(s, full))
    return evolve(s, step_hash=h.digest(), awaiting=frozenset(_awaited(s)))


def _awaited(s: TableSession) -> tuple[Seat, ...]:
    if s.phase is not Phase.PLAY:
        return SEATS
    assert s.hand is not None and s.hand.seating is not None and s.rules is not None
    seating = s.hand.seating
    return tuple(seating[w] for w in s.rules.awaiting(s.hand.engine))


def advance(s: TableSession, acc: Acc) -> TableSession:
    """Take every input that is due, resolve every complete step, send automatic answers."""
    while True:
        if s.phase is Phase.LOBBY:
            return acc.lobby.creator_seats(s, acc) if acc.auto else s
        if s.phase not in STEP_PHASES or s.halted is not None:
            return s
        if s.phase is Phase.WALL:
            if masked.wall_built(s):
                s = _after_wall(s, acc)
                continue
        elif s.awaiting <= s.inputs.keys():
            s = _resolve(s, acc)
            continue
        progressed = False
        for place in SEATS:
            box = s.inbox[place]
            if box and box[0].kind is MsgKind.THINKING and box[0].step <= s.step:
                inbox = list(s.inbox)
                inbox[place] = box[1:]
                s = _thinking(evolve(s, inbox=tuple(inbox)), place, box[0], acc)
                progressed = True
                continue
            if box and box[0].kind is MsgKind.DECK:
                s, consumed = masked.on_deck_message(s, box[0], acc)
                if consumed:
                    inbox = list(s.inbox)
                    inbox[place] = inbox[place][1:]
                    s = evolve(s, inbox=tuple(inbox))
                    progressed = True
                continue
            if not box or box[0].step > s.step or s.phase is Phase.WALL:
                continue
            head = box[0]
            inbox = list(s.inbox)
            inbox[place] = box[1:]
            s = evolve(s, inbox=tuple(inbox))
            progressed = True
            s = _consider(s, place, head, acc)
        if progressed:
            continue
        if not acc.auto or not acc.answers:
            return s
        before = s
        s = _auto(s, acc)
        if s is before:
            return s


def _consider(s: TableSession, place: Seat, env: Envelope, acc: Acc) -> TableSession:
    def bad(kind: ProblemKind, reason: str) -> TableSession:
        return report(s, acc, Problem(kind, place, reason, env.step, (env.encode(),)))

    if env.step < s.step or place not in s.awaiting or place in s.inputs:
        return bad(
            ProblemKind.OUT_OF_TURN,
            f"{env.kind.name} at step {env.step}, but step "
            f"{s.step} does not wait for seat {int(place)}",
        )
    if env.state != s.step_hash:
        return bad(
            ProblemKind.DIVERGENCE,
            f"made in state {env.state.hex()[:16]}, ours is {s.step_hash.hex()[:16]}",
        )
    if env.kind is not EXPECTED_KIND[s.phase]:
        return bad(ProblemKind.OUT_OF_TURN, f"{env.kind.name} during {s.phase.value}")
    try:
        body, action = _decoded(s, env)
        value = _check(s, place, body, action)
        applied = None
        if isinstance(body, Act):
            value, applied = value
    except WireError as error:
        return bad(ProblemKind.MALFORMED, error.problem)
    except IllegalAction as error:
        return bad(ProblemKind.ILLEGAL_ACTION, error.reason)
    except _Rejected as error:
        return bad(error.kind, error.reason)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as error:
        # An engine that trips over a peer's odd (but well-typed) action must not take the
        # session down: the action is refused like any illegal one.
        return bad(
            ProblemKind.ILLEGAL_ACTION,
            f"refused by the rules engine ({type(error).__name__}: {error})",
        )
    timeout = isinstance(body, Act) and body.timeout
    stop = isinstance(body, Act) and body.time_up
    base = s.hand.engine if s.hand is not None else None
    return evolve(s, inputs={**s.inputs, place: Input(env, value, timeout, applied, base, stop)})


def _thinking(s: TableSession, place: Seat, env: Envelope, acc: Acc) -> TableSession:
    """A seat asks for more time on the discard the current step waits on (THINKING, not a
    step input): its call window is extended once. Anything else is refused with the reason
    and changes nothing."""

    def bad(kind: ProblemKind, reason: str) -> TableSession:
        return report(
            s, acc, Problem(kind, place, f"more time refused: {reason}", env.step, (env.encode(),))
        )

    if s.version < THINKING_SINCE:
        return bad(
            ProblemKind.OUT_OF_TURN,
            f"this table plays protocol version {s.version}, "
            f"which has no THINKING (it came with version {THINKING_SINCE})",
        )
    if env.step != s.step:
        return bad(
            ProblemKind.OUT_OF_TURN, f"made for step {env.step}, the table is at step {s.step}"
        )
    if env.state != s.step_hash:
        return bad(
            ProblemKind.DIVERGENCE,
            f"made in state {env.state.hex()[:16]}, ours is {s.step_hash.hex()[:16]}",
        )
    try:
        decode_body(env.kind, env.body or b"")
    except WireError as error:
        return bad(ProblemKind.MALFORMED, error.problem)
    if (
        s.phase is not Phase.PLAY
        or place not in s.awaiting
        or place in s.inputs
        or s.rules is None
        or s.hand is None
        or s.hand.seating is None
    ):
        return bad(
            ProblemKind.OUT_OF_TURN,
            "the table does not wait for this seat's answer to a discard now",
        )
    if s.rules.window(s.hand.engine, wind_of(s.hand.seating, place)) is not WindowKind.CALL:
        return bad(ProblemKind.OUT_OF_TURN, "more time is only for answering a discard")
    if place in s.thinking:
        return bad(ProblemKind.OUT_OF_TURN, "this seat already had more time on this discard")
    acc.events.append(SeatThinking(s.hand.hand_no, s.step, place, wind_of(s.hand.seating, place)))
    return evolve(s, thinking=s.thinking | {place})


class _Rejected(Exception):
    def __init__(self, kind: ProblemKind, reason: str) -> None:
        self.kind = kind
        self.reason = reason
        super().__init__(reason)


_DECODED: dict[tuple[type, bytes], tuple[Act, Any]] = {}
_DECODED_KEPT = 512


def _decoded(s: TableSession, env: Envelope) -> tuple[object, Any]:
    """(body, its engine action for an ACT). An action's bytes recur all hand long (each
    seat's pass, the same discard answered...): decoding is pure and the values are frozen,
    so decoded actions are kept per rules class and body bytes."""
    data = env.body or b""
    if env.kind is not MsgKind.ACT or s.rules is None:
        return decode_body(env.kind, data), None
    key = (type(s.rules), data)
    hit = _DECODED.get(key)
    if hit is None:
        body = decode_body(env.kind, data)
        assert isinstance(body, Act)
        hit = (body, s.rules.decode_action(body.action))
        if len(_DECODED) >= _DECODED_KEPT:
            del _DECODED[next(iter(_DECODED))]
        _DECODED[key] = hit
    return hit


def _check(s: TableSession, place: Seat, body: object, action: Any = None) -> Any:
    """Validate one input against the current step; returns what resolution needs
    (``action``: the ACT's decoded engine action)."""
    hand = s.hand
    if isinstance(body, Ready):
        if body.seating != s.seating_hash:
            raise _Rejected(ProblemKind.DIVERGENCE, "ready for a different seating")
        return None
    assert hand is not None
    if isinstance(body, Commit):
        return body.commitment
    if isinstance(body, Echo):
        if body.commitments != cr.commitments_hash(hand.commits):
            raise _Rejected(ProblemKind.DIVERGENCE, "saw different dice commitments")
        return None
    if isinstance(body, Reveal):
        expected = hand.commits[place]
        if deck_cr.commitment(dice_context(s, hand.hand_no), place, body.nonce) != expected:
            raise _Rejected(ProblemKind.BAD_REVEAL, "the nonce does not open its commitment")
        return body.nonce
    if isinstance(body, HandEnd):
        if body.outcome != digest(hand.outcome):
            raise _Rejected(ProblemKind.DIVERGENCE, "computed a different outcome")
        return body.time_up
    assert isinstance(body, Act) and s.rules is not None and hand.seating is not None
    if action is None:
        action = s.rules.decode_action(body.action)
    wind = wind_of(hand.seating, place)
    if s.rules.actor(action) != wind:
        raise _Rejected(ProblemKind.ILLEGAL_ACTION, "an action for another seat")
    claimed = s.rules.claimed_faces(hand.engine, action)
    if hand.wall is not None:
        wrong = hand.wall.false_faces(claimed)
        if wrong:
            slot, face, actual = wrong[0]
            raise _Rejected(
                ProblemKind.FALSE_FACE, f"showed slot {slot} as {face.name}, it holds {actual.name}"
            )
    else:
        for slot, face in sorted(claimed.items()):
            shown = masked.public_face(hand, slot)
            if shown != face:
                what = "was never revealed" if shown is None else f"was opened as {shown.name}"
                raise _Rejected(
                    ProblemKind.FALSE_FACE, f"showed slot {slot} as {face.name}, it {what}"
                )
    return action, s.rules.apply(hand.engine, action)  # IllegalAction with the reason


Resolver = Callable[[TableSession, Acc, tuple[Envelope, ...]], TableSession]
"""What a complete step does with its inputs (in place order): the session after it."""


def _resolve(s: TableSession, acc: Acc) -> TableSession:
    resolved = tuple(s.inputs[p].envelope for p in SEATS if p in s.inputs)
    return _RESOLVERS[s.phase](s, acc, resolved)


def _all_ready(s: TableSession, acc: Acc, resolved: tuple[Envelope, ...]) -> TableSession:
    return _begin_hand(s, acc, 0, resolved)


def _committed(s: TableSession, acc: Acc, resolved: tuple[Envelope, ...]) -> TableSession:
    assert s.hand is not None
    s = evolve(s, hand=evolve(s.hand, commits=tuple(s.inputs[p].action for p in SEATS)))
    return start_step(s, Phase.ECHO, acc, resolved)


def _echoed(s: TableSession, acc: Acc, resolved: tuple[Envelope, ...]) -> TableSession:
    return start_step(s, Phase.REVEAL, acc, resolved)


def _revealed(s: TableSession, acc: Acc, resolved: tuple[Envelope, ...]) -> TableSession:
    assert s.hand is not None
    nonces = [s.inputs[p].action for p in SEATS]
    seed = deck_cr.seed_of(dice_context(s, s.hand.hand_no), tuple(nonces))
    return _deal(s, acc, seed, resolved)


def _begin_hand(
    s: TableSession, acc: Acc, hand_no: int, resolved: tuple[Envelope, ...]
) -> TableSession:
    return start_step(evolve(s, hand=Hand(hand_no)), Phase.COMMIT, acc, resolved)


def _deal(s: TableSession, acc: Acc, seed: bytes, resolved: tuple[Envelope, ...]) -> TableSession:
    assert s.hand is not None and s.rules is not None and s.open is not None
    rules, hand_no = s.rules, s.hand.hand_no
    first = s.first_seating
    if first is None:
        if s.open is not None and s.open.options.fixed_winds:  # a tournament's seating
            first = (Seat(0), Seat(1), Seat(2), Seat(3))
        else:  # the rule set's draw (MCR B2: winds drawn once; American A3: highest roll)
            first = ruleset_of(rules).first_seating(seed)
    seating = ruleset_of(rules).seating_for_hand(first, hand_no, s.outcomes)
    dice = deck_dice.break_dice(rules.tile_set, seed)
    opened, commits = s.open, s.hand.commits
    if opened.options.deck is DeckKind.MASKED:
        hand = Hand(hand_no, commits, seed, seating, dice)
        s = start_step(evolve(s, first_seating=first, hand=hand), Phase.WALL, acc, resolved)
        s = evolve(s, awaiting=frozenset())
        return masked.start_wall(s, acc)
    wall = practice_wall(rules.tile_set, seed, flowers=rules.flowers(opened.options))
    setup = HandSetup(
        hand_no, dice, ruleset_of(rules).prevalent_wind(hand_no), opened.options, opened.rules_text
    )
    engine, events = rules.start(setup)
    if s.me is None:  # an observer checks everything: it knows the whole practice wall
        engine = rules.learn(engine, dict(enumerate(wall.faces)))
    hand = Hand(hand_no, commits, seed, seating, dice, wall, engine)
    s = evolve(s, first_seating=first, hand=hand)
    acc.events.append(HandBegan(hand_no, seating, dice))
    s = _after_engine(s, acc, events)
    return _next_play_step(s, acc, resolved, full=True)


def _after_wall(s: TableSession, acc: Acc) -> TableSession:
    """Masked deck: the wall is built; deal it and start the engine."""
    hand = s.hand
    assert hand is not None and s.rules is not None and s.open is not None
    setup = HandSetup(
        hand.hand_no,
        hand.dice,
        ruleset_of(s.rules).prevalent_wind(hand.hand_no),
        s.open.options,
        s.open.rules_text,
    )
    engine, events = s.rules.start(setup)
    if hand.deck is not None:  # faces the deck showed us before the engine existed
        known = dict(hand.deck.faces(hand.deck_state))
        engine = s.rules.learn(engine, known) if known else engine
    s = evolve(s, hand=evolve(hand, engine=engine))
    acc.events.append(HandBegan(hand.hand_no, hand.seating or first_seating(Seat(0)), hand.dice))
    hand = s.hand
    assert hand is not None
    s = evolve(s, hand=evolve(hand, pending_deal=True))
    s = _after_engine(s, acc, events, dealing=True)
    return _next_play_step(s, acc, (), full=True)


def _after_engine(
    s: TableSession, acc: Acc, events: tuple[Any, ...], dealing: bool = False, engine: Any = None
) -> TableSession:
    """Tell our engine the faces the deck now gives our seat, and report visible events.
    ``engine``: the hand's new engine state, when the caller has not stored it yet."""
    hand = s.hand
    assert hand is not None and hand.seating is not None and s.rules is not None
    rules = s.rules
    if engine is None:
        engine = hand.engine
    mine = None if s.me is None else wind_of(hand.seating, s.me)
    ops = rules.deck_ops(events)
    pending_ops = hand.pending_ops
    if hand.wall is None:  # the masked deck: draws and passes go through it
        if not dealing and ops:  # run by the deck once the next step has started (masked.py)
            pending_ops = (*pending_ops, *ops)
    else:
        faces = {}
        for op in ops:
            if op.kind is DeckOpKind.REVEAL or (s.me is not None and op.seat == mine):
                faces.update(hand.wall.faces_of(op.slots))
        if faces and s.me is not None:
            engine = rules.learn(engine, faces)
    for event in events:
        audience = getattr(event, "audience", None)
        if audience is None or audience == mine or s.me is None:
            acc.events.append(EngineEvent(hand.hand_no, event))
    return evolve(s, hand=evolve(hand, engine=engine, pending_ops=pending_ops))


def _next_play_step(
    s: TableSession, acc: Acc, resolved: tuple[Envelope, ...], full: bool = False
) -> TableSession:
    assert s.hand is not None and s.rules is not None
    outcome = s.rules.outcome(s.hand.engine)
    if outcome is not None:
        s = evolve(s, hand=evolve(s.hand, outcome=outcome))
        s = start_step(s, Phase.HAND_END, acc, resolved)
        return masked.start_audit(masked.flush(s, acc), acc)
    s = masked.flush(start_step(s, Phase.PLAY, acc, resolved, full), acc)
    if not s.awaiting:
        problem = Problem(
            ProblemKind.ILLEGAL_ACTION,
            None,
            "the rules engine waits for nobody and the hand is not over",
        )
        return halt(report(s, acc, problem), acc, problem)
    return s


def our_act(s: TableSession, encoded: Any, timeout: bool) -> Act:
    """Our seat's Act, marked when our daemon holds a time call that stops the hand at
    once (the American option that a hand unfinished at the call scores 0)."""
    return Act(encoded, timeout, s.time_up and s.stop_now)


UNFINISHED = "unfinished when time was called: 0 for everyone"


def _stopped_by_time(s: TableSession, acc: Acc, resolved: tuple[Envelope, ...]) -> TableSession:
    """A play step resolved with an input marked by the time call: the hand ends here,
    its inputs not applied, scoring 0 for everyone, and it is the match's last. Decided by
    the step's complete set of inputs, so by every seat alike."""
    hand = s.hand
    assert hand is not None
    outcome = HandOutcome(None, (0, 0, 0, 0), UNFINISHED)
    s = evolve(s, hand=evolve(hand, outcome=outcome), time_called=True)
    s = start_step(s, Phase.HAND_END, acc, resolved)
    return masked.start_audit(masked.flush(s, acc), acc)


def _play(s: TableSession, acc: Acc, resolved: tuple[Envelope, ...]) -> TableSession:
    if any(item.time_up for item in s.inputs.values()):
        return _stopped_by_time(s, acc, resolved)
    hand = s.hand
    assert hand is not None and hand.seating is not None and s.rules is not None
    rules, seating, engine = s.rules, hand.seating, hand.engine
    start = engine
    entries = []
    for wind in SEATS:
        place = seating[wind]
        item = s.inputs.get(place)
        if item is None:
            continue
        try:
            if engine is start and item.base is start and item.applied is not None:
                engine, events = item.applied  # the check applied it to this very state
            else:
                engine, events = rules.apply(engine, item.action)
        except IllegalAction as error:
            s = report(s, acc, Problem(ProblemKind.ILLEGAL_ACTION, place, error.reason, s.step))
            continue
        text = rules.describe_action(item.action)
        entries.append((s.step, place, text))
        # the action first, then the engine events it caused (logs group them so)
        acc.events.append(
            ActionTaken(hand.hand_no, s.step, place, wind, text, item.timeout, item.action)
        )
        s = _after_engine(s, acc, events, engine=engine)
        hand = s.hand
        assert hand is not None
        engine = hand.engine
    s = evolve(s, timeline=(*s.timeline, *entries))
    return _next_play_step(s, acc, resolved)


def _end_hand(s: TableSession, acc: Acc, resolved: tuple[Envelope, ...]) -> TableSession:
    hand = s.hand
    assert hand is not None and hand.outcome is not None and hand.seating is not None
    s = evolve(
        s,
        scores=s.match_scores,
        hands_played=s.hands_played + 1,
        outcomes=(*s.outcomes, (hand.hand_no, hand.outcome, hand.seating)),
        finals=(*s.finals, hand.engine),
    )
    acc.events.append(HandFinished(hand.hand_no, hand.outcome, hand.seating))
    # A seat whose daemon held the tournament's time call said so in its HandEnd: this hand
    # was the last. Decided by the step's complete set of inputs, so by every seat alike.
    if any(s.inputs[p].action is True for p in SEATS if p in s.inputs):
        s = evolve(s, time_called=True)
    assert s.rules is not None
    # the rule set says when its match ends (a number of hands, a player bust...); a
    # tournament's time call ends it whatever that says
    if s.time_called or ruleset_of(s.rules).match_over(s.outcomes, s.match_hands):
        acc.events.append(MatchFinished(s.scores))
        return evolve(start_step(s, Phase.OVER, acc, resolved), awaiting=frozenset())
    return _begin_hand(s, acc, hand.hand_no + 1, resolved)


_RESOLVERS: Mapping[Phase, Resolver] = {
    Phase.READY: _all_ready,  # -> COMMIT: the first hand's dice
    Phase.COMMIT: _committed,  # -> ECHO
    Phase.ECHO: _echoed,  # -> REVEAL
    Phase.REVEAL: _revealed,  # -> WALL (fair deck), or PLAY / HAND_END (practice)
    Phase.PLAY: _play,  # -> PLAY, or HAND_END
    Phase.HAND_END: _end_hand,  # -> COMMIT (the next hand), or OVER
}
"""The step machine as a table: what resolves a complete step of each phase (WALL's steps are
the deck's own, protocol/table/machine/masked.py; PHASE_MOVES says where each may lead)."""


def _auto(s: TableSession, acc: Acc) -> TableSession:
    """Our own automatic inputs: the dice commit/echo/reveal, a move the rules force (e.g.
    MCR's "no more flowers" with no flower left), (table option ``auto_pass``) a pass on a
    discard we cannot claim, and the end-of-hand digest only at a table opened before the
    next window (otherwise our player says "next", or ``tick`` when the window ends)."""
    if s.me is None or s.me not in s.awaiting or s.me in s.inputs or s.inbox[s.me]:
        return s
    answer = _AUTO.get(s.phase)
    if answer is None or s.hand is None:
        return s  # READY: our player says it
    return answer(s, acc, s.me, s.hand)


def _nonce(s: TableSession, hand: Hand) -> bytes:
    """Our dice nonce for this hand (derived from our secret: the same after a restart)."""
    return cr.derive_nonce(s.secret, dice_context(s, hand.hand_no))


def _auto_commit(s: TableSession, acc: Acc, me: Seat, hand: Hand) -> TableSession:
    ctx = dice_context(s, hand.hand_no)
    return send(s, acc, Commit(deck_cr.commitment(ctx, me, _nonce(s, hand))))


def _auto_echo(s: TableSession, acc: Acc, me: Seat, hand: Hand) -> TableSession:
    return send(s, acc, Echo(cr.commitments_hash(hand.commits)))


def _auto_reveal(s: TableSession, acc: Acc, me: Seat, hand: Hand) -> TableSession:
    return send(s, acc, Reveal(_nonce(s, hand)))


def _auto_play(s: TableSession, acc: Acc, me: Seat, hand: Hand) -> TableSession:
    return _forced(s, acc)


def _auto_hand_end(s: TableSession, acc: Acc, me: Seat, hand: Hand) -> TableSession:
    if s.open is not None and s.open.options.next_window is None:
        return confirm_hand_end(s, acc)
    return s  # our player says "next" (or tick, when the window ends)


_AUTO: Mapping[Phase, Callable[[TableSession, Acc, Seat, Hand], TableSession]] = {
    Phase.COMMIT: _auto_commit,
    Phase.ECHO: _auto_echo,
    Phase.REVEAL: _auto_reveal,
    Phase.PLAY: _auto_play,
    Phase.HAND_END: _auto_hand_end,
}
"""Our own automatic input at a step of each phase, by the table; none at READY."""


def audit_done(s: TableSession) -> bool:
    """Whether the hand's deck audit (masked deck) is over; a practice hand has none."""
    hand = s.hand
    return hand is not None and (hand.deck is None or hand.audited)


def confirm_hand_end(s: TableSession, acc: Acc) -> TableSession:
    """Our seat's HAND_END (the digest of the outcome we computed), once the deck audit is
    over; unchanged before that, or when it is not ours to send."""
    hand = s.hand
    if (
        s.phase is not Phase.HAND_END
        or hand is None
        or hand.outcome is None
        or not audit_done(s)
        or s.me is None
        or s.me not in s.awaiting
        or s.me in s.inputs
        or s.inbox[s.me]
    ):
        return s
    return send(s, acc, HandEnd(digest(hand.outcome), s.time_up))


def more_time_allowed(s: TableSession) -> bool:
    """Whether our seat may ask for more time now: it is answering a discard (a call
    window), has not had more time on it yet, and the table's version knows THINKING."""
    if (
        s.me is None
        or s.phase is not Phase.PLAY
        or s.rules is None
        or s.hand is None
        or s.hand.seating is None
        or s.version < THINKING_SINCE
        or s.me in s.thinking
    ):
        return False
    if s.me not in s.awaiting or s.me in s.inputs or s.inbox[s.me]:
        return False
    return s.rules.window(s.hand.engine, wind_of(s.hand.seating, s.me)) is WindowKind.CALL


def window_seconds(s: TableSession, place: Seat) -> float:
    """The timer of ``place``'s current decision (0: none), counted from the step's start:
    during play the engine's window (a call window twice over for a seat that had more
    time), at a hand's end the next window (0 when it waits for ever, or when the table
    answers at once)."""
    if s.open is None:
        return 0.0
    options = s.open.options
    if s.phase is Phase.HAND_END:
        return options.next_window or 0.0
    if s.phase is not Phase.PLAY or s.rules is None or s.hand is None:
        return 0.0
    assert s.hand.seating is not None
    kind = s.rules.window(s.hand.engine, wind_of(s.hand.seating, place))
    if kind is WindowKind.CALL:
        return options.call_window * (2 if place in s.thinking else 1)
    return {WindowKind.EXCHANGE: options.exchange_window, WindowKind.TURN: options.turn_window}[
        kind
    ]


def _forced(s: TableSession, acc: Acc) -> TableSession:
    """A move the rules make for our seat without asking its player (the adapter's
    ``forced_action``: its only legal move, which tells the table nothing it will not see
    anyway), else ``_only_pass``."""
    hand, rules = s.hand, s.rules
    if hand is None or rules is None or hand.seating is None or not masked.ready_to_act(s):
        return s
    assert s.me is not None
    action = rules.forced_action(hand.engine, wind_of(hand.seating, s.me))
    if action is not None:
        return send(s, acc, our_act(s, rules.encode_action(action), False))
    return _only_pass(s, acc)


def _only_pass(s: TableSession, acc: Acc) -> TableSession:
    """With ``auto_pass``: when our only answer to a discard worth asking about (the
    adapter's ``offered_actions``: American leaves out exposure calls that bring the hand no
    nearer to any card line) is the one action its window would default to (no call, no
    Mahjong), send it now instead of asking the player.
    The answer is an ordinary signed input of our seat; only its timing is automatic."""
    hand, rules = s.hand, s.rules
    if (
        s.open is None
        or not s.open.options.auto_pass
        or hand is None
        or rules is None
        or hand.seating is None
        or not masked.ready_to_act(s)
    ):
        return s
    assert s.me is not None
    wind = wind_of(hand.seating, s.me)
    if rules.window(hand.engine, wind) is not WindowKind.CALL:
        return s
    legal = rules.offered_actions(hand.engine, wind)
    if len(legal) != 1 or legal[0] != rules.default_action(hand.engine, wind):
        return s
    return send(s, acc, our_act(s, rules.encode_action(legal[0]), False))
