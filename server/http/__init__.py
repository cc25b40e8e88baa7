"""ScoringService over HTTP: the Connect protocol's unary calls (JSON or binary protobuf),
and ``/healthz`` and ``/readyz`` for load balancers. Served by every worker beside gRPC,
in the same event loop, by uvicorn.

- `connect`: the protocol's wire rules (content types, timeouts, error bodies and statuses)
- `calls`: one call from request bytes to answer bytes, through the gRPC servicer itself
- `app`: the ASGI application: routing, bounded body reading, health
- `listener`: the SO_REUSEPORT socket and the uvicorn server in the worker's loop
"""
