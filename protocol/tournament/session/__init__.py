"""The tournament as a pure session: one event at one daemon, inputs in, Steps out.

An ``EventState`` (state.py) is the record held, the checker after it and what only this
daemon knows; ``apply(state, input, now)`` (moves.py) returns an ``Outcome``: the next state
and the Steps (steps.py) the daemon performs in order (store, send, spread, dial, tell the
seats, open our table). Dispatch is by table: INPUT_MOVES for inputs, and admission.py's
FRAME_SENDERS, SUBMIT_ROUTES and TAKEN_LEADS for who may send what and what a taken record
leads to. Nothing here reads a clock, draws a random number or does I/O: the daemon passes
its monotonic time in, and a restarted daemon opens the same state from its stored records
(``opened``).
"""

from .admission import FrameRefused, admit_frame
from .inputs import (
    CallIn,
    CallRound,
    DirectorSigns,
    EnterIn,
    Gathered,
    Input,
    PeerBack,
    RecordsIn,
    SignBotResult,
    SignResult,
    SubmitIn,
    Tick,
    WithdrawEntrant,
    WithdrawSelf,
)
from .moves import INPUT_MOVES, apply
from .outcome import EventRefused, Outcome
from .state import EventState, Held, Me, StateError, opened
from .steps import Step

__all__ = [
    "INPUT_MOVES",
    "CallIn",
    "CallRound",
    "DirectorSigns",
    "EnterIn",
    "EventRefused",
    "EventState",
    "FrameRefused",
    "Gathered",
    "Held",
    "Input",
    "Me",
    "Outcome",
    "PeerBack",
    "RecordsIn",
    "SignBotResult",
    "SignResult",
    "StateError",
    "Step",
    "SubmitIn",
    "Tick",
    "WithdrawEntrant",
    "WithdrawSelf",
    "admit_frame",
    "apply",
    "opened",
]
