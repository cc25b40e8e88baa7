"""The profiles of RULES.md section 14 as built-ins of a real server: listed and returned with
their fixed digests over gRPC and HTTP/JSON, a base for requests' overrides, and every new field
overridable within the bounds of 14.1 and 14.10.1, a value outside named by its field."""

from __future__ import annotations

import grpc
import pytest
from mahjong.shanghai.v1 import profile_pb2
from mahjong.shanghai.v1 import scoring_service_pb2 as svc

import convert
import rules_core as rc
from tests.rules_core.test_profile_digest import GOLDEN
from tests.server.error_details import bad_request, http_bad_request

NEW = ("qiaoma", "qiaoma_lezi", "qinghunpeng")

# Each whole-number field of section 14 with its highest value (the lowest is 0 for each).
UPPER_BOUNDS = {
    "ordinary_base_fan": 8,
    "cap_lazi_extra": 999,  # a cap of 1 to 1,000 喇 / 勒
    "huangfan_max_count": 24,
    "no_flowers_value": 100,
    "ordinary_min_flowers_self_draw": 100,
    "ordinary_min_flowers_discard": 100,
    "max_fan": 24,
    "min_fan": 64,
    "liability_threshold_unconditional": 100_000,
}


def test_the_bounds_cover_every_whole_number_field_of_section_14():
    from rules_core.profile import FAMILY_INT_FIELDS

    assert sorted(UPPER_BOUNDS) == sorted(FAMILY_INT_FIELDS)


def test_the_six_built_ins_are_listed_with_their_fixed_digests(stub, http):
    listed = stub.ListProfiles(svc.ListProfilesRequest(), timeout=10)
    names = ["classic", "sankou", "lezi", *NEW]
    assert [p.name for p in listed.profiles] == names
    assert [(s.name, s.base, s.digest) for s in listed.summaries] == [(n, "", GOLDEN[n]) for n in names]
    assert [s.description for s in listed.summaries] == [rc.registry.BUILTIN_DESCRIPTIONS[n] for n in names]
    over_http = http.json_call("ListProfiles", svc.ListProfilesRequest())
    assert over_http.status == 200 and over_http.json() == convert.message_dict(listed)


@pytest.mark.parametrize("name", NEW)
def test_get_profile_returns_every_field_of_a_new_built_in(stub, http, name):
    answer = stub.GetProfile(svc.GetProfileRequest(name=name), timeout=10)
    assert answer.profile == convert.rule_profile(rc.BUILTIN_PROFILES[name])
    assert (answer.base, answer.digest) == ("", GOLDEN[name])
    assert answer.description == rc.registry.BUILTIN_DESCRIPTIONS[name]
    over_http = http.json_call("GetProfile", svc.GetProfileRequest(name=name))
    assert over_http.status == 200 and over_http.json() == convert.message_dict(answer)


def test_a_new_built_in_is_a_base_for_overrides_that_change_its_digest(stub):
    room = profile_pb2.RuleProfile(ordinary_base=2, min_fan=1)  # a 2-point 敲麻 room with 一番和
    answer = stub.GetProfile(svc.GetProfileRequest(name="qiaoma_lezi", overrides=room), timeout=10)
    assert (answer.profile.ordinary_base, answer.profile.min_fan, answer.profile.dragons_are_flowers) == (2, 1, True)
    assert answer.digest not in GOLDEN.values()


def _get_profile(name: str, **fields) -> svc.GetProfileRequest:
    return svc.GetProfileRequest(name=name, overrides=profile_pb2.RuleProfile(**fields))


@pytest.mark.parametrize(("field", "top"), UPPER_BOUNDS.items())
def test_every_whole_number_field_of_section_14_is_bounded_and_named(stub, http, field, top):
    for value in (0, top):
        answer = stub.GetProfile(_get_profile("classic", **{field: value}), timeout=10)
        assert getattr(answer.profile, field) == value
    for value in (top + 1, -1):
        request = _get_profile("qiaoma", **{field: value})
        expected = [(f"overrides.{field}", f"must be 0 to {top}, got {value}")]
        with pytest.raises(grpc.RpcError) as error:
            stub.GetProfile(request, timeout=10)
        assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert bad_request(error.value) == expected
        reply = http.json_call("GetProfile", request)
        assert (reply.status, http_bad_request(reply)) == (400, expected)


@pytest.mark.parametrize(("field", "top"), UPPER_BOUNDS.items())
def test_a_house_profile_file_sets_every_whole_number_field_within_the_same_bounds(field, top):
    from convert.house_profiles import read_house_profile
    from convert.json_names import camel

    for key in (field, camel(field)):  # snake_case or camelCase, as the proto3 JSON mapping reads
        room = {"name": "room", "base": "qiaoma", "overrides": {key: top}}
        entry, faults = read_house_profile(room, "room.yaml")
        assert faults == [] and getattr(entry.profile, field) == top and entry.base == "qiaoma"
        _, faults = read_house_profile({**room, "overrides": {key: top + 1}}, "room.yaml")
        assert [(v.field, v.description) for v in faults] == [
            (f"overrides.{field}", f"must be 0 to {top}, got {top + 1}")
        ]


def test_a_shape_fan_value_is_bounded_and_named_by_its_entry(stub):
    shape_fan = [
        profile_pb2.PatternValue(pattern=1, value=8),
        profile_pb2.PatternValue(pattern=15, value=9),
    ]
    with pytest.raises(grpc.RpcError) as error:
        stub.GetProfile(_get_profile("qinghunpeng", shape_fan=shape_fan), timeout=10)
    assert bad_request(error.value) == [("overrides.shape_fan[1].value", "must be 0 to 8, got 9")]
    answer = stub.GetProfile(_get_profile("qinghunpeng", shape_fan=shape_fan[:1]), timeout=10)
    assert {(e.pattern, e.value) for e in answer.profile.shape_fan} >= {(1, 8), (15, 1)}  # merged entry by entry


def test_a_flag_of_section_14_that_is_not_true_or_false_is_named_over_http(http):
    body = b'{"name": "qiaoma", "overrides": {"winRequiresDeclaration": "yes", "maxFan": 3}}'
    reply = http.post("GetProfile", body)
    assert (reply.status, http_bad_request(reply)) == (
        400,
        [
            (
                "overrides.win_requires_declaration",
                "Expected true or false without quotes at RuleProfile.winRequiresDeclaration",
            )
        ],
    )
