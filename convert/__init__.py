"""The one place where proto messages and rules_core values are converted, both ways.

Enum numbers are shared with rules_core (a tile is its core index plus one);
a number the proto does not define is reported as a field violation, as the
JSON reader of rules_core reports an unknown name.

- `requests`: proto requests to rules_core requests (the hot path, and the careful one)
- `proto_bytes`: SettleBatch's entries read from the body's bytes straight into rules_core
  requests, answering only where it gives what `requests` gives (compiled on the hot path)
- `records`: hand records (牌谱) to rules_core records, and their answers back
- `profiles`: RuleProfile messages to overrides, and profiles (with their summaries) to messages
- `responses`: results to messages (winners, errors, CheckWin, ListWaits)
- `wire`: SettleResponses and batch entries as serialised bytes, from cached parts
- `messages`: rules_core requests to proto requests, for clients and tests
- `results`: response messages back to rules_core results, for clients (`shmj rescore`)
- `json_form`: messages to the JSON dicts every output of this product is written as
- `json_names`, `json_read`, `json_write`: the proto3 JSON form's names, its reader and its
  writer (of rules_core values: the answers of the JSON entry points, the batch lines)
``proto_bytes`` and ``json_write`` are on the compiled hot path: ``rules_core.compiled``, imported
first, says whether their compiled modules or their sources are imported.
"""

import rules_core.compiled  # noqa: F401  # first: it decides where the hot-path modules come from

# isort: split
from convert.enums import Violations
from convert.json_form import message_dict
from convert.messages import (
    check_win_request_message,
    hand_message,
    list_waits_request_message,
    settle_request_message,
    winner_message,
)
from convert.profiles import get_profile_response, list_profiles_response, overrides, overrides_message, rule_profile
from convert.records import settle_record_request, settle_record_request_message, settle_record_response
from convert.requests import check_win_request, list_waits_request, settle_request
from convert.responses import check_win_response, list_waits_response
from convert.wire import (
    batch_entry,
    echoed_id,
    settle_batch_response,
    settle_response,
    settle_response_bytes,
    stream_response,
)

__all__ = [
    "Violations",
    "batch_entry",
    "check_win_request",
    "check_win_request_message",
    "check_win_response",
    "echoed_id",
    "get_profile_response",
    "hand_message",
    "list_profiles_response",
    "list_waits_request",
    "list_waits_request_message",
    "list_waits_response",
    "message_dict",
    "overrides",
    "overrides_message",
    "rule_profile",
    "settle_batch_response",
    "settle_request",
    "settle_record_request",
    "settle_record_request_message",
    "settle_record_response",
    "settle_request_message",
    "settle_response",
    "settle_response_bytes",
    "stream_response",
    "winner_message",
]
