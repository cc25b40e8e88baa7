"""The worked examples of RULES.md 14.8 (`qiaoma_lezi`, `qinghunpeng`) and 14.10.11 (`qiaoma`)
over gRPC and over HTTP/JSON, against a real server.

The examples are written once, as the rules tests of `tests/rules_core/test_families_examples.py`
and `tests/rules_core/test_families_qiaoma.py`: each of those tests runs here with its module's
`settle` answered by the server instead of by rules_core in this process. Every assertion of the
example (legality, reasons, patterns, 花, items, values, payments, deltas, next hand) then reads
the server's answer, turned back into rules_core's terms; and that answer must be, field for field,
the one rules_core gives here.
"""

from __future__ import annotations

import pytest
from google.protobuf.json_format import ParseDict
from mahjong.shanghai.v1 import settlement_pb2 as pb

import convert
import rules_core as rc
from convert.profile_digest import BUILTIN_REGISTRY as DIGESTED
from convert.results import settle_result
from tests.rules_core import test_families_examples, test_families_qiaoma

EXAMPLES = [
    (module, name)
    for module in (test_families_examples, test_families_qiaoma)
    for name in vars(module)
    if name.startswith("test_")
]


@pytest.fixture(params=["grpc", "http-json"])
def settle_on_the_server(request, stub, http):
    """`rules_core.settle`'s signature, answered by the server over one face."""
    answered: list[str] = []

    def settle(settle_request: rc.SettleRequest, profiles=None) -> rc.SettleResult:
        message = convert.settle_request_message(settle_request)
        if request.param == "grpc":
            response = stub.Settle(message, timeout=10)
        else:
            reply = http.json_call("Settle", message)
            assert reply.status == 200, reply.body
            response = ParseDict(reply.json(), pb.SettleResponse())
        assert response == convert.settle_response(rc.settle(settle_request, DIGESTED))
        answered.append(settle_request.profile)
        return settle_result(response)

    yield settle
    assert answered, "the example settled nothing on the server"


@pytest.mark.parametrize(("module", "name"), EXAMPLES, ids=[name.removeprefix("test_") for _, name in EXAMPLES])
def test_every_worked_example_of_section_14_over_the_wire(monkeypatch, settle_on_the_server, module, name):
    monkeypatch.setattr(module, "settle", settle_on_the_server)
    getattr(module, name)()


def test_every_example_of_14_8_and_14_10_11_is_run():
    numbered = [name for module, name in EXAMPLES if module is test_families_examples]
    assert [name.split("_")[1] for name in numbered] == [f"{n:02}" for n in range(1, 21)]  # 14.8: 20 examples
    qiaoma = [name.split("_")[1] for module, name in EXAMPLES if module is test_families_qiaoma]
    assert qiaoma[:11] == ["q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "p1", "e1", "e2"]
    assert qiaoma[11:13] == ["e3", "e4"]  # 14.10.11: Q1-Q8, P1-P7, E1-E4
