"""`fourwinds discard | call | pass | exchange | mahjong | next | more-time | act`: play a move.

A rule set's own moves (American's `charleston`) are its commands: commands/rule_verbs.py.

Each reads the seat's current view from the daemon, picks the one legal action the words
mean (or says what is legal), and sends it. JSON: ``{"ok", "table", "seq", "action", "tiles"}``.
"""

from __future__ import annotations

import argparse
from typing import Any

from fourwinds.frontends.cli.action_pick import normalize_tiles, pick_by_id_or_label, request_for
from fourwinds.frontends.cli.cli_common import (
    act_command,
    add_daemon_options,
    emit,
    open_api,
    table_name,
)
from fourwinds.frontends.client.daemon_link import checked, current_view


def register(sub: Any) -> None:
    discard = sub.add_parser("discard", help="discard a tile (e.g. fourwinds discard 3m)")
    discard.add_argument("tile", help="the tile, in notation (3m, 5z, F, J...)")
    add_daemon_options(discard)
    discard.set_defaults(
        handler=lambda a: act_command(a, ["discard"], tiles=[a.tile], what="discard")
    )

    call = sub.add_parser("call", help="claim the discard: pung, kong, chow... (legal ones only)")
    call.add_argument(
        "words",
        nargs="*",
        metavar="WORD",
        help="which call, by words of its label (pung, kong, quint, chow 345)",
    )
    call.add_argument(
        "--tiles",
        nargs="+",
        default=[],
        metavar="TILE",
        help="the tiles of the call, when several fit",
    )
    add_daemon_options(call)
    call.set_defaults(
        handler=lambda a: act_command(
            a, ["call", "kong"], words=a.words, tiles=a.tiles, what="call"
        )
    )

    pas = sub.add_parser("pass", help="let the discard go (decline every call)")
    add_daemon_options(pas)
    pas.set_defaults(handler=lambda a: act_command(a, ["pass"], what="pass"))

    exchange = sub.add_parser("exchange", help="swap a tile for an exposed joker")
    exchange.add_argument(
        "tiles",
        nargs="*",
        metavar="TILE",
        help="the tile you give (when several exchanges are legal)",
    )
    add_daemon_options(exchange)
    exchange.set_defaults(
        handler=lambda a: act_command(a, ["exchange"], tiles=a.tiles, what="exchange")
    )

    mahjong = sub.add_parser("mahjong", help="declare Mahjong (when it is legal)")
    add_daemon_options(mahjong)
    mahjong.set_defaults(handler=lambda a: act_command(a, ["mahjong"], what="declare Mahjong"))

    nxt = sub.add_parser("next", help="at a hand's end: on to the next hand (or the standings)")
    add_daemon_options(nxt)
    nxt.set_defaults(handler=lambda a: act_command(a, ["next"], what="go on to the next hand"))

    more = sub.add_parser("more-time", help="answering a discard: ask once for more time")
    add_daemon_options(more)
    more.set_defaults(handler=lambda a: act_command(a, ["more_time"], what="ask for more time"))

    act = sub.add_parser("act", help="any legal action by its id or label (see status)")
    act.add_argument(
        "choice",
        metavar="ID|LABEL|default",
        help="the action id, words of its label, or 'default' (what a timeout would do)",
    )
    act.add_argument("tiles", nargs="*", metavar="TILE", help="tiles, when it asks to choose")
    add_daemon_options(act)
    act.set_defaults(handler=cmd_act)


def cmd_act(args: argparse.Namespace) -> int:
    api = open_api(args)
    try:
        table = table_name(api, args)
        event = current_view(api, table)
        action, chosen = pick_by_id_or_label(event, args.choice, normalize_tiles(args.tiles))
        checked(api.request(request_for(event, action, chosen)))
    finally:
        api.close()
    emit(
        args,
        [f"{action.get('label') or action.get('type')}: done"],
        {
            "ok": True,
            "table": table,
            "seq": event.get("seq"),
            "action": dict(action),
            "tiles": chosen,
        },
    )
    return 0
