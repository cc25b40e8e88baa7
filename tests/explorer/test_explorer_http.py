"""What the server adds for the explorer: its files, the notation reader and the vocabulary."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from server.explorer.notation import BadNotationRequest, read_body, read_notation
from server.explorer.vocabulary import vocabulary
from tests.server.http_calls import Http

PROFILE_PROTO = Path(__file__).resolve().parents[2] / "proto/mahjong/shanghai/v1/profile.proto"


@pytest.fixture
def http(explorer_server):
    with Http(explorer_server.http_url) as connection:
        yield connection


def test_the_page_and_its_files_come_from_this_server_only(http):
    page = http.request("GET", "/")
    assert page.status == 200 and page.headers["content-type"] == "text/html; charset=utf-8"
    assert page.headers["content-security-policy"].startswith("default-src 'self';")
    text = page.body.decode()
    assert re.findall(r'(?:src|href)="([^"#]+)"', text) == [
        "data:,",
        "/explorer/explorer.css",
        "/explorer/explorer.js",
        "/explorer/replay.js",
        "/explorer/review.js",
        "/explorer/advice.js",
        "/explorer/ticket.js",
    ]
    for path, kind in (
        ("/explorer/explorer.js", "text/javascript"),
        ("/explorer/replay.js", "text/javascript"),
        ("/explorer/review.js", "text/javascript"),
        ("/explorer/advice.js", "text/javascript"),
        ("/explorer/ticket.js", "text/javascript"),
        ("/explorer/explorer.css", "text/css"),
    ):
        reply = http.request("GET", path)
        assert (reply.status, reply.headers["content-type"]) == (200, f"{kind}; charset=utf-8")
        assert b"http://" not in reply.body.replace(b"http://www.w3.org/2000/svg", b"")
        assert b"https://" not in reply.body
    assert http.request("GET", "/explorer/missing.js").status == 404
    assert http.request("GET", "/explorer/../pyproject.toml").status == 404


def test_the_explorer_s_folder_leads_to_the_explorer(http):
    """`/explorer/` is where its files are: a person who types it meets the page, not a 404."""
    for path in ("/explorer/", "/explorer"):
        for verb in ("GET", "HEAD"):
            reply = http.request(verb, path)
            assert (reply.status, reply.headers["location"]) == (308, "/"), (verb, path)


def test_the_start_up_log_names_the_explorer_s_address(explorer_server):
    serving = [json.loads(line) for line in explorer_server.log().splitlines() if '"serving http"' in line]
    assert [line["explorer"] for line in serving] == [f"{explorer_server.http_url}/"]


def test_notation_is_read_into_a_hands_json(http):
    body = json.dumps({"hand": "7s 7s [123m@3] [5555p] 1f", "win": "7s", "flowers": "5f", "passed": "9s"})
    reply = http.request("POST", "/explorer/notation", body.encode(), {"Content-Type": "application/json"})
    assert reply.status == 200
    assert reply.json() == {
        "hand": {
            "concealed": ["TILE_S7", "TILE_S7"],
            "melds": [
                {"kind": "MELD_KIND_CHOW", "tiles": ["TILE_M1", "TILE_M2", "TILE_M3"], "fromSeat": 3},
                {"kind": "MELD_KIND_CONCEALED_KONG", "tiles": ["TILE_P5"] * 4, "fromSeat": 0},
            ],
            "flowers": ["FLOWER_SPRING", "FLOWER_PLUM"],
            "dragonFlowers": [],
            "winningTile": "TILE_S7",
        },
        "passedTiles": ["TILE_S9"],
        "seen": [],
        "dice": None,
        "liabilities": [],
        "declaredSeats": [],
        "errors": [],
    }


def test_advice_s_melds_and_seen_tiles_are_read_in_their_own_fields():
    """The Advice view's melds (after those of the hand) and the tiles its seat has seen."""
    answer = read_notation({"hand": "7s [EEE@1]", "melds": "[123m@3] [456p@3]", "seen": "C C 7s"})
    assert [(m["kind"], m["tiles"][0], m["fromSeat"]) for m in answer["hand"]["melds"]] == [
        ("MELD_KIND_PUNG", "TILE_EAST", 1),
        ("MELD_KIND_CHOW", "TILE_M1", 3),
        ("MELD_KIND_CHOW", "TILE_P4", 3),
    ]
    assert (answer["seen"], answer["errors"]) == (["TILE_RED", "TILE_RED", "TILE_S7"], [])
    answer = read_notation({"melds": "[123m@3] 5p", "seen": "7s 0m"})
    assert answer["errors"] == [
        {"field": "melds", "position": 9, "message": "melds are written in brackets, as in '[555p@1]'"},
        {"field": "seen", "position": 3, "message": "tile numbers run from 1 to 9"},
    ]
    assert answer["hand"]["melds"] == [] and answer["seen"] == []


def test_a_seen_list_may_hold_every_tile_one_by_one():
    seen = " ".join(["1m"] * 136)  # more than four is the server's to refuse, by its field
    assert len(read_notation({"seen": seen})["seen"]) == 136
    assert read_body(json.dumps({"seen": seen}).encode()) == {"seen": seen}  # 407 characters
    with pytest.raises(BadNotationRequest, match="^seen: longer than 408 characters$"):
        read_body(json.dumps({"seen": seen + " 2m"}).encode())


def test_notation_errors_name_field_and_character():
    answer = read_notation({"hand": "123m [45@1]", "win": "7s 8s", "flowers": "9f"})
    assert answer["errors"] == [
        {"field": "hand", "position": 8, "message": "numbers must end with a suit letter m, p, s or f"},
        {"field": "win", "position": 0, "message": "expected exactly one tile, read 2"},
        {"field": "flowers", "position": 0, "message": "flowers run from 1f to 8f"},
    ]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"[1]", 'the body is a JSON object such as {"hand": "123m ...", "win": "7s"}\n'),
        (b'{"hand": 5}', "hand: expected a string, got 5\n"),
        (
            b'{"tiles": ""}',
            "unknown key(s) tiles; known: hand, melds, win, flowers, passed, seen, dice, claims, declared\n",
        ),
        (b'{"hand": "' + b"1" * 401 + b'm"}', "hand: longer than 400 characters\n"),
        (b"\xff", "the body is not JSON: not UTF-8 text (byte 0)\n"),
        (b"[" * 1000, "the body is not JSON: nested deeper than 8 levels\n"),
        (b'{"hand": 1' + b"0" * 5000 + b"}", "hand: expected a string, got an integer of 5,001 digits\n"),
        (
            b'{"hand": "", "root:$6$salt$hash:19000:0:99999:7::": 1}',
            "unknown key(s) (a key of 35 characters); known: hand, melds, win, flowers, passed, seen, dice, claims,"
            " declared\n",
        ),
    ],
    ids=["array", "number", "unknown", "long", "not-utf8", "deep", "long-integer", "odd-key"],
)
def test_a_bad_notation_request_is_refused_in_words(http, body, message):
    reply = http.request("POST", "/explorer/notation", body, {"Content-Type": "application/json"})
    assert (reply.status, reply.body.decode()) == (400, message)


def test_every_profile_field_has_its_proto_comment():
    fields = {name: words["meaning"] for name, words in vocabulary()["profileFields"].items()}
    # the comment above each field of RuleProfile in profile.proto, joined into one line
    proto = PROFILE_PROTO.read_text().split("message RuleProfile {")[1].split("\n}")[0]
    expected, comment = {}, []
    for line in proto.strip().splitlines():
        line = line.strip()
        if line.startswith("//"):
            comment.append(line[2:].strip())
        else:
            expected[re.search(r"(\w+) = \d+;", line).group(1)] = " ".join(comment)
            comment = []
    assert fields == expected
    assert fields["lazi_value"].startswith("1 喇 / 1 勒 in units: the ordinary cap")


def test_dice_and_claims_are_read_as_the_cli_reads_them(http):
    body = json.dumps({"dice": "3 3", "claims": "1<2:3, 2:1"}).encode()
    reply = http.request("POST", "/explorer/notation", body, {"Content-Type": "application/json"})
    assert reply.json() == {
        "hand": {"concealed": [], "melds": [], "flowers": [], "dragonFlowers": []},
        "passedTiles": [],
        "seen": [],
        "dice": {"first": 3, "second": 3},
        "liabilities": [
            {"claimerSeat": 1, "sourceSeat": 2, "claims": 3},
            {"claimerSeat": 2, "sourceSeat": 1, "claims": 3},
        ],
        "declaredSeats": [],
        "errors": [],
    }
    body = json.dumps({"dice": "7,7"}).encode()
    reply = http.request("POST", "/explorer/notation", body, {"Content-Type": "application/json"})
    assert reply.json()["errors"] == [{"field": "dice", "position": 0, "message": "two dice 1-6 such as 3,3"}]


def test_why_a_liable_seat_pays_is_worded_by_the_server_as_the_cli_words_it(http):
    """Issue 20: the page wrote its own liability phrases; it asks the server for the CLI's."""
    body = {
        "payments": [
            {"fromSeat": 0, "toSeat": 1, "amount": 10.0, "reason": "PAYMENT_REASON_DISCARD"},
            {"fromSeat": 2, "toSeat": 1, "amount": 20.0, "reason": "PAYMENT_REASON_LIABILITY"},
        ],
        "liabilities": [
            {"claimerSeat": 1, "sourceSeat": 2, "claims": 3},
            {"claimerSeat": 2, "sourceSeat": 1, "claims": 3},
        ],
        "threshold": 3,
    }
    reply = http.request("POST", "/explorer/why", json.dumps(body).encode(), {"Content-Type": "application/json"})
    assert reply.status == 200
    assert reply.json() == {
        "why": [
            [],
            [
                "seat 1 claimed 3 times from seat 2 座位1吃碰座位2 3口",
                "seat 2 claimed 3 times from seat 1 座位2吃碰座位1 3口",
                "pays twice: the claims run both ways 双向承包，付两份",
            ],
        ]
    }


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"[]", 'the body is a JSON object such as {"payments": [...], "liabilities": [...], "threshold": 3}\n'),
        (
            b'{"payment": []}',
            "unknown key(s) payment; known: payments, liabilities, threshold, mode, declaredSeats, winners,"
            " fanAdditive, laziValue\n",
        ),
        (b'{"threshold": "3"}', "threshold: expected a whole number or null, got '3'\n"),
        (b'{"payments": {}}', "payments: expected a list of at most 64 objects, got an object\n"),
        (b'{"payments": [' + b"{}," * 64 + b"{}]}", "payments: expected a list of at most 64 objects, got a list\n"),
        (b'{"payments": [1]}', "payments[0]: expected an object, got 1\n"),
        (b'{"liabilities": [{"claims": true}]}', "liabilities[0].claims: expected a number, got true\n"),
        (
            b'{"liabilities": [{"seat": 1}]}',
            "liabilities[0]: unknown key seat; known: claimerSeat, sourceSeat, claims, patternKept\n",
        ),
    ],
)
def test_a_bad_why_request_is_refused_in_words(http, body, message):
    reply = http.request("POST", "/explorer/why", body, {"Content-Type": "application/json"})
    assert (reply.status, reply.body.decode()) == (400, message)


def test_profile_values_are_worded_by_the_server_as_shmj_profiles_words_them(http):
    """Issue 20: the Profiles view showed bare numbers (10, 3) where the CLI says 10 分, 3 × V 份."""
    import convert
    from rules_core.registry import BUILTIN_REGISTRY

    profiles = convert.message_dict(convert.list_profiles_response(BUILTIN_REGISTRY.entries))["profiles"]
    body = json.dumps({"profiles": profiles}).encode()
    reply = http.request("POST", "/explorer/profile-words", body, {"Content-Type": "application/json"})
    assert reply.status == 200
    said = reply.json()["profiles"]
    assert [p["lazi_value"] for p in said] == [["20 花"], ["20 花"], ["10 分"], ["20 花"], ["10 分"], ["10 分"]]
    assert [p["liability_mode"] for p in said] == [
        ["no liability 不承包"],
        ["sankou table 吃三口包五家"],
        ["liability in addition 承包另付"],
        ["contract partners 承包（竞赛规则）"],
        ["one liable seat 包三口"],
        ["one liable seat 包三口"],
    ]
    assert said[0]["dice_huangfan"][0] == "+2 荒番 count 荒番数: 1,1  4,4"
    # Side by side, every field is worded, those of RULES.md section 14 at their defaults too
    assert all("name" not in p and len(p) == len(profiles[0]) - 1 for p in said)
    assert [p["min_fan"] for p in said] == [["0 (no limit 不限)"]] * 6
    assert [p["liability_threshold_unconditional"] for p in said] == [
        *[["0 (not used 不用)"]] * 3,
        ["4 claims from one seat 口"],
        *[["0 (not used 不用)"]] * 2,
    ]
    assert said[5]["huangfan_max_count"] == ["3 荒番 count 荒番数"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"profiles": {}}', "profiles: expected a list of at most 256 profiles, got an object\n"),
        (b'{"profiles": [1]}', "profiles[0]: expected a RuleProfile object, got 1\n"),
        (b'{"rules": []}', "unknown key(s) rules; known: profiles\n"),
    ],
)
def test_a_bad_profile_words_request_is_refused_in_words(http, body, message):
    reply = http.request("POST", "/explorer/profile-words", body, {"Content-Type": "application/json"})
    assert (reply.status, reply.body.decode()) == (400, message)


def test_a_value_that_is_no_known_enum_is_shown_as_it_is_never_a_crash():
    from server.explorer.profile_view import read_profile_words

    body = b'{"profiles": [{"fixedValues": [{"pattern": 999, "value": 1}], "qualifyingPatterns": [55]}]}'
    (said,) = read_profile_words(body)["profiles"]
    assert (said["fixed_values"], said["qualifying_patterns"]) == (["999 = 1 "], ["55"])


def test_dragon_flowers_kept_patterns_and_knocks_are_read_as_the_cli_reads_them(http):
    """RULES.md section 14: ``Cf`` among the flowers, ``1:2:3:kept``, the knocked seats ``0,2``."""
    body = json.dumps(
        {"hand": "123m 456p 789s 234s EE Ff", "flowers": "1f Cf", "claims": "1:2:3:kept", "declared": "0,2"}
    )
    answer = http.request("POST", "/explorer/notation", body.encode(), {"Content-Type": "application/json"}).json()
    assert answer["hand"]["flowers"] == ["FLOWER_SPRING"]
    assert answer["hand"]["dragonFlowers"] == ["TILE_GREEN", "TILE_RED"]
    assert answer["liabilities"] == [{"claimerSeat": 1, "sourceSeat": 2, "claims": 3, "patternKept": True}]
    assert answer["declaredSeats"] == [0, 2] and answer["errors"] == []
    bad = read_notation({"declared": "0,5", "flowers": "1f Ef"})
    assert bad["errors"] == [
        {"field": "flowers", "position": 3, "message": "only the dragons are flowers: Cf Ff Pf (中发白)"},
        {"field": "declared", "position": 2, "message": "seats are 0-3, separated by commas, such as 0,2"},
    ]


def _item(kind: str, code: str, contribution: float, count: int = 1) -> dict:
    return {"kind": f"ITEM_KIND_{kind}", "code": code, "contribution": contribution, "count": count}


# RULES.md 14.10.11 Q5 (qiaoma): 5 番 used as 3, no flowers counting 10.
_Q5_WINNER = {
    "seat": 0,
    "legal": True,
    "items": [
        _item("FLOWERS", "NO_FLOWERS", 10),
        _item("BASE", "ORDINARY_BASE", 1),
        _item("FAN", "ALL_PUNGS", 1),
        _item("FAN", "FULL_FLUSH", 2),
        _item("FAN", "KONG_BLOOM", 1),
        _item("FAN", "CONCEALED", 1),
        _item("CAP", "FAN_CAP", -2),
    ],
    "baseValue": 88,
    "value": 88,
}
# RULES.md 14.8 example 1 (qiaoma_lezi): (3 + 4) × (1 兜底 + 1 门清) = 14, 番 added up.
_ADDED_WINNER = {
    "seat": 1,
    "legal": True,
    "items": [
        _item("FLOWERS", "FLOWER_TILE", 4, 4),
        _item("BASE", "ORDINARY_BASE", 3),
        _item("FAN", "BASE_FAN", 1),
        _item("FAN", "CONCEALED", 1),
    ],
}


def _why(http, body: dict) -> dict:
    reply = http.request("POST", "/explorer/why", json.dumps(body).encode(), {"Content-Type": "application/json"})
    assert reply.status == 200, reply.body
    return reply.json()


def test_the_server_words_each_item_as_the_profile_makes_it(http):
    doubled = _why(http, {"payments": [], "winners": [_Q5_WINNER], "laziValue": 20})
    assert doubled["values"] == [
        {
            "effects": ["+10", "+1", "x2 (1 fan 番)", "x4 (2 fan 番)", "x2 (1 fan 番)", "x2 (1 fan 番)", "-2 fan 番"],
            "sum": "each fan doubles 番翻倍, fan used at most 3 番数封顶: (1 + 10) × 2^3 = 88",
        }
    ]
    added = _why(http, {"payments": [], "winners": [_ADDED_WINNER], "fanAdditive": True, "laziValue": 10})
    assert added["values"] == [
        {"effects": ["+4", "+3", "+1 fan 番", "+1 fan 番"], "sum": "fan add up 番相加: (3 + 4) × 2 = 14"}
    ]


def test_the_server_says_who_pays_under_baosankou_and_contract(http):
    baosankou = _why(
        http,
        {
            "payments": [{"fromSeat": 3, "toSeat": 0, "amount": 20.0, "reason": "PAYMENT_REASON_LIABILITY"}],
            "liabilities": [
                {"claimerSeat": 0, "sourceSeat": 3, "claims": 3},
                {"claimerSeat": 3, "sourceSeat": 0, "claims": 3},
            ],
            "threshold": 3,
            "mode": "LIABILITY_MODE_BAOSANKOU",
        },
    )
    assert baosankou["why"] == [
        [
            "seat 0 claimed 3 times from seat 3 座位0吃碰座位3 3口",
            "seat 3 claimed 3 times from seat 0 座位3吃碰座位0 3口",
            "包三口: one liable seat pays 包三口：一家赔付",
        ]
    ]
    contract = _why(
        http,
        {
            "payments": [
                {"fromSeat": 1, "toSeat": 0, "amount": 6.0, "reason": "PAYMENT_REASON_DISCARD"},
                {"fromSeat": 1, "toSeat": 0, "amount": 6.0, "reason": "PAYMENT_REASON_LIABILITY"},
            ],
            "liabilities": [{"claimerSeat": 0, "sourceSeat": 2, "claims": 3, "patternKept": True}],
            "threshold": 3,
            "mode": "LIABILITY_MODE_CONTRACT",
            "declaredSeats": [0],
        },
    )
    assert contract["why"] == [[], ["seat 1 had not knocked: pays every share 未敲，包付全部"]]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"winners": [{"items": [{"kind": 3}]}]}', "winners[0].items[0].kind: expected a string, got 3\n"),
        (b'{"winners": [{}, {}, {}, {}, {}]}', "winners: expected a list of at most 4 objects, got a list\n"),
        (b'{"fanAdditive": 1}', "fanAdditive: expected true or false, got 1\n"),
        (b'{"declaredSeats": [0, "2"]}', "declaredSeats: expected a list of at most 4 seats, got a list\n"),
        (b'{"mode": 5}', "mode: expected a string, got 5\n"),
    ],
)
def test_a_bad_words_request_is_refused_in_words(http, body, message):
    reply = http.request("POST", "/explorer/why", body, {"Content-Type": "application/json"})
    assert (reply.status, reply.body.decode()) == (400, message)


def test_every_term_the_page_names_is_in_the_vocabulary():
    """A key missing from rules_core.vocabulary.TERMS would show the page's key instead of words."""
    static = Path(__file__).resolve().parents[2] / "server/explorer/static"
    named = {key for path in static.glob("*.js") for key in re.findall(r'\bterm\("(\w+)"\)', path.read_text())}
    assert {"shanten", "useful_tiles", "among_the_best", "best_instead"} <= named
    assert sorted(named - set(vocabulary()["terms"])) == []
