"""Plain HTTP calls to the server's Connect endpoint, with nothing but the standard library."""

from __future__ import annotations

import http.client
import json
from dataclasses import dataclass
from urllib.parse import urlsplit

from google.protobuf.json_format import MessageToJson

SERVICE_PATH = "/mahjong.shanghai.v1.ScoringService/"


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self):
        return json.loads(self.body)


class Http:
    """One keep-alive connection to the endpoint at ``url``."""

    def __init__(self, url: str, timeout: float = 30):
        parts = urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Http:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def request(self, verb: str, path: str, body: bytes | None = None, headers: dict | None = None) -> Reply:
        self.connection.request(verb, path, body=body, headers=headers or {})
        response = self.connection.getresponse()
        body = response.read()
        return Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, body)

    def post(self, method: str, body: bytes, content_type: str = "application/json", **headers: str) -> Reply:
        return self.request("POST", SERVICE_PATH + method, body, {"Content-Type": content_type, **headers})

    def json_call(self, method: str, message, **headers: str) -> Reply:
        """The request message sent as proto3 JSON."""
        return self.post(method, MessageToJson(message).encode(), **headers)

    def proto_call(self, method: str, message, **headers: str) -> Reply:
        return self.post(method, message.SerializeToString(), "application/proto", **headers)

    def get(self, path: str) -> Reply:
        return self.request("GET", path)
