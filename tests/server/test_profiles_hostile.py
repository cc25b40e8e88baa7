"""A worker reads its house profiles off the event loop, within a time budget, and a bad file
is a refused reload: counted, logged without the file's content, the profiles in force kept and
serving meanwhile (issue 21, findings 3, 4 and 8)."""

from __future__ import annotations

import asyncio
import json
import signal
import time

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

import server.profiles as profiles_module
from convert.profile_digest import BUILTIN_REGISTRY
from server.profiles import HouseProfiles
from tests.clients.test_hostile_profile_files import DIGITS, SECRET, SHADOW, alias_bomb
from tests.server.conftest import run_server
from tests.server.test_profiles_reload import club, house_names, metric, wait_for
from tests.server.test_profiles_watch import reloads

REFUSED = 'shmj_profile_reloads_total{result="refused"}'


def valid_directory(tmp_path):
    directory = tmp_path / "profiles"
    directory.mkdir()
    (directory / "club-a.yaml").write_text(club("club-a", 3))
    return directory


def test_a_reload_is_read_in_a_thread_while_the_event_loop_turns(tmp_path, monkeypatch):
    watched = HouseProfiles(str(valid_directory(tmp_path)))

    def slow_load(directory, follow_links=False):
        time.sleep(0.5)  # a slow disk, or a file that takes long to parse
        return BUILTIN_REGISTRY

    monkeypatch.setattr(profiles_module, "load", slow_load)

    async def reload_while_ticking():
        ticks = 0

        async def tick():
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(tick())
        adopted = await watched.reload_off_loop("test")
        ticker.cancel()
        return adopted, ticks

    adopted, ticks = asyncio.run(reload_while_ticking())
    assert adopted is True and watched.registry is BUILTIN_REGISTRY
    assert ticks >= 10  # 50 would turn in 0.5 s; a reload on the loop would let none


def test_a_reload_over_its_budget_is_refused_and_counted(tmp_path, monkeypatch):
    watched = HouseProfiles(str(valid_directory(tmp_path)))
    monkeypatch.setattr(profiles_module, "READ_BUDGET_S", 0.05)
    monkeypatch.setattr(
        profiles_module, "load", lambda directory, follow_links=False: time.sleep(2) or BUILTIN_REGISTRY
    )
    refused = reloads("refused")
    assert asyncio.run(watched.reload_off_loop("test")) is False
    assert reloads("refused") == refused + 1
    assert [e.name for e in watched.registry.house] == ["club-a"]


def test_a_bug_while_reading_is_a_counted_refusal_that_quotes_nothing(tmp_path, monkeypatch):
    directory = valid_directory(tmp_path)
    watched = HouseProfiles(str(directory))

    def buggy_load(directory, follow_links=False):
        raise ValueError(f"cannot read {SECRET}")

    monkeypatch.setattr(profiles_module, "load", buggy_load)
    refused = reloads("refused")
    assert watched.reload("test") is False
    assert reloads("refused") == refused + 1
    result = profiles_module._read(str(directory), False)
    line = buggy_load.__code__.co_firstlineno + 1
    assert result.problems == [f"{directory}: not read: ValueError at test_profiles_hostile.py:{line} (a bug)"]


def test_hostile_files_are_refused_by_every_worker_serving_on_without_their_content_logged(tmp_path):
    directory = valid_directory(tmp_path)
    outside = tmp_path / "shadow"
    outside.write_text(SHADOW)
    args = ("--profiles-dir", str(directory), "--profiles-poll-s", "0.2")
    with run_server(tmp_path, *args, workers=2) as server:
        (directory / "bomb.yaml").write_text(alias_bomb(9))
        (directory / "long.json").write_text(
            json.dumps({"name": "club-l", "base": "classic"})[:-1] + f', "overrides": {{"ordinaryBase": {DIGITS}}}}}'
        )
        (directory / "shadow.yaml").symlink_to(outside)
        (directory / "token.yaml").write_text(f"name: {SECRET * 3}\nbase: classic\n")
        wait_for(lambda: metric(server, REFUSED) == 2.0, "both workers refusing the directory")
        with grpc.insecure_channel(server.address) as channel:
            health = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=5)
            assert health.status == health_pb2.HealthCheckResponse.SERVING
        server.process.send_signal(signal.SIGHUP)  # read off the loop too
        wait_for(lambda: metric(server, REFUSED) == 4.0, "both workers refusing on SIGHUP")
        log = server.log()
    refusals = [json.loads(line) for line in log.splitlines() if "reload refused" in line]
    assert len(refusals) == 4
    assert refusals[0]["problems"] == [
        f"{directory}/bomb.yaml: a YAML alias (line 4, column 10); write the value out, profile files take no aliases",
        f"{directory}/shadow.yaml: a symbolic link out of the directory (to {outside}); not read without --profiles-follow-links",
        f"{directory}/long.json: overrides.ordinary_base: an integer of 5,000 digits is out of the int32 range",
        f"{directory}/token.yaml: name: at most 63 characters, got 78",
    ]
    assert SECRET not in log and "hashhash" not in log and "Traceback" not in log


def test_with_the_flag_a_server_reads_a_profile_linked_from_out_of_its_directory(tmp_path):
    directory = tmp_path / "profiles"
    directory.mkdir()
    (tmp_path / "club-out.yaml").write_text(club("club-out", 4))
    (directory / "club-out.yaml").symlink_to(tmp_path / "club-out.yaml")
    with run_server(tmp_path, "--profiles-dir", str(directory), "--profiles-follow-links") as server:
        assert house_names(server.stub()) == ["club-out"]
