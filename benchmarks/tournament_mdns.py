"""mDNS packets per entrant as an event grows (issue 23: "discovery ... cost per entrant stay
flat as the event grows"; an event is one announcement, not one per table).

For each size, a director and ``n`` entrants, each a real daemon with mDNS on, in a network
namespace of its own on one bridge (testkit/netns.py: link-local addresses, nothing leaves
the machine). The director creates the event, every entrant finds it by name over mDNS
(`tournament list`) and enters it, the director starts round 1 (its tables are opened by the
seats' daemons, unlisted), and the table is then left for ``SETTLE_S`` seconds. Each
namespace's UDP datagrams sent (``/proc/net/snmp``: the daemons' only UDP is mDNS; the
peers speak TCP) are read at the end: each entrant's count is everything its daemon sent
from its start. ``tournament_mdns_packets_<n>``: the mean over entrants (max and the
director's beside it). ``tournament_mdns_growth``: the mean at the largest size over the
mean at the smallest, target <= 1.5 (flat: not growing with the count; measured side by
side in one run). Received datagrams per entrant are reported too (multicast: every
entrant hears every other's, so that figure grows with the room however the daemons
behave).

Quick (``scripts/bench --quick``): 2 and 4 entrants, SETTLE_S shortened. Where namespaces
cannot be made (not root, no ``ip``), one line says why.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import time
from collections.abc import Callable
from typing import Any

from benchmarks.timing import result
from testkit.dirs import short_dir
from testkit.netns import Lan, LanDaemon, Unavailable, start_all
from testkit.procs import request

REAL = "fourwinds.daemon.table_runtimes.real_session"
SIZES = (8, 16, 32, 64)
QUICK_SIZES = (2, 4)
SETTLE_S = 20.0
QUICK_SETTLE_S = 2.0
GROWTH_TARGET = 1.5
SUBNET = 97


def udp_counts(namespace: str) -> tuple[int, int]:
    """(datagrams sent, datagrams received) by UDP in ``namespace`` since it was made."""
    text = subprocess.run(
        ["ip", "netns", "exec", namespace, "cat", "/proc/net/snmp"],
        capture_output=True,
        text=True,
        check=True,
        timeout=10,
    ).stdout
    head, values = [line.split() for line in text.splitlines() if line.startswith("Udp:")][:2]
    row = dict(zip(head[1:], values[1:], strict=True))
    return int(row["OutDatagrams"]), int(row["InDatagrams"])


def _ask(d: LanDaemon, **message: Any) -> dict[str, Any]:
    client = d.client()
    try:
        return request(client, **message)
    finally:
        client.close()


def _until(what: str, test: Callable[[], bool], timeout: float) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if test():
            return
        time.sleep(0.25)
    raise RuntimeError(f"{what} did not happen within {timeout:.0f} s")


def _seen(d: LanDaemon) -> bool:
    return "club" in [e["name"] for e in _ask(d, type="tournament_list")["seen"]]


def one_size(entrants: int, settle_s: float) -> dict[str, float]:
    """Run the evening's opening at ``entrants``; the per-namespace UDP figures."""
    base = short_dir()
    lan = Lan(1 + entrants, SUBNET)
    daemons = [
        LanDaemon(
            lan,
            i,
            base / f"d{i}",
            "director" if i == 0 else f"p{i}",
            session_module=REAL,
            mdns=True,
        )
        for i in range(1 + entrants)
    ]
    try:
        start_all(daemons, timeout=60 + 2 * entrants)
        director, *players = daemons
        _ask(director, type="tournament_create", name="club", rounds=1, hands=1, deck="practice")
        _until("every entrant seeing the event", lambda: all(_seen(d) for d in players), 60)
        for d in players:
            entered = _ask(d, type="tournament_join", name="club")
            if entered.get("me") is None:
                raise RuntimeError(f"{d.name} could not enter: {entered}")
        _ask(director, type="tournament_start", name="club", wait=60)
        time.sleep(settle_s)
        counts = [udp_counts(ns) for ns in lan.names]
    finally:
        for d in daemons:
            d.stop()
        lan.close()
        shutil.rmtree(base, ignore_errors=True)
    sent = [c[0] for c in counts[1:]]
    got = [c[1] for c in counts[1:]]
    return {
        "mean": statistics.mean(sent),
        "max": max(sent),
        "director": counts[0][0],
        "received_mean": statistics.mean(got),
    }


def bench_mdns(quick: bool) -> list[dict[str, object]]:
    sizes = QUICK_SIZES if quick else SIZES
    settle = QUICK_SETTLE_S if quick else SETTLE_S
    try:
        figures = {n: one_size(n, settle) for n in sizes}
    except Unavailable as why:
        return [
            result(
                "tournament_mdns_growth",
                0,
                "ratio",
                target=f"<= {GROWTH_TARGET}",
                met=False,
                skipped=str(why),
            )
        ]
    lines = [
        result(
            f"tournament_mdns_packets_{n}",
            f["mean"],
            "datagrams/entrant",
            target="none (reported; the target is tournament_mdns_growth)",
            met=True,
            max=f["max"],
            director=f["director"],
            received_per_entrant=round(f["received_mean"], 1),
            entrants=n,
            settle_s=settle,
        )
        for n, f in figures.items()
    ]
    low, high = figures[sizes[0]]["mean"], figures[sizes[-1]]["mean"]
    growth = high / low if low else float("inf")
    lines.append(
        result(
            "tournament_mdns_growth",
            growth,
            "ratio",
            target=f"<= {GROWTH_TARGET}",
            met=growth <= GROWTH_TARGET,
            measure=f"datagrams sent per entrant at {sizes[-1]} entrants over those at {sizes[0]}",
            sizes=list(sizes),
        )
    )
    return lines
