"""Faults: real tables over four network namespaces, each match hit by one fault (issue 14).

Each match is four real daemons in four namespaces on one bridge, each seat a bot over its
local API, one MCR hand on the practice deck (call and next windows 0.5 s, bots at 50 ms a
decision), built by the fault harness (testkit/faults.py). Every fault kind is injected
once a round (FOURWINDS_FAULT_ROUNDS, default 1), in an order, at a seat and at a moment drawn
from a seeded generator (FOURWINDS_FAULT_SEED, default 14), with the issue's durations:
SIGSTOP 20 s, a link cut 30 s. A match counts as completed when all four seats see it over,
their transcripts are identical and ``fourwinds verify`` says OK on each. A flipped byte and a
deleted data folder are no exception: the seat is rebuilt from the other seats' copies and
its transcript must be identical to theirs and verify; for the flipped byte its damaged
folder must also be listed as kept aside with the reason.

Lines:
* ``faults_matches``: matches run, faults injected by kind, matches completed, transcripts
  identical, verified; target: every match completes. Also ``longest_stall_s``: the longest
  of the faults' stalls (below), over every match, and its fault.
* ``faults_<kind>``: each fault: seat, moment, how long it was held, how long until the
  faulted seat's view was past where the table stood when the fault ended (recovery), what
  the other seats' screens said meanwhile (``seen``) and the faulted seat's own (``own``),
  the longest time the table did not move from the fault on (``stall_s``); target: that
  match completes as its fault's run must end (above).
* ``faults_bad_link_hand``: one hand with seat 3 behind the relay (50 ms ± 20 ms each way, a
  1 s stall every 8 s and a reset every 15 s on average) beside the same hand with no faults
  measured in the same run, both with the bots answering at once (every round trip shows);
  ``faults_bad_link_hand_paced`` the same with the bots taking 100 ms a decision. The
  practice deck's hands differ in length (the dice choose the wall), so beside the medians'
  ratio the line gives the ratio of time per step; the target, at most 3x the clean time,
  is judged on that. HANDS hands of each at full pace, one paced, a round.

Quick (``scripts/bench --quick``): one match with one fault (kill -9, the seat down 0.5-3 s),
bots at 10 ms a decision, no bad-link hands: ``faults_kill9`` and ``faults_matches``.
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from benchmarks.timing import result
from testkit.dirs import short_dir
from testkit.faults import Fault, FaultMatch, Injected, Outcome
from testkit.netns import Unavailable

SEED = int(os.environ.get("FOURWINDS_FAULT_SEED", "14"))
ROUNDS = int(os.environ.get("FOURWINDS_FAULT_ROUNDS", "1"))
STOP_S = 20.0
CUT_S = 30.0
MATCH_S = 240.0
THINK_S = 0.05  # the bots' pace in the fault matches: a hand of several seconds
QUICK_THINK_S = 0.01  # quick: a shorter hand
PACED_S = 0.1  # the paced bad-link comparison
HANDS = 3  # bad-link and clean hands at the bots' full pace, each
RATIO_TARGET = 3.0
INJECTED = (
    Fault.KILL9,
    Fault.SIGSTOP,
    Fault.LINK_CUT,
    Fault.MOVE,
    Fault.TORN_TAIL,
    Fault.FLIPPED_BYTE,
    Fault.DELETED_DATA,
    Fault.DISK_FULL,
)


class Subnets:
    """A fresh link-local subnet for every match (the namespaces' names carry it)."""

    def __init__(self) -> None:
        self.next = 120

    def take(self) -> int:
        self.next += 1
        return self.next


def _fault_match(
    kind: Fault, rng: random.Random, base: Path, subnet: int, think: float = THINK_S
) -> tuple[Injected, Outcome, bool]:
    """One match with one fault of ``kind``; (the fault, the outcome, completed as this
    fault's run must end)."""
    seat = rng.randrange(1, 4) if kind is Fault.MOVE else rng.randrange(4)
    match = FaultMatch(
        base,
        subnet,
        seed=rng.randrange(1 << 30),
        think=think,
        small_disk_seat=seat if kind is Fault.DISK_FULL else None,
    )
    try:
        match.open()
        match.start_bots(MATCH_S)
        match.wait_for_play(steps=rng.randrange(10, 60))
        match.random_moment(2.0)
        injected = {
            Fault.KILL9: lambda: match.kill9(seat, down=rng.uniform(0.5, 3.0)),
            Fault.SIGSTOP: lambda: match.sigstop(seat, STOP_S),
            Fault.LINK_CUT: lambda: match.cut(seat, CUT_S),
            Fault.MOVE: lambda: match.move(seat),
            Fault.TORN_TAIL: lambda: match.kill9(seat, damage=Fault.TORN_TAIL),
            Fault.FLIPPED_BYTE: lambda: match.kill9(seat, damage=Fault.FLIPPED_BYTE),
            Fault.DELETED_DATA: lambda: match.kill9(seat, damage=Fault.DELETED_DATA),
            Fault.DISK_FULL: lambda: match.fill_disk(seat),
        }[kind]()
        outcome = match.finish(MATCH_S)
        done = outcome.completed and outcome.identical and outcome.verified_ok
        if kind is Fault.FLIPPED_BYTE:  # the damaged folder is kept, with the reason
            reason = f"records.log {injected.note}: checksum mismatch"
            kept = [a["set_aside"] for a in match.set_aside(seat)]
            injected.own = f"{injected.own}; set aside: {'; '.join(kept)}"
            done = done and len(kept) == 1 and kept[0].startswith(reason)
        return injected, outcome, done
    finally:
        match.close()


def _hand(base: Path, subnet: int, think: float, bad: bool) -> tuple[Outcome, dict[str, int], str]:
    """One clean hand, or one with seat 3 behind the relay: (outcome, relay counts, netem)."""
    match = FaultMatch(base, subnet, seed=SEED, think=think, bad_seat=3 if bad else None)
    try:
        match.open()
        match.start_bots(MATCH_S)
        outcome = match.finish(MATCH_S)
        return outcome, match.relay_counts(), match.netem
    finally:
        match.close()


def bench_faults(quick: bool) -> list[dict[str, object]]:
    base = short_dir()
    try:
        return _run(base, quick)
    except Unavailable as why:
        return [
            {
                "bench": "faults_matches",
                "value": None,
                "unit": "matches",
                "target": "every match completes",
                "met": False,
                "skipped": str(why),
            }
        ]
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _run(base: Path, quick: bool) -> list[dict[str, object]]:
    rng = random.Random(SEED)
    subnets = Subnets()
    began = time.monotonic()
    lines: list[dict[str, object]] = []
    runs: list[tuple[Injected, Outcome, bool]] = []
    for _ in range(1 if quick else ROUNDS):
        order = [Fault.KILL9] if quick else list(INJECTED)
        rng.shuffle(order)
        for kind in order:
            try:
                runs.append(
                    _fault_match(
                        kind,
                        rng,
                        base / f"m{len(runs)}",
                        subnets.take(),
                        QUICK_THINK_S if quick else THINK_S,
                    )
                )
            except (AssertionError, RuntimeError, OSError) as error:  # counted, not fatal
                failed = Injected(kind, -1, 0.0, note=f"{type(error).__name__}: {error}")
                runs.append((failed, Outcome(False, False, (), 0.0, 0.0), False))
    hands: dict[str, list[tuple[Outcome, dict[str, int], str]]] = {}
    for name, think, bad in (
        ("clean", 0.0, False),
        ("bad", 0.0, True),
        ("clean_paced", PACED_S, False),
        ("bad_paced", PACED_S, True),
    ):
        count = 0 if quick else ROUNDS * (HANDS if think == 0.0 else 1)
        hands[name] = [_hand(base / f"{name}{r}", subnets.take(), think, bad) for r in range(count)]
    for injected, outcome, done in runs:
        lines.append(
            result(
                f"faults_{injected.fault.value}",
                injected.recovery_s or 0.0,
                "s",
                measure="recovery: from the fault's end until the faulted seat's view is past "
                "where the table stood then",
                seat=injected.seat,
                at_s=injected.at_s,
                held_s=injected.held_s,
                seen=injected.seen,
                own=injected.own,
                note=injected.note,
                stall_s=injected.stall_s,
                longest_stall_s=outcome.longest_stall_s,
                match_s=outcome.match_s,
                target="the match completes as this fault's run must end",
                met=done,
                completed=done,
                identical=outcome.identical,
                verified=list(outcome.verified),
            )
        )
    bad_link = [o for o, _c, _n in hands["bad"] + hands["bad_paced"]]
    all_outcomes = [o for _i, o, _d in runs] + [o for h in hands.values() for o, _c, _n in h]
    completed = sum(d for _i, _o, d in runs) + sum(
        o.completed and o.identical and o.verified_ok for o in bad_link
    )
    by_kind = Counter(i.fault.value for i, _o, _d in runs)
    by_kind[Fault.BAD_LINK.value] = len(bad_link)
    matches = len(runs) + len(bad_link)
    worst = max(runs, key=lambda r: r[0].stall_s or 0.0) if runs else None
    lines.append(
        result(
            "faults_matches",
            matches,
            "matches",
            target="every match completes",
            met=completed == matches,
            completed=completed,
            identical=sum(o.identical for o in all_outcomes)
            - sum(o.identical for h in ("clean", "clean_paced") for o, _c, _n in hands[h]),
            verified=sum(o.verified_ok for _i, o, _d in runs)
            + sum(o.verified_ok for o in bad_link),
            faults_by_kind=dict(by_kind),
            clean_matches=len(hands["clean"]) + len(hands["clean_paced"]),
            seed=SEED,
            rounds=ROUNDS,
            durations={"sigstop_s": STOP_S, "link_cut_s": CUT_S},
            longest_stall_s=worst[0].stall_s if worst else None,
            longest_stall_fault=worst[0].fault.value if worst else None,
            longest_stall_held_s=worst[0].held_s if worst else None,
            longest_stall_measure="the longest time no seat's view moved, from a fault until the "
            "match's end",
            bench_s=round(time.monotonic() - began, 1),
        )
    )
    if quick:
        return lines
    lines += [
        _ratio_line("faults_bad_link_hand", hands["bad"], hands["clean"], 0.0),
        _ratio_line(
            "faults_bad_link_hand_paced", hands["bad_paced"], hands["clean_paced"], PACED_S
        ),
    ]
    return lines


def _ratio_line(
    name: str,
    bad: list[tuple[Outcome, dict[str, int], str]],
    clean: list[tuple[Outcome, dict[str, int], str]],
    think: float,
) -> dict[str, object]:
    def med(runs: list[tuple[Outcome, dict[str, int], str]]) -> float:
        return statistics.median(o.match_s for o, _c, _n in runs)

    def per_step(runs: list[tuple[Outcome, dict[str, int], str]]) -> float:
        return statistics.median(o.match_s / max(1, o.steps) for o, _c, _n in runs)

    bad_s, clean_s = med(bad), med(clean)
    ratio = round(bad_s / clean_s, 2) if clean_s else None
    step_ratio = round(per_step(bad) / per_step(clean), 2) if per_step(clean) else None
    relay: Counter[str] = Counter()
    for _o, counts, _n in bad:
        relay.update(counts)

    def each(runs: list[tuple[Outcome, dict[str, int], str]]) -> list[float]:
        return [o.match_s for o, _c, _n in runs]

    extra: dict[str, object] = {}
    if step_ratio is not None and step_ratio > RATIO_TARGET and think == 0.0:
        # why this figure is out of reach: measured here, not assumed
        extra["out_of_reach"] = (
            f"with the bots answering at once a step is {1000 * per_step(clean):.0f} ms on "
            f"the clean link and {1000 * per_step(bad):.0f} ms on the bad one: each step "
            "waits for messages across the relay (50 ms +- 20 ms each way, stalls, resets), "
            "which no daemon change removes; the paced line (bots at 100 ms a decision, as "
            "people play) is the one that counts"
        )

    return result(
        name,
        bad_s,
        "s",
        clean_s=clean_s,
        ratio=ratio,
        ratio_per_step=step_ratio,
        target=f"<= {RATIO_TARGET}x the clean hand (per step: the practice deck's "
        "hands differ in length)",
        met=step_ratio is not None and step_ratio <= RATIO_TARGET,
        bot_think_s=think,
        measure="one-hand match, bots started until the last seat's view moved; medians",
        bad_runs=each(bad),
        clean_runs=each(clean),
        bad_steps=[o.steps for o, _c, _n in bad],
        clean_steps=[o.steps for o, _c, _n in clean],
        completed=all(o.completed and o.identical and o.verified_ok for o, _c, _n in bad + clean),
        relay=dict(relay),
        netem=bad[0][2] if bad else "",
        **extra,
    )


BENCHES: dict[str, Callable[[bool], list[dict[str, object]]]] = {"faults": bench_faults}
