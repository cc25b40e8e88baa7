"""Whatever JSON a batch line holds, settle_json answers or raises InvalidRequest: nothing else.

What the reader accepts also converts to a protobuf request, as `shmj rescore` sends it to a server.
"""

from __future__ import annotations

import copy

from google.protobuf.json_format import MessageToDict
from hypothesis import given, settings
from hypothesis import strategies as st

import convert
from convert.json_read import read_settle_request
from generators.random_hands import HandGenerator
from rules_core import InvalidRequest, settle_json

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats() | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)


def paths(value, prefix=()):
    """Every place in a JSON document where a value can be put."""
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from paths(child, prefix + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from paths(child, prefix + (index,))


def put(document, path, value):
    if not path:
        return value
    document = copy.deepcopy(document)
    target = document
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return document


# One field of each kind a partial RuleProfile has.
OVERRIDES = {
    "laziValue": 3,
    "selfDrawShare": 1.0,
    "fanOnFixed": False,
    "huangfanMode": "HUANGFAN_MODE_ONCE",
    "fixedValues": [{"pattern": "PATTERN_ALL_PUNGS", "value": 1}],
    "flowerValues": [{"source": "FLOWER_SOURCE_FLOWER_TILE", "value": 2}],
    "floorPatterns": ["PATTERN_KONG_BLOOM"],
    "diceHuangfan": [{"dice": {"first": 6, "second": 6}, "value": 1}],
    "kaibaoThrows": [{"first": 1, "second": 4}],
    "sankouSelfDrawShares": [1.0, 1.0, 1.0, 1.0],
}


def answer_or_invalid(document) -> None:
    try:
        read = read_settle_request(document)
    except InvalidRequest:
        pass
    else:
        assert convert.settle_request_message(read).profile == read.profile
    try:
        response = settle_json(document)
    except InvalidRequest as error:
        assert error.violations and all(isinstance(f, str) and d for f, d in error.violations)
        return
    assert len(response["seatDeltas"]) == 4


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 10_000), json_values)
def test_any_value_anywhere_in_a_request(seed, where, value):
    document = MessageToDict(convert.settle_request_message(HandGenerator(seed).request()))
    document["overrides"] = copy.deepcopy(OVERRIDES)  # so that the profile's fields are reached too
    places = list(paths(document))
    answer_or_invalid(put(document, places[where % len(places)], value))


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_any_json_document(value):
    answer_or_invalid(value)
