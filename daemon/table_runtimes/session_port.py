"""What the daemon needs from the pure table session, and where it comes from.

The contract (docs/PROTOCOL.md, "The API the daemon drives") names ``handle_message``,
``local_action``, ``tick``, ``resume``, ``messages_since`` and ``seat_view``; the daemon also
needs to create and join a table and to route by seat, named here as ``new_table``,
``join_table`` (with ``opens_table``: which message a joiner starts from), ``seat_keys`` and
``last_seq``; and it plays each of our actions and peers' messages in two halves,
``apply_message`` and ``send_action`` with ``settle`` (adopt a peer's message before making
our automatic reply; send our action before our own session takes it in). The module is
``fourwinds.protocol.table.machine.session``
(through the thin adapter ``fourwinds.daemon.table_runtimes.real_session``)
unless ``--session-module`` names another one with the same functions (the tests use a small
one to exercise the shell). The daemon never looks inside a session or a payload.

Optional, used when present: ``progress`` (phase
and step: a view is sent at once when it changes), ``awaits_us``, ``suggest``,
``sheet``, ``sheet_for_rules``, ``transcript``, ``ready_due`` and ``final_scores`` (a
tournament table's daemon says ready and signs the result for its player), and ``seated``
with ``keep_joins`` (a player who leaves the lobby before the seating frees its place;
without them every table counts as seated, and a leave is one from a table that waits for
its seat), ``highest_seq``, ``seat_returned``, ``signed_names`` and ``rebuild_pool`` with
``rebuild`` (a seat rebuilt from its peers' copies).

``SessionPort`` is what the daemon holds: each of these looked up once, when the module is
loaded (``SessionPort.of``), so no call site probes the module and each has a type.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from fourwinds.protocol.errors import FourwindsError

DEFAULT = "fourwinds.daemon.table_runtimes.real_session"


class StepLike(Protocol):
    """``Step`` of the contract: new session, then persist, then send."""

    @property
    def session(self) -> Any: ...
    @property
    def outgoing(self) -> Sequence[Any]: ...  # each has .to (Seat | None) and .payload
    @property
    def persist(self) -> Sequence[bytes]: ...
    @property
    def events(self) -> Sequence[object]: ...
    @property
    def problems(self) -> Sequence[object]: ...


class SessionModule(Protocol):
    def new_table(
        self,
        identity_private_key: bytes,
        name: str,
        rules: str,
        player: str,
        options: Mapping[str, Any],
        entropy: bytes,
        now: float,
    ) -> StepLike: ...
    def join_table(
        self,
        identity_private_key: bytes,
        payloads: Sequence[bytes],
        place: int,
        player: str,
        entropy: bytes,
        now: float,
    ) -> StepLike: ...
    def opens_table(self, payload: bytes) -> bool: ...
    def handle_message(self, session: Any, payload: bytes, now: float) -> StepLike: ...
    def local_action(self, session: Any, action: object, now: float) -> StepLike: ...
    def apply_message(self, session: Any, payload: bytes, now: float) -> StepLike: ...
    def send_action(self, session: Any, action: object, now: float) -> StepLike: ...
    def settle(self, session: Any, now: float) -> StepLike: ...
    def tick(self, session: Any, now: float) -> StepLike: ...
    def resume(self, records: Sequence[bytes], identity_private_key: bytes) -> Any: ...
    def messages_since(
        self, session: Any, seat: int, seq: int, for_seat: int | None = None
    ) -> tuple[bytes, ...]: ...
    def seat_view(self, session: Any) -> dict[str, Any]: ...
    def seat_keys(self, session: Any) -> Sequence[bytes | None]: ...
    def last_seq(self, session: Any, seat: Any) -> int: ...


NEEDED = (
    "new_table",
    "join_table",
    "opens_table",
    "handle_message",
    "local_action",
    "apply_message",
    "send_action",
    "settle",
    "tick",
    "resume",
    "messages_since",
    "seat_view",
    "seat_keys",
    "last_seq",
)

OPTIONAL = (
    "progress",
    "awaits_us",
    "suggest",
    "sheet",
    "sheet_for_rules",
    "transcript",
    "ready_due",
    "final_scores",
    "scores_so_far",
    "seated",
    "keep_joins",
    "table_label",
    "highest_seq",
    "seat_returned",
    "signed_names",
    "rebuild_pool",
    "rebuild",
)
"""The capabilities a session module may have (the module docstring says what each is for)."""

Fn = Callable[..., Any]


@dataclass(frozen=True)
class SessionPort:
    """The table session as the daemon calls it: the functions every module has, and each
    optional capability, looked up once when the module is loaded (None where the module
    lacks it). The daemon asks e.g. ``port.sheet is None``, never probes the module again, and
    mypy sees each capability's type."""

    name: str
    new_table: Fn
    join_table: Fn
    opens_table: Callable[[bytes], bool]
    handle_message: Callable[[Any, bytes, float], StepLike]
    local_action: Callable[[Any, object, float], StepLike]
    apply_message: Callable[[Any, bytes, float], StepLike]
    send_action: Callable[[Any, object, float], StepLike]
    settle: Callable[[Any, float], StepLike]
    tick: Callable[[Any, float], StepLike]
    resume: Callable[[Sequence[bytes], bytes], Any]
    messages_since: Callable[..., tuple[bytes, ...]]
    seat_view: Callable[..., dict[str, Any]]
    seat_keys: Callable[[Any], Sequence[bytes | None]]
    last_seq: Callable[[Any, Any], int]
    view_takes_reach: bool = False
    """``seat_view(session, unreachable=...)``: the view says which seats we cannot reach."""
    view_takes_names: bool = False
    """``seat_view(session, names=...)``: the view names the players as they signed."""
    progress: Callable[[Any], tuple[object, int]] | None = None
    awaits_us: Callable[[Any], bool] | None = None
    suggest: Fn | None = None
    sheet: Callable[[Any], dict[str, Any]] | None = None
    sheet_for_rules: Callable[[str], dict[str, Any]] | None = None
    transcript: Callable[[Any], bytes] | None = None
    ready_due: Callable[[Any], bool] | None = None
    final_scores: Fn | None = None
    scores_so_far: Fn | None = None
    seated: Callable[[Any], bool] | None = None
    keep_joins: Fn | None = None
    table_label: Callable[[Any], tuple[str, str] | None] | None = None
    highest_seq: Callable[[Any, Any], int] | None = None
    seat_returned: Callable[[Any, float], Any] | None = None
    signed_names: Callable[[Any], Sequence[str]] | None = None
    rebuild_pool: Fn | None = None
    rebuild: Fn | None = None

    @classmethod
    def of(cls, module: SessionModule | SessionPort) -> SessionPort:
        """The port of a session module (a port as it is); ``SessionUnavailable`` naming
        what it lacks."""
        if isinstance(module, SessionPort):
            return module
        name = str(getattr(module, "__name__", type(module).__name__))
        missing = [fn for fn in NEEDED if not callable(getattr(module, fn, None))]
        if missing:
            raise SessionUnavailable(
                f"{name} lacks {', '.join(missing)}; this daemon cannot host or join tables with it"
            )
        found: dict[str, Any] = {fn: getattr(module, fn) for fn in NEEDED}
        for fn in OPTIONAL:
            value = getattr(module, fn, None)
            found[fn] = value if callable(value) else None
        view = found["seat_view"]
        return cls(
            name=name,
            view_takes_reach=_takes_keyword(view, "unreachable"),
            view_takes_names=_takes_keyword(view, "names"),
            **found,
        )


def _takes_keyword(function: Callable[..., Any], name: str) -> bool:
    """Does ``function`` take the keyword argument ``name``?"""
    try:
        return name in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


def progress_of(port: SessionPort, session: Any) -> tuple[str, int] | None:
    """Where the table is (phase, step), from the module's optional ``progress``; None for a
    module without it, or before there is a session."""
    if port.progress is None or session is None:
        return None
    phase, step = port.progress(session)
    return str(phase), int(step)


def is_seated(port: SessionPort, session: Any) -> bool:
    """Are the table's four places fixed (so a leave leaves a seat the table waits for)?
    True for a module without ``seated``; False before there is a session."""
    if session is None:
        return False
    return True if port.seated is None else bool(port.seated(session))


def label_of(port: SessionPort, session: Any) -> tuple[str, str] | None:
    """(name, rules) the session's table was opened with, from the module's optional
    ``table_label``; None for a module without it, or before there is a session."""
    if port.table_label is None or session is None:
        return None
    found = port.table_label(session)
    return None if found is None else (str(found[0]), str(found[1]))


class SessionUnavailable(FourwindsError):
    """The table session module is missing or lacks what the daemon needs."""


def load_session_module(name: str = DEFAULT) -> SessionPort:
    """Import the session module, checking it has every function the daemon calls; its
    port."""
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        raise SessionUnavailable(
            f"the table session ({name}) is not part of this build: {error}"
        ) from None
    return SessionPort.of(module)


def ready_due(port: SessionPort, session: Any) -> bool:
    """Does the table wait for our seat's "ready"? False for a module without
    ``ready_due`` or before there is a session."""
    return bool(port.ready_due is not None and session is not None and port.ready_due(session))


def final_scores(
    port: SessionPort, session: Any, rules_figure: int
) -> tuple[int, int, int, int] | None:
    """Each place's final score as a tournament counts it, once the match is over (None
    before, or for a module without ``final_scores``)."""
    if port.final_scores is None or session is None:
        return None
    found = port.final_scores(session, rules_figure)
    if found is None:
        return None
    a, b, c, d = (int(x) for x in found)
    return a, b, c, d


def scores_so_far(
    port: SessionPort, session: Any, rules_figure: int
) -> tuple[int, tuple[int, int, int, int]] | None:
    """The hands a table finished and each place's score over them (None before its first
    hand, or for a module without ``scores_so_far``): what a seat carries into the table
    going on after a substitute takes a seat."""
    if port.scores_so_far is None or session is None:
        return None
    got = port.scores_so_far(session, rules_figure)
    if got is None:
        return None
    hands, (a, b, c, d) = got
    return int(hands), (int(a), int(b), int(c), int(d))
