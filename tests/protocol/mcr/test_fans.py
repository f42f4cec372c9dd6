"""docs/RULES.md B5: one rulebook-style hand per fan, with every fan it must score.

Each case is a hand written in compact notation: the concealed tiles WITHOUT the winning tile,
the winning tile, and the melds (``c123m`` chow, ``p777z`` pung, ``k5555z`` melded kong,
``K8888s`` concealed kong). Unless a case says otherwise the hand wins on a discard, seat and
prevalent wind East, no flowers. The expected fans were worked out from the rulebook
definitions and combination principles (see docs/MCR-FANS.md), not read off the code.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from fourwinds.protocol.mcr.fans import FAN_NAME, FAN_POINTS, Fan
from fourwinds.protocol.mcr.hand import Meld, MeldType, meld
from fourwinds.protocol.mcr.scoring import FanScore, WinContext, score_hand
from fourwinds.protocol.notation import parse_tile, parse_tiles

_MELD_KINDS = {"c": MeldType.CHOW, "p": MeldType.PUNG, "k": MeldType.KONG, "K": MeldType.KONG}


def melds_of(text: str) -> list[Meld]:
    """``"c123m p777z K8888s"`` -> melds (K = concealed kong)."""
    return [meld(_MELD_KINDS[m[0]], parse_tiles(m[1:]), m[0] == "K") for m in text.split()]


def score(hand: str, win: str, melds: str = "", **context: object) -> FanScore:
    """Score a hand given in notation; ``context`` are WinContext fields."""
    ctx = WinContext(parse_tile(win), **context)  # type: ignore[arg-type]
    return score_hand(melds_of(melds), parse_tiles(hand), ctx)


def fan_counts(result: FanScore) -> dict[str, int]:
    return {name: count for name, _points, count in result.fans}


@dataclass(frozen=True)
class Case:
    name: str
    hand: str
    win: str
    melds: str
    context: dict[str, object] = field(default_factory=dict)
    fans: dict[str, int] = field(default_factory=dict)
    total: int = 0


CASES = [
    Case(
        "MixedTripleChow",
        "345m345p345s9m",
        "9m",
        "p777z",
        {},
        {"Mixed Triple Chow": 1, "Dragon Pung": 1, "Single Wait": 1},
        11,
    ),
    Case("Chicken", "67m44z", "8m", "c234m c567p p888s", {}, {"Chicken Hand": 1}, 8),
    Case(
        "LastTileDraw",
        "67m44z",
        "8m",
        "c234m c567p p888s",
        {"self_drawn": True, "wall_last": True},
        {"Last Tile Draw": 1},
        8,
    ),
    Case(
        "LastTileClaim",
        "67m44z",
        "8m",
        "c234m c567p p888s",
        {"wall_last": True},
        {"Last Tile Claim": 1},
        8,
    ),
    Case("LastTile", "67m44z", "8m", "c234m c567p p888s", {"last_tile": True}, {"Last Tile": 1}, 4),
    Case(
        "SelfDrawn", "67m44z", "8m", "c234m c567p p888s", {"self_drawn": True}, {"Self-Drawn": 1}, 1
    ),
    Case(
        "RobbingKong",
        "67m44z",
        "8m",
        "c234m c567p p888s",
        {"kong_related": True, "last_tile": True},
        {"Robbing the Kong": 1},
        8,
    ),
    Case(
        "HalfFlush",
        "123p67p99p",
        "8p",
        "c123p p555z",
        {},
        {"Half Flush": 1, "Dragon Pung": 1, "Pure Double Chow": 1},
        9,
    ),
    Case(
        "AllTypes",
        "123m456p789s6z",
        "6z",
        "p111z",
        {},
        {
            "Mixed Straight": 1,
            "All Types": 1,
            "Prevalent Wind": 1,
            "Seat Wind": 1,
            "Single Wait": 1,
        },
        19,
    ),
    Case(
        "OutsideHand",
        "123m789p9s",
        "9s",
        "c789m p777z",
        {},
        {
            "Outside Hand": 1,
            "Dragon Pung": 1,
            "Mixed Double Chow": 1,
            "Two Terminal Chows": 1,
            "Single Wait": 1,
        },
        9,
    ),
    Case(
        "FullyConcealed",
        "123m456m789p234s7z",
        "7z",
        "",
        {"self_drawn": True},
        {"Fully Concealed Hand": 1, "Short Straight": 1, "Single Wait": 1},
        6,
    ),
    Case(
        "ConcealedHand",
        "123m456m789p234s7z",
        "7z",
        "",
        {},
        {"Concealed Hand": 1, "Short Straight": 1, "Single Wait": 1},
        4,
    ),
    Case(
        "DragonPung",
        "67m44z",
        "8m",
        "c234m c567p p555z",
        {},
        {"Dragon Pung": 1, "One Voided Suit": 1},
        3,
    ),
    Case(
        "PrevalentWind",
        "67m44z",
        "8m",
        "c234m c567p p222z",
        {"prevalent_wind": 1, "seat_wind": 2},
        {"Prevalent Wind": 1, "One Voided Suit": 1},
        3,
    ),
    Case(
        "SeatWind",
        "67m44z",
        "8m",
        "c234m c567p p222z",
        {"prevalent_wind": 3, "seat_wind": 1},
        {"Seat Wind": 1, "One Voided Suit": 1},
        3,
    ),
    Case(
        "AllChows", "67m44s", "8m", "c234m c567p c345s", {}, {"All Chows": 1, "All Simples": 1}, 4
    ),
    Case(
        "TileHog", "67m44z", "8m", "c234m c567p p777m", {}, {"Tile Hog": 1, "One Voided Suit": 1}, 3
    ),
    Case("DoublePung", "67m44z", "8m", "c234m p777p p777s", {}, {"Double Pung": 1}, 2),
    Case("TwoConcealedPungs", "777p888s67m44z", "8m", "c234m", {}, {"Two Concealed Pungs": 1}, 2),
    Case("ConcealedKong", "67m44z", "8m", "c234m c567p K8888s", {}, {"Concealed Kong": 1}, 2),
    Case("AllSimples", "67m44s", "8m", "c234m c567p p888s", {}, {"All Simples": 1}, 2),
    Case(
        "PureDoubleChow",
        "67m44z",
        "8m",
        "c234m c567p c567p",
        {},
        {"Pure Double Chow": 1, "One Voided Suit": 1},
        2,
    ),
    Case("MixedDoubleChow", "67m44z", "8m", "c234m c567p c567s", {}, {"Mixed Double Chow": 1}, 1),
    Case(
        "ShortStraight",
        "67m44z",
        "8m",
        "c234m c567p c234p",
        {},
        {"Mixed Double Chow": 1, "Short Straight": 1, "One Voided Suit": 1},
        3,
    ),
    Case(
        "TwoTerminalChows",
        "67m44z",
        "8m",
        "c234m c123p c789p",
        {},
        {"Two Terminal Chows": 1, "One Voided Suit": 1},
        2,
    ),
    Case("PungTH", "67m44z", "8m", "c234m c567p p999s", {}, {"Pung of Terminals or Honors": 1}, 1),
    Case("MeldedKong", "67m44z", "8m", "c234m c567p k8888s", {}, {"Melded Kong": 1}, 1),
    # The other three 8m are in the hand's own pung: Last Tile whatever the caller says.
    Case(
        "OneVoided",
        "67m44z",
        "8m",
        "c234m c567p p888m",
        {},
        {"Last Tile": 1, "Tile Hog": 1, "One Voided Suit": 1},
        7,
    ),
    Case("NoHonors", "67m44s", "8m", "c234m c567p p888s", {}, {"All Simples": 1}, 2),
    Case("EdgeWait", "12m44z", "3m", "c234m c567p p888s", {}, {"Edge Wait": 1}, 1),
    Case("ClosedWait", "13m44z", "2m", "c234m c567p p888s", {}, {"Closed Wait": 1}, 1),
    Case("SingleWait", "456m4z", "4z", "c234m c567p p888s", {}, {"Single Wait": 1}, 1),
    Case(
        "Flowers",
        "67m44z",
        "8m",
        "c234m c567p p888s",
        {"flowers": 3},
        {"Chicken Hand": 1, "Flower Tiles": 3},
        11,
    ),
    Case(
        "Reversible",
        "123p345p5s",
        "5s",
        "c456s p888p",
        {},
        {"Reversible Tiles": 1, "No Honors": 1, "Single Wait": 1},
        10,
    ),
    Case(
        "TwoConcealedKongs",
        "345m456p9s",
        "9s",
        "K2222m K5555s",
        {},
        {"Two Concealed Kongs": 1, "Concealed Hand": 1, "No Honors": 1, "Single Wait": 1},
        12,
    ),
    Case(
        "MixedShiftedChows",
        "234m345p789s9m",
        "9m",
        "c456s",
        {},
        {"Mixed Shifted Chows": 1, "All Chows": 1, "Short Straight": 1, "Single Wait": 1},
        10,
    ),
    Case(
        "UpperTiles",
        "789p888s999s8m",
        "8m",
        "c789m",
        {},
        {
            "Upper Tiles": 1,
            "Two Concealed Pungs": 1,
            "Mixed Double Chow": 1,
            "Pung of Terminals or Honors": 1,
            "Single Wait": 1,
        },
        29,
    ),
    Case(
        "MiddleTiles",
        "456m456p555s6s",
        "6s",
        "c456s",
        {},
        {"Middle Tiles": 1, "Mixed Triple Chow": 1, "Tile Hog": 1},
        34,
    ),
    Case(
        "LowerTiles",
        "123m123p111s3s",
        "3s",
        "c123s",
        {},
        {"Lower Tiles": 1, "Mixed Triple Chow": 1, "Tile Hog": 1, "Pung of Terminals or Honors": 1},
        35,
    ),
    Case(
        "PureStraight",
        "123m456m789m1p",
        "1p",
        "c789s",
        {},
        {"Pure Straight": 1, "All Chows": 1, "Mixed Double Chow": 1, "Single Wait": 1},
        20,
    ),
    Case(
        "AllFives",
        "456p555p555m5s",
        "5s",
        "c345s",
        {},
        {
            "All Fives": 1,
            "Tile Hog": 1,
            "Double Pung": 1,
            "Two Concealed Pungs": 1,
            "Single Wait": 1,
        },
        23,
    ),
    Case(
        "TriplePung",
        "222m222p222s567s3z",
        "3z",
        "",
        {},
        {"Triple Pung": 1, "Three Concealed Pungs": 1, "Concealed Hand": 1, "Single Wait": 1},
        35,
    ),
    Case(
        "TCP",
        "111m333p555s9s",
        "9s",
        "c789m",
        {},
        {
            "Three Concealed Pungs": 1,
            "Pung of Terminals or Honors": 1,
            "No Honors": 1,
            "Single Wait": 1,
        },
        19,
    ),
    Case(
        "BFW",
        "333z444z5m",
        "5m",
        "p111z p222z",
        {},
        {"Big Four Winds": 1, "Half Flush": 1, "Two Concealed Pungs": 1, "Single Wait": 1},
        97,
    ),
    Case(
        "BTD",
        "777z234m9m",
        "9m",
        "p555z p666z",
        {},
        {"Big Three Dragons": 1, "Half Flush": 1, "Single Wait": 1},
        95,
    ),
    Case(
        "AllGreen",
        "234s234s666s66z88s",
        "6z",
        "",
        {},
        {"All Green": 1, "Dragon Pung": 1, "Concealed Hand": 1, "Pure Double Chow": 1},
        93,
    ),
    # 111 234 55 678 999: Nine Gates absorbs one of the two terminal pungs.
    Case(
        "NineGates",
        "1112345678999m",
        "5m",
        "",
        {},
        {"Nine Gates": 1, "Two Concealed Pungs": 1, "Pung of Terminals or Honors": 1},
        91,
    ),
    Case(
        "FourKongs",
        "9s",
        "9s",
        "k1111m k2222z K3333z k5555p",
        {},
        {"Four Kongs": 1, "Pung of Terminals or Honors": 3},
        91,
    ),
    Case(
        "SevenShifted",
        "2233445566778s",
        "8s",
        "",
        {},
        {"Seven Shifted Pairs": 1, "All Simples": 1},
        90,
    ),
    Case("13O", "19m19p19s1234567z", "1m", "", {}, {"Thirteen Orphans": 1}, 88),
    Case(
        "AllTerminals",
        "999m111p999p9s",
        "9s",
        "p111m",
        {},
        {"All Terminals": 1, "Three Concealed Pungs": 1, "Single Wait": 1},
        81,
    ),
    Case(
        "LFW",
        "333z44z12m",
        "3m",
        "p111z p222z",
        {},
        {
            "Little Four Winds": 1,
            "Half Flush": 1,
            "Outside Hand": 1,
            "Prevalent Wind": 1,
            "Seat Wind": 1,
            "Edge Wait": 1,
        },
        79,
    ),
    Case(
        "LTD",
        "77z123m45m",
        "6m",
        "p555z p666z",
        {},
        {"Little Three Dragons": 1, "Half Flush": 1, "Short Straight": 1},
        71,
    ),
    Case(
        "AllHonors",
        "222z333z55z66z",
        "5z",
        "p111z",
        {},
        {
            "All Honors": 1,
            "Big Three Winds": 1,
            "Dragon Pung": 1,
            "Prevalent Wind": 1,
            "Seat Wind": 1,
            "Two Concealed Pungs": 1,
        },
        84,
    ),
    Case(
        "FCP",
        "111m555p999s444z5m",
        "5m",
        "",
        {},
        {"Four Concealed Pungs": 1, "Pung of Terminals or Honors": 3, "Single Wait": 1},
        68,
    ),
    Case(
        "PTC",
        "123m123m789m789m5m",
        "5m",
        "",
        {},
        {"Pure Terminal Chows": 1, "Concealed Hand": 1, "Single Wait": 1},
        67,
    ),
    Case(
        "QC",
        "234p234p234p234p5s",
        "5s",
        "",
        {},
        {
            "Quadruple Chow": 1,
            "Reversible Tiles": 1,
            "Concealed Hand": 1,
            "All Chows": 1,
            "All Simples": 1,
            "Single Wait": 1,
        },
        63,
    ),
    Case(
        "FPSP",
        "222s333s444s5z",
        "5z",
        "p111s",
        {},
        {
            "Four Pure Shifted Pungs": 1,
            "Three Concealed Pungs": 1,
            "Half Flush": 1,
            "Pung of Terminals or Honors": 1,
            "Single Wait": 1,
        },
        72,
    ),
    Case(
        "FPSC",
        "123s345s567s789s5p",
        "5p",
        "",
        {},
        {
            "Four Pure Shifted Chows": 1,
            "Concealed Hand": 1,
            "All Chows": 1,
            "One Voided Suit": 1,
            "Single Wait": 1,
        },
        38,
    ),
    Case(
        "ThreeKongs",
        "456m9p",
        "9p",
        "k1111m k2222p K7777s",
        {},
        {"Three Kongs": 1, "Pung of Terminals or Honors": 1, "No Honors": 1, "Single Wait": 1},
        35,
    ),
    Case(
        "ATH",
        "999p111z555z9s",
        "9s",
        "p111m",
        {},
        {
            "All Terminals and Honors": 1,
            "Three Concealed Pungs": 1,
            "All Types": 1,
            "Dragon Pung": 1,
            "Prevalent Wind": 1,
            "Seat Wind": 1,
            "Single Wait": 1,
        },
        61,
    ),
    Case("SevenPairs", "1133m5577p22s66z7z", "7z", "", {}, {"Seven Pairs": 1}, 24),
    Case("GHK", "1234567z147m258p", "3s", "", {}, {"Greater Honors and Knitted Tiles": 1}, 24),
    Case(
        "AEP",
        "444p666s888m8s",
        "8s",
        "p222m",
        {},
        {"All Even Pungs": 1, "Three Concealed Pungs": 1},
        40,
    ),
    Case(
        "FullFlush",
        "345p678p456p9p",
        "9p",
        "c123p",
        {},
        {"Full Flush": 1, "All Chows": 1, "Short Straight": 2},
        28,
    ),
    Case(
        "PSP",
        "555m666m777m3s",
        "3s",
        "c123p",
        {},
        {"Pure Shifted Pungs": 1, "Three Concealed Pungs": 1, "No Honors": 1, "Single Wait": 1},
        42,
    ),
    Case(
        "3STC",
        "123m789m123p789p5s",
        "5s",
        "",
        {},
        {"Three-Suited Terminal Chows": 1, "Concealed Hand": 1, "Single Wait": 1},
        19,
    ),
    Case(
        "PSC",
        "123p234p345p7z",
        "7z",
        "p111z",
        {},
        {
            "Pure Shifted Chows": 1,
            "Half Flush": 1,
            "Prevalent Wind": 1,
            "Seat Wind": 1,
            "Single Wait": 1,
        },
        27,
    ),
    Case(
        "LHK",
        "147m258p369s1237z",
        "5z",
        "",
        {},
        {"Lesser Honors and Knitted Tiles": 1, "Knitted Straight": 1},
        24,
    ),
    Case(
        "KS",
        "147m258p369s1s2s55z",
        "3s",
        "",
        {},
        {"Knitted Straight": 1, "Concealed Hand": 1, "Edge Wait": 1},
        15,
    ),
    Case(
        "UpperFour",
        "678m789p66s77s",
        "7s",
        "c678s",
        {},
        {"Upper Four": 1, "Tile Hog": 1, "Mixed Double Chow": 1},
        15,
    ),
    Case(
        "LowerFour",
        "123m234p11s44s",
        "4s",
        "c234s",
        {},
        {"Lower Four": 1, "Tile Hog": 1, "Mixed Double Chow": 1},
        15,
    ),
    Case(
        "BTW",
        "111z222z333z5p",
        "5p",
        "c234m",
        {},
        {
            "Three Concealed Pungs": 1,
            "Big Three Winds": 1,
            "Prevalent Wind": 1,
            "Seat Wind": 1,
            "One Voided Suit": 1,
            "Single Wait": 1,
        },
        34,
    ),
    Case(
        "MixedStraight",
        "123m456p789s1z",
        "1z",
        "c234m",
        {},
        {"Mixed Straight": 1, "Single Wait": 1},
        9,
    ),
    Case(
        "MixedShiftedPungs",
        "444m555p666s2z",
        "2z",
        "c123m",
        {},
        {"Three Concealed Pungs": 1, "Mixed Shifted Pungs": 1, "Single Wait": 1},
        25,
    ),
    Case(
        "OutWithReplacement",
        "123m456p9s",
        "9s",
        "c345m k4444z",
        {"self_drawn": True, "kong_related": True},
        {
            "Out with Replacement Tile": 1,
            "Pung of Terminals or Honors": 1,
            "Melded Kong": 1,
            "Single Wait": 1,
        },
        11,
    ),
    Case(
        "AllPungs",
        "333m777s9p",
        "9p",
        "p444p p222z",
        {},
        {
            "All Pungs": 1,
            "Two Concealed Pungs": 1,
            "Pung of Terminals or Honors": 1,
            "Single Wait": 1,
        },
        10,
    ),
    Case(
        "MeldedHand",
        "9m",
        "9m",
        "c123m c456p p777s p111z",
        {},
        {"Melded Hand": 1, "Prevalent Wind": 1, "Seat Wind": 1},
        10,
    ),
    Case(
        "TwoDragonPungs",
        "789m234p7s",
        "7s",
        "p555z p666z",
        {},
        {"Two Dragon Pungs": 1, "Single Wait": 1},
        7,
    ),
    Case(
        "CKMK",
        "123p567s9m",
        "9m",
        "k2222m K8888p",
        {},
        {"Concealed Kong and Melded Kong": 1, "No Honors": 1, "Single Wait": 1},
        8,
    ),
    Case(
        "TwoMeldedKongs",
        "123p567s9m",
        "9m",
        "k2222m k8888p",
        {},
        {"Two Melded Kongs": 1, "No Honors": 1, "Single Wait": 1},
        6,
    ),
    Case(
        "PureTripleChow2",
        "123m789s5p",
        "5p",
        "c123m c123m",
        {},
        {"Pure Triple Chow": 1, "All Chows": 1, "Single Wait": 1},
        27,
    ),
    # More rulebook-style hands: fans that combine.
    Case(
        "PSCstep2",
        "123p345p567p9s",
        "9s",
        "c789m",
        {},
        {"Pure Shifted Chows": 1, "All Chows": 1, "Single Wait": 1},
        19,
    ),
    Case(
        "FPSCstep1",
        "123s234s345s456s7z",
        "7z",
        "",
        {},
        {"Four Pure Shifted Chows": 1, "Half Flush": 1, "Concealed Hand": 1, "Single Wait": 1},
        41,
    ),
    Case(
        "AllGreenFullFlush",
        "234s234s666s888s2s",
        "2s",
        "",
        {},
        {
            "All Green": 1,
            "Full Flush": 1,
            "Concealed Hand": 1,
            "Tile Hog": 1,
            "Two Concealed Pungs": 1,
            "All Simples": 1,
            "Pure Double Chow": 1,
        },
        121,
    ),
    Case(
        "BFWAllHonors",
        "333z444z5z",
        "5z",
        "p111z p222z",
        {},
        {"Big Four Winds": 1, "All Honors": 1, "Two Concealed Pungs": 1, "Single Wait": 1},
        155,
    ),
    Case(
        "SevenPairsATH",
        "1199m1199p11z55z7z",
        "7z",
        "",
        {},
        {"All Terminals and Honors": 1, "Seven Pairs": 1, "One Voided Suit": 1},
        57,
    ),
    Case(
        "SevenPairsHalfFlush",
        "1133557799m11z7z",
        "7z",
        "",
        {},
        {"Seven Pairs": 1, "Half Flush": 1},
        30,
    ),
    Case(
        "KnittedMelded",
        "147m258p369s5z",
        "5z",
        "p111z",
        {},
        {
            "Knitted Straight": 1,
            "All Types": 1,
            "Prevalent Wind": 1,
            "Seat Wind": 1,
            "Single Wait": 1,
        },
        23,
    ),
    Case(
        "MixedShiftedPungs2",
        "333p444s9m",
        "9m",
        "p222m c567p",
        {},
        {"Mixed Shifted Pungs": 1, "Two Concealed Pungs": 1, "No Honors": 1, "Single Wait": 1},
        12,
    ),
    Case(
        "LFWSeat",
        "333z44z12m",
        "3m",
        "p111z p222z",
        {},
        {
            "Little Four Winds": 1,
            "Half Flush": 1,
            "Outside Hand": 1,
            "Prevalent Wind": 1,
            "Seat Wind": 1,
            "Edge Wait": 1,
        },
        79,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_b5_fan_table(case: Case) -> None:
    result = score(case.hand, case.win, case.melds, **case.context)
    assert fan_counts(result) == case.fans
    assert result.total == case.total
    flowers = int(case.context.get("flowers", 0))  # type: ignore[call-overload]
    assert result.winning == (case.total - flowers >= 8)


def test_b5_every_fan_has_a_rulebook_example() -> None:
    covered = {name for case in CASES for name in case.fans}
    assert covered == set(FAN_NAME)


def test_b5_fan_names_and_points_match_rules_table() -> None:
    assert len(FAN_NAME) == 82  # 81 fans + the kong combination of docs/RULES.md B5
    assert FAN_POINTS[Fan.BIG_FOUR_WINDS] == 88
    assert FAN_POINTS[Fan.TWO_CONCEALED_KONGS] == 8
    assert FAN_POINTS[Fan.CONCEALED_KONG_AND_MELDED_KONG] == 6
    assert FAN_POINTS[Fan.TWO_MELDED_KONGS] == 4
    assert FAN_NAME[Fan.SELF_DRAWN] == "Self-Drawn"
    assert FAN_NAME[Fan.PUNG_OF_TERMINALS_OR_HONORS] == "Pung of Terminals or Honors"


def test_b5_points_in_table_are_the_reported_points() -> None:
    for case in CASES:
        result = score(case.hand, case.win, case.melds, **case.context)
        for name, points, _count in result.fans:
            assert FAN_POINTS[FAN_NAME.index(name)] == points
        assert result.total == sum(p * c for _n, p, c in result.fans)


def test_b5_docs_exclusion_table_matches_the_code() -> None:
    from pathlib import Path

    from fourwinds.protocol.mcr.fans import EXCLUSION_TABLE

    text = (Path(__file__).resolve().parents[3] / "docs" / "MCR-FANS.md").read_text()
    section = text.split("## Exclusion table", 1)[1].split("Partial exclusions", 1)[0]
    documented: dict[str, set[str]] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and " (" in cells[0]:
            documented[cells[0].rsplit(" (", 1)[0]] = set(cells[1].split(", "))
    in_code = {FAN_NAME[fan]: {FAN_NAME[e] for e in excluded} for fan, excluded in EXCLUSION_TABLE}
    assert documented == in_code
