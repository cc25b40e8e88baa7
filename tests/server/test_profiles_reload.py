"""House profiles in the server: listed, settled, and reloaded without a restart (SIGHUP, or a
Kubernetes-style ``..data`` link swapped) under load with no failed call; a bad reload is
refused as a whole and the old profiles keep serving."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
from mahjong.shanghai.v1 import scoring_service_pb2 as svc
from mahjong.shanghai.v1 import scoring_service_pb2_grpc

import convert
import rules_core as rc
from tests.server.conftest import ROOT, free_port, run_server
from tests.server.http_calls import Http
from tests.worked_examples import WORKED_EXAMPLES

EXAMPLE = WORKED_EXAMPLES[0][1]  # classic, self-draw: the value follows 底注花 (ordinary_base)


def club(name: str, base: int, description: str = "a room") -> str:
    return f"name: {name}\nbase: classic\ndescription: {description}\noverrides:\n  ordinaryBase: {base}\n"


def request_message(profile: str):
    return convert.settle_request_message(EXAMPLE._replace(profile=profile))


def expected_deltas(ordinary_base: int) -> tuple[float, ...]:
    return rc.settle(EXAMPLE._replace(overrides={"ordinary_base": ordinary_base})).seat_deltas


class ConfigMapDir:
    """A directory laid out as a Kubernetes ConfigMap volume: each key a link through ``..data``,
    a link that an update swaps atomically to a new timestamped directory."""

    def __init__(self, root: Path):
        self.root = root
        self.version = 0
        root.mkdir()

    def publish(self, files: dict[str, str]) -> None:
        self.version += 1
        data = self.root / f"..v{self.version}"
        data.mkdir()
        for name, text in files.items():
            (data / name).write_text(text)
        staged = self.root / "..data_tmp"
        staged.symlink_to(data.name)
        os.replace(staged, self.root / "..data")  # the atomic swap kubelet does
        for name in files:
            link = self.root / name
            if not link.is_symlink():
                link.symlink_to(Path("..data") / name)
        for stale in self.root.iterdir():  # keys removed by this update
            if stale.is_symlink() and stale.name not in files and not stale.name.startswith(".."):
                stale.unlink()


def metric(server, line_start: str) -> float:
    for line in server.metrics().splitlines():
        if line.startswith(line_start + " "):
            return float(line.split()[-1])
    return 0.0


def wait_for(condition, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def house_names(stub) -> list[str]:
    listed = stub.ListProfiles(svc.ListProfilesRequest(), timeout=5).profiles
    return [p.name for p in listed if p.name not in rc.BUILTIN_PROFILES]


class Load:
    """Threads settling under a house profile on their own connections until stopped; every answer
    must be OK and carry the deltas of one of the versions of the profile."""

    def __init__(self, server, profile: str, threads: int = 4):
        self.request = convert.settle_request_message(EXAMPLE._replace(profile=profile))
        self.server = server
        self.stopping = threading.Event()
        self.answers: list[tuple[float, ...]] = []
        self.failures: list[str] = []
        self.threads = [threading.Thread(target=self._run) for _ in range(threads)]

    def _run(self) -> None:
        channel = self.server.channel()

        stub = scoring_service_pb2_grpc.ScoringServiceStub(channel)
        try:
            while not self.stopping.is_set():
                try:
                    self.answers.append(tuple(stub.Settle(self.request, timeout=10).seat_deltas))
                except grpc.RpcError as error:
                    self.failures.append(f"{error.code().name}: {error.details()}")
        finally:
            channel.close()

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=30)


def test_a_bad_profile_file_stops_the_start_with_one_line_naming_file_and_field(tmp_path):
    profiles = tmp_path / "profiles"
    profiles.mkdir()
    (profiles / "club-a.yaml").write_text(club("club-a", 3))
    (profiles / "club-b.yaml").write_text("name: club-b\nbase: classic\noverrides:\n  ordinaryBase: -1\n")
    command = [sys.executable, "-m", "server", "--port", str(free_port()), "--metrics-port", "0", "--http-port", "0"]
    result = subprocess.run(
        [*command, "--profiles-dir", str(profiles)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1
    lines = [json.loads(line) for line in (result.stdout + result.stderr).splitlines()]
    assert [(e["event"], e["problems"]) for e in lines if e["level"] == "error"] == [
        (
            "bad house profiles; not starting",
            [f"{profiles}/club-b.yaml: overrides.ordinary_base: must be 0 to 100000, got -1"],
        )
    ]


def test_house_profiles_are_listed_and_settle_as_their_base_with_the_overrides(tmp_path):
    profiles = tmp_path / "profiles"
    profiles.mkdir()
    (profiles / "club-a.yaml").write_text(club("club-a", 4, "勒子 room"))
    with run_server(tmp_path, "--profiles-dir", str(profiles)) as server:
        stub = server.stub()
        listed = stub.ListProfiles(svc.ListProfilesRequest(), timeout=5)
        assert [(s.name, s.base, s.description) for s in listed.summaries] == [
            ("classic", "", rc.registry.BUILTIN_DESCRIPTIONS["classic"]),
            ("sankou", "", rc.registry.BUILTIN_DESCRIPTIONS["sankou"]),
            ("lezi", "", rc.registry.BUILTIN_DESCRIPTIONS["lezi"]),
            ("qiaoma", "", rc.registry.BUILTIN_DESCRIPTIONS["qiaoma"]),
            ("qiaoma_lezi", "", rc.registry.BUILTIN_DESCRIPTIONS["qiaoma_lezi"]),
            ("qinghunpeng", "", rc.registry.BUILTIN_DESCRIPTIONS["qinghunpeng"]),
            ("club-a", "classic", "勒子 room"),
        ]
        assert [p.name for p in listed.profiles] == [*rc.BUILTIN_PROFILES, "club-a"]
        assert listed.profiles[6].ordinary_base == 4
        got = stub.GetProfile(svc.GetProfileRequest(name="club-a"), timeout=5)
        assert (got.profile.name, got.profile.ordinary_base, got.base, got.description) == (
            "club-a",
            4,
            "classic",
            "勒子 room",
        )
        answer = stub.Settle(request_message("club-a"), timeout=5)
        assert tuple(answer.seat_deltas) == expected_deltas(4)
        assert answer.profile == "club-a"
        # request overrides on top of the house profile
        on_top = EXAMPLE._replace(profile="club-a", overrides={"ordinary_base": 6})
        assert tuple(stub.Settle(convert.settle_request_message(on_top), timeout=5).seat_deltas) == expected_deltas(6)
        with Http(server.http_url) as http:  # the HTTP face reads the same profiles
            reply = http.post("GetProfile", json.dumps({"name": "club-a"}).encode())
            assert reply.status == 200
            body = reply.json()
            assert (body["base"], body["description"], body["profile"]["ordinaryBase"]) == ("classic", "勒子 room", 4)
            settled = http.post("Settle", json.dumps(convert.message_dict(request_message("club-a"))).encode())
            assert settled.json()["seatDeltas"] == list(expected_deltas(4))
        text = server.metrics()
        assert 'shmj_settlements_total{outcome="SELF_DRAW",profile="club-a"} 3.0' in text
        assert metric(server, "shmj_profiles_loaded") == 1.0


def test_reload_on_a_link_swap_and_on_sighup_under_load_with_no_failed_call(tmp_path):
    profiles = ConfigMapDir(tmp_path / "profiles")
    profiles.publish({"club-a.yaml": club("club-a", 3)})
    args = ("--profiles-dir", str(profiles.root), "--profiles-poll-s", "0.2")
    with run_server(tmp_path, *args, workers=2) as server, Load(server, "club-a") as load:
        stub = server.stub()
        ok, refused = 'shmj_profile_reloads_total{result="ok"}', 'shmj_profile_reloads_total{result="refused"}'

        # A ConfigMap update: the ..data link swapped; both workers reload within a poll.
        profiles.publish(
            {"club-a.yaml": club("club-a", 5), "club-b.json": json.dumps({"name": "club-b", "base": "lezi"})}
        )
        wait_for(lambda: metric(server, ok) == 2.0, "both workers reloading the swapped directory")
        assert house_names(stub) == ["club-a", "club-b"]
        wait_for(lambda: len(load.answers) > 0 and load.answers[-1] == expected_deltas(5), "the new profile in use")

        # A bad update is refused as a whole by each worker; the profiles in force keep serving.
        profiles.publish({"club-a.yaml": club("club-a", 7), "club-c.yaml": "name: club-c\nbase: riichi\n"})
        wait_for(lambda: metric(server, refused) == 2.0, "both workers refusing the bad directory")
        assert house_names(stub) == ["club-a", "club-b"]
        assert metric(server, "shmj_profiles_loaded") == 2.0
        refusals = [json.loads(line) for line in server.log().splitlines() if "reload refused" in line]
        assert [(e["reason"], e["problems"], e["kept"]) for e in refusals] == [
            (
                "the directory changed",
                [
                    f"{profiles.root}/club-c.yaml: base: unknown profile 'riichi'; a house profile is based on one of classic, sankou, lezi, qiaoma, qiaoma_lezi, qinghunpeng"
                ],
                ["club-a", "club-b"],
            )
        ] * 2

        # SIGHUP to the supervisor reaches every worker: the still bad directory is refused again.
        server.process.send_signal(signal.SIGHUP)
        wait_for(lambda: metric(server, refused) == 4.0, "both workers refusing on SIGHUP")

        # Fixed: the next update is taken.
        profiles.publish({"club-a.yaml": club("club-a", 7)})
        wait_for(lambda: metric(server, ok) == 4.0, "both workers reloading the fixed directory")
        assert house_names(stub) == ["club-a"]
        wait_for(lambda: load.answers[-1] == expected_deltas(7), "the fixed profile in use")
    assert load.failures == []
    assert set(load.answers) == {expected_deltas(3), expected_deltas(5), expected_deltas(7)}
    assert server.process.returncode == 0


def test_sighup_reloads_a_directory_edited_in_place_when_polling_is_off(tmp_path):
    """Also: a stream that started before the reload keeps the profiles it started with."""
    profiles = tmp_path / "profiles"
    profiles.mkdir()
    (profiles / "club-a.yml").write_text(club("club-a", 3))
    with run_server(tmp_path, "--profiles-dir", str(profiles), "--profiles-poll-s", "0") as server:
        stub = server.stub()
        sent: queue.Queue = queue.Queue()
        stream = stub.SettleStream(iter(sent.get, None), timeout=60)
        sent.put(request_message("club-a"))
        assert tuple(next(stream).seat_deltas) == expected_deltas(3)
        (profiles / "club-a.yml").write_text(club("club-a", 4, "base 4"))
        (profiles / "notes.txt").write_text("not a profile: ignored")
        time.sleep(0.5)
        assert stub.GetProfile(svc.GetProfileRequest(name="club-a"), timeout=5).profile.ordinary_base == 3
        server.process.send_signal(signal.SIGHUP)
        wait_for(
            lambda: stub.GetProfile(svc.GetProfileRequest(name="club-a"), timeout=5).description == "base 4",
            "the SIGHUP reload",
        )
        assert tuple(stub.Settle(request_message("club-a"), timeout=5).seat_deltas) == expected_deltas(4)
        sent.put(request_message("club-a"))  # the stream in flight: still the profiles it started with
        assert tuple(next(stream).seat_deltas) == expected_deltas(3)
        sent.put(None)
        assert list(stream) == []
        reloads = [json.loads(line) for line in server.log().splitlines() if "house profiles reloaded" in line]
        assert [(e["reason"], e["profiles"]) for e in reloads] == [("SIGHUP", ["club-a"])]
