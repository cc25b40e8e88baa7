"""The rules as JSON, for engines that call them without gRPC (batch jobs, data pipelines).

`settle_json` takes a `SettleRequest` and returns a `SettleResponse` (`settle_record_json` a
`SettleRecordRequest` and a `SettleRecordResponse`; `advise_json` an `AdviseRequest` and an
`AdviseResponse`, `review_record_json` a `SettleRecordRequest` and a `ReviewRecordResponse`), all as
dicts in the proto3 JSON mapping of API.md: lowerCamelCase keys (snake_case
accepted on input, as protobuf's parser does), enum names as strings (numbers
accepted on input), default values printed in the output (protobuf's
``always_print_fields_with_no_presence``: seat 0 and empty lists are explicit). Malformed input
raises `InvalidRequest` with the path of every field that is wrong.
"""

from __future__ import annotations

from convert.advice_json import advise_response_dict, read_advise_request, review_record_response_dict
from convert.json_read import read_list_waits_request, read_settle_record_request, read_settle_request
from convert.json_write import list_waits_response_dict, settle_record_response_dict, settle_response_dict
from convert.profile_digest import BUILTIN_REGISTRY
from rules_core.advice import advise
from rules_core.registry import ProfileRegistry
from rules_core.replay import settle_record
from rules_core.review import review_record
from rules_core.settle import settle
from rules_core.waits import list_waits


def list_waits_json(request: dict, profiles: ProfileRegistry = BUILTIN_REGISTRY) -> dict:
    """List the waits of a `ListWaitsRequest` given as a proto3 JSON dict; return the response dict."""
    return list_waits_response_dict(list_waits(read_list_waits_request(request), profiles))


def settle_json(request: dict, profiles: ProfileRegistry = BUILTIN_REGISTRY) -> dict:
    """Settle a `SettleRequest` given as a proto3 JSON dict; return the `SettleResponse` dict.
    ``profiles``: the profiles a request may name (house profiles with the built-in ones)."""
    return settle_response_dict(settle(read_settle_request(request), profiles))


def settle_record_json(request: dict, profiles: ProfileRegistry = BUILTIN_REGISTRY) -> dict:
    """Replay a hand record (a `SettleRecordRequest` as a proto3 JSON dict), settle what it implies,
    and return the `SettleRecordResponse` dict (RULES.md section 13)."""
    return settle_record_response_dict(settle_record(read_settle_record_request(request, profiles), profiles))


def advise_json(request: dict, profiles: ProfileRegistry = BUILTIN_REGISTRY) -> dict:
    """Advise on an `AdviseRequest` given as a proto3 JSON dict; return the `AdviseResponse` dict
    (RULES.md section 15)."""
    return advise_response_dict(advise(read_advise_request(request), profiles))


def review_record_json(request: dict, profiles: ProfileRegistry = BUILTIN_REGISTRY) -> dict:
    """Review a hand record (a `SettleRecordRequest` as a proto3 JSON dict) discard by discard and
    return the `ReviewRecordResponse` dict (RULES.md section 15.6)."""
    return review_record_response_dict(review_record(read_settle_record_request(request, profiles), profiles))
