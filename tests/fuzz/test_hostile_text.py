"""The hostile texts the coverage-guided corpora start from (`tests.fuzz.hostile_text`): each is
answered by its target with the reader's own error, never an exception, here in the suite as in
`make fuzz` (issue 21, findings 3, 4, 7 and 8)."""

from __future__ import annotations

from convert.json_read import read_settle_request
from convert.json_text import JsonTextError, read_json
from rules_core.errors import InvalidRequest
from tests.fuzz.hostile_text import HOSTILE_JSON, HOSTILE_PROFILES, json_request, profile_file
from tests.rules_core.words import ONE_OF_TILES

OUT_OF_RANGE = "an integer of 5,000 digits is out of the int32 range"
ALIAS = "a YAML alias ({}); write the value out, profile files take no aliases"


def verdict(data: bytes) -> str:
    """What the JSON reader says of a body: the text's fault, or the first field violation."""
    try:
        document = read_json(data)
    except JsonTextError as error:
        return str(error)
    try:
        read_settle_request(document)
    except InvalidRequest as error:
        return ": ".join(error.violations[0])
    return "read"


def test_every_hostile_json_text_is_the_readers_own_error():
    assert [json_request(data) for data in HOSTILE_JSON] == [None] * len(HOSTILE_JSON)
    assert [verdict(data) for data in HOSTILE_JSON] == [
        f"dealer_seat: {OUT_OF_RANGE}",
        "overrides.unit: expected a UNIT_* name, got an integer of 5,000 digits",
        "overrides.sankou_self_draw_shares[0]: expected a finite number, got an integer of about 401 digits",
        "nested deeper than 64 levels",
        "nested deeper than 64 levels",
        "request_id: at most 256 bytes, got 1000",
        "read",
        "winners[0].hand.concealed[0]: unknown value '東'" + ONE_OF_TILES,
        "(a key of 5 characters): unknown field",
    ]


def test_every_hostile_profile_file_is_one_problem():
    assert [profile_file(data) for data in HOSTILE_PROFILES] == [
        ALIAS.format("line 4, column 10"),
        ALIAS.format("line 4, column 7"),
        f"overrides.ordinary_base: {OUT_OF_RANGE}",
        "overrides.lazi_value: an integer of 10,002 digits is out of the int32 range",
        "overrides.huangfan_multiplier: an integer of 14,999 digits is out of the int32 range",
        "not valid YAML (line 1, column 4): cannot be read as 'timestamp'",
        "not valid YAML (line 1, column 4): cannot be read as 'int'",
        "not valid YAML (line 1, column 4): cannot be read as 'int'",
        "not valid YAML (line 1, column 4): could not determine a constructor for the tag "
        "'tag:yaml.org,2002:python/object:'… (41 characters)",
        "nested deeper than 64 levels (line 1, column 65)",
        "not valid YAML (line 1, column 1001): exceeded maximum nesting depth",
        "(a key of 35 characters): unknown field; a profile has name, base, description, overrides; "
        "(a key of 26 characters): unknown field; a profile has name, base, description, overrides; "
        "name: required: a profile name such as 'shanghai-club-a'; "
        "base: required; a house profile is based on one of classic, sankou, lezi, qiaoma, qiaoma_lezi, qinghunpeng",
        f"overrides.ordinary_base: {OUT_OF_RANGE}",
    ]
