"""Hand-written local-API view events for the frontends' tests (no rules engine involved)."""

from __future__ import annotations

import copy
from typing import Any

from fourwinds.frontends.client.view_shapes import ViewEvent, view_event


def _player(seat: int, name: str, **extra: Any) -> dict[str, Any]:
    player: dict[str, Any] = {
        "seat": seat,
        "name": name,
        "wind": "ESWN"[seat],
        "score": 0,
        "dead": False,
        "connected": True,
        "concealed_count": 13,
        "exposures": [],
        "flowers": [],
        "discards": [],
    }
    player.update(extra)
    return player


def _play_event_raw(seq: int = 7) -> dict[str, Any]:
    """East (us) has drawn and must discard; South has a pung exposed; discards everywhere."""
    view: dict[str, Any] = {
        "rules": "american",
        "table": "kitchen",
        "practice": False,
        "hand_number": 2,
        "hands_in_match": 4,
        "seat": 0,
        "dealer": 0,
        "prevalent_wind": None,
        "phase": "play",
        "phase_detail": "Your turn: discard a tile",
        "turn": 0,
        "waiting_for": [0],
        "deadline": 25.0,
        "wall_remaining": 71,
        "players": [
            _player(0, "Ada", score=25, concealed_count=14, discards=["9s", "4z"]),
            _player(
                1,
                "Bob",
                score=-10,
                concealed_count=10,
                exposures=[{"tiles": ["5p", "5p", "J"], "label": "pung", "from": 0}],
                discards=["1m", "2m", "7z", "F"],
            ),
            _player(2, "Cy", discards=["3p", "6s", "6s"], connected=False),
            _player(3, "Di", score=5, discards=["2z"], dead=True),
        ],
        "hand": ["1m", "2m", "3m", "4p", "4p", "6s", "7s", "8s", "1z", "1z", "5z", "F", "J", "J"],
        "drawn": "6s",
        "last_discard": {"seat": 3, "tile": "2z"},
        "hints": ["2468-1 needs 2m 4m", "369-2 needs 3p 6p 9p"],
        "result": None,
    }
    tiles = sorted(set(view["hand"]))
    actions: list[dict[str, Any]] = [
        {"id": i, "type": "discard", "label": f"Discard {t}", "tiles": [t]}
        for i, t in enumerate(tiles)
    ]
    actions[tiles.index("6s")]["default"] = True
    actions.append(
        {
            "id": len(actions),
            "type": "exchange",
            "label": "Exchange 5p for joker",
            "tiles": ["5p", "J"],
        }
    )
    actions.append({"id": len(actions), "type": "mahjong", "label": "Mahjong", "tiles": []})
    return {
        "type": "view",
        "version": 1,
        "table": "kitchen",
        "seq": seq,
        "view": view,
        "legal_actions": actions,
    }


def _call_event_raw(seq: int = 8) -> dict[str, Any]:
    """South discarded 4p; we may pung it or pass (pass is the default)."""
    event = _play_event_raw(seq)
    view = event["view"]
    view["phase"] = "claim"
    view["phase_detail"] = "South discarded 4p: call or pass"
    view["turn"] = 1
    view["waiting_for"] = [0, 2, 3]
    view["deadline"] = 8.0
    view["last_discard"] = {"seat": 1, "tile": "4p"}
    view["hand"] = view["hand"][:13]
    view["drawn"] = None
    event["legal_actions"] = [
        {"id": 0, "type": "call", "label": "Pung 4p", "tiles": ["4p", "4p", "4p"]},
        {"id": 1, "type": "call", "label": "Kong 4p", "tiles": ["4p", "4p", "4p", "J"]},
        {"id": 2, "type": "pass", "label": "Pass", "tiles": [], "default": True},
    ]
    return event


def _charleston_event_raw(seq: int = 3) -> dict[str, Any]:
    """The first Charleston pass: choose three tiles to pass right."""
    event = _play_event_raw(seq)
    view = event["view"]
    view["phase"] = "charleston"
    view["phase_detail"] = "Charleston: first right"
    view["turn"] = None
    view["waiting_for"] = [0, 1, 2, 3]
    view["drawn"] = None
    view["hand"] = view["hand"][:13]
    view["last_discard"] = None
    for p in view["players"]:
        p["discards"] = []
        p["exposures"] = []
    event["legal_actions"] = [
        {
            "id": 0,
            "type": "charleston",
            "label": "Pass right",
            "tiles": sorted(set(view["hand"]) - {"J"}),
            "choose": 3,
        },
    ]
    return event


def _result_event_raw(seq: int = 40, *, match_over: bool = False) -> dict[str, Any]:
    """South won; payouts and the audit are in."""
    event = _play_event_raw(seq)
    view = event["view"]
    view["phase"] = "match_over" if match_over else "hand_over"
    view["phase_detail"] = "Hand over"
    view["turn"] = None
    view["deadline"] = None
    view["result"] = {
        "kind": "mahjong",
        "winner": 1,
        "hand": "2468-1",
        "tiles": [
            "2m",
            "2m",
            "4m",
            "4m",
            "4m",
            "6m",
            "6m",
            "6m",
            "8m",
            "8m",
            "8m",
            "8m",
            "2m",
            "J",
        ],
        "payouts": [-50, 100, -25, -25],
        "audit": "ok",
    }
    event["legal_actions"] = (
        []
        if match_over
        else [{"id": 0, "type": "ready", "label": "Ready for the next hand", "tiles": []}]
    )
    return event


WINDOWS = {"call": 8.0, "turn": 30.0, "charleston": 60.0, "next": 20.0}


def _more_time_call_event_raw(seq: int = 9) -> dict[str, Any]:
    """A call window (spec'd view): we may pung, pass, or ask for more time (listed last);
    North asked for more time and is thinking."""
    event = _call_event_raw(seq)
    view = event["view"]
    view["windows"] = dict(WINDOWS)
    view["hints"] = [
        "run-10 (FF 1111 2222 3333 D, 25): needs 2m 4m",
        "2468-1 (222 4444 666 8888, 25): needs 4p 6p 8p",
    ]
    for player in view["players"]:
        player["ready"] = False
        player["thinking"] = player["seat"] == 3
    event["legal_actions"].append(
        {"id": 3, "type": "more_time", "label": "More time", "tiles": [], "default": False}
    )
    return event


def _late_play_event_raw(seq: int = 30) -> dict[str, Any]:
    """Late in a hand: every seat has a long discard row, exposures and flowers (MCR codes),
    so a screen that cuts a row instead of wrapping it loses tiles."""
    event = _play_event_raw(seq)
    view = event["view"]
    view["rules"] = "mcr"
    view["prevalent_wind"] = 0
    view["windows"] = dict(WINDOWS)
    view["hints"] = ["win on 3p 6p: 12 points (Pure Straight 16)"]
    suits = "mps"
    for seat, player in enumerate(view["players"]):
        count = (24, 19, 21, 17)[seat]
        player["discards"] = [
            f"{(k * 7 + seat) % 9 + 1}{suits[(k + seat) % 3]}" for k in range(count - 1)
        ] + [("7z", "6z", "5z", "4z")[seat]]
        player["flowers"] = [f"{f}f" for f in range(1, 1 + (seat % 3) + 1)]
        player["exposures"] = (
            [
                {"tiles": ["2s", "3s", "4s"], "label": "chow", "from": (seat + 3) % 4},
                {"tiles": ["9p"] * 3, "label": "pung", "from": (seat + 1) % 4},
            ]
            if seat
            else [{"tiles": ["1z"] * 4, "label": "kong", "from": None}]
        )
        player["concealed_count"] = 7 if seat else 10
    view["hand"] = ["1m", "2m", "3m", "4p", "4p", "6s", "7s", "8s", "5z", "6p", "7p"]
    view["drawn"] = "7p"
    view["last_discard"] = {"seat": 3, "tile": "4z"}
    event["legal_actions"] = [
        {"id": i, "type": "discard", "label": f"Discard {t}", "tiles": [t], "default": t == "7p"}
        for i, t in enumerate(sorted(set(view["hand"])))
    ]
    return event


def _hand_over_event_raw(
    seq: int = 41,
    *,
    rules: str = "american",
    self_drawn: bool = False,
    waiting: tuple[int, ...] = (0, 2, 3),
) -> dict[str, Any]:
    """Hand 2 over (spec'd view): South (Bob) won on East's (our) discard, or self-drawn;
    the table waits for the seats in ``waiting`` to say next; the next hand in 15 s."""
    event = _play_event_raw(seq)
    view = event["view"]
    view["rules"] = rules
    view["windows"] = dict(WINDOWS)
    view["phase"] = "hand_over"
    view["phase_detail"] = "Hand over"
    view["turn"] = None
    view["waiting_for"] = list(waiting)
    view["deadline"] = 15.0
    view["hints"] = []
    result: dict[str, Any] = {
        "kind": "mahjong",
        "winner": 1,
        "winner_name": "Bob",
        "winning_tile": "8m",
        "self_drawn": self_drawn,
        "from_seat": None if self_drawn else 0,
        "from_name": None if self_drawn else "Ada",
        "concealed": ["2m", "2m", "2m", "4m", "4m", "4m", "4m", "6m", "6m", "6m", "8m"],
        "exposures": [["8m", "8m", "J"]],
        "flowers": ["F"],
        "payouts": [-50, 100, -25, -25] if not self_drawn else [-50, 150, -50, -50],
        "payments": [
            {"seat": 0, "name": "Ada", "amount": -50},
            {"seat": 1, "name": "Bob", "amount": 100 if not self_drawn else 150},
            {"seat": 2, "name": "Cy", "amount": -25 if not self_drawn else -50},
            {"seat": 3, "name": "Di", "amount": -25 if not self_drawn else -50},
        ],
        "scores": [-25, 90, -25, -40],
        "audit": "ok",
        "hand": "2468-1",
        "tiles": [
            "2m",
            "2m",
            "2m",
            "4m",
            "4m",
            "4m",
            "4m",
            "6m",
            "6m",
            "6m",
            "8m",
            "8m",
            "8m",
            "J",
        ],
        "hands": [
            ["1m", "3m", "5p", "5p", "7p", "9p", "2s", "3s", "4s", "1z", "1z", "5z", "6z"],
            ["2m", "2m", "2m", "4m", "4m", "4m", "4m", "6m", "6m", "6m", "8m"],
            ["1p", "2p", "3p", "4p", "5p", "6p", "7s", "8s", "9s", "7z", "7z", "J", "F"],
            ["9m", "9m", "1s", "1s", "2z", "2z", "3z", "3z", "4z", "4z", "F", "F", "J"],
        ],
        "hands_detail": "",
    }
    if rules == "american":
        result["card_hand"] = {
            "id": "2468-1",
            "pattern": "222 4444 666 8888",
            "value": 25,
            "jokerless": False,
            "section": "2468",
        }
    else:
        result["exposures"] = [["8m", "8m", "8m"]]
        result["flowers"] = ["1f", "3f"]
        result["hand"] = None
        result["fans"] = [
            {"name": "Full Flush", "points": 24, "count": 1},
            {"name": "All Pungs", "points": 6, "count": 1},
            {"name": "Flower Tiles", "points": 1, "count": 2},
        ]
        result["total"] = 32
    view["result"] = result
    view["next"] = {"waiting": list(waiting), "deadline": 15.0}
    view["history"] = [
        {
            "hand_number": 1,
            "kind": "wall_game",
            "winner": None,
            "self_drawn": False,
            "from": None,
            "summary": "",
            "payments": [["Ada", 0], ["Bob", 0], ["Cy", 0], ["Di", 0]],
        },
        {
            "hand_number": 2,
            "kind": "mahjong",
            "winner": "Bob",
            "self_drawn": self_drawn,
            "from": None if self_drawn else "Ada",
            "summary": "2468-1, 25"
            if rules == "american"
            else "32 points: Full Flush, All Pungs, Flower Tiles",
            "payments": [[p["name"], p["amount"]] for p in result["payments"]],
        },
    ]
    view["standings"] = None
    event["legal_actions"] = (
        [{"id": 0, "type": "next", "label": "Next hand", "tiles": [], "default": True}]
        if 0 in waiting
        else []
    )
    return event


def _wall_game_event_raw(seq: int = 42) -> dict[str, Any]:
    """Hand 2 ended with the wall used up (American wall game): no winner, nobody pays."""
    event = _hand_over_event_raw(seq)
    result = event["view"]["result"]
    for key in ("winner", "winner_name", "winning_tile", "from_seat", "from_name", "card_hand"):
        result[key] = None
    result.update(
        kind="wall_game",
        self_drawn=False,
        concealed=[],
        exposures=[],
        flowers=[],
        hand=None,
        tiles=[],
        payouts=[0, 0, 0, 0],
    )
    for payment in result["payments"]:
        payment["amount"] = 0
    return event


def _match_over_event_raw(seq: int = 60) -> dict[str, Any]:
    """The last hand is over and so is the match: the final standings and every hand."""
    event = _hand_over_event_raw(seq)
    view = event["view"]
    view["phase"] = "match_over"
    view["phase_detail"] = "Match over"
    view["hand_number"] = 4
    view["deadline"] = None
    view["next"] = None
    view["waiting_for"] = []
    view["history"] = view["history"] + [
        {
            "hand_number": 3,
            "kind": "mahjong",
            "winner": "Cy",
            "self_drawn": True,
            "from": None,
            "summary": "369-2, 30",
            "payments": [["Ada", -60], ["Bob", -60], ["Cy", 180], ["Di", -60]],
        },
        {
            "hand_number": 4,
            "kind": "mahjong",
            "winner": "Bob",
            "self_drawn": False,
            "from": "Ada",
            "summary": "2468-1, 25",
            "payments": [["Ada", -50], ["Bob", 100], ["Cy", -25], ["Di", -25]],
        },
    ]
    view["standings"] = [
        {"name": "Cy", "score": 130, "rank": 1},
        {"name": "Bob", "score": 130, "rank": 1},
        {"name": "Di", "score": -125, "rank": 3},
        {"name": "Ada", "score": -135, "rank": 4},
    ]
    event["legal_actions"] = []
    return event


def _lobby_event_raw(
    seq: int = 2, *, seated: int = 2, ready: tuple[int, ...] = ()
) -> dict[str, Any]:
    """Before the match (spec'd view): ``seated`` places taken (the rest named "seat N"),
    the ``ready`` places said ready; we are place 0, the host."""
    view: dict[str, Any] = {
        "rules": "american",
        "table": "kitchen",
        "practice": False,
        "hand_number": 1,
        "hands_in_match": 4,
        "seat": 0,
        "dealer": 0,
        "prevalent_wind": None,
        "phase": "lobby",
        "phase_detail": "Waiting for players to join",
        "turn": None,
        "waiting_for": [],
        "deadline": None,
        "wall_remaining": 0,
        "windows": dict(WINDOWS),
        "players": [
            _player(
                i,
                ("Ada", "Bob", "Cy", "Di")[i] if i < seated else f"seat {i}",
                concealed_count=0,
                ready=i in ready,
                thinking=False,
            )
            for i in range(4)
        ],
        "hand": [],
        "drawn": None,
        "last_discard": None,
        "hints": [],
        "result": None,
        "next": None,
        "history": [],
        "standings": None,
    }
    actions: list[dict[str, Any]] = []
    if seated == 4:
        view["phase_detail"] = "Waiting for every player to be ready"
        if 0 not in ready:
            actions = [
                {"id": 0, "type": "ready", "label": "Ready to start", "tiles": [], "default": True}
            ]
    return {
        "type": "view",
        "version": 1,
        "table": "kitchen",
        "seq": seq,
        "view": view,
        "legal_actions": actions,
    }


def sample_sheet(rules: str = "american") -> dict[str, Any]:
    """A ``sheet`` answer: a few card lines, or a few MCR fans."""
    if rules == "mcr":
        entries = [
            {"id": name, "section": "", "pattern": "", "value": points}
            for name, points in (
                ("Big Four Winds", 88),
                ("Full Flush", 24),
                ("All Pungs", 6),
                ("Flower Tiles", 1),
            )
        ]
        return {"rules": "mcr", "title": "Chinese Official fans", "entries": entries}
    entries = [
        {"id": f"2468-{k}", "section": "2468", "pattern": p, "value": v, "concealed": c}
        for k, (p, v, c) in enumerate(
            (
                ("222 4444 666 8888", 25, False),
                ("FF 2222 44 66 8888", 25, False),
                ("22 44 666 888 DDDD", 30, True),
            ),
            start=1,
        )
    ] + [
        {
            "id": f"run-{k}",
            "section": "Consecutive run",
            "pattern": f"FF {k}111 2222 3333",
            "value": 25 + k,
            "concealed": k % 2 == 0,
        }
        for k in range(1, 30)
    ]
    return {"rules": "american", "title": "House card 2024", "entries": entries}


def clone(event: ViewEvent) -> ViewEvent:
    return copy.deepcopy(event)


def play_event(seq: int = 7) -> ViewEvent:
    """``_play_event_raw``'s event, checked as the frontends check one."""
    return view_event(_play_event_raw(seq))


def call_event(seq: int = 8) -> ViewEvent:
    """``_call_event_raw``'s event, checked as the frontends check one."""
    return view_event(_call_event_raw(seq))


def charleston_event(seq: int = 3) -> ViewEvent:
    """``_charleston_event_raw``'s event, checked as the frontends check one."""
    return view_event(_charleston_event_raw(seq))


def result_event(seq: int = 40, *, match_over: bool = False) -> ViewEvent:
    """``_result_event_raw``'s event, checked as the frontends check one."""
    return view_event(_result_event_raw(seq, match_over=match_over))


def more_time_call_event(seq: int = 9) -> ViewEvent:
    """``_more_time_call_event_raw``'s event, checked as the frontends check one."""
    return view_event(_more_time_call_event_raw(seq))


def late_play_event(seq: int = 30) -> ViewEvent:
    """``_late_play_event_raw``'s event, checked as the frontends check one."""
    return view_event(_late_play_event_raw(seq))


def hand_over_event(
    seq: int = 41,
    *,
    rules: str = "american",
    self_drawn: bool = False,
    waiting: tuple[int, ...] = (0, 2, 3),
) -> ViewEvent:
    """``_hand_over_event_raw``'s event, checked as the frontends check one."""
    return view_event(
        _hand_over_event_raw(seq, rules=rules, self_drawn=self_drawn, waiting=waiting)
    )


def wall_game_event(seq: int = 42) -> ViewEvent:
    """``_wall_game_event_raw``'s event, checked as the frontends check one."""
    return view_event(_wall_game_event_raw(seq))


def match_over_event(seq: int = 60) -> ViewEvent:
    """``_match_over_event_raw``'s event, checked as the frontends check one."""
    return view_event(_match_over_event_raw(seq))


def lobby_event(seq: int = 2, *, seated: int = 2, ready: tuple[int, ...] = ()) -> ViewEvent:
    """``_lobby_event_raw``'s event, checked as the frontends check one."""
    return view_event(_lobby_event_raw(seq, seated=seated, ready=ready))
