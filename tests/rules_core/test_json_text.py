"""The bounded JSON reader (`convert.json_text.read_json`): whatever the text, a value, or
`JsonTextError` saying what is wrong; an integer too long for Python is a value no field takes,
so the field reader names the field (issue 21, findings 3 and 7)."""

from __future__ import annotations

import pytest

from convert.json_read import read_overrides, read_settle_request
from convert.json_text import MAX_DEPTH, JsonTextError, LongInteger, read_json
from rules_core.errors import InvalidRequest, excerpt, key_path

DIGITS = "1" + "0" * 4999  # 5,000 digits: over Python's 4,300-digit limit for int()


def test_an_integer_longer_than_python_reads_is_kept_as_its_size_and_the_rest_is_read():
    value = read_json('{"dealerSeat": N, "profile": "classic", "seat": -N}'.replace("N", DIGITS))
    assert (repr(value["dealerSeat"]), value["profile"], repr(value["seat"])) == (
        "an integer of 5,000 digits",
        "classic",
        "an integer of 5,000 digits",
    )
    assert type(value["dealerSeat"]) is LongInteger


def test_an_over_long_integer_is_a_violation_naming_its_field_among_the_others():
    text = '{"dealerSeat": N, "huangfanCount": -N, "winners": [{"seat": N, "hand": 5}]}'.replace("N", DIGITS)
    with pytest.raises(InvalidRequest) as caught:
        read_settle_request(read_json(text))
    assert caught.value.violations == [
        ("dealer_seat", "an integer of 5,000 digits is out of the int32 range"),
        ("huangfan_count", "an integer of 5,000 digits is out of the int32 range"),
        ("winners[0].seat", "an integer of 5,000 digits is out of the int32 range"),
        ("winners[0].hand", "expected a JSON object, got 5"),
    ]


def test_an_over_long_integer_where_a_share_or_a_name_goes_is_named_too():
    violations: list = []
    read_overrides(read_json('{"sankouSelfDrawShares": [N], "unit": N}'.replace("N", DIGITS)), "overrides", violations)
    assert violations == [
        ("overrides.unit", "expected a UNIT_* name, got an integer of 5,000 digits"),
        ("overrides.sankou_self_draw_shares[0]", "expected a finite number, got an integer of 5,000 digits"),
    ]


def test_an_integer_too_large_for_a_float_where_a_share_goes_is_named():
    """Found by the coverage-guided `json` target: 1 and 400 zeros made isfinite() raise."""
    violations: list = []
    read_overrides(read_json('{"sankouSelfDrawShares": [1N, 0.5]}'.replace("N", "0" * 400)), "overrides", violations)
    assert violations == [
        ("overrides.sankou_self_draw_shares[0]", "expected a finite number, got an integer of about 401 digits")
    ]


def test_nesting_up_to_the_bound_is_read_and_one_level_more_is_refused():
    assert read_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    deeper = '{"a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1)
    with pytest.raises(JsonTextError, match=r"^nested deeper than 64 levels$"):
        read_json(deeper)


def test_a_hundred_thousand_brackets_are_refused_not_a_recursion_error():
    for text in ("[" * 100_000, "[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000):
        with pytest.raises(JsonTextError, match=r"^nested deeper than 64 levels$"):
            read_json(text)


def test_brackets_inside_strings_are_no_nesting():
    text = '{"requestId": "%s", "note": "\\"]]]{{{", "winners": [[[]]]}' % ("[" * 500)
    assert read_json(text)["winners"] == [[[]]]


def test_escaped_quotes_and_backslashes_in_strings_leave_the_depth_as_it_is():
    strings = r'{"a": "\\", "b": "[[\"[", "c": "\\\"]", "d": "x\ny", "e": '
    assert read_json(strings + "[" * 63 + "]" * 63 + "}")["b"] == '[["['
    with pytest.raises(JsonTextError, match=r"^nested deeper than 64 levels$"):
        read_json((strings + "[" * 64 + "]" * 64 + "}").encode())


def test_a_text_that_is_not_json_says_where():
    with pytest.raises(JsonTextError) as caught:
        read_json('{"a": 1,\n "b": }')
    assert (str(caught.value), caught.value.line, caught.value.column) == (
        "Expecting value (line 2, column 7)",
        2,
        7,
    )
    with pytest.raises(JsonTextError, match=r"^not UTF-8 text \(byte 1\)$"):
        read_json(b"{\xff}")


def test_bytes_are_decoded_as_json_loads_decodes_them():
    assert read_json('{"a": [1, "東"]}'.encode("utf-16")) == {"a": [1, "東"]}
    assert read_json(bytearray(b'{"a": 2}')) == {"a": 2}


def test_protobufs_json_parser_reads_an_over_long_integer_as_out_of_range():
    value = read_json(DIGITS)
    for convert in (int, float):
        with pytest.raises(ValueError, match=r"^an integer of 5,000 digits is out of range$"):
            convert(value)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("short", "'short'"),
        ("\x1b[31mred", "'\\x1b[31mred'"),
        ("s" * 40, "'" + "s" * 32 + "'… (40 characters)"),
        (7, "7"),
        (10**40, "an integer of about 41 digits"),
        (1.5, "1.5"),
        (None, "null"),  # in the words of JSON, which every value quoted was read from
        (True, "true"),
        (False, "false"),
        (float("nan"), "NaN"),
        (float("-inf"), "-Infinity"),
        ([1, 2], "a list"),
        ({"secret": "x"}, "an object"),
        (b"bytes", "a bytes"),
    ],
)
def test_a_value_in_a_message_is_a_bounded_printable_excerpt(value, shown):
    assert excerpt(value) == shown


@pytest.mark.parametrize(
    ("key", "shown"),
    [
        ("ordinaryBase", "ordinaryBase"),
        ("dice_huangfan", "dice_huangfan"),
        ("root:$6$salt$hash:19000:0:99999:7::", "(a key of 35 characters)"),
        ("a key", "(a key of 5 characters)"),
        (5, "(a key that is 5)"),
    ],
)
def test_a_key_in_a_field_path_is_a_name_or_only_its_size(key, shown):
    assert key_path(key) == shown


def test_a_wrong_kind_of_value_is_named_by_kind_without_printing_it():
    """`_kind` once built the value's repr for every lookup: a list of nine nested shared lists
    (9^9 leaves from a YAML alias bomb) took 50 s to refuse; now it is named 'a list'."""
    leaf: list = ["x"] * 9
    for _ in range(8):
        leaf = [leaf] * 9
    violations: list = []
    read_overrides(leaf, "overrides", violations)
    assert violations == [("overrides", "expected a JSON object, got a list")]


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('{"dealerSeat": 1, "dealerSeat": 3}', "dealerSeat"),
        ('{"winners": [{"seat": 1}, {"seat": 2, "hand": {"melds": [], "melds": [{}]}}]}', "winners[1].hand.melds"),
        ('[{}, {"a": 1, "b": 2, "a": 1}]', "[1].a"),
        ('{"dealerSeat": 1, "\\u0064ealerSeat": 3}', "dealerSeat"),  # an escape spells the same key
        ('{"x\\u00e9": 1, "xé": 2}', "(a key of 2 characters)"),
    ],
)
def test_a_key_given_twice_in_one_object_is_refused_naming_its_path(text, path):
    """Found trying records as a hostile client: the last value won (two readers could read two
    different hands), where a field given under both of its names is refused."""
    with pytest.raises(JsonTextError) as caught:
        read_json(text)
    assert (type(caught.value).__name__, caught.value.path, str(caught.value)) == (
        "KeyGivenTwice",
        path,
        f"{path}: given twice",
    )


def test_the_same_key_in_different_objects_is_no_repetition():
    text = '{"winners": [{"seat": 1, "hand": {"seat": 2}}, {"seat": 3}], "seat": 4}'
    assert read_json(text) == {"winners": [{"seat": 1, "hand": {"seat": 2}}, {"seat": 3}], "seat": 4}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": {"b": 1, "b": 2}, "c": "\x00"}', "Invalid control character at (line 1, column 31)"),
        ('{"a": {"b": 1, "b": 2}, "c": }', "Expecting value (line 1, column 30)"),
        ('[{"b": 1, "b": 2}, ' + "[" * 5000 + "]" * 5000 + "]", f"nested deeper than {MAX_DEPTH} levels"),
    ],
)
def test_a_key_given_twice_before_what_is_not_json_is_refused_as_not_json(text, message):
    """Found by fuzzing the native JSON reader against its twin: the object giving a key twice
    stopped the first reading, and the second, looking for its path, met the text's fault and
    raised json's own error."""
    with pytest.raises(JsonTextError) as caught:
        read_json(text)
    assert (type(caught.value), str(caught.value)) == (JsonTextError, message)
