#!/usr/bin/env python3
"""A Botzone "Chinese-Standard-Mahjong" bot, for an MCR seat of fourwinds:
`fourwinds bot --botzone "python3 examples/botzone_bot.py"`.

Speaks the platform's protocol in any of its three ways: JSON (the default: one JSON line in,
the whole history; one JSON line out), simple interaction (``--simple``: the turn number, the
history line by line; the response on one line) and, with ``--keep-running``, it stays up
after its first answer and reads one new request at a time. It keeps its hand from the
requests, discards the tile with the fewest neighbours, claims a kong or a pung on a pair and a
chow from its left when it holds the other two tiles, and never declares Mahjong (it counts
no fans: a Botzone bot must know a win reaches 8 points, or the table refuses it).
"""

import json
import sys
from collections import Counter

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def run(middle):
    """The chow around a middle tile (``B4`` -> B3 B4 B5)."""
    return [f"{middle[0]}{int(middle[1]) + step}" for step in (-1, 0, 1)]


class Bot:
    def __init__(self):
        self.me, self.hand, self.pungs, self.last, self.kong = 0, [], [], "", ""

    def hear(self, request):
        """Keep our tiles as the referee tells what happened."""
        words = request.split()
        if words[0] == "0":
            self.me = int(words[1])
        elif words[0] == "1":
            self.hand = words[5:18]
        elif words[0] == "2":
            self.hand.append(words[1])
        elif words[0] == "3" and int(words[1]) == self.me:
            self.mine(words[2], words[3:])
            self.kong = ""  # a concealed kong is told right after our answer, or never
        if words[0] == "3" and words[2] in ("PLAY", "PENG", "CHI"):
            self.last = words[-1]

    def mine(self, verb, tiles):
        if verb == "PENG":
            self.take([self.last] * 2)
            self.pungs.append(self.last)
        elif verb == "CHI":
            used = run(tiles[0])
            used.remove(self.last)
            self.take(used)
        elif verb == "GANG":
            self.take([self.kong] * 4 if self.kong else [self.last] * 3)
        elif verb == "BUGANG":
            self.take(tiles)
            self.pungs.remove(tiles[0])
        if verb in ("PLAY", "PENG", "CHI"):
            self.take(tiles[-1:])

    def take(self, tiles):
        for tile in tiles:
            self.hand.remove(tile)

    def worst(self, hand):
        """The tile with the fewest neighbours (its copies, then tiles one or two away)."""
        counts = Counter(hand)

        def keep(tile):
            near = counts[tile] * 4
            if tile[0] in "WBT":
                rank = int(tile[1])
                near += sum(counts[f"{tile[0]}{rank + d}"] * (3 - abs(d)) for d in (-2, -1, 1, 2))
            return (near, tile)

        return min(hand, key=keep)

    def answer(self, request):
        words = request.split()
        if words[0] == "2":
            counts = Counter(self.hand)
            four = [t for t, n in counts.items() if n == 4]
            if four:
                self.kong = four[0]
                return f"GANG {four[0]}"
            if words[1] in self.pungs:
                return f"BUGANG {words[1]}"
            return f"PLAY {self.worst(self.hand)}"
        if words[0] != "3" or int(words[1]) == self.me or words[2] not in ("PLAY", "PENG", "CHI"):
            return "PASS"
        tile, counts = words[-1], Counter(self.hand)
        if counts[tile] == 3:
            return "GANG"
        if counts[tile] == 2:
            rest = list(self.hand)
            rest.remove(tile)
            rest.remove(tile)
            return f"PENG {self.worst(rest)}"
        if int(words[1]) == (self.me + 3) % 4 and tile[0] in "WBT":
            for middle in (int(tile[1]) - 1, int(tile[1]), int(tile[1]) + 1):
                if 2 <= middle <= 8:
                    used = run(f"{tile[0]}{middle}")
                    used.remove(tile)
                    if all(counts[t] for t in used):
                        rest = list(self.hand)
                        for t in used:
                            rest.remove(t)
                        return f"CHI {tile[0]}{middle} {self.worst(rest)}"
        return "PASS"

    def turn(self, request, response=None):
        """Hear a request, then give (or replay) our response to it."""
        self.hear(request)
        said = self.answer(request) if response is None else response
        if said.startswith("GANG "):
            self.kong = said.split()[1]
        return said


def first_input(simple):
    """The history of the first run: requests and our earlier responses."""
    if not simple:
        full = json.loads(sys.stdin.readline())
        return full["requests"], full["responses"]
    line = sys.stdin.readline()
    while not line.strip():
        line = sys.stdin.readline()
    lines = [sys.stdin.readline().rstrip("\n") for _ in range(2 * int(line) - 1)]
    return lines[0::2], lines[1::2]  # data and globaldata lines follow: never read


def say(response, simple):
    print(response if simple else json.dumps({"response": response}), flush=True)


def main():
    simple, keep = "--simple" in sys.argv, "--keep-running" in sys.argv
    bot = Bot()
    requests, responses = first_input(simple)
    for request, response in zip(requests[:-1], responses, strict=True):
        bot.turn(request, response)
    say(bot.turn(requests[-1]), simple)
    while keep:
        print(KEEP_RUNNING, flush=True)
        line = sys.stdin.readline()
        while line and not line.strip():
            line = sys.stdin.readline()
        if not line:
            return
        say(bot.turn(line.strip() if simple else json.loads(line)), simple)


if __name__ == "__main__":
    main()
