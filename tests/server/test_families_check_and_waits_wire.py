"""CheckWin's and ListWaits' fields of RULES.md section 14 (the knocked seats; ListWaits'
last tile) over gRPC and HTTP alike, reached through classic's overrides."""

from __future__ import annotations

from google.protobuf.json_format import ParseDict
from mahjong.shanghai.v1 import scoring_service_pb2 as svc

import convert

KNOCK = {"winRequiresDeclaration": True, "fan": [{"pattern": "PATTERN_LAST_TILE", "value": 1}]}
HAND = {
    "concealed": ["TILE_M1"] * 3 + ["TILE_M5"] * 3 + ["TILE_P9"] * 3 + ["TILE_EAST"] * 3,
    "flowers": ["FLOWER_SPRING"],
}


def check(stub, http, **fields) -> dict:
    body = {
        "profile": "classic",
        "overrides": KNOCK,
        "outcome": "OUTCOME_SELF_DRAW",
        "winner": {
            "seat": 1,
            "lastTile": True,
            "hand": {**HAND, "concealed": HAND["concealed"] + ["TILE_S7"] * 2, "winningTile": "TILE_S7"},
        },
        **fields,
    }
    message = ParseDict(body, svc.CheckWinRequest())
    answer = convert.message_dict(stub.CheckWin(message, timeout=10))
    reply = http.json_call("CheckWin", message)
    assert reply.status == 200 and reply.json() == answer
    return answer["result"]


def test_check_win_reads_the_knocked_seats(stub, http):
    unknocked = check(stub, http)
    assert (unknocked["legal"], unknocked["illegalReasons"]) == (False, ["ILLEGAL_REASON_NOT_DECLARED"])
    knocked = check(stub, http, declaredSeats=[3, 1])
    assert knocked["legal"] and knocked["patterns"] == ["PATTERN_ALL_PUNGS", "PATTERN_CONCEALED", "PATTERN_LAST_TILE"]
    assert knocked["value"] == 20  # (3 + 2) x 2^2, capped at 1 喇


def test_list_waits_reads_the_last_tile_and_the_knocked_seats(stub, http):
    body = {
        "profile": "classic",
        "overrides": KNOCK,
        "seat": 1,
        "hand": {**HAND, "concealed": HAND["concealed"] + ["TILE_S7"]},
    }

    def waits(**fields) -> dict:
        message = ParseDict({**body, **fields}, svc.ListWaitsRequest())
        answer = convert.message_dict(stub.ListWaits(message, timeout=10))
        reply = http.json_call("ListWaits", message)
        assert reply.status == 200 and reply.json() == answer
        return answer

    assert not waits().get("selfDrawWaits") and not waits().get("discardWaits")
    knocked = waits(declaredSeats=[1])
    assert [(w["tile"], w["result"]["value"]) for w in knocked["selfDrawWaits"]] == [("TILE_S7", 10)]
    last = waits(declaredSeats=[1], lastTile=True)
    assert [(w["tile"], w["result"]["value"]) for w in last["selfDrawWaits"]] == [("TILE_S7", 20)]
    assert last["discardWaits"] == knocked["discardWaits"]  # a discard is never the last tile's win
