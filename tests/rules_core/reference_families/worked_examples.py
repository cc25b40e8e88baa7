"""The worked examples of RULES.md 14.8 and 14.10.11 as JSON requests with their stated answers:
``(name, request, deltas, winners, next_hand)``, where ``winners`` lists, per claimed winner, its
value when legal or its reasons when not, and ``next_hand`` is (dealer, 荒番 count) or None.
Seat 0 is the dealer, no dice, 荒番 0, and under `qiaoma` seat 0 has knocked, unless stated."""

from __future__ import annotations

from tests.rules_core.reference_families.requests import relation, request, win

QL, QHP, Q = "qiaoma_lezi", "qinghunpeng", "qiaoma"
K0 = {"declared": [0]}


def _q(outcome, winners, **table):
    return request(Q, outcome, winners, **({**K0, **table}))


_EX9 = "11m 22m 5555p 77s 99s EE 2f 4f"
_EX13 = "666m 88p [222s@3] [444p@3] [WWW@3] 8f"
_Q2 = "123p 123s 789m NN [123m@3]"
_Q1 = "123m 123p 123s 789m NN"
_P = win(0, _Q1 + " 1f 2f 3f 4f", "N")
_PARTNERS = [relation(1, 0, 4, True), relation(3, 0, 4, True)]
_E1 = win(0, "111m 234m 567m EEE 99m 1f 2f", "9m")
_E2 = win(0, "567p 11p [WWW@2] [888p@2] [333p@2] Cf", "1p")
_E3 = win(3, "789s 55s [111s@2] [999s@2] [NNN@2] 2f Ff", "7s")
_E3_LIABILITIES = [relation(3, 2, 3, True), relation(0, 3, 4, False)]
_ZERO = [0, 0, 0, 0]

EXAMPLES = [
    # 14.8
    ("14.8-1", request(QL, "self", [win(1, "123m 456p 789s 234s EE 1f 2f Cf Ff", "E")]), [-14, 42, -14, -14], [14], (1, 0)),
    ("14.8-2-discard", request(QL, "discard", [win(2, "123m 456m 789p 234s 55s", "5s")], discarder=1), _ZERO, [["NO_FLOWERS_SELF_DRAW_ONLY"]], None),
    ("14.8-2-self", request(QL, "self", [win(2, "123m 456m 789p 234s 55s", "5s")]), [-9, -9, 27, -9], [9], (2, 0)),
    ("14.8-3", request(QL, "discard", [win(3, "123p 345p 678p 999p 22p 1f 2f 3f Cf Cf Pf", "9p")], discarder=2), [0, 0, -30, 30], [30], (3, 0)),
    ("14.8-4", request(QHP, "discard", [win(1, "111s 555s 999s EE [CCC@3] 5f 6f 7f", "E")], discarder=0), [-5, 5, 0, 0], [5], (1, 0)),
    ("14.8-5-qhp", request(QHP, "self", [win(2, "222p 444p 888p 99p [6666p]", "9p", replacementDraw=True)]), [-40, -40, 120, -40], [40], (2, 0)),
    ("14.8-5-ql", request(QL, "self", [win(2, "222p 444p 888p 99p [6666p]", "9p", replacementDraw=True)]), [-60, -60, 180, -60], [60], (2, 0)),
    ("14.8-6-ql", request(QL, "discard", [win(1, "456p 789s 234s EE [123m@0] 3f", "E")], discarder=3), [0, 4, 0, -4], [4], (1, 0)),
    ("14.8-6-qhp", request(QHP, "discard", [win(1, "456p 789s 234s EE [123m@0] 3f", "E")], discarder=3), _ZERO, [["NO_QUALIFYING_PATTERN"]], None),
    ("14.8-7-ql", request(QL, "self", [win(0, "EEEE SSSS WWWW NN Ff", "N")], dealer=1), [150, -50, -50, -50], [50], (0, 0)),
    ("14.8-7-qhp", request(QHP, "self", [win(0, "EEEE SSSS WWWW NN 1f", "N")], dealer=1), [90, -30, -30, -30], [30], (0, 0)),
    ("14.8-8", request(QHP, "self", [win(2, "EEE SS W NN CC F PPP", "P")]), _ZERO, [["INCOMPLETE_SHAPE"]], None),
    ("14.8-9-on", request(QHP, "self", [win(3, _EX9, "E")], overrides={"sevenPairs": True}), [-8, -8, -8, 24], [8], (3, 0)),
    ("14.8-9-off", request(QHP, "self", [win(3, _EX9, "E")]), _ZERO, [["INCOMPLETE_SHAPE"]], None),
    ("14.8-9-flush", request(QHP, "self", [win(3, "11223344556677m 2f 4f", "7m")], overrides={"sevenPairs": True}), [-20, -20, -20, 60], [20], (3, 0)),
    ("14.8-10", request(QL, "eight", [win(2, "123m 456m 99p EE [7777s] 1f 2f 3f 4f 5f 6f 7f 8f Cf Pf")]), [-80, -80, 240, -80], [80], (2, 0)),
    ("14.8-11-qhp", request(QHP, "self", [win(0, "111m 234m 567m 999m EE 1f 2f", "E", firstGoAround=True)]), [120, -40, -40, -40], [40], (0, 0)),
    ("14.8-11-ql", request(QL, "self", [win(0, "111m 234m 567m 999m EE 1f 2f", "E", firstGoAround=True)]), [165, -55, -55, -55], [55], (0, 0)),
    ("14.8-12-self", request(QL, "self", [win(1, "123m 456m 789p 11s 345s 3f", "5s", firstGoAround=True)]), [-40, 120, -40, -40], [40], (1, 0)),
    ("14.8-12-discard", request(QL, "discard", [win(1, "123m 456m 789p 11s 345s 3f", "5s", firstGoAround=True)], discarder=0), [-8, 8, 0, 0], [8], (1, 0)),
    ("14.8-13-self", request(QHP, "self", [win(0, _EX13, "8p")], liabilities=[relation(0, 3, 3)]), [20, 0, 0, -20], [4], (0, 0)),
    ("14.8-13-liable-discards", request(QHP, "discard", [win(0, _EX13, "8p")], discarder=3, liabilities=[relation(0, 3, 3)]), [12, 0, 0, -12], [4], (0, 0)),
    ("14.8-13-other-discards", request(QHP, "discard", [win(0, _EX13, "8p")], discarder=2, liabilities=[relation(0, 3, 3)]), [4, 0, -4, 0], [4], (0, 0)),
    ("14.8-13-kong", request(QHP, "self", [win(0, "666m 88p [222s@3] [4444p@3] [WWW@3] 8f", "8p")], liabilities=[relation(0, 3, 2)]), [15, -5, -5, -5], [5], (0, 0)),
    ("14.8-14", request(QL, "discard", [win(3, "99m [111m@1] [333m@2] [555m@0] [777m@1] 6f", "9m")], discarder=1, huangfan=2, dice=(1, 4)), [0, -400, 0, 400], [400], (3, 0)),
    ("14.8-15", request(QHP, "discard", [win(0, "111m 999m 55m [EEE@3] [SSS@1]", "5m"), win(2, "888s 55m [222s@0] [444s@3] [666s@1] 1f 2f", "5m")], discarder=3), [4, 0, 4, -8], [4, 4], (3, 0)),
    ("14.8-16-self", request(QHP, "self", [win(2, "EEE 123p 456p 789p 55p", "5p")]), [-6, -6, 18, -6], [6], (2, 0)),
    ("14.8-16-discard", request(QHP, "discard", [win(2, "EEE 123p 456p 789p 55p", "5p")], discarder=1), [0, -6, 6, 0], [6], (2, 0)),
    ("14.8-17", request(QL, "rob", [win(2, "123m 456m 789m 456s 99s 2f", "6s")], discarder=3), [0, 0, 36, -36], [12], (2, 0)),
    ("14.8-18", request(QHP, "rob", [win(1, "123p 456p 789p NNN 99p 1f", "3p", passed="3p")], discarder=0), _ZERO, [["MISSED_WIN"]], None),
    ("14.8-19", request(QL, "self", [win(0, "111p 555s 77s [EEEE] [9999m@1] 1f 2f 3f 4f 5f Cf Cf Ff Ff Pf Pf", "7s", lastTile=True)], dealer=2), [162, -54, -54, -54], [54], (0, 0)),
    ("14.8-20-count-2", request(QL, "draw", [], dealer=2, huangfan=2), _ZERO, [], (2, 3)),
    ("14.8-20-count-3", request(QL, "draw", [], dealer=2, huangfan=3), _ZERO, [], (2, 3)),
    # 14.10.11
    ("Q1", _q("discard", [win(0, _Q1, "N")], discarder=2), [22, 0, -22, 0], [22], (0, 0)),
    ("Q1-not-knocked", _q("discard", [win(0, _Q1, "N")], discarder=2, declared=[]), _ZERO, [["NOT_DECLARED"]], None),
    ("Q2-no-flowers", _q("discard", [win(0, _Q2, "N")], discarder=2), [11, 0, -11, 0], [11], (0, 0)),
    ("Q2-1f-discard", _q("discard", [win(0, _Q2 + " 1f", "N")], discarder=2), _ZERO, [["TOO_FEW_FLOWERS"]], None),
    ("Q2-1f-self", _q("self", [win(0, _Q2 + " 1f", "N")]), _ZERO, [["TOO_FEW_FLOWERS"]], None),
    ("Q2-1f-Cf-discard", _q("discard", [win(0, _Q2 + " 1f Cf", "N")], discarder=2), _ZERO, [["TOO_FEW_FLOWERS"]], None),
    ("Q2-1f-Cf-self", _q("self", [win(0, _Q2 + " 1f Cf", "N")]), [9, -3, -3, -3], [3], (0, 0)),
    ("Q2-three-flowers", _q("discard", [win(0, _Q2 + " 1f Cf Pf", "N")], discarder=2), [4, 0, -4, 0], [4], (0, 0)),
    ("Q3-bloom-1f", _q("self", [win(0, _Q2 + " 1f", "N", replacementDraw=True)]), _ZERO, [["TOO_FEW_FLOWERS"]], None),
    ("Q3-rob-2f", _q("rob", [win(0, _Q2 + " 1f 2f", "9m")], discarder=2), _ZERO, [["TOO_FEW_FLOWERS"]], None),
    ("Q3-bloom-2f", _q("self", [win(0, _Q2 + " 1f 2f", "N", replacementDraw=True)]), [18, -6, -6, -6], [6], (0, 0)),
    ("Q4", _q("discard", [win(0, "123m 123p 123s EEE NN", "N")], discarder=2), [4, 0, -4, 0], [4], (0, 0)),
    ("Q5", _q("self", [win(0, "111m 333m 555m 777m 99m", "9m", replacementDraw=True)]), [264, -88, -88, -88], [88], (0, 0)),
    ("Q6", _q("discard", [win(0, "EE [123m@3] [456m@3] [789m@3] [111m@1] 1f", "E")], discarder=2, liabilities=[relation(0, 3, 3, True)]), [16, 0, -16, 0], [8], (0, 0)),
    ("Q6-knocked", _q("discard", [win(0, "EE [123m@3] [456m@3] [789m@3] [111m@1] 1f", "E")], discarder=2, declared=[0, 2], liabilities=[relation(0, 3, 3, True)]), [16, 0, -8, -8], [8], (0, 0)),
    ("Q7-self", _q("self", [win(0, _Q2, "N")]), [33, -11, -11, -11], [11], (0, 0)),
    ("Q7-eight-seasons", _q("discard", [win(0, _Q2 + " 1f 2f 3f 4f 5f 6f 7f 8f", "N")], discarder=2), [9, 0, -9, 0], [9], (0, 0)),
    ("Q7-one-fan-discard", _q("discard", [win(0, _Q2 + " 1f 2f 3f", "N")], discarder=2, overrides={"minFan": 1}), _ZERO, [["TOO_FEW_FAN"]], None),
    ("Q7-one-fan-rob", _q("rob", [win(0, _Q2 + " 1f 2f 3f", "9m")], discarder=2, overrides={"minFan": 1}), [8, 0, -8, 0], [8], (0, 0)),
    ("Q7-one-fan-Q1", _q("self", [win(0, _Q1, "N")], overrides={"minFan": 1}), [66, -22, -22, -22], [22], (0, 0)),
    ("Q8", _q("rob", [win(0, _Q1, "3m")], discarder=2), [44, 0, -44, 0], [44], (0, 0)),
    ("P1", _q("self", [_P]), [30, -10, -10, -10], [10], (0, 0)),
    ("P2", _q("discard", [_P], discarder=2), [10, 0, -10, 0], [10], (0, 0)),
    ("P3", _q("self", [_P], liabilities=_PARTNERS), [100, -50, 0, -50], [10], (0, 0)),
    ("P4", _q("discard", [_P], discarder=2, declared=[0, 2], liabilities=_PARTNERS), [30, -10, -10, -10], [10], (0, 0)),
    ("P5", _q("discard", [_P], discarder=2, liabilities=_PARTNERS), [30, 0, -30, 0], [10], (0, 0)),
    ("P6", _q("discard", [_P], discarder=1, declared=[0, 1], liabilities=_PARTNERS), [30, -20, 0, -10], [10], (0, 0)),
    ("P7", _q("discard", [_P], discarder=1, liabilities=_PARTNERS), [30, -30, 0, 0], [10], (0, 0)),
    ("E1-three-kept", _q("self", [_E1], liabilities=[relation(1, 0, 3, True)]), [80, -80, 0, 0], [16], (0, 0)),
    ("E1-four", _q("self", [_E1], liabilities=[relation(1, 0, 4, False)]), [80, -80, 0, 0], [16], (0, 0)),
    ("E1-released", _q("self", [_E1], liabilities=[relation(1, 0, 3, False)]), [48, -16, -16, -16], [16], (0, 0)),
    ("E2-two-knocked", _q("discard", [_E2], discarder=1, declared=[0, 1], liabilities=[relation(0, 2, 3, True)]), [12, -6, -6, 0], [6], (0, 0)),
    ("E2-knocking-discard", _q("discard", [_E2], discarder=1, declared=[0, 1, 2], liabilities=[relation(0, 2, 2, True)]), [6, -6, 0, 0], [6], (0, 0)),
    ("E2-payer-unknocked", _q("discard", [_E2], discarder=1, liabilities=[relation(0, 2, 3, True)]), [12, -12, 0, 0], [6], (0, 0)),
    ("E2-winner-unknocked", _q("discard", [_E2], discarder=1, declared=[1], liabilities=[relation(0, 2, 3, True)]), _ZERO, [["NOT_DECLARED"]], None),
    ("E3-knocked", _q("rob", [_E3], discarder=1, declared=[1, 3], liabilities=_E3_LIABILITIES), [-16, -16, -16, 48], [16], (3, 0)),
    ("E3-unknocked", _q("rob", [_E3], discarder=1, declared=[3], liabilities=_E3_LIABILITIES), [0, -48, 0, 48], [16], (3, 0)),
    ("E4", _q("discard", [win(0, "123m 345m 678m 999m 55m 1f", "5m"), win(3, "456m 234p 789s NN [EEE@1] 3f 4f", "5m")], discarder=2, declared=[0, 3]), [16, 0, -20, 4], [16, 4], (2, 0)),
]  # fmt: skip

# Section 12: the examples of `classic`, `sankou` and `lezi`, in the same form.
C, S, L = "classic", "sankou", "lezi"
_X1 = win(0, "111m 555m 999p EEE 77s 1f 5f", "7s")
_X4 = win(2, "456p 789p 111p 55p [123p@1]", "5p")
_X7 = win(0, "7s 7s [123m@3] [456p@3] [789s@3] [EEE@1]", "7s")
_X9 = "222m 333p 999s 55m [EEE@2] 2f 3f 4f"
_X13 = win(1, "456s 99s [111s@2] [222s@2] [333s@2]", "9s")
_X13_SELF = win(1, "456s 99s [111s@2] [222s@2] [333s@2]", "9s")
_ONE_WAY = [relation(1, 2, 3)]

SECTION_12_EXAMPLES = [
    ("12-1", request(C, "self", [_X1]), [36, -12, -12, -12], [12], (0, 0)),
    ("12-2", request(C, "self", [_X1], huangfan=2), [72, -24, -24, -24], [24], (0, 1)),
    ("12-3", request(C, "self", [_X1], dice=(2, 2)), [72, -24, -24, -24], [24], (0, 0)),
    ("12-4", request(C, "discard", [_X4], discarder=1), [0, -20, 20, 0], [20], (2, 0)),
    ("12-5", request(L, "discard", [_X4], discarder=1), [0, -10, 10, 0], [10], (2, 0)),
    ("12-6", request(C, "discard", [win(1, "456p 789s 234s EE [123m@0]", "E")], discarder=3), _ZERO, [["NO_QUALIFYING_PATTERN"]], None),
    ("12-7", request(C, "discard", [_X7], discarder=2), [20, 0, -20, 0], [20], (0, 0)),
    ("12-7-lezi", request(L, "discard", [_X7], discarder=2), _ZERO, [["NO_QUALIFYING_PATTERN"]], None),
    ("12-8", request(C, "self", [win(0, "123m 456p 789s 234s EE", "E", firstGoAround=True)]), [600, -200, -200, -200], [200], (0, 0)),
    ("12-9", request(L, "self", [win(3, _X9, "5m")], dice=(3, 3)), [-12, -12, -12, 36], [12], (3, 0)),
    ("12-10", request(L, "self", [win(3, _X9, "5m")], dice=(3, 3), huangfan=1), [-24, -24, -24, 72], [24], (3, 0)),
    ("12-11", request(L, "self", [win(1, "111p 555s 777s 33m [9999m@0] 6f", "3m", replacementDraw=True)]), [-10, 30, -10, -10], [10], (1, 0)),
    ("12-12", request(L, "rob", [win(0, "678p 99p [WWW@1] [NNN@1] [SSS@1]", "8p")], discarder=2, liabilities=[relation(0, 1, 3)]), [30, -15, -15, 0], [5], (0, 0)),
    ("12-13", request(L, "discard", [_X13], discarder=0, liabilities=_ONE_WAY), [-10, 20, -10, 0], [10], (1, 0)),
    ("12-13-both", request(L, "discard", [_X13], discarder=0, liabilities=[*_ONE_WAY, relation(2, 1, 3)]), [-10, 30, -20, 0], [10], (1, 0)),
    ("12-14", request(L, "self", [_X13_SELF], liabilities=_ONE_WAY), [-10, 60, -40, -10], [10], (1, 0)),
    ("12-15", request(S, "discard", [_X13], discarder=0, liabilities=_ONE_WAY), [-20, 40, -20, 0], [20], (1, 0)),
    ("12-15-related", request(S, "discard", [_X13], discarder=2, liabilities=_ONE_WAY), [0, 40, -40, 0], [20], (1, 0)),
    ("12-16", request(S, "self", [win(2, "222m 444p 666s WWW 88s 1f 2f 3f", "8s")], liabilities=[relation(3, 2, 3)]), [0, 0, 100, -100], [20], (2, 0)),
    (
        "12-17",
        request(C, "discard", [win(0, "111m 999m 55m [EEE@3] [SSS@1]", "5m"), win(2, "888s 55m [222s@0] [444s@3] [666s@1] 1f 2f", "5m")], discarder=3),
        [20, 0, 5, -25],
        [20, 5],
        (0, 0),
    ),
    ("12-18", request(L, "eight", [win(2, "123m 456m 789p 11s EE 1f 2f 3f 4f 5f 6f 7f 8f")]), [-20, -20, 60, -20], [20], (2, 0)),
    ("12-19", request(L, "discard", [win(3, _X9, "5m", passed="5m")], discarder=1), _ZERO, [["MISSED_WIN"]], None),
    ("12-19-self", request(L, "self", [win(3, _X9, "5m", passed="5m")]), [-6, -6, -6, 18], [6], (3, 0)),
    ("12-19-other", request(L, "discard", [win(3, _X9, "5m", passed="9s")], discarder=1), [0, -6, 0, 6], [6], (3, 0)),
    ("12-20", request(C, "draw", [], dealer=2, huangfan=1, dice=(1, 1)), _ZERO, [], (2, 4)),
]  # fmt: skip
