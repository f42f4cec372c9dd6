"""The table session: the pure API the daemon drives (see docs/PROTOCOL.md).

Every function takes an immutable ``TableSession`` and returns a ``Step`` with the new one,
the messages to send (only after ``persist`` is durably written), frontend events and the
problems detected. ``now`` is the caller's monotonic clock; randomness comes in as
``entropy`` bytes. Nothing here does I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

from fourwinds.protocol.errors import IllegalAction, LocalProtocolError
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine import masked
from fourwinds.protocol.table.machine.acc import Acc, report
from fourwinds.protocol.table.machine.flow import outgoing, receive, send
from fourwinds.protocol.table.machine.lobby import LOBBY, join, open_table
from fourwinds.protocol.table.machine.options import TableOptions
from fourwinds.protocol.table.machine.problems import Problem, ProblemKind
from fourwinds.protocol.table.machine.returning import own_window_start, seat_returned
from fourwinds.protocol.table.machine.state import Outgoing, Phase, Step, TableSession
from fourwinds.protocol.table.machine.steps import (
    advance,
    audit_done,
    confirm_hand_end,
    more_time_allowed,
    our_act,
    window_seconds,
)
from fourwinds.protocol.table.machine.transcript import resume
from fourwinds.protocol.table.rules.rotation import wind_of
from fourwinds.protocol.table.wire.envelope import THINKING_SINCE
from fourwinds.protocol.table.wire.messages import Ready, Thinking
from fourwinds.protocol.values import evolve

__all__ = [
    "HandNext",
    "MoreTime",
    "Outgoing",
    "Step",
    "TableReady",
    "TableSession",
    "call_time",
    "handle_message",
    "join_table",
    "local_action",
    "messages_since",
    "new_table",
    "resume",
    "seat_returned",
    "settle",
    "state_hash",
    "tick",
    "window_seconds",
]


@dataclass(frozen=True)
class TableReady:
    """Our player is ready to start the match (the lobby's Ready step)."""


@dataclass(frozen=True)
class HandNext:
    """Our player has seen the hand's result and says "next" (our seat's HAND_END)."""


@dataclass(frozen=True)
class MoreTime:
    """Our player asks for more time on the discard our seat is answering (THINKING)."""


@dataclass(frozen=True)
class DefaultRefused:
    """Our window expired but the default answer could not be made yet (it is retried on
    the next tick); ``reason`` says why."""

    reason: str


def _step(s: TableSession, acc: Acc) -> Step:
    return Step(
        s, tuple(outgoing(s, acc)), tuple(acc.persist), tuple(acc.events), tuple(acc.problems)
    )


def new_table(
    name: str,
    rules: str,
    identity_private_key: bytes,
    entropy: bytes,
    now: float,
    *,
    rules_text_name: str = "",
    rules_text: str = "",
    options: TableOptions | None = None,
    player: str = "",
) -> Step:
    """Open a table as its creator (place 0); the Open message goes to every other seat.
    ``rules_text``: the rule set's own text (an American card file), ``rules_text_name``
    its name."""
    s, acc = open_table(
        name,
        rules,
        identity_private_key,
        entropy,
        rules_text_name=rules_text_name,
        rules_text=rules_text,
        options=options,
        player=player,
    )
    acc.now = now
    return _step(evolve(s, step_started=now), acc)


def join_table(
    open_payload: bytes,
    place: Seat,
    identity_private_key: bytes,
    entropy: bytes,
    now: float,
    player: str = "",
) -> Step:
    """Join the table an Open message describes, asking the creator for ``place`` (1-3)."""
    s, acc = join(open_payload, place, identity_private_key, entropy, player)
    acc.now = now
    return _step(evolve(s, step_started=now), acc)


def handle_message(session: TableSession, payload: bytes, now: float, answer: bool = True) -> Step:
    """A peer's wire message (any order, duplicates welcome).

    ``answer=False`` applies it without making our own automatic inputs it calls for (the
    dice messages, an automatic pass...); ``settle`` then makes them. The daemon splits the
    two so that the new state is adopted, and shown, before the work of our reply."""
    acc = Acc(now, answers=answer, lobby=LOBBY)
    s = receive(session, payload, acc)
    return _step(advance(s, acc), acc)


def settle(session: TableSession, now: float) -> Step:
    """Everything due now: inputs received but not yet taken (our own action sent with
    ``settle_now=False``) and our automatic answers (after ``handle_message(answer=False)``).
    Nothing happens when nothing is due."""
    acc = Acc(now, lobby=LOBBY)
    return _step(advance(session, acc), acc)


def call_time(session: TableSession, now: float, stop_now: bool = False) -> Step:
    """Our daemon holds the tournament's time call for this table: our seat's next HandEnd
    says so, which makes the hand it ends the match's last (steps.py ``_end_hand``). Only our
    own flag changes here; nothing is sent, so telling it twice, or after the match, is
    harmless. The hand in progress when our HandEnd goes is the last: a call that reaches us
    after we confirmed a hand's end lets one more hand be played (the first seat to hold the
    call decides, the same at all four seats since it is in the step's signed inputs).

    ``stop_now`` (the American option that a hand unfinished at the call scores 0): our
    seat's next action is marked too, and the play step it resolves ends the hand at once,
    scoring 0 for everyone (steps.py ``_stopped_by_time``)."""
    return _step(evolve(session, time_up=True, stop_now=stop_now), Acc(now, lobby=LOBBY))


def _our_wind(s: TableSession) -> Seat:
    assert s.me is not None and s.hand is not None and s.hand.seating is not None
    return wind_of(s.hand.seating, s.me)


def local_action(
    session: TableSession, action: object, now: float, settle_now: bool = True
) -> Step:
    """Our own seat acts: ``TableReady()`` in the lobby, an engine action during play,
    ``MoreTime()`` while answering a discard, ``HandNext()`` at a hand's end.

    ``LocalProtocolError`` (with the reason) when it is not ours to do now; nothing changes.
    ``settle_now=False`` checks, signs and queues the message but leaves taking it (resolving
    the step, our deck's work for it) to ``settle``: the daemon sends the message to the
    peers in between, so they need not wait for our own bookkeeping.
    """
    s = session
    if s.me is None or s.key is None:
        raise LocalProtocolError("an observer cannot act")
    if s.halted is not None:
        raise LocalProtocolError(f"the table is halted: {s.halted.describe()}")
    if s.me not in s.awaiting or s.me in s.inputs or s.inbox[s.me]:
        raise LocalProtocolError("the table is not waiting for this seat now")
    acc = Acc(now, lobby=LOBBY)
    if isinstance(action, TableReady):
        if s.phase is not Phase.READY:
            raise LocalProtocolError("ready is only for the lobby")
        s = send(s, acc, Ready(s.seating_hash))
        return _step(advance(s, acc) if settle_now else s, acc)
    if isinstance(action, HandNext):
        if s.phase is not Phase.HAND_END:
            raise LocalProtocolError("no hand has just ended")
        if not audit_done(s):
            raise LocalProtocolError("the deck audit is still running; try again shortly")
        s = confirm_hand_end(s, acc)
        return _step(advance(s, acc) if settle_now else s, acc)
    if isinstance(action, MoreTime):
        s = send(s, acc, Thinking()) if more_time_allowed(s) else _no_more_time(s)
        return _step(advance(s, acc) if settle_now else s, acc)
    return _act(s, action, acc, timeout=False, settle_now=settle_now)


def _no_more_time(s: TableSession) -> TableSession:
    """Raise the reason our seat cannot have more time now."""
    if s.version < THINKING_SINCE:
        raise LocalProtocolError(
            f"this table plays protocol version {s.version}: some seat's "
            "fourwinds cannot give more time"
        )
    if s.me in s.thinking:
        raise LocalProtocolError("you already had more time on this discard")
    raise LocalProtocolError("more time is only for answering a discard")


def _act(s: TableSession, action: object, acc: Acc, timeout: bool, settle_now: bool = True) -> Step:
    rules = s.rules
    if s.phase is not Phase.PLAY or rules is None or s.hand is None:
        raise LocalProtocolError("no hand is being played")
    if rules.actor(action) != _our_wind(s):
        raise LocalProtocolError("that action is for another seat")
    if not masked.ready_to_act(s):
        raise LocalProtocolError("the deck has not shown this seat all its tiles yet")
    rules.apply(s.hand.engine, action)  # IllegalAction with the reason, nothing sent
    shown = rules.claimed_faces(s.hand.engine, action)
    s = masked.reveal_shown(s, acc, shown)
    hand = s.hand
    assert hand is not None
    if hand.deck is not None and any(masked.public_face(hand, x) != f for x, f in shown.items()):
        # e.g. a tile passed back to us whose transfer our deck has not seen yet
        raise LocalProtocolError("the deck cannot show that tile yet; try again shortly")
    s = send(s, acc, our_act(s, rules.encode_action(action), timeout))
    return _step(advance(s, acc) if settle_now else s, acc)


def tick(session: TableSession, now: float) -> Step:
    """Timers: answer by default for our own seat when its window expired; report seats that
    stopped answering; send any automatic message still due (e.g. after ``resume``)."""
    acc = Acc(now, lobby=LOBBY)
    s = advance(session, acc)
    if s.step_started < 0:  # resumed: timers restart now
        s = evolve(s, step_started=now)
    if s.halted is not None or s.me is None:
        return _step(s, acc)
    waited = now - own_window_start(s)  # our own window: restarted once by a return
    if (
        s.phase is Phase.PLAY
        and s.me in s.awaiting
        and s.me not in s.inputs
        and not s.inbox[s.me]
        and s.rules is not None
        and s.hand is not None
        and masked.ready_to_act(s)
    ):
        window = window_seconds(s, s.me)
        if window > 0 and waited >= window:
            default = s.rules.default_action(s.hand.engine, _our_wind(s))
            try:
                s = _act(s, default, acc, timeout=True).session
            except IllegalAction as error:  # e.g. the deck has not shown the tile yet
                acc.events.append(DefaultRefused(error.reason))
    if s.phase is Phase.HAND_END and s.me in s.awaiting and s.me not in s.inputs:
        window = window_seconds(s, s.me)
        if window > 0 and waited >= window:  # our player did not say "next" in time
            s = advance(confirm_hand_end(s, acc), acc)
    waited = now - s.step_started  # our answer may have resolved the step: a new one starts
    if s.open is not None and s.stall_reported != s.step and s.phase is not Phase.LOBBY:
        stall_after = s.open.options.stall_after
        ours = now - own_window_start(s)
        late = [
            p
            for p in SEATS
            if p in s.awaiting
            and p not in s.inputs
            and (ours if p == s.me else waited) >= window_seconds(s, p) + stall_after
            and not (s.phase is Phase.HAND_END and s.open.options.next_window == 0)
        ]
        blames = [(p, f"no answer for {waited:.0f} s") for p in late if p != s.me]
        if s.me in late or (s.phase is Phase.WALL and waited >= stall_after):
            # What holds us up may be the deck: a pass not sent, keys or audit secrets
            # withheld. Then the seats it names are to blame, not the seat waiting for them.
            held_by = _deck_withholders(s)
            blames += [(p, f"{reason} ({waited:.0f} s)") for p, reason in held_by]
            if not held_by and s.me in late:
                blames.append((s.me, f"no answer for {waited:.0f} s"))
        for place, reason in blames:
            s = report(s, acc, Problem(ProblemKind.STALLED, place, reason, s.step))
        if blames:
            s = evolve(s, stall_reported=s.step)
    return _step(s, acc)


def _deck_withholders(s: TableSession) -> list[tuple[Seat, str]]:
    """(place, why) for each seat our masked deck waits for: a wall pass, keys for tiles we
    hold, audit secrets (``MaskedDeck.withheld``); nothing with the practice deck."""
    hand = s.hand
    if s.me is None or hand is None or hand.deck is None or hand.seating is None:
        return []
    return [
        (hand.seating[blame.seat], f"deck: {blame.detail}")
        for blame in hand.deck.withheld(hand.deck_state)
    ]


def messages_since(
    session: TableSession, seat: Seat, seq: int, for_seat: Seat | None = None
) -> tuple[bytes, ...]:
    """``seat``'s messages from ``seq`` on, as a peer catching up needs them. Private
    messages go in full only to their addressee (``for_seat``), redacted to anyone else."""
    out = []
    for env in session.chains[seat].accepted[max(seq, 0) :]:
        if env.to is not None and env.to != for_seat and env.seat != for_seat:
            env = env.redacted()
        out.append(env.encode())
    return tuple(out)


def state_hash(session: TableSession) -> bytes:
    """The current step's state hash (equal at every honest seat once they reach the step)."""
    return session.step_hash
