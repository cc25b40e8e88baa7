"""Responses a servicer serialised itself go out as they are.

Settle and SettleBatch write their responses as protobuf bytes from cached
parts (see `convert.wire`). Registered with the generated serializer, those
bytes would have to be parsed into a message only for gRPC to serialise them
again, about a microsecond a hand. This interceptor registers the methods named here
without a response serializer, which gRPC takes to mean the handler returns bytes.
"""

from __future__ import annotations

import grpc

from server.service import SERVICE_NAME

PRESERIALIZED_METHODS = frozenset({f"/{SERVICE_NAME}/Settle", f"/{SERVICE_NAME}/SettleBatch"})


class PreserializedResponses(grpc.aio.ServerInterceptor):
    def __init__(self, methods: frozenset[str] = PRESERIALIZED_METHODS):
        self.methods = methods

    async def intercept_service(self, continuation, handler_call_details):
        handler = await continuation(handler_call_details)
        if handler is None or handler_call_details.method not in self.methods:
            return handler
        return grpc.unary_unary_rpc_method_handler(
            handler.unary_unary, request_deserializer=handler.request_deserializer, response_serializer=None
        )
