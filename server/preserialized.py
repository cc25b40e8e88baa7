"""Responses a servicer serialised itself go out as they are; requests read again from their bytes.

Settle and SettleBatch write their responses as protobuf bytes from cached
parts (see `convert.wire`). Registered with the generated serializer, those
bytes would have to be parsed into a message only for gRPC to serialise them
again, about a microsecond a hand. `server.observed_calls.CallObserver` registers
the methods named here without a response serializer, which gRPC takes to mean the
handler returns bytes (in the one wrapper every call has already, rather than a second).

SettleBatch reads its entries from the body's bytes too (`convert.proto_bytes`), under
half of what reading them from the parsed message costs: the methods of `BODY_READ_AGAIN`
get their request as a `server.parsed_body.ParsedBody`, the message with its bytes.
"""

from __future__ import annotations

from server.service import SERVICE_NAME

PRESERIALIZED_METHODS = frozenset({f"/{SERVICE_NAME}/Settle", f"/{SERVICE_NAME}/SettleBatch"})
BODY_READ_AGAIN = frozenset({f"/{SERVICE_NAME}/SettleBatch"})
