"""A raw HTTP/2 connection (h2) whose gRPC calls send bodies that never end: what no gRPC
client library would do, and what a hostile one does."""

from __future__ import annotations

import socket
import time

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions
import h2.settings

GRPC_PATH = "/mahjong.shanghai.v1.ScoringService/Settle"


def request_headers(authority: str, path: str = GRPC_PATH, timeout: str = "") -> list[tuple[str, str]]:
    """A gRPC call's request headers; ``timeout`` its ``grpc-timeout`` (e.g. ``"2S"``), none if empty."""
    headers = [
        (":method", "POST"),
        (":scheme", "http"),
        (":path", path),
        (":authority", authority),
        ("content-type", "application/grpc"),
        ("te", "trailers"),
    ]
    return [*headers, ("grpc-timeout", timeout)] if timeout else headers


class RawGrpcConnection:
    """One HTTP/2 connection sending bodies that never end; it answers pings and sends as
    much as the server's flow-control windows allow."""

    def __init__(self, address: tuple[str, int], streams: int, body_bytes: int, reopen: bool = False, source: str = ""):
        self.sock = connect(address, source)
        self.sock.settimeout(0.2)
        self.conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        self.conn.initiate_connection()
        self.authority = f"{address[0]}:{address[1]}"
        self.pending: dict[int, int] = {}  # stream: bytes still to send (one short of the whole message)
        self.ended: set[int] = set()  # streams the server answered or reset
        self.statuses: list[str] = []  # the grpc-status of each stream the server ended
        self.details: list[str] = []  # and its grpc-status-details-bin (base64), empty when it had none
        self.closed = False
        self.reopen = reopen  # open a new stream for each one the server ends
        self.to_open = 0  # streams to open again once the connection has room
        self.frame_length = 1 + 4 + body_bytes  # the gRPC message prefix: compressed flag, 4-byte length
        self.prefix = b"\x00" + body_bytes.to_bytes(4, "big")
        self.started: set[int] = set()
        for _ in range(streams):
            self._open_stream()
        self._flush()

    def _open_stream(self) -> None:
        stream = self.conn.get_next_available_stream_id()
        self.conn.send_headers(stream, request_headers(self.authority))
        self.pending[stream] = self.frame_length - 1

    def _flush(self) -> None:
        data = self.conn.data_to_send()
        if data:
            self.sock.sendall(data)

    def pump(self) -> None:
        """Send what the windows allow, read and answer what the server sent."""
        if self.closed:
            return
        try:
            while self.to_open and self.conn.open_outbound_streams < self.conn.remote_settings.max_concurrent_streams:
                self._open_stream()
                self.to_open -= 1
            for stream, left in list(self.pending.items()):
                while left > 0:
                    window = min(self.conn.local_flow_control_window(stream), self.conn.max_outbound_frame_size)
                    if window <= 0:
                        break
                    if stream not in self.started:
                        chunk = self.prefix + b"\x0a" * (min(window, left) - len(self.prefix))
                        self.started.add(stream)
                    else:
                        chunk = b"\x0a" * min(window, left)  # tag of field 1, a length byte... any bytes do
                    self.conn.send_data(stream, chunk)
                    left -= len(chunk)
                self.pending[stream] = left
            self._flush()
            data = self.sock.recv(65536)
            if not data:
                self.closed = True
                return
            for event in self.conn.receive_data(data):
                if (isinstance(event, h2.events.ResponseReceived) and event.stream_ended is not None) or isinstance(
                    event, h2.events.TrailersReceived
                ):
                    headers = dict(event.headers)
                    self.statuses.append(headers.get(b"grpc-status", b"").decode())
                    self.details.append(headers.get(b"grpc-status-details-bin", b"").decode())
                if isinstance(event, (h2.events.StreamReset, h2.events.StreamEnded)):
                    self.pending.pop(event.stream_id, None)
                    self.ended.add(event.stream_id)
                    self.to_open += self.reopen
                elif isinstance(event, h2.events.ConnectionTerminated):
                    self.closed = True
            self._flush()
        except TimeoutError:
            pass
        except (OSError, h2.exceptions.ProtocolError):
            self.closed = True

    @property
    def refused(self) -> int:
        return len(self.ended)

    def close(self) -> None:
        self.sock.close()


def connect(address: tuple[str, int], source: str = "") -> socket.socket:
    """A TCP connection to ``address``, from the loopback address ``source`` if given
    (loopback is the whole of 127.0.0.0/8: a test's clients can come from several addresses)."""
    return socket.create_connection(address, source_address=(source, 0) if source else None)


def grpc_frame(message: bytes) -> bytes:
    """One uncompressed gRPC message: flag byte, big-endian length, the message."""
    return b"\x00" + len(message).to_bytes(4, "big") + message


class RawGrpcCall:
    """One gRPC call on a raw HTTP/2 connection of its own, its body sent as the caller says:
    in pieces, with or without the half-close. `read_for` reads what the server sends.

    ``window``: the flow-control window the client gives each stream (HTTP/2's
    SETTINGS_INITIAL_WINDOW_SIZE); 0 lets the server send its headers but no byte of its
    answer, as a client that stopped reading does. ``timeout``: the call's ``grpc-timeout``."""

    def __init__(
        self,
        address: tuple[str, int],
        path: str = GRPC_PATH,
        source: str = "",
        window: int | None = None,
        timeout: str = "",
    ):
        self.sock = connect(address, source)
        self.sock.settimeout(0.1)
        self.conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        self.conn.initiate_connection()
        if window is not None:
            self.conn.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: window})
        self.stream = self.conn.get_next_available_stream_id()
        self.conn.send_headers(self.stream, request_headers(f"{address[0]}:{address[1]}", path, timeout))
        self.messages = b""  # the response's DATA, gRPC-framed
        self.headers: dict[str, str] = {}  # the response's headers, once they came
        self.trailers: dict[str, str] = {}
        self.ended = False
        self._flush()

    def _flush(self) -> None:
        data = self.conn.data_to_send()
        if data:
            self.sock.sendall(data)

    def send(self, data: bytes, end: bool = False) -> None:
        self.conn.send_data(self.stream, data, end_stream=end)
        self._flush()

    def half_close(self) -> None:
        self.conn.end_stream(self.stream)
        self._flush()

    def cancel(self) -> None:
        """Reset the stream (RST_STREAM, CANCEL), as a client cancelling its call does."""
        self.conn.reset_stream(self.stream, h2.errors.ErrorCodes.CANCEL)
        self._flush()

    def read_for(self, seconds: float, until_headers: bool = False) -> None:
        """Read and answer what the server sends for ``seconds``, or until the call ends (or,
        ``until_headers``, until the response's headers came)."""
        deadline = time.monotonic() + seconds
        while not self.ended and not (until_headers and self.headers) and time.monotonic() < deadline:
            try:
                data = self.sock.recv(65536)
            except TimeoutError:
                continue
            if not data:
                self.ended = True
                break
            for event in self.conn.receive_data(data):
                if isinstance(event, h2.events.DataReceived):
                    self.messages += event.data
                    self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                elif isinstance(event, (h2.events.TrailersReceived, h2.events.ResponseReceived)):
                    self.trailers.update((k.decode(), v.decode()) for k, v in event.headers)
                    if isinstance(event, h2.events.ResponseReceived):
                        self.headers = {k.decode(): v.decode() for k, v in event.headers}
                if isinstance(event, (h2.events.StreamEnded, h2.events.StreamReset, h2.events.ConnectionTerminated)):
                    self.ended = True
            self._flush()

    @property
    def status(self) -> str:
        """The call's grpc-status, empty while the server has not answered."""
        return self.trailers.get("grpc-status", "")

    def close(self) -> None:
        self.sock.close()
