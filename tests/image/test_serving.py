"""The built image serves as the README and docs/OPERATIONS.md say: its entrypoint, as uid
10001 that can write nowhere but the temporary folders, answers health, the worked examples
of RULES.md section 12 over gRPC and over HTTP, the explorer page and /metrics, and serves the
house profiles of a folder mounted read-only."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path

import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from mahjong.shanghai.v1 import scoring_service_pb2 as svc

import convert
from server.explorer.static_files import STATIC
from server.explorer.vocabulary import vocabulary
from tests.image.container import image_config
from tests.server.http_calls import Http
from tests.worked_examples import WORKED_EXAMPLES

EXAMPLES = {name: (request, deltas) for name, request, deltas, _ in WORKED_EXAMPLES}
# example 1 (a self-draw, README's session), 4 (a discard win) and 6 (not legal)
SHOWN = ["1", "4", "6"]
SETTLED_OK = re.compile(
    r'^grpc_server_handled_total\{grpc_code="OK",grpc_method="Settle",'
    r'grpc_service="mahjong.shanghai.v1.ScoringService",grpc_type="unary"\} (\S+)$',
    re.M,
)


def test_health_is_serving_and_the_images_own_healthcheck_says_so(served):
    health = health_pb2_grpc.HealthStub(served.channel).Check(health_pb2.HealthCheckRequest(), timeout=10)
    assert health.status == health_pb2.HealthCheckResponse.SERVING
    kind, *command = image_config()["Healthcheck"]["Test"]
    assert kind == "CMD"
    code, out = served.container.output(*command)
    assert (code, out) == (0, f"127.0.0.1:{served.env['SHMJ_PORT']} (the server 服务器): serving 服务中 (SERVING)\n")


@pytest.mark.parametrize("name", SHOWN)
def test_a_worked_example_over_grpc(served, name):
    request, deltas = EXAMPLES[name]
    answer = served.stub.Settle(convert.settle_request_message(request), timeout=10)
    assert tuple(answer.seat_deltas) == deltas


@pytest.mark.parametrize("name", SHOWN)
def test_a_worked_example_over_http(served, name):
    request, deltas = EXAMPLES[name]
    with Http(served.http_url) as http:
        reply = http.json_call("Settle", convert.settle_request_message(request))
    assert (reply.status, reply.json()["seatDeltas"]) == (200, list(deltas))


def test_the_explorer_page_and_its_vocabulary(served):
    with Http(served.http_url) as http:
        page = http.get("/")
        words = http.get("/explorer/vocabulary.json")
    assert (page.status, page.headers["content-type"]) == (200, "text/html; charset=utf-8")
    assert page.body == (STATIC / "index.html").read_bytes()
    assert (words.status, words.json()) == (200, vocabulary())


def settled_ok(served) -> float:
    with urllib.request.urlopen(served.metrics_url, timeout=10) as answer:
        found = SETTLED_OK.search(answer.read().decode())
    return float(found.group(1)) if found else 0.0


def test_metrics_count_a_settlement(served):
    before = settled_ok(served)
    served.stub.Settle(convert.settle_request_message(EXAMPLES["1"][0]), timeout=10)
    deadline = time.monotonic() + 10
    while settled_ok(served) == before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert settled_ok(served) == before + 1


def test_the_house_profiles_of_the_mounted_folder_are_served(served):
    listed = served.stub.ListProfiles(svc.ListProfilesRequest(), timeout=10)
    assert [(s.name, s.base) for s in listed.summaries] == [
        ("classic", ""),
        ("sankou", ""),
        ("lezi", ""),
        ("qiaoma", ""),
        ("qiaoma_lezi", ""),
        ("qinghunpeng", ""),
        ("shanghai-club-a", "lezi"),
    ]
    got = served.stub.GetProfile(svc.GetProfileRequest(name="shanghai-club-a"), timeout=10)
    assert (got.profile.ordinary_base, got.description) == (3, "勒子 room, base 3, liability replaces payments")


def ids(pid: int) -> tuple[str, str]:
    """The real, effective, saved and filesystem user and group ids of a process."""
    status = dict(line.split(":\t") for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    return status["Uid"], status["Gid"]


def test_every_process_of_the_server_runs_as_uid_10001(served):
    pids = served.container.server_pids()
    # the supervisor, multiprocessing's resource tracker and the two workers
    assert len(pids) == 4
    assert {ids(pid) for pid in pids} == {("10001\t10001\t10001\t10001", "10001\t10001\t10001\t10001")}


# Every path the server's user may write, not looking inside one it may (the kernel's /proc,
# /sys and /dev are the runtime's, not the image's).
WRITABLE = """
import os
found = []
for top, folders, files in os.walk("/"):
    if top in ("/proc", "/sys", "/dev") or os.access(top, os.W_OK):
        found += [top] if top not in ("/proc", "/sys", "/dev") else []
        folders[:] = []
        continue
    found += [os.path.join(top, f) for f in files if os.access(os.path.join(top, f), os.W_OK)]
    folders[:] = [f for f in folders if not os.path.islink(os.path.join(top, f))]
print(sorted(found))
"""


def test_the_server_user_may_write_its_temporary_folders_only(served):
    code, out = served.container.output("python", "-c", WRITABLE)
    assert code == 0, out
    assert json.loads(out.replace("'", '"')) == ["/run/lock", "/tmp", "/var/tmp"]
