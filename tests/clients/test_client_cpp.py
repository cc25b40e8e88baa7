"""The C++ client (clients/cpp) built by `make client-cpp` from Debian's packages, against the real server.

Its example program settles worked example 1 (seat deltas) and an illegal win (its reasons),
reads the field paths of a malformed request's BadRequest from the status details, runs out
of a deadline, and retries UNAVAILABLE until a server that comes up late answers. The first
build compiles the generated code (about 20 s on two cores); later ones reuse build/clients/cpp.
"""

from __future__ import annotations

from tests.clients.compiled_clients import (
    SERVICE_PROTOS,
    CompiledClientChecks,
    buf_generate,
    run_clients_md_protoc,
    run_example,
    same_code,
)
from tests.server.conftest import ROOT


class TestCppClient(CompiledClientChecks):
    make_target = "client-cpp"
    example_command = "build/clients/cpp/bin/shmj-cpp-example"
    language = "cpp"
    generated = "build/clients/cpp/gen/mahjong"
    sources = sorted((ROOT / "clients/cpp").glob("*.[ch]*"))
    first_missing = "the C++ client needs /usr/bin/g++: apt-get install g++ (listed in .ci/debian-packages)"
    missing_packages = "g++ pkg-config protobuf-compiler protobuf-compiler-grpc libprotobuf-dev libgrpc++-dev"

    def test_the_example_prints_its_usage_for_an_unknown_argument(self, example):
        result = run_example(example, "--port", "1")
        usage = "usage: shmj-cpp-example [--target HOST:PORT] [--late-target HOST:PORT]\n"
        assert (result.returncode, result.stdout, result.stderr) == (2, "", usage)

    def test_the_build_generates_what_buf_gen_yaml_does(self, example, tmp_path):
        generated = buf_generate(tmp_path, {"cpp", "grpc_cpp_plugin"})
        built, generated = ROOT / "build/clients/cpp/gen/mahjong", generated / "cpp/mahjong"
        headers = same_code(built, generated, "*.h", drop=r' \[json_name = "\w+"\]')
        stubs = same_code(built, generated, "*.grpc.pb.cc")
        assert "shanghai/v1/scoring_service.grpc.pb.h" in headers and len(headers) == len(SERVICE_PROTOS) + 1
        assert stubs == ["shanghai/v1/scoring_service.grpc.pb.cc"]

    def test_the_protoc_command_of_clients_md_generates_what_the_build_does(self, example, tmp_path):
        """The build generates the service stub for scoring_service.proto alone (the others have none)."""
        generated = run_clients_md_protoc("--cpp_out", tmp_path) / "cpp/mahjong"
        built = ROOT / "build/clients/cpp/gen/mahjong"
        assert len(same_code(built, generated, "*.pb.*")) == 2 * len(SERVICE_PROTOS) + 2
