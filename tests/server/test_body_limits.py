"""The bound on each rpc's body (`convert.limits`): every legal request is within it, and a
body over it is refused from its length alone."""

from __future__ import annotations

from mahjong.shanghai.v1 import advice_pb2, profile_pb2, records_pb2, tiles_pb2
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

from convert.limits import MAX_BODY_BYTES, MAX_REQUEST_BYTES, batch_entry_violation, body_violation
from rules_core.profile import FAMILY_FLAG_FIELDS, FAMILY_INT_FIELDS
from rules_core.record_checks import MAX_EVENTS
from rules_core.validation import MAX_LENGTHS

SETTLE = "mahjong.shanghai.v1.SettleRequest"
RECORD = "mahjong.shanghai.v1.SettleRecordRequest"


def test_each_request_message_has_its_bound():
    assert MAX_BODY_BYTES == {
        SETTLE: 41984,
        "mahjong.shanghai.v1.CheckWinRequest": 25600,
        "mahjong.shanghai.v1.ListWaitsRequest": 25600,
        "mahjong.shanghai.v1.GetProfileRequest": 19456,
        "mahjong.shanghai.v1.ListProfilesRequest": 1024,
        "mahjong.shanghai.v1.SettleRecordRequest": 57344,
        "mahjong.shanghai.v1.AdviseRequest": 25600,
    }
    assert MAX_REQUEST_BYTES == MAX_BODY_BYTES[SETTLE]


def _full_profile() -> profile_pb2.RuleProfile:
    """A RuleProfile with every repeated field at its bound and every value at its longest."""
    profile = profile_pb2.RuleProfile(name="x" * 256, lazi_value=-1, ordinary_base=-1, abandon_penalty=-1)
    for name in FAMILY_INT_FIELDS:
        setattr(profile, name, -1)
    for name in FAMILY_FLAG_FIELDS:
        setattr(profile, name, True)
    for name in ("fixed_values", "fan", "shape_fan"):
        getattr(profile, name).extend(profile_pb2.PatternValue(pattern=-1, value=-1) for _ in range(MAX_LENGTHS[name]))
    for name in ("floor_patterns", "qualifying_patterns"):
        getattr(profile, name).extend([-1] * MAX_LENGTHS[name])
    profile.flower_values.extend(profile_pb2.FlowerValue(source=-1, value=-1) for _ in range(16))
    profile.sankou_self_draw_shares.extend([1.5] * 4)
    return profile


def test_the_largest_legal_settle_request_is_within_its_bound():
    hand = tiles_pb2.Hand(
        concealed=[-1] * MAX_LENGTHS["concealed"],
        winning_tile=-1,
        melds=[tiles_pb2.Meld(kind=-1, tiles=[-1] * 4) for _ in range(4)],
        flowers=[-1] * MAX_LENGTHS["flowers"],
        dragon_flowers=[-1] * MAX_LENGTHS["dragon_flowers"],
    )
    winner = pb.Winner(hand=hand, passed_tiles=[-1] * MAX_LENGTHS["passed_tiles"], last_tile=True)
    request = pb.SettleRequest(
        request_id="x" * 256,
        profile="x" * 256,
        winners=[winner] * MAX_LENGTHS["winners"],
        liabilities=[
            pb.LiabilityRelation(claimer_seat=-1, source_seat=-1, claims=-1, pattern_kept=True)
            for _ in range(MAX_LENGTHS["liabilities"])
        ],
        overrides=_full_profile(),
        declared_seats=[-1] * MAX_LENGTHS["declared_seats"],
    )
    body = request.SerializeToString()
    assert 8000 < len(body) <= MAX_REQUEST_BYTES
    assert body_violation(SETTLE, body) is None


def test_the_largest_legal_advice_request_is_within_its_bound():
    """A holding of 14 tiles and four kongs, eight flowers, every tile of the game seen once."""
    hand = tiles_pb2.Hand(
        concealed=[-1] * MAX_LENGTHS["concealed"],
        melds=[tiles_pb2.Meld(kind=-1, tiles=[-1] * 4, from_seat=-1) for _ in range(4)],
        flowers=[-1] * MAX_LENGTHS["flowers"],
    )
    request = advice_pb2.AdviseRequest(
        request_id="x" * 256,
        profile="x" * 256,
        overrides=_full_profile(),
        profile_digest="x" * 256,
        seat=-1,
        dealer_seat=-1,
        dice=profile_pb2.Dice(first=-1, second=-1),
        huangfan_count=-1,
        hand=hand,
        seen=[-1] * 136,
    )
    body = request.SerializeToString()
    assert 7000 < len(body) <= MAX_BODY_BYTES["mahjong.shanghai.v1.AdviseRequest"]
    assert body_violation("mahjong.shanghai.v1.AdviseRequest", body) is None


def test_the_largest_legal_record_is_within_its_bound():
    """The longest legal hand (238 events), four deals at their longest (with 12 dragon flowers),
    every other event with a tile and two tiles, every value at its longest encoding."""
    deal = records_pb2.HandEvent(kind=-1, seat=-1, tiles=[-1] * 14, flowers=[-1] * 8, dragon_flowers=[-1] * 12)
    event = records_pb2.HandEvent(kind=-1, seat=-1, tile=-1, tiles=[-1] * 2, flower=-1, last_tile=True)
    record = records_pb2.SettleRecordRequest(
        request_id="x" * 256,
        profile="x" * 256,
        overrides=_full_profile(),
        dealer_seat=-1,
        huangfan_count=-1,
        dice=profile_pb2.Dice(first=-1, second=-1),
        events=[deal] * 4 + [event] * (MAX_EVENTS - 4),
        recorded_deltas=[1.5] * 4,
    )
    body = record.SerializeToString()
    assert 20_000 < len(body) <= MAX_BODY_BYTES[RECORD] == 57344
    assert body_violation(RECORD, body) is None
    assert body_violation(RECORD, b"\xff" * 57345) == (
        "body",
        "a legal mahjong.shanghai.v1.SettleRecordRequest is at most 57344 bytes, got 57345",
    )


def test_a_body_over_its_bound_is_one_violation_naming_the_body():
    assert body_violation(SETTLE, b"\xff" * 41984) is None
    assert body_violation(SETTLE, b"\xff" * 41985) == (
        "body",
        "a legal mahjong.shanghai.v1.SettleRequest is at most 41984 bytes, got 41985",
    )


def test_each_entry_of_a_batch_is_measured_on_the_wire_without_decoding():
    small = pb.SettleRequest(request_id="a").SerializeToString()
    huge = pb.SettleRequest(request_id="x" * 45_000).SerializeToString()
    batch = svc.SettleBatchRequest(requests=[pb.SettleRequest(request_id="a")] * 3).SerializeToString()
    assert batch_entry_violation(batch) is None
    body = b"".join(b"\x0a" + _varint(len(entry)) + entry for entry in (small, small, huge, small))
    assert svc.SettleBatchRequest.FromString(body).requests[2].request_id == "x" * 45_000  # the encoding is right
    assert body_violation("mahjong.shanghai.v1.SettleBatchRequest", body) == (
        "requests[2]",
        f"a legal SettleRequest is at most 41984 bytes, got {len(huge)}",
    )
    # not a well-formed entry: left to protobuf, which says what is wrong with it
    assert batch_entry_violation(b"\x0a" + b"\xff" * 45_000) is None
    assert batch_entry_violation(b"\x12" + _varint(45_000) + b"x" * 45_000) is None


def _varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)
