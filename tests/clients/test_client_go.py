"""The Go client (clients/go) built by `make client-go` from Debian's packages, against the real server.

Its example program settles worked example 1 (seat deltas) and an illegal win (its reasons),
reads the field paths of a malformed request's BadRequest from the status details, runs out
of a deadline, and retries UNAVAILABLE until a server that comes up late answers.
"""

from __future__ import annotations

import re
import subprocess

from tests.clients.compiled_clients import (
    SERVICE_PROTOS,
    CompiledClientChecks,
    buf_generate,
    run_clients_md_protoc,
    run_example,
    same_code,
)
from tests.server.conftest import ROOT


class TestGoClient(CompiledClientChecks):
    make_target = "client-go"
    example_command = "build/clients/go/bin/shmj-go-example"
    language = "go"
    generated = "build/clients/go/src/shmj/gen/go"
    sources = sorted((ROOT / "clients/go").rglob("*.go"))
    first_missing = "the Go client needs /usr/bin/go: apt-get install golang-go (listed in .ci/debian-packages)"
    missing_packages = (
        "golang-go protobuf-compiler protoc-gen-go protoc-gen-go-grpc golang-google-grpc-dev"
        " golang-google-genproto-dev golang-google-protobuf-dev golang-github-golang-protobuf-1-5-dev"
    )

    def test_the_example_names_an_unknown_flag(self, example):
        result = run_example(example, "-port", "1")
        assert (result.returncode, result.stdout) == (2, "")
        assert result.stderr.startswith("flag provided but not defined: -port\nUsage of ")

    def test_the_client_packages_own_go_tests_pass(self, example):
        """clients/go/scoring/client_test.go: targets, code names, the retry loop, the default deadline."""
        result = subprocess.run(["make", "-s", "-C", "clients/go", "test"], cwd=ROOT, capture_output=True, text=True)
        assert (result.returncode, result.stderr) == (0, "")
        assert re.fullmatch(r"ok  \tshmj/clients/go/scoring\t\S+s\n", result.stdout), result.stdout

    def test_the_code_is_gofmt_clean(self, example):
        result = subprocess.run(["gofmt", "-l", str(ROOT / "clients/go")], capture_output=True, text=True)
        assert (result.returncode, result.stdout, result.stderr) == (0, "", "")

    def test_the_build_generates_what_buf_gen_yaml_does(self, example, tmp_path):
        generated = buf_generate(tmp_path, {"protoc-gen-go", "protoc-gen-go-grpc"})
        built = ROOT / "build/clients/go/src/shmj/gen/go"
        names = same_code(built, generated / "go", "*.go", drop=r"// \tprotoc .*\n")
        assert "mahjong/shanghai/v1/scoring_service_grpc.pb.go" in names and len(names) == len(SERVICE_PROTOS) + 1

    def test_the_protoc_command_of_clients_md_generates_what_the_build_does(self, example, tmp_path):
        generated = run_clients_md_protoc("--go_out", tmp_path)
        built = ROOT / "build/clients/go/src/shmj/gen/go"
        assert len(same_code(built, generated / "go", "*.go")) == len(SERVICE_PROTOS) + 1
