"""The fields of RULES.md section 14 on the wire: RuleProfile both ways, JSON, and the digest."""

from __future__ import annotations

from mahjong.shanghai.v1 import profile_pb2

import convert
import rules_core as rc
from convert.json_write import profile_dict
from convert.profile_digest import computed_digest, profile_digest
from rules_core.builtin_profiles import QIAOMA, QIAOMA_LEZI, QINGHUNPENG
from rules_core.overrides import apply_overrides
from rules_core.patterns import Pattern

CLASSIC = rc.BUILTIN_PROFILES["classic"]


def test_overrides_of_section_14_are_read_from_a_rule_profile_and_written_back():
    message = profile_pb2.RuleProfile(
        seven_pairs=True,
        shape_fan=[profile_pb2.PatternValue(pattern=15, value=2)],
        max_fan=3,
        uncapped=False,
        liability_mode=profile_pb2.LIABILITY_MODE_CONTRACT,
    )
    found = convert.overrides(message, "overrides", convert.Violations())
    assert found == {
        "seven_pairs": True,
        "max_fan": 3,
        "uncapped": False,
        "liability_mode": rc.LiabilityMode.CONTRACT,
        "shape_fan": [(Pattern.SEVEN_PAIRS, 2)],
    }
    assert convert.overrides_message(found) == message


def test_every_family_profile_goes_to_the_wire_and_prints_as_protobuf_does():
    for profile in (QIAOMA, QIAOMA_LEZI, QINGHUNPENG):
        message = convert.rule_profile(profile)
        assert profile_dict(profile) == convert.message_dict(message), profile.name
    lezi = convert.rule_profile(QIAOMA_LEZI)
    assert (lezi.dragons_are_flowers, lezi.fan_additive, lezi.ordinary_base_fan, lezi.cap_lazi_extra) == (
        True,
        True,
        1,
        7,
    )
    assert [(e.pattern, e.value) for e in lezi.shape_fan] == [(1, 1), (2, 1), (4, 1), (8, 4), (15, 1)]


def test_a_field_of_section_14_at_its_default_leaves_the_digest_as_it_was():
    same, faults = apply_overrides(CLASSIC, {"seven_pairs": False, "max_fan": 0, "shape_fan": []})
    assert faults == [] and computed_digest(same) == profile_digest(CLASSIC)
    changed, faults = apply_overrides(CLASSIC, {"seven_pairs": True})
    assert faults == [] and computed_digest(changed) != profile_digest(CLASSIC)
    digests = {profile_digest(p) for p in (QIAOMA, QIAOMA_LEZI, QINGHUNPENG)} | {profile_digest(CLASSIC)}
    assert len(digests) == 4
