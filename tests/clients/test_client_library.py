"""The Python client library: builders, ScoringError, the asyncio client, types, and no server/ needed."""

from __future__ import annotations

import ast
import asyncio
import json
import os
import subprocess
import sys
import textwrap

import grpc
import pytest
from mahjong.shanghai.v1 import profile_pb2, tiles_pb2
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import settlement_pb2 as pb

from clients import (
    AsyncScoringClient,
    FieldViolation,
    ScoringClient,
    ScoringError,
    check_win_request,
    get_profile_request,
    list_profiles_request,
    list_waits_request,
    settle_request,
    winner,
)
from tests.server.conftest import ROOT

EXAMPLE_7 = winner(0, "7s 7s [123m@3] [456p@3] [789s@3] [EEE@1]", win="7s")
SHORT_HAND = settle_request("classic", "self-draw", [winner(0, "111m 555m 999p EEE 7s", win="7s")], request_id="r1")
SHORT_HAND_VIOLATION = FieldViolation("winners[0].hand.concealed", "0 meld(s) leave 14 concealed tiles, got 13")


# --- a client needs no server -----------------------------------------------------------------


def test_no_client_module_imports_the_server():
    for path in sorted((ROOT / "clients").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not [n for n in names if n == "server" or n.startswith("server.")], path


def test_clients_work_with_the_server_and_its_dependencies_hidden(tmp_path):
    """A client-only install: `server`, prometheus_client and structlog cannot be imported."""
    program = textwrap.dedent(
        """
        import sys
        for hidden in ("server", "prometheus_client", "structlog", "grpc_health", "grpc_reflection"):
            sys.modules[hidden] = None  # `import` of it raises ImportError
        import clients, clients.aio, clients.cli, clients.rescore, clients.loadtest, clients.report
        request = clients.settle_request("classic", "self-draw", [clients.winner(0, "111m 555m 999p EEE 77s", win="7s")])
        print(request.winners[0].hand.winning_tile)
        sys.exit(clients.cli.main(["score", "111m 555m 999p EEE 77s", "--win", "7s", "--local", "--json"]))
        """
    )
    result = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("25\n{") and '"seatDeltas": [\n    24.0,' in result.stdout
    assert "server" not in result.stderr


# --- builders: one per request type -----------------------------------------------------------


def test_check_win_request_builder():
    built = check_win_request(
        "lezi", "discard", EXAMPLE_7, request_id="c1", dealer_seat=2, dice=(3, 3), huangfan_count=1
    )
    assert built == svc.CheckWinRequest(
        request_id="c1",
        profile="lezi",
        outcome=pb.OUTCOME_DISCARD,
        winner=EXAMPLE_7,
        dealer_seat=2,
        dice=profile_pb2.Dice(first=3, second=3),
        huangfan_count=1,
    )


def test_list_waits_request_builder():
    built = list_waits_request(
        "classic", "111m 555m 999p EEE 7s", seat=2, flowers="1f", passed="7s", overrides={"ordinary_base": 3}
    )
    assert built == svc.ListWaitsRequest(
        profile="classic",
        seat=2,
        hand=tiles_pb2.Hand(
            concealed=[1, 1, 1, 5, 5, 5, 18, 18, 18, 28, 28, 28, 25], flowers=[tiles_pb2.FLOWER_SPRING]
        ),
        passed_tiles=[tiles_pb2.TILE_S7],
        overrides=profile_pb2.RuleProfile(ordinary_base=3),
    )


def test_profile_request_builders():
    assert get_profile_request("lezi", {"huangfanMode": "HUANGFAN_MODE_PER_LEVEL"}) == svc.GetProfileRequest(
        name="lezi", overrides=profile_pb2.RuleProfile(huangfan_mode=profile_pb2.HUANGFAN_MODE_PER_LEVEL)
    )
    assert get_profile_request("classic") == svc.GetProfileRequest(name="classic")
    assert list_profiles_request() == svc.ListProfilesRequest()


def test_settle_request_builder_takes_overrides_and_liabilities():
    built = settle_request(
        "lezi", "discard", [EXAMPLE_7], discarder_seat=2, liabilities=[(0, 3, 3)], overrides={"ordinary_base": 5}
    )
    assert built.overrides == profile_pb2.RuleProfile(ordinary_base=5)
    assert list(built.liabilities) == [pb.LiabilityRelation(claimer_seat=0, source_seat=3, claims=3)]
    assert not built.HasField("dice")


# --- ScoringError instead of raw gRPC errors -------------------------------------------------


def test_a_malformed_request_raises_scoring_error_with_its_violations(server):
    with ScoringClient(server.address, timeout=5) as client:
        with pytest.raises(ScoringError) as error:
            client.settle(SHORT_HAND)
    assert error.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert error.value.violations == (SHORT_HAND_VIOLATION,)
    assert str(error.value).splitlines()[1] == f"  {SHORT_HAND_VIOLATION.field}: {SHORT_HAND_VIOLATION.description}"
    assert isinstance(error.value.__cause__, grpc.RpcError)


def test_an_unknown_profile_is_not_found(server):
    with ScoringClient(server.address, timeout=5) as client:
        with pytest.raises(ScoringError) as error:
            client.get_profile("shanghai")
    assert error.value.code == grpc.StatusCode.NOT_FOUND
    assert "classic" in error.value.message


def test_batch_and_stream_errors_read_as_scoring_errors(server):
    with ScoringClient(server.address, timeout=5) as client:
        (result,) = client.settle_batch([SHORT_HAND])
        (streamed,) = client.settle_stream([SHORT_HAND])
    for entry in (result.error, streamed.error):
        error = ScoringError.from_settle_error(entry)
        assert (error.code, error.violations) == (grpc.StatusCode.INVALID_ARGUMENT, (SHORT_HAND_VIOLATION,))


# --- the asyncio client ---------------------------------------------------------------------


def test_async_client_calls_every_rpc(server):
    example_1 = settle_request("classic", "self-draw", [winner(0, "111m 555m 999p EEE 77s", win="7s", flowers="1f 5f")])

    async def calls():
        async with AsyncScoringClient(server.address, timeout=5) as client:
            settled, batch, waits, check, profile, profiles, described, summaries = await asyncio.gather(
                client.settle(example_1),
                client.settle_batch([example_1, SHORT_HAND]),
                client.list_waits(list_waits_request("classic", "111m 555m 999p EEE 7s")),
                client.check_win(check_win_request("classic", "discard", EXAMPLE_7)),
                client.get_profile("sankou"),
                client.list_profiles(),
                client.describe_profile("sankou"),
                client.describe_profiles(),
            )
            streamed = [r async for r in client.settle_stream([example_1, SHORT_HAND])]
            with pytest.raises(ScoringError) as error:
                await client.settle(SHORT_HAND)
        return settled, batch, waits, check, profile, profiles, described, summaries, streamed, error.value

    settled, batch, waits, check, profile, profiles, described, summaries, streamed, error = asyncio.run(calls())
    assert list(settled.seat_deltas) == [36, -12, -12, -12]
    assert [r.WhichOneof("result") for r in batch] == ["response", "error"]
    assert [w.tile for w in waits.self_draw_waits] == [tiles_pb2.TILE_S7]
    assert check.result.value == 20
    assert profile.ordinary_lazi_threshold == 8
    assert [p.name for p in profiles] == ["classic", "sankou", "lezi", "qiaoma", "qiaoma_lezi", "qinghunpeng"]
    assert (described.profile, described.base) == (profile, "")
    assert list(summaries.profiles) == profiles
    assert [(s.name, s.base) for s in summaries.summaries] == [
        (name, "") for name in ("classic", "sankou", "lezi", "qiaoma", "qiaoma_lezi", "qinghunpeng")
    ]
    assert streamed[0] == settled and streamed[1].request_id == "r1" and streamed[1].HasField("error")
    assert (error.code, error.violations) == (grpc.StatusCode.INVALID_ARGUMENT, (SHORT_HAND_VIOLATION,))


def test_async_client_reports_unavailable():
    async def call():
        async with AsyncScoringClient("127.0.0.1:1", timeout=2, max_attempts=2) as client:
            await client.list_profiles()

    with pytest.raises(ScoringError) as error:
        asyncio.run(call())
    assert error.value.code == grpc.StatusCode.UNAVAILABLE


def test_round_robin_client_answers(server):
    with ScoringClient(f"ipv4:{server.address}", load_balancing="round_robin", timeout=5) as client:
        assert [p.name for p in client.list_profiles()] == [
            "classic",
            "sankou",
            "lezi",
            "qiaoma",
            "qiaoma_lezi",
            "qinghunpeng",
        ]
        described = client.describe_profile("lezi")
        assert (described.profile.name, described.base, described.description) == (
            "lezi",
            "",
            client.describe_profiles().summaries[2].description,
        )


# --- type hints: mypy --strict accepts a user's program --------------------------------------


def test_mypy_strict_accepts_a_program_using_the_client(tmp_path):
    env = dict(os.environ, MYPYPATH=str(ROOT / "gen"))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            str(tmp_path / "mypy-cache"),
            "tests/clients/typed_example.py",
            *(f"clients/{name}.py" for name in ("__init__", "client", "aio", "build", "errors")),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "Success: no issues found in 6 source files"


def test_the_typed_program_runs(server):
    result = subprocess.run(
        [sys.executable, "-m", "tests.clients.typed_example", server.address],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "[24.0, -8.0, -8.0, -8.0]",
        f"{SHORT_HAND_VIOLATION!r}",
        "([25], 20.0)",
    ]


def test_shmj_request_prints_the_request_the_builders_make(capsys):
    from google.protobuf.json_format import ParseDict

    from clients.cli import main

    hand_text = "456p 789p 111p 55p [123p@1]"
    assert main(["request", hand_text, "--win", "5p", "--seat", "2", "--outcome", "discard", "--discarder", "1"]) == 0
    printed = capsys.readouterr().out
    assert printed.count("\n") == 1  # one JSON line: `>> file.jsonl` builds a JSON Lines file
    document = json.loads(printed)
    assert (document["dealerSeat"], document["liabilities"], document["requestId"]) == (0, [], "")
    expected = settle_request("classic", "discard", [winner(2, hand_text, win="5p")], discarder_seat=1)
    assert ParseDict(document, pb.SettleRequest()) == expected


def test_the_async_client_has_every_method_of_the_blocking_one(server):
    """Found as a hostile client: CLIENTS.md says AsyncScoringClient has ScoringClient's methods,
    but it had no `advise` and no `review_record`: an asyncio backend could not ask for advice."""
    import convert
    from convert.advice import advise_request_message
    from convert.advice_json import read_advise_request
    from convert.json_read import read_settle_record_request

    def methods(client_class) -> set[str]:
        return {name for name in dir(client_class) if not name.startswith("_")}

    assert methods(ScoringClient) == methods(AsyncScoringClient)
    holding = advise_request_message(
        read_advise_request({"profile": "classic", "seat": 1, "hand": {"concealed": "111m 555m 999p CC 77s"}})
    )
    record = convert.settle_record_request_message(
        read_settle_record_request(json.loads((ROOT / "examples" / "record.json").read_text()))
    )

    async def calls():
        async with AsyncScoringClient(server.address, timeout=10) as client:
            return await asyncio.gather(
                client.advise(holding), client.review_record(record), client.settle_record(record)
            )

    with ScoringClient(server.address, timeout=10) as blocking:
        expected = [blocking.advise(holding), blocking.review_record(record), blocking.settle_record(record)]
    answers = asyncio.run(calls())
    assert answers == expected
    assert answers[0].shanten == 0 and [w.value for w in answers[0].waits] == [6, 10]
