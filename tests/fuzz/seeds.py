"""Valid requests of every rpc: what the mutations start from, so most bodies get past decoding
and reach validation and the rules."""

from __future__ import annotations

import random
from dataclasses import dataclass

from google.protobuf.json_format import ParseDict
from mahjong.shanghai.v1 import profile_pb2, records_pb2
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
from clients.loadtest import Workload
from convert.json_write import settle_record_request_dict
from generators.record_simulator import simulate_records
from rules_core.builtin_profiles import BUILTIN_PROFILES

SERVICE = "mahjong.shanghai.v1.ScoringService"
RPCS = ("Settle", "SettleBatch", "SettleStream", "CheckWin", "ListWaits", "GetProfile", "ListProfiles", "SettleRecord")
# The message each rpc receives (SettleStream: each message of the stream).
REQUEST_TYPES = {
    "Settle": pb.SettleRequest,
    "SettleBatch": svc.SettleBatchRequest,
    "SettleStream": pb.SettleRequest,
    "CheckWin": svc.CheckWinRequest,
    "ListWaits": svc.ListWaitsRequest,
    "GetProfile": svc.GetProfileRequest,
    "ListProfiles": svc.ListProfilesRequest,
    "SettleRecord": records_pb2.SettleRecordRequest,
}
RESPONSE_TYPES = {
    "Settle": pb.SettleResponse,
    "SettleBatch": svc.SettleBatchResponse,
    "SettleStream": pb.SettleResponse,
    "CheckWin": svc.CheckWinResponse,
    "ListWaits": svc.ListWaitsResponse,
    "GetProfile": svc.GetProfileResponse,
    "ListProfiles": svc.ListProfilesResponse,
    "SettleRecord": records_pb2.SettleRecordResponse,
}


def _copy(message):
    copy = type(message)()
    copy.CopyFrom(message)
    return copy


def method_path(rpc: str) -> str:
    return f"/{SERVICE}/{rpc}"


def _partial_overrides(rng: random.Random) -> profile_pb2.RuleProfile:
    """A few fields of a built-in profile: a realistic `overrides` to mutate."""
    full = convert.rule_profile(BUILTIN_PROFILES[rng.choice(sorted(BUILTIN_PROFILES))])
    partial = profile_pb2.RuleProfile()
    fields = [f for f in full.DESCRIPTOR.fields if f.name != "name"]
    for field in rng.sample(fields, rng.randint(1, 5)):
        value = getattr(full, field.name)
        if field.is_repeated:
            getattr(partial, field.name).extend(value)
        elif field.message_type is not None:
            getattr(partial, field.name).CopyFrom(value)
        else:
            setattr(partial, field.name, value)
    return partial


@dataclass
class Seeds:
    """Valid messages by rpc, made once from a seed."""

    by_rpc: dict[str, list]

    @classmethod
    def make(cls, seed: int, size: int = 48) -> Seeds:
        rng = random.Random(seed)
        workload = Workload(seed, batch_size=4, size=size)  # the load generator's valid requests
        settles = [_copy(m) for m in workload.requests["settle"]]
        for message in settles:
            if rng.random() < 0.25:
                message.overrides.CopyFrom(_partial_overrides(rng))
        checks = [_copy(m) for m in workload.requests["check_win"]]
        waits = [_copy(m) for m in workload.requests["list_waits"]]
        for prefix, messages in (("c", checks), ("w", waits)):
            for index, message in enumerate(messages):
                message.request_id = f"{prefix}{index}"
        profiles = []
        for index in range(size // 4):
            message = svc.GetProfileRequest(name=rng.choice(sorted(BUILTIN_PROFILES)))
            if index % 2:
                message.overrides.CopyFrom(_partial_overrides(rng))
            profiles.append(message)
        records = [
            ParseDict(settle_record_request_dict(r), records_pb2.SettleRecordRequest())
            for r in simulate_records(size // 4, seed)
        ]
        batches = [svc.SettleBatchRequest(requests=rng.sample(settles, rng.randint(1, 6))) for _ in range(size // 4)]
        return cls(
            {
                "Settle": settles,
                "SettleBatch": batches,
                "SettleStream": settles,
                "CheckWin": checks,
                "ListWaits": waits,
                "GetProfile": profiles,
                "ListProfiles": [svc.ListProfilesRequest()],
                "SettleRecord": records,
            }
        )
