"""The Python client library as a wheel of its own (`make client-wheel`): installed into a fresh
venv beside its three dependencies and nothing else, it settles hands against a real server."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import textwrap
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from tests.server.conftest import ROOT

BUILD_WHEEL = ROOT / "clients" / "python" / "build_wheel.py"
DEPENDENCIES = ["grpcio<2,>=1.85.1", "protobuf<8,>=7.35.1", "googleapis-common-protos<2,>=1.76.0"]
# A venv's processes see neither this repository nor the dev venv: no source path, no .pth.
VENV_ENV = {"PATH": os.environ["PATH"], "LANG": "C.UTF-8"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run(
        [sys.executable, str(BUILD_WHEEL), "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert built.returncode == 0, built.stderr
    path = Path(built.stdout.strip())
    assert path == out / "shmj_client-0.1.0-py3-none-any.whl" and path.is_file()
    return path


@pytest.fixture(scope="module")
def client_python(wheel, tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed offline from a folder holding its dependencies'
    wheels at the project's pins (pip takes them from its cache or the package index)."""
    work = tmp_path_factory.mktemp("client-venv")
    venv, wheelhouse = work / "venv", work / "wheelhouse"
    subprocess.run([sys._base_executable, "-m", "venv", str(venv)], check=True, timeout=300)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "--quiet", "--disable-pip-version-check"]
    pins = ["--constraint", str(ROOT / "requirements.txt")]
    for step in (
        ["download", "--dest", str(wheelhouse), *pins, "grpcio", "protobuf", "googleapis-common-protos"],
        ["install", "--no-index", "--find-links", str(wheelhouse), str(wheel)],
    ):
        done = subprocess.run([*pip, *step], capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
    return venv / "bin" / "python"


def run_client(python: Path, program: str, tmp_path: Path) -> str:
    path = tmp_path / "example.py"
    path.write_text(program)
    ran = subprocess.run(
        [str(python), str(path)], cwd=tmp_path, env=VENV_ENV, capture_output=True, text=True, timeout=120
    )
    assert ran.returncode == 0, ran.stderr
    return ran.stdout


def test_the_wheel_depends_on_grpcio_protobuf_and_googleapis_common_protos_only(wheel):
    with zipfile.ZipFile(wheel) as archive:
        metadata = Parser().parsestr(archive.read("shmj_client-0.1.0.dist-info/METADATA").decode())
    assert metadata["Name"] == "shmj-client"
    assert metadata.get_all("Requires-Dist") == DEPENDENCIES


def test_the_wheel_holds_one_package_the_clients_and_what_they_need_and_no_server(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert {name.split("/")[0] for name in names} == {"shmj_client", "shmj_client-0.1.0.dist-info"}
    modules = {name for name in names if name.startswith("shmj_client/")}
    assert {
        "shmj_client/__init__.py",
        "shmj_client/client.py",
        "shmj_client/aio.py",
        "shmj_client/build.py",
        "shmj_client/errors.py",
        "shmj_client/py.typed",
        "shmj_client/rules_core/notation.py",
        "shmj_client/convert/messages.py",
        "shmj_client/v1/settlement_pb2.py",
        "shmj_client/v1/settlement_pb2.pyi",
        "shmj_client/v1/scoring_service_pb2_grpc.py",
    } <= modules
    # the library's modules of clients/: not the command line, batch rescoring or the load generator
    assert sorted(name for name in modules if re.fullmatch(r"shmj_client/\w+\.py", name)) == [
        f"shmj_client/{module}.py" for module in ("__init__", "aio", "build", "client", "errors", "trace_context")
    ]
    assert not [name for name in modules if name.endswith((".so", ".c"))]  # pure Python


def python_section() -> str:
    """The Python part of docs/CLIENTS.md."""
    clients_md = (ROOT / "docs/CLIENTS.md").read_text()
    return clients_md[clients_md.index("### Python") : clients_md.index("### Go")]


def test_the_documented_example_runs_with_the_installed_wheel(client_python, server, tmp_path):
    """docs/CLIENTS.md's first Python example, run as written against a real server: its printed
    answer is the one the page shows."""
    section = python_section()
    program = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    shown = section[section.index("$ python example.py\n") :].split("\n", 1)[1].split("```")[0]
    assert shown == (
        "seat deltas 36.0 -12.0 -12.0 -12.0\n"
        "INVALID_ARGUMENT, 2 field violations\n"
        "  winners[0].seat: must be a seat 0-3\n"
        "  winners[0].hand.concealed: 0 meld(s) leave 14 concealed tiles, got 13\n"
    )
    assert program.count('"127.0.0.1:50051"') == 1
    assert run_client(client_python, program.replace("127.0.0.1:50051", server.address), tmp_path) == shown


def test_the_other_examples_print_what_their_comments_say_with_the_installed_wheel(client_python, server, tmp_path):
    blocks = re.findall(r"```python\n(.*?)```", python_section(), re.S)[1:]
    assert len(blocks) == 3
    for block in blocks:
        printed = run_client(client_python, block.replace("127.0.0.1:50051", server.address), tmp_path)
        assert printed.splitlines() == re.findall(r"print\(.*\)  # (.*)", block)


def test_the_asyncio_client_settles_a_discard_and_imports_nothing_of_the_repository(client_python, server, tmp_path):
    program = textwrap.dedent(
        f"""
        import asyncio, sys
        import shmj_client
        from shmj_client import AsyncScoringClient, settle_request, winner

        async def main():
            request = settle_request("classic", "discard", [winner(2, "456p 789p 111p 55p [123p@1]", win="5p")], discarder_seat=1)
            async with AsyncScoringClient({server.address!r}, timeout=10.0) as client:
                response = await client.settle(request)
            print("seat deltas", *response.seat_deltas)
            print("value", response.winners[0].value, "patterns", *response.winners[0].patterns)

        asyncio.run(main())
        tops = {{name.split(".")[0] for name in sys.modules}}
        print("repository modules", sorted(tops & {{"clients", "rules_core", "convert", "mahjong", "server", "batch"}}))
        print("installed", shmj_client.__file__.startswith(sys.prefix), shmj_client.rules_core.BUILD)
        """
    )
    assert run_client(client_python, program, tmp_path).splitlines() == [
        "seat deltas 0.0 -20.0 20.0 0.0",
        f"value 20.0 patterns {pattern_number('PATTERN_FULL_FLUSH')}",
        "repository modules []",
        "installed True pure",
    ]


def pattern_number(name: str) -> int:
    from mahjong.shanghai.v1 import patterns_pb2

    return patterns_pb2.Pattern.Value(name)


def build_wheel_module():
    spec = importlib.util.spec_from_file_location("build_wheel", BUILD_WHEEL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_renaming_follows_imports_and_module_names_and_keeps_proto_names_and_data():
    source = textwrap.dedent(
        """\
        import rules_core.notation
        from mahjong.shanghai.v1 import tiles_pb2 as rules_core_tiles
        import clients.errors as errors, json
        from clients import build as convert
        SERVICE = "mahjong.shanghai.v1.ScoringService"
        LAZY = {"aio": "clients.aio", "other": 'rules_core.notation'}
        DESCRIPTOR = b"rules_core.notation"
        rules_core.notation.parse_hand("123m")  # rules_core.notation in a comment stays
        """
    )
    modules = {"shmj_client.aio", "shmj_client.errors", "shmj_client.build", "shmj_client.rules_core.notation"}
    renames = {
        "mahjong.shanghai.v1": "shmj_client.v1",
        "clients": "shmj_client",
        "rules_core": "shmj_client.rules_core",
    }
    assert build_wheel_module().rewrite(source, modules, renames) == textwrap.dedent(
        """\
        import shmj_client.rules_core.notation
        from shmj_client.v1 import tiles_pb2 as rules_core_tiles
        import shmj_client.errors as errors, json
        from shmj_client import build as convert
        SERVICE = "mahjong.shanghai.v1.ScoringService"
        LAZY = {"aio": "shmj_client.aio", "other": 'shmj_client.rules_core.notation'}
        DESCRIPTOR = b"rules_core.notation"
        shmj_client.rules_core.notation.parse_hand("123m")  # rules_core.notation in a comment stays
        """
    )


def test_the_build_refuses_a_module_that_imports_the_server_or_a_dependency_the_wheel_lacks(tmp_path):
    build_wheel = build_wheel_module()
    (tmp_path / "shmj_client").mkdir()
    (tmp_path / "shmj_client" / "__init__.py").write_text("import json\n")
    (tmp_path / "shmj_client" / "client.py").write_text(
        "import grpc\nfrom server import service\n\ndef later():\n    import msgspec\n    from shmj_client import gone\n"
        "    from shmj_client.missing import thing\n"
    )
    with pytest.raises(build_wheel.BuildError) as refused:
        build_wheel.check_imports(tmp_path, ["shmj_client/__init__.py", "shmj_client/client.py"])
    assert str(refused.value) == (
        "the client library would not import on its own:\n"
        "  shmj_client/client.py:2 imports server (the project's, not the client library's)\n"
        "  shmj_client/client.py:5 imports msgspec, which is not a dependency of the wheel\n"
        "  shmj_client/client.py:7 imports shmj_client.missing, which the wheel lacks"
    )
