"""A raw HTTP/2 connection (h2) whose gRPC calls send bodies that never end: what no gRPC
client library would do, and what a hostile one does."""

from __future__ import annotations

import socket

import h2.config
import h2.connection
import h2.events
import h2.exceptions

GRPC_PATH = "/mahjong.shanghai.v1.ScoringService/Settle"


class RawGrpcConnection:
    """One HTTP/2 connection sending bodies that never end; it answers pings and sends as
    much as the server's flow-control windows allow."""

    def __init__(self, address: tuple[str, int], streams: int, body_bytes: int):
        self.sock = socket.create_connection(address)
        self.sock.settimeout(0.2)
        self.conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        self.conn.initiate_connection()
        self.pending: dict[int, int] = {}  # stream: bytes still to send (one short of the whole message)
        self.ended: set[int] = set()  # streams the server answered or reset
        self.statuses: list[str] = []  # the grpc-status of each stream the server ended
        self.closed = False
        frame_length = 1 + 4 + body_bytes  # the gRPC message prefix: compressed flag, 4-byte length
        prefix = b"\x00" + body_bytes.to_bytes(4, "big")
        self.prefix = prefix
        for _ in range(streams):
            stream = self.conn.get_next_available_stream_id()
            self.conn.send_headers(
                stream,
                [
                    (":method", "POST"),
                    (":scheme", "http"),
                    (":path", GRPC_PATH),
                    (":authority", f"{address[0]}:{address[1]}"),
                    ("content-type", "application/grpc"),
                    ("te", "trailers"),
                ],
            )
            self.pending[stream] = frame_length - 1
        self.started: set[int] = set()
        self._flush()

    def _flush(self) -> None:
        data = self.conn.data_to_send()
        if data:
            self.sock.sendall(data)

    def pump(self) -> None:
        """Send what the windows allow, read and answer what the server sent."""
        if self.closed:
            return
        try:
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
                if isinstance(event, h2.events.ResponseReceived) and event.stream_ended is not None:
                    self.statuses.append(dict(event.headers).get(b"grpc-status", b"").decode())
                elif isinstance(event, h2.events.TrailersReceived):
                    self.statuses.append(dict(event.headers).get(b"grpc-status", b"").decode())
                if isinstance(event, (h2.events.StreamReset, h2.events.StreamEnded)):
                    self.pending.pop(event.stream_id, None)
                    self.ended.add(event.stream_id)
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
