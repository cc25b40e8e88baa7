"""The 20 worked examples of RULES.md section 12 as data: request, deltas, next hand.

The rules_core tests assert every detail of each example; this table lets the
service tests check the same examples over the wire.
"""

from __future__ import annotations

from rules_core import NextHand, Outcome, SettleRequest, parse_tiles
from rules_core.build import claims, dice, winner
from rules_core.requests import replace

SELF, DISCARD, ROB = Outcome.SELF_DRAW, Outcome.DISCARD, Outcome.ROBBING_KONG


def _request(profile, outcome, winners, **table) -> SettleRequest:
    return SettleRequest(profile=profile, outcome=outcome, winners=tuple(winners), **table)


_EX1 = _request("classic", SELF, [winner(0, "111m 555m 999p EEE 77s", win="7s", flowers="1f 5f")])
_EX4 = winner(2, "456p 789p 111p 55p [123p@1]", win="5p")
_EX7 = _request("classic", DISCARD, [winner(0, "7s 7s [123m@3] [456p@3] [789s@3] [EEE@1]", win="7s")], discarder_seat=2)
_EX9 = _request("lezi", SELF, [winner(3, "222m 333p 999s 55m [EEE@2]", win="5m", flowers="2f 3f 4f")], dice=dice(3, 3))
_EX13 = _request(
    "lezi",
    DISCARD,
    [winner(1, "456s 99s [111s@2] [222s@2] [333s@2]", win="9s")],
    discarder_seat=0,
    liabilities=(claims(1, 2),),
)
_EX19 = winner(3, "222m 333p 999s 55m [EEE@2]", win="5m", flowers="2f 3f 4f", passed="5m")

# (name, request, seat deltas, next hand or None)
WORKED_EXAMPLES = [
    ("1", _EX1, (36, -12, -12, -12), NextHand(0, 0)),
    ("2", replace(_EX1, huangfan_count=2), (72, -24, -24, -24), NextHand(0, 1)),
    ("3", replace(_EX1, dice=dice(2, 2)), (72, -24, -24, -24), NextHand(0, 0)),
    ("4", _request("classic", DISCARD, [_EX4], discarder_seat=1), (0, -20, 20, 0), NextHand(2, 0)),
    ("5", _request("lezi", DISCARD, [_EX4], discarder_seat=1), (0, -10, 10, 0), NextHand(2, 0)),
    (
        "6",
        _request("classic", DISCARD, [winner(1, "456p 789s 234s EE [123m@0]", win="E")], discarder_seat=3),
        (0, 0, 0, 0),
        None,
    ),
    ("7", _EX7, (20, 0, -20, 0), NextHand(0, 0)),
    ("7-lezi", replace(_EX7, profile="lezi"), (0, 0, 0, 0), None),
    (
        "8",
        _request("classic", SELF, [winner(0, "123m 456p 789s 234s EE", win="E", first_go_around=True)]),
        (600, -200, -200, -200),
        NextHand(0, 0),
    ),
    ("9", _EX9, (-12, -12, -12, 36), NextHand(3, 0)),
    ("10", replace(_EX9, huangfan_count=1), (-24, -24, -24, 72), NextHand(3, 0)),
    (
        "11",
        _request(
            "lezi", SELF, [winner(1, "111p 555s 777s 33m [9999m@0]", win="3m", flowers="6f", replacement_draw=True)]
        ),
        (-10, 30, -10, -10),
        NextHand(1, 0),
    ),
    (
        "12",
        _request(
            "lezi",
            ROB,
            [winner(0, "678p 99p [WWW@1] [NNN@1] [SSS@1]", win="8p")],
            discarder_seat=2,
            liabilities=(claims(0, 1),),
        ),
        (30, -15, -15, 0),
        NextHand(0, 0),
    ),
    ("13", _EX13, (-10, 20, -10, 0), NextHand(1, 0)),
    ("13-both", replace(_EX13, liabilities=(claims(1, 2), claims(2, 1))), (-10, 30, -20, 0), NextHand(1, 0)),
    ("14", replace(_EX13, outcome=SELF), (-10, 60, -40, -10), NextHand(1, 0)),
    ("15", replace(_EX13, profile="sankou"), (-20, 40, -20, 0), NextHand(1, 0)),
    ("15-related", replace(_EX13, profile="sankou", discarder_seat=2), (0, 40, -40, 0), NextHand(1, 0)),
    (
        "16",
        _request(
            "sankou",
            SELF,
            [winner(2, "222m 444p 666s WWW 88s", win="8s", flowers="1f 2f 3f")],
            liabilities=(claims(3, 2),),
        ),
        (0, 0, 100, -100),
        NextHand(2, 0),
    ),
    (
        "17",
        _request(
            "classic",
            DISCARD,
            [
                winner(0, "111m 999m 55m [EEE@3] [SSS@1]", win="5m"),
                winner(2, "888s 55m [222s@0] [444s@3] [666s@1]", win="5m", flowers="1f 2f"),
            ],
            discarder_seat=3,
        ),
        (20, 0, 5, -25),
        NextHand(0, 0),
    ),
    (
        "18",
        _request(
            "lezi", Outcome.EIGHT_FLOWERS, [winner(2, "123m 456p 789s 234s E", flowers="1f 2f 3f 4f 5f 6f 7f 8f")]
        ),
        (-20, -20, 60, -20),
        NextHand(2, 0),
    ),
    ("19", _request("lezi", DISCARD, [_EX19], discarder_seat=1), (0, 0, 0, 0), None),
    ("19-self", _request("lezi", SELF, [_EX19]), (-6, -6, -6, 18), NextHand(3, 0)),
    (
        "19-other",
        _request("lezi", DISCARD, [replace(_EX19, passed_tiles=parse_tiles("9s"))], discarder_seat=1),
        (0, -6, 0, 6),
        NextHand(3, 0),
    ),
    (
        "20",
        _request("classic", Outcome.EXHAUSTIVE_DRAW, [], huangfan_count=1, dealer_seat=2, dice=dice(1, 1)),
        (0, 0, 0, 0),
        NextHand(2, 4),
    ),
]

# The requests by example name ("1" ... "20", and the variants the examples mention).
REQUESTS = {name: request for name, request, _, _ in WORKED_EXAMPLES}
