"""Hand-written local-API view events for the frontends' tests (no rules engine involved)."""

from __future__ import annotations

import copy
from typing import Any


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


def play_event(seq: int = 7) -> dict[str, Any]:
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
    actions.append({"id": len(actions), "type": "exchange", "label": "Exchange 5p for joker",
                    "tiles": ["5p", "J"]})
    actions.append({"id": len(actions), "type": "mahjong", "label": "Mahjong", "tiles": []})
    return {"type": "view", "version": 1, "table": "kitchen", "seq": seq, "view": view,
            "legal_actions": actions}


def call_event(seq: int = 8) -> dict[str, Any]:
    """South discarded 4p; we may pung it or pass (pass is the default)."""
    event = play_event(seq)
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


def charleston_event(seq: int = 3) -> dict[str, Any]:
    """The first Charleston pass: choose three tiles to pass right."""
    event = play_event(seq)
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
        {"id": 0, "type": "charleston", "label": "Pass right",
         "tiles": sorted(set(view["hand"]) - {"J"}), "choose": 3},
    ]
    return event


def result_event(seq: int = 40, *, match_over: bool = False) -> dict[str, Any]:
    """South won; payouts and the audit are in."""
    event = play_event(seq)
    view = event["view"]
    view["phase"] = "match_over" if match_over else "hand_over"
    view["phase_detail"] = "Hand over"
    view["turn"] = None
    view["deadline"] = None
    view["result"] = {
        "kind": "mahjong",
        "winner": 1,
        "hand": "2468-1",
        "tiles": ["2m", "2m", "4m", "4m", "4m", "6m", "6m", "6m",
                  "8m", "8m", "8m", "8m", "2m", "J"],
        "payouts": [-50, 100, -25, -25],
        "audit": "ok",
    }
    event["legal_actions"] = [] if match_over else [
        {"id": 0, "type": "ready", "label": "Ready for the next hand", "tiles": []}
    ]
    return event


def clone(event: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(event)
