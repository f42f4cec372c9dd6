"""The view event as the frontends read it, checked once where it arrives from the daemon.

The daemon sends each view event as a plain msgpack map (docs/LOCAL-API.md, "Events"): the
seat's VIEW (``SeatView``) and its ACTIONs (``ActionEntry``), typed in
``fourwinds.protocol.table.views.view_types``, plus the daemon's own keys around them
(``ViewEvent`` here). ``view_event`` looks at a map once, where it comes in
(``daemon_link``), and hands it on typed; everything after reads typed keys.

What it checks is the event's frame: a map with the event's required keys, a map for its
view, and a list of ACTIONs that each carry the keys a frontend reads. It does not ask the
view for every ``SeatView`` key: before a table has its session, and while our daemon
rebuilds it, the daemon sends a view with only a few of them (an empty one, or a
``phase_detail``; daemon/local_api/views.py), which every screen shows as it is.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Any, NotRequired, cast

from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.table.views.view_types import ActionEntry, SeatViewEvent

__all__ = ["NO_EVENT", "BadViewEvent", "ViewEvent", "view_event"]


class ViewEvent(SeatViewEvent):
    """A ``view`` event of the local API: the seat's VIEW and ACTIONs with the daemon's keys.

    Only what every event carries is required; the rest is optional here, as an older daemon
    or a frontend's own copy of the event (``daemon_link``: ``gone``, ``members``) may omit it.
    """

    type: str
    """``"view"``: the only event type today."""
    table: str
    """The table's id (hex)."""
    name: NotRequired[str]
    """The table's name ("kitchen")."""
    rules: NotRequired[str]
    """The rule set's name, as in the view."""
    seq: NotRequired[int]
    """This daemon's count of view events for the table (for ordering)."""
    applied_at: NotRequired[float]
    """When the daemon applied the state shown (its monotonic clock, seconds)."""
    steps_applied: NotRequired[list[list[float]]]
    """``[step, time]`` of the table's last steps."""
    offline: NotRequired[list[dict[str, Any]]]
    """The members the daemon cannot reach: ``fingerprint``, ``player``, ``for_s``..."""
    events: NotRequired[list[str]]
    """What happened since the last event, in words."""
    problems: NotRequired[list[str]]
    """The table's problems, in words."""
    members: NotRequired[list[dict[str, Any]]]
    """In the lobby: the daemon's roster (the table summary's, each with its ``place``)."""
    leave_warning: NotRequired[str | None]
    """In the lobby: what leaving does to the others, when Leave must be confirmed."""
    code: NotRequired[str]
    """At the host of a private table while places are free: the code friends join with."""
    gone: NotRequired[bool]
    """Set by ``DaemonTable``: the daemon no longer sits at this table."""


class BadViewEvent(FourwindsError):
    """A map from the daemon that is not a view event a frontend can read (one line why)."""


def _required(shape: type) -> tuple[str, ...]:
    """The keys ``shape`` (a ``TypedDict``) requires, in their order. Read from its hints:
    under ``from __future__ import annotations`` Python 3.11's ``__required_keys__`` counts
    a ``NotRequired`` key as required."""
    hints = typing.get_type_hints(shape, include_extras=True)
    return tuple(k for k, v in hints.items() if typing.get_origin(v) is not NotRequired)


_EVENT_KEYS = _required(ViewEvent)
_ACTION_KEYS = _required(ActionEntry)


def _kind(value: object) -> str:
    return "None" if value is None else f"a {type(value).__name__}"


def view_event(message: object) -> ViewEvent:
    """``message`` as a ``ViewEvent``, or ``BadViewEvent`` saying in one line what is wrong:
    not a map, a required key missing, a view that is not a map, an ACTION without its keys."""
    if not isinstance(message, dict):
        raise BadViewEvent(f"the daemon sent a view event that is not a map ({_kind(message)})")
    for key in _EVENT_KEYS:
        if key not in message:
            raise BadViewEvent(f"the daemon sent a view event without {key!r}")
    view = message["view"]
    if not isinstance(view, dict):
        raise BadViewEvent(f"the daemon sent a view event whose 'view' is {_kind(view)}")
    actions = message["legal_actions"]
    if not isinstance(actions, list):
        raise BadViewEvent(
            f"the daemon sent a view event whose 'legal_actions' is {_kind(actions)}"
        )
    for number, action in enumerate(actions):
        if not isinstance(action, Mapping):
            raise BadViewEvent(f"the daemon sent an action (#{number}) that is not a map")
        for key in _ACTION_KEYS:
            if key not in action:
                raise BadViewEvent(f"the daemon sent an action (#{number}) without {key!r}")
    return cast(ViewEvent, message)


NO_EVENT = view_event({"type": "view", "table": "", "view": {}, "legal_actions": []})
"""What a screen reads before the first event: the view the daemon sends for a table that has
no session yet (``{}``) and no ACTION. Read only, never changed."""
