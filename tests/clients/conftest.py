import pytest

from tests.server.conftest import run_server, server, stub  # noqa: F401  (the real server, shared)
from tests.server.otlp_receiver import otel_environment


@pytest.fixture
def traced_server(tmp_path, monkeypatch):
    """A server whose spans go to the receiver it is started with."""

    def start(receiver, protocol: str = "grpc"):
        for name, value in otel_environment(receiver, protocol).items():
            monkeypatch.setenv(name, value)
        return run_server(tmp_path)

    return start
