"""What the daemon needs from the pure table session, and where it comes from.

The contract (notes/CONTRACTS.md, "Table session <-> daemon") names ``handle_message``,
``local_action``, ``tick``, ``resume``, ``messages_since`` and ``seat_view``; the daemon also
needs to create and join a table and to route by seat, named here as ``new_table``,
``join_table`` (with ``opens_table``: which message a joiner starts from), ``seat_keys`` and
``last_seq``. The module is ``fourwinds.protocol.table.session``
(through the thin adapter ``fourwinds.daemon.real_session``)
unless ``--session-module`` names another one with the same functions (the tests use a small
one to exercise the shell). The daemon never looks inside a session or a payload.

Optional, used when present: ``apply_message`` and ``send_action`` with ``settle`` (the two
halves of ``handle_message`` and ``local_action``: adopt a peer's message before making our
automatic reply, send our action before our own session takes it in), ``progress`` (phase
and step: a view is sent at once when it changes), ``awaits_us``, ``suggest``,
``sheet``, ``sheet_for_rules``, ``transcript``, ``ready_due`` and ``final_scores`` (a
tournament table's daemon says ready and signs the result for its player), and ``seated``
with ``keep_joins`` (a player who leaves the lobby before the seating frees its place;
without them every table counts as seated, and a leave is one from a table that waits for
its seat).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from fourwinds.protocol.errors import FourwindsError

DEFAULT = "fourwinds.daemon.real_session"


class StepLike(Protocol):
    """``Step`` of the contract: new session, then persist, then send."""

    @property
    def session(self) -> Any: ...
    @property
    def outgoing(self) -> Sequence[Any]: ...   # each has .to (Seat | None) and .payload
    @property
    def persist(self) -> Sequence[bytes]: ...
    @property
    def events(self) -> Sequence[object]: ...
    @property
    def problems(self) -> Sequence[object]: ...


class SessionModule(Protocol):
    def new_table(self, identity_private_key: bytes, name: str, rules: str, player: str,
                  options: Mapping[str, Any], entropy: bytes, now: float) -> StepLike: ...
    def join_table(self, identity_private_key: bytes, payloads: Sequence[bytes], place: int,
                   player: str, entropy: bytes, now: float) -> StepLike: ...
    def opens_table(self, payload: bytes) -> bool: ...
    def handle_message(self, session: Any, payload: bytes, now: float) -> StepLike: ...
    def local_action(self, session: Any, action: object, now: float) -> StepLike: ...
    def tick(self, session: Any, now: float) -> StepLike: ...
    def resume(self, records: Sequence[bytes], identity_private_key: bytes) -> Any: ...
    def messages_since(self, session: Any, seat: int, seq: int,
                       for_seat: int | None = None) -> tuple[bytes, ...]: ...
    def seat_view(self, session: Any) -> dict[str, Any]: ...
    def seat_keys(self, session: Any) -> Sequence[bytes | None]: ...
    def last_seq(self, session: Any, seat: Any) -> int: ...


NEEDED = ("new_table", "join_table", "opens_table", "handle_message", "local_action", "tick",
          "resume", "messages_since", "seat_view", "seat_keys", "last_seq")


def progress_of(port: SessionModule, session: Any) -> tuple[str, int] | None:
    """Where the table is (phase, step), from the module's optional ``progress``; None for a
    module without it, or before there is a session."""
    progress = getattr(port, "progress", None)
    if progress is None or session is None:
        return None
    phase, step = progress(session)
    return str(phase), int(step)


def is_seated(port: SessionModule, session: Any) -> bool:
    """Are the table's four places fixed (so a leave leaves a seat the table waits for)?
    True for a module without ``seated``; False before there is a session."""
    seated = getattr(port, "seated", None)
    if session is None:
        return False
    return True if seated is None else bool(seated(session))


def label_of(port: SessionModule, session: Any) -> tuple[str, str] | None:
    """(name, rules) the session's table was opened with, from the module's optional
    ``table_label``; None for a module without it, or before there is a session."""
    label = getattr(port, "table_label", None)
    if label is None or session is None:
        return None
    found = label(session)
    return None if found is None else (str(found[0]), str(found[1]))


class SessionUnavailable(FourwindsError):
    """The table session module is missing or lacks what the daemon needs."""


def load_session_module(name: str = DEFAULT) -> SessionModule:
    """Import the session module, checking it has every function the daemon calls."""
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        raise SessionUnavailable(f"the table session ({name}) is not part of this build: "
                                 f"{error}") from None
    missing = [fn for fn in NEEDED if not callable(getattr(module, fn, None))]
    if missing:
        raise SessionUnavailable(f"{name} lacks {', '.join(missing)}; this daemon cannot "
                                 "host or join tables with it")
    port: SessionModule = module
    return port


def ready_due(port: SessionModule, session: Any) -> bool:
    """Does the table wait for our seat's "ready"? False for a module without
    ``ready_due`` or before there is a session."""
    due = getattr(port, "ready_due", None)
    return bool(due is not None and session is not None and due(session))


def final_scores(port: SessionModule, session: Any, three_exposures_penalty: int
                 ) -> tuple[int, int, int, int] | None:
    """Each place's final score as a tournament counts it, once the match is over (None
    before, or for a module without ``final_scores``)."""
    scores = getattr(port, "final_scores", None)
    if scores is None or session is None:
        return None
    found = scores(session, three_exposures_penalty)
    if found is None:
        return None
    a, b, c, d = (int(x) for x in found)
    return a, b, c, d


def scores_so_far(port: SessionModule, session: Any, three_exposures_penalty: int
                  ) -> tuple[int, tuple[int, int, int, int]] | None:
    """The hands a table finished and each place's score over them (None before its first
    hand, or for a module without ``scores_so_far``): what a seat carries into the table
    going on after a substitute takes a seat."""
    found = getattr(port, "scores_so_far", None)
    if found is None or session is None:
        return None
    got = found(session, three_exposures_penalty)
    if got is None:
        return None
    hands, (a, b, c, d) = got
    return int(hands), (int(a), int(b), int(c), int(d))
