"""The filter that turns gRPC's error for an ended call's answer into an info line
(`server.unsent_answers`) takes exactly that record: any other gRPC error stays an error,
its traceback kept. (The real record, from a real call: tests/server/test_answer_not_sent.py.)"""

from __future__ import annotations

import subprocess
import sys

from tests.server.conftest import ROOT
from tests.server.test_logs import json_lines

SPEAKER = r"""
import json, logging
from grpc._cython.cygrpc import ExecuteBatchError
from prometheus_client import REGISTRY
from server.logs import configure_logging

configure_logging("info")
grpc_log = logging.getLogger("grpc._cython.cygrpc")
SETTLE = "/mahjong.shanghai.v1.ScoringService/Settle"

def logged(error, message):
    try:
        raise error
    except Exception:
        grpc_log.exception(message)

failed = 'Failed "execute_batch": (<SendMessageOperation>, <SendStatusFromServerOperation>)'
logged(ExecuteBatchError(failed), f"ExecuteBatchError raised in core by servicer method [{SETTLE}]")
refused = "Failed grpc_call_start_batch: 8 with grpc_call_error value: 'GRPC_CALL_ERROR_TOO_MANY_OPERATIONS'"
logged(ExecuteBatchError(refused), f"ExecuteBatchError raised in core by servicer method [{SETTLE}]")
logged(ValueError("no"), f"Unexpected [ValueError] raised by servicer method [{SETTLE}]")
logged(ExecuteBatchError(failed), "Failed sending error status from server")
configure_logging("info")  # again: still one filter, one line per record
logged(ExecuteBatchError(failed), "ExecuteBatchError raised in core by servicer method [/grpc.health.v1.Health/Watch]")
print(json.dumps({"event": "counted", "level": "info", "value": REGISTRY.get_sample_value("shmj_answers_not_sent_total")}))
"""


def test_only_an_ended_calls_failed_answer_becomes_an_info_line_and_is_counted():
    ended = subprocess.run([sys.executable, "-c", SPEAKER], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert ended.returncode == 0 and ended.stderr == ""
    lines = json_lines(ended.stdout)
    assert [(e["level"], e["event"], e.get("method"), "exception" in e) for e in lines[:-1]] == [
        ("info", "answer not sent", "mahjong.shanghai.v1.ScoringService/Settle", False),
        (
            "error",
            "ExecuteBatchError raised in core by servicer method [/mahjong.shanghai.v1.ScoringService/Settle]",
            None,
            True,
        ),
        (
            "error",
            "Unexpected [ValueError] raised by servicer method [/mahjong.shanghai.v1.ScoringService/Settle]",
            None,
            True,
        ),
        ("error", "Failed sending error status from server", None, True),
        ("info", "answer not sent", "grpc.health.v1.Health/Watch", False),
    ]
    assert (
        lines[0]["reason"]
        == "the call had ended (its deadline passed or its client cancelled) as its answer was written"
    )
    assert "GRPC_CALL_ERROR_TOO_MANY_OPERATIONS" in lines[1]["exception"]
    assert lines[-1] == {"event": "counted", "level": "info", "value": 2.0}
