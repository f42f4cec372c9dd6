"""One MCR hand told as the Botzone referee tells it: seat views in, Botzone requests out.

The daemon sends our seat a view of the table after each step (docs/LOCAL-API.md): rows of
discards, exposures and flowers by seat, our own tiles. A Botzone "Chinese-Standard-Mahjong"
bot instead hears the hand as a list of requests, one per event, in the order they happen::

    0 ID QUAN                      our player id and the prevailing wind
    1 H0 H1 H2 H3 T1..T13 FLOWERS  flower counts by seat, our 13 tiles, every flower laid out
    2 X                            we drew X
    3 N DRAW | PLAY X | PENG X | CHI M X | GANG | BUGANG X | BUHUA H
                                   what seat N did (PENG/CHI: the claim and the discard after
                                   it, M the middle tile of the chow; GANG after N's own draw
                                   is a concealed kong, else a kong on the last discard)

``tell`` compares each new view with what the requests so far have told (``Story.told``) and
walks the hand's flow forward (a draw, then a discard or a kong, then the claims on the
discard...) as far as the view shows, adding one request per event. Views can be coalesced
(one view may show several steps), so nothing assumes a view per step: every event is read
from what changed. A claim that lost leaves no trace in the view and so is never told, as on
the platform; neither is anything after the hand is won. Pure: no I/O.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from .tiles import is_flower, seat_id, to_botzone

__all__ = ["Board", "Flow", "Meld", "Moment", "Step", "Story", "read_moment", "tell"]

Event = Mapping[str, Any]
MAX_EVENTS = 400  # a hand has about 150 events; more from one view means a loop


@dataclass(frozen=True)
class Meld:
    """One exposure as the view shows it: ``kind`` its label ("chow", "pung", "kong",
    "concealed kong"), its tiles (``?`` where hidden) and the seat it was claimed from."""

    kind: str
    tiles: tuple[str, ...]
    source: int | None


@dataclass(frozen=True)
class Board:
    """The public table by seat wind: discard rows (the discard being claimed last),
    exposures and flowers."""

    rows: tuple[tuple[str, ...], ...]
    melds: tuple[tuple[Meld, ...], ...]
    flowers: tuple[tuple[str, ...], ...]

    def discarded(self, seat: int) -> int:
        """How many tiles ``seat`` has discarded: its row and those claimed from it."""
        return len(self.rows[seat]) + sum(
            1 for melds in self.melds for m in melds if m.source == seat
        )

    def with_row(self, seat: int, row: tuple[str, ...]) -> Board:
        return replace(self, rows=_put(self.rows, seat, row))

    def with_melds(self, seat: int, melds: tuple[Meld, ...]) -> Board:
        return replace(self, melds=_put(self.melds, seat, melds))

    def with_flowers(self, seat: int, flowers: tuple[str, ...]) -> Board:
        return replace(self, flowers=_put(self.flowers, seat, flowers))


def _put(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


EMPTY = Board(((),) * 4, ((),) * 4, ((),) * 4)


@dataclass(frozen=True)
class Moment:
    """What the story reads from one view event. ``pending``: the discard that may be
    claimed now (seat, its place in the row, tile); ``robbed``: the tile added to a kong
    that our seat is offered to rob; ``over``: the hand has a result (``winner`` and how)."""

    hand: int
    me: int
    quan: int
    phase: str
    turn: int | None
    board: Board
    tiles: tuple[str, ...]
    drawn: str | None
    pending: tuple[int, int, str] | None = None
    robbed: str | None = None
    over: bool = False
    winner: int | None = None
    self_drawn: bool = False
    from_seat: int | None = None

    @property
    def robbing(self) -> bool:
        """A kong is being added (the others may rob it): a claim phase with no discard."""
        return self.phase == "claim" and self.pending is None


def _meld(entry: Mapping[str, Any]) -> Meld:
    source = entry.get("from")
    return Meld(
        str(entry.get("label") or ""),
        tuple(str(t) for t in entry.get("tiles") or ()),
        None if source is None else int(source),
    )


def read_moment(event: Event) -> Moment | None:
    """The story's reading of a view event; None for a view with no hand in play (lobby,
    dice, our seat not known)."""
    view = event.get("view") or {}
    seat, quan = view.get("seat"), view.get("prevalent_wind")
    players = view.get("players") or []
    if (
        view.get("rules") != "mcr"
        or seat is None
        or quan is None
        or len(players) != 4
        or view.get("phase") not in ("deal", "play", "claim", "hand_over", "match_over")
    ):
        return None
    board = Board(
        tuple(tuple(str(t) for t in p.get("discards") or ()) for p in players),
        tuple(tuple(_meld(m) for m in p.get("exposures") or ()) for p in players),
        tuple(tuple(str(t) for t in p.get("flowers") or ()) for p in players),
    )
    last = view.get("last_discard")
    pending = None if not last else (int(last["seat"]), int(last["index"]), str(last["tile"]))
    robbed = None
    if view.get("phase") == "claim" and pending is None:
        offer = next(
            (
                a
                for a in event.get("legal_actions") or ()
                if a.get("type") == "mahjong" and a.get("tiles")
            ),
            None,
        )
        robbed = None if offer is None else str(offer["tiles"][0])
    result = view.get("result")
    turn = view.get("turn")
    moment = Moment(
        int(view.get("hand_number") or 0),
        int(seat),
        int(quan),
        str(view.get("phase")),
        None if turn is None else int(turn),
        board,
        tuple(str(t) for t in view.get("hand") or ()),
        None if view.get("drawn") is None else str(view["drawn"]),
        pending,
        robbed,
    )
    if result:
        winner, source = result.get("winner"), result.get("from_seat")
        moment = replace(
            moment,
            over=True,
            winner=None if winner is None else int(winner),
            self_drawn=bool(result.get("self_drawn")),
            from_seat=None if source is None else int(source),
        )
    return moment


class Step(Enum):
    """Where the hand's flow stands, after what the requests so far have told."""

    DRAW = "draw"  # ``seat`` draws next (from the wall, or a replacement)
    TURN = "turn"  # ``seat`` holds 14 tiles (drawn, or ``claim`` made) and acts
    CLAIMS = "claims"  # ``seat`` discarded ``tile`` (``index`` in its row): claims open
    ROB = "rob"  # ``seat`` adds ``tile`` to its pung: the others may rob it
    OVER = "over"  # the hand is over (or we sat it out): nothing more is told


@dataclass(frozen=True)
class Flow:
    step: Step
    seat: int = 0
    tile: str = ""
    index: int = -1
    claim: str = ""  # TURN after a claim: "PENG" or "CHI M", told with the discard


@dataclass(frozen=True)
class Story:
    """The hand as told so far: our seat, what the requests have shown (``told``), the
    flow, and the requests themselves. ``sat_out``: the hand was already under way when we
    first saw it (our seat had played): nothing is told, the seat plays its defaults."""

    hand: int
    me: int
    told: Board
    flow: Flow
    requests: tuple[str, ...]
    sat_out: bool = False
    held: tuple[str, ...] = ()  # our concealed tiles in the view before this one

    @property
    def last(self) -> str:
        return self.requests[-1] if self.requests else ""

    @property
    def over(self) -> bool:
        return self.flow.step is Step.OVER

    @property
    def discard_after_claim(self) -> bool:
        """Our turn after our claim (``PENG``, ``CHI``) was taken."""
        return self.flow.step is Step.TURN and self.flow.seat == self.me and bool(self.flow.claim)


def tell(story: Story | None, moment: Moment) -> Story | None:
    """The story after ``moment``: the requests it adds are ``new.requests[len(old):]``.
    A moment of another hand starts a new story; None until a hand is in play."""
    if story is None or story.hand != moment.hand:
        story = _begin(moment)
        if story is None:
            return None
    for _ in range(MAX_EVENTS):
        later = _next(story, moment)
        if later is None:
            return replace(story, held=moment.tiles)
        story = later
    raise RuntimeError("a view told more events than a hand has")


def _begin(m: Moment) -> Story | None:
    """Requests 0 and 1, once the flowers are laid out and play begins (East to play)."""
    if (
        m.phase in ("deal", "hand_over", "match_over")
        or "?" in m.tiles
        or any(is_flower(t) for t in m.tiles)
    ):
        return None
    b = m.board
    if b.discarded(m.me) > 0 or b.melds[m.me]:
        return Story(m.hand, m.me, EMPTY, Flow(Step.OVER), (), sat_out=True)
    tiles = list(m.tiles)
    if len(tiles) == 14:  # East's 14th tile (or ours, drawn already) is told as a draw
        tiles.remove(m.drawn if m.drawn in tiles else tiles[-1])
    flowers = [to_botzone(f) for row in b.flowers for f in row]
    first = " ".join(
        ["1", *(str(len(row)) for row in b.flowers), *(to_botzone(t) for t in tiles), *flowers]
    )
    told = replace(EMPTY, flowers=b.flowers)
    return Story(m.hand, m.me, told, Flow(Step.DRAW, 0), (f"0 {seat_id(m.me)} {m.quan}", first))


def _say(story: Story, request: str | None, flow: Flow, told: Board | None = None) -> Story:
    requests = story.requests if request is None else (*story.requests, request)
    return replace(story, flow=flow, told=story.told if told is None else told, requests=requests)


def _next(story: Story, m: Moment) -> Story | None:
    """The story one event (or one silent move of the flow) further, or None when the view
    shows nothing more."""
    flow = story.flow
    if flow.step is Step.OVER:
        return None
    new_flower = _new_flower(story, m, flow.seat)
    if new_flower is not None and flow.step in (Step.DRAW, Step.TURN):
        return new_flower
    if flow.step is Step.DRAW:
        return _draw(story, m)
    if flow.step is Step.TURN:
        return _turn(story, m)
    if flow.step is Step.CLAIMS:
        return _claims(story, m)
    return _rob(story, m)


def _over(story: Story, m: Moment) -> Story | None:
    return _say(story, None, Flow(Step.OVER)) if m.over else None


def _new_flower(story: Story, m: Moment, seat: int) -> Story | None:
    """A flower laid out by the seat on turn (drawn, then replaced): ``3 N BUHUA H``."""
    told, shown = story.told.flowers[seat], m.board.flowers[seat]
    if len(shown) <= len(told):
        return None
    flower = shown[len(told)]
    return _say(
        story,
        f"3 {seat} BUHUA {to_botzone(flower)}",
        story.flow,
        story.told.with_flowers(seat, (*told, flower)),
    )


def _acted(story: Story, m: Moment, seat: int) -> bool:
    """Has ``seat`` done something since its draw: discarded, declared a kong, or the turn
    has moved on? (Its flowers, laid out before, are told before its draw.)"""
    told, shown = story.told, m.board
    return (
        m.turn != seat
        or m.phase != "play"
        or shown.discarded(seat) > told.discarded(seat)
        or shown.melds[seat] != told.melds[seat]
    )


def _draw(story: Story, m: Moment) -> Story | None:
    seat = story.flow.seat
    if m.over:
        return _over(story, m)
    if seat == story.me:
        drawn = m.drawn
        if (
            m.turn == seat
            and m.phase == "play"
            and drawn is not None
            and drawn != "?"
            and not is_flower(drawn)
        ):
            return _say(story, f"2 {to_botzone(drawn)}", Flow(Step.TURN, seat))
        return None
    if _acted(story, m, seat):
        return _say(story, f"3 {seat} DRAW", Flow(Step.TURN, seat))
    return None


def _turn(story: Story, m: Moment) -> Story | None:
    seat, told, shown = story.flow.seat, story.told, m.board
    for index, (was, now) in enumerate(zip(told.melds[seat], shown.melds[seat], strict=False)):
        if was.kind == "pung" and now.kind == "kong":  # an added kong, nobody robbed it
            melds = _put(told.melds[seat], index, now)
            return _say(
                story,
                f"3 {seat} BUGANG {to_botzone(now.tiles[0])}",
                Flow(Step.DRAW, seat),
                told.with_melds(seat, melds),
            )
    if m.robbing and m.turn == seat and m.robbed is not None:
        return _say(
            story, f"3 {seat} BUGANG {to_botzone(m.robbed)}", Flow(Step.ROB, seat, m.robbed)
        )
    new = shown.melds[seat][len(told.melds[seat]) :]
    if new and new[0].source is None:  # a concealed kong
        return _say(
            story,
            f"3 {seat} GANG",
            Flow(Step.DRAW, seat),
            told.with_melds(seat, (*told.melds[seat], new[0])),
        )
    if shown.discarded(seat) > told.discarded(seat):
        return _discard(story, m)
    return _over(story, m)


def _discard(story: Story, m: Moment) -> Story | None:
    """The turn's discard, told with the claim that led to it (PENG, CHI) if any."""
    flow, told, shown = story.flow, story.told, m.board
    seat = flow.seat
    index = len(told.rows[seat])
    if len(shown.rows[seat]) > index:
        tile = shown.rows[seat][index]
    else:  # claimed already (views were coalesced): the tile is in the claimer's meld
        found = _claim_of(story, m, seat)
        if found is None:
            return None
        tile = _claimed_tile(story, m, found[1])
    said = f"{flow.claim} {to_botzone(tile)}" if flow.claim else f"PLAY {to_botzone(tile)}"
    return _say(
        story,
        f"3 {seat} {said}",
        Flow(Step.CLAIMS, seat, tile, index),
        told.with_row(seat, (*told.rows[seat], tile)),
    )


def _claimed_tile(story: Story, m: Moment, meld: Meld) -> str:
    """Which tile of a claimed meld was the discard (views coalesced: its claim window was
    never shown). Ours is the tile our hand lost (only we act for our seat, so nothing else
    changed it since the last view); of a chow of another seat's discard nobody can tell,
    and any of its tiles tells the same table."""
    if story.flow.seat == story.me:
        gone = Counter(story.held) - Counter(m.tiles)
        for tile in meld.tiles:
            if gone[tile]:
                return tile
        for tile in meld.tiles:
            if tile in story.held:
                return tile
    return meld.tiles[0]


def _claim_of(story: Story, m: Moment, seat: int) -> tuple[int, Meld] | None:
    """The first meld not told yet that was made with a discard of ``seat``, and whose."""
    for step in (1, 2, 3):
        claimer = (seat + step) % 4
        for meld in m.board.melds[claimer][len(story.told.melds[claimer]) :]:
            if meld.source == seat:
                return claimer, meld
    return None


def _claims(story: Story, m: Moment) -> Story | None:
    flow, told = story.flow, story.told
    seat, tile, index = flow.seat, flow.tile, flow.index
    if m.pending == (seat, index, tile):
        return None  # the claims are still open
    if m.over and m.winner not in (None, seat) and not m.self_drawn:
        return _over(story, m)  # won on it
    row = m.board.rows[seat]
    still = len(row) > index and row[index] == tile
    found = _claim_of(story, m, seat)
    if found is not None and not still:
        claimer, meld = found
        told = told.with_row(seat, told.rows[seat][:-1]).with_melds(
            claimer, (*told.melds[claimer], meld)
        )
        if meld.kind.endswith("kong"):
            return _say(story, f"3 {claimer} GANG", Flow(Step.DRAW, claimer), told)
        claim = "PENG" if meld.kind == "pung" else f"CHI {to_botzone(_middle(meld))}"
        return _say(story, None, Flow(Step.TURN, claimer, claim=claim), told)
    if still:  # nobody claimed it: the next draws
        return _say(story, None, Flow(Step.DRAW, (seat + 1) % 4))
    return _over(story, m)


def _middle(meld: Meld) -> str:
    """The middle tile of a chow (the view lists a meld's tiles in order)."""
    return sorted(meld.tiles, key=_rank)[1]


def _rank(code: str) -> tuple[str, str]:
    return (code[-1], code[:-1])


def _rob(story: Story, m: Moment) -> Story | None:
    seat, told = story.flow.seat, story.told
    if m.robbing and m.turn == seat:
        return None  # the others still answer
    if m.over:
        return _over(story, m)
    for index, (was, now) in enumerate(zip(told.melds[seat], m.board.melds[seat], strict=False)):
        if was.kind == "pung" and now.kind == "kong":
            melds = _put(told.melds[seat], index, now)
            return _say(story, None, Flow(Step.DRAW, seat), told.with_melds(seat, melds))
    return None
