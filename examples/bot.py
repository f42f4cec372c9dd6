#!/usr/bin/env python3
"""A fourwinds bot in about 30 lines: `fourwinds bot --exec "python3 examples/bot.py"`.

Reads one JSON event per line on stdin; answers each "view" with one line {"action": ID}
(plus "tiles" when the action says "choose"). Rules-agnostic: it declares Mahjong when it
can, discards a lone tile (never a joker), passes on calls, and passes lone tiles on.
"""

import json
import sys
from collections import Counter

for line in sys.stdin:
    event = json.loads(line)
    if event["type"] == "end":
        break
    if event["type"] != "view":  # {"type": "error", ...}: our last answer was refused
        print("refused:", event.get("error"), file=sys.stderr)
        continue
    hand, legal = event["view"].get("hand"), event["legal_actions"]
    hand = hand if isinstance(hand, list) else []  # our tiles, when the view carries them
    counts = Counter(hand)
    keep_last = sorted(hand, key=lambda t: (t == "J", counts[t]))  # lone tiles first
    by_type = {a["type"]: a for a in legal}
    discards = {a["tiles"][0]: a for a in legal if a["type"] == "discard" and "choose" not in a}
    default = next((a for a in legal if a.get("default")), legal[0])
    answer = {"action": default["id"]}
    if "mahjong" in by_type:
        answer = {"action": by_type["mahjong"]["id"]}
    elif discards and any(t in discards for t in keep_last):
        answer = {"action": next(discards[t]["id"] for t in keep_last if t in discards)}
    elif "pass" in by_type:
        answer = {"action": by_type["pass"]["id"]}
    elif "choose" in legal[0]:  # e.g. a Charleston pass: pick that many of its tiles
        pool, answer["tiles"] = list(legal[0]["tiles"]), []
        for tile in keep_last:
            if tile in pool and len(answer["tiles"]) < legal[0]["choose"]:
                pool.remove(tile)
                answer["tiles"].append(tile)
    print(json.dumps(answer), flush=True)
