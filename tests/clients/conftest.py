from tests.server.conftest import server, stub  # noqa: F401  (the real server, shared)
