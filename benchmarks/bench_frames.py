"""The largest frames and views of real matches (issue 21 item 3), against the bounds the
daemon's sockets are given: a fair-deck 16-hand MCR match and a 4-hand American match with
the house card (format 2), played through the real table session by built-in bots
(testkit/frame_sizes.py). A catch-up answer carries the same signed messages, one frame each,
so the largest frame here is also the largest a catch-up sends.

Targets: the largest peer frame (the Open included) is at most a quarter of
``wire.MAX_FRAME`` (a 4x margin), and the largest seat view at most half of the 16 KB
a view event is reckoned at in ``api.API_SNDHWM``.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources

from benchmarks.timing import result
from fourwinds.daemon.peers.wire import MAX_FRAME
from testkit.frame_sizes import measure

VIEW_RECKONED = 16 * 1024
MATCHES = (("mcr", 16, False), ("american", 4, True))


def bench_frames(quick: bool = False) -> list[dict[str, object]]:
    card = resources.files("fourwinds.cards").joinpath("house.card").read_text(encoding="utf-8")
    lines = []
    for rules, hands, with_card in MATCHES:
        played = 1 if quick else hands
        sizes = measure(rules, played, card if with_card else "")
        lines.append(
            result(
                f"frames_{rules}",
                sizes.largest_frame,
                "bytes",
                hands=played,
                deck="masked",
                card="house.card" if with_card else "",
                messages=sizes.messages,
                open_frame_bytes=sizes.open_frame,
                largest_view_bytes=sizes.largest_view,
                transcript_bytes=sizes.transcript,
                max_frame=MAX_FRAME,
                margin=round(MAX_FRAME / sizes.largest_frame, 1),
                completed=sizes.completed,
                target=f"largest frame <= {MAX_FRAME // 4} bytes (MAX_FRAME / 4), view <= "
                f"{VIEW_RECKONED // 2} bytes, the match completes",
                met=(
                    sizes.completed
                    and 4 * sizes.largest_frame <= MAX_FRAME
                    and 2 * sizes.largest_view <= VIEW_RECKONED
                ),
            )
        )
    return lines


BENCHES: dict[str, Callable[..., list[dict[str, object]]]] = {"frames": bench_frames}
