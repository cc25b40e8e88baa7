"""The project carries its own rules and contract (docs/RULES.md, docs/API.md), and neither can go
stale: API.md names every rpc, message and enum of the .proto files, RULES.md names modules,
test files and tests that exist and the worked examples the suite settles, and no document
links outside the repository."""

from __future__ import annotations

import importlib.util
import re
import subprocess
from pathlib import Path

import pytest
from google.protobuf import descriptor_pool
from mahjong.shanghai.v1 import (  # noqa: F401  (each file's descriptors, into the default pool)
    patterns_pb2,
    profile_pb2,
    records_pb2,
    scoring_service_pb2,
    settlement_pb2,
    tiles_pb2,
)

from convert.profile_digest import profile_digest
from rules_core import BUILTIN_PROFILES
from tests.worked_examples import WORKED_EXAMPLES

ROOT = Path(__file__).resolve().parents[1]
RULES = (ROOT / "docs/RULES.md").read_text()
API = (ROOT / "docs/API.md").read_text()
PROTO_FILES = sorted(path.relative_to(ROOT / "proto").as_posix() for path in (ROOT / "proto").rglob("*.proto"))


def _api_reference():
    spec = importlib.util.spec_from_file_location("api_reference", ROOT / "docs/api_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def contract_names() -> set[str]:
    """Every service, rpc, message (nested ones too) and enum of the package's .proto files."""
    names: set[str] = set()

    def message(descriptor, prefix=""):
        names.add(prefix + descriptor.name)
        for nested in descriptor.nested_types:
            if not nested.GetOptions().map_entry:
                message(nested, f"{prefix}{descriptor.name}.")
        names.update(f"{prefix}{descriptor.name}.{enum.name}" for enum in descriptor.enum_types)

    pool = descriptor_pool.Default()
    for name in PROTO_FILES:
        file = pool.FindFileByName(name)
        for descriptor in file.message_types_by_name.values():
            message(descriptor)
        names.update(file.enum_types_by_name)
        for service in file.services_by_name.values():
            names.add(service.name)
            names.update(method.name for method in service.methods)
    return names


def test_api_md_names_every_rpc_message_and_enum_of_the_proto_files():
    assert len(PROTO_FILES) == 7
    named = set(re.findall(r"`([A-Z][A-Za-z0-9.]*)`", API))
    assert contract_names() - named == set()
    for method in scoring_service_pb2.DESCRIPTOR.services_by_name["ScoringService"].methods:
        assert f"| `{method.name}` |" in API


def test_api_md_reference_is_what_the_proto_files_give():
    """`make api-doc` writes it; a .proto edit without it fails here."""
    reference = _api_reference()
    assert reference.rewritten(API, reference.load_files()) == API
    ended = subprocess.run(
        [str(ROOT / ".venv/bin/python"), "docs/api_reference.py", "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert (ended.returncode, ended.stderr) == (0, "")


def test_api_md_gives_the_built_in_profiles_digests_the_code_computes():
    fields = {f.name for m in settlement_pb2.DESCRIPTOR.message_types_by_name.values() for f in m.fields}
    assert {"engine_version", "profile_digest"} <= fields
    section = API.split("## Versioned answers", 1)[1].split("\n## ", 1)[0]
    documented = dict(re.findall(r"^\| `(\w+)` \| `(sha256:[0-9a-f]{64})` \|$", section, flags=re.M))
    assert documented == {name: profile_digest(p) for name, p in BUILTIN_PROFILES.items()}


# --- RULES.md ----------------------------------------------------------------------------


def rules_sections() -> dict[int, str]:
    parts = re.split(r"^## (\d+)\. .*$", RULES, flags=re.M)
    return {int(number): text for number, text in zip(parts[1::2], parts[2::2], strict=True)}


def test_rules_md_has_every_section_and_each_names_what_holds_it():
    sections = rules_sections()
    assert sorted(sections) == list(range(1, 14))
    for number, text in sections.items():
        if number != 12:  # the worked examples name their tests in their introduction
            assert "**Held by** " in text, number


def test_every_module_test_file_and_test_rules_md_names_exists():
    paths = set(re.findall(r"`((?:rules_core|tests)/[\w/]+\.py)`", RULES))
    assert len(paths) > 30
    assert sorted(p for p in paths if not (ROOT / p).is_file()) == []
    test_sources = "".join(path.read_text() for path in (ROOT / "tests").rglob("test_*.py"))
    tests = set(re.findall(r"`(test_\w+)`", RULES))
    assert len(tests) >= 10
    assert sorted(t for t in tests if f"def {t}(" not in test_sources) == []


def _deltas(deltas) -> str:
    return "[" + ", ".join(f"{d:+g}" if d else "0" for d in deltas) + "]"


@pytest.mark.parametrize("name, deltas", [(name, deltas) for name, _, deltas, _ in WORKED_EXAMPLES])
def test_the_worked_examples_are_the_ones_the_suite_settles(name, deltas):
    examples = dict(re.findall(r"^(\d+)\. (.*?)(?=^\d+\. |\Z)", rules_sections()[12], flags=re.M | re.S))
    assert sorted(map(int, examples)) == list(range(1, 21))
    text = " ".join(examples[name.split("-")[0]].split())
    assert f"`{_deltas(deltas)}`" in text


# --- links -------------------------------------------------------------------------------

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_relative_link_leads_to_a_file_of_the_repository(document):
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", document.read_text())
    local = [link for link in links if "://" not in link and not link.startswith("mailto:")]
    missing = [link for link in local if not (document.parent / link).exists()]
    assert missing == []
    resolved = [(document.parent / link).resolve() for link in local]
    assert [path for path in resolved if path != ROOT and ROOT not in path.parents] == []


def test_nothing_points_outside_the_repository_for_the_rules_or_the_contract():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    offenders = [
        name
        for name in tracked
        if name.endswith((".md", ".py", ".proto", ".yaml", ".yml", ".toml", "Makefile"))
        and name != "tests/test_docs.py"
        and re.search(r"\.\./shared/|READINGS\.md", (ROOT / name).read_text(errors="replace"))
    ]
    assert offenders == []
    readme = (ROOT / "README.md").read_text()
    assert "[docs/RULES.md](docs/RULES.md)" in readme and "[docs/API.md](docs/API.md)" in readme


# --- what the documents name exists, as a reader follows them ---------------------------------

MADE_BY_THE_BUILD = ("build/", ".tools/", "gen/", ".venv/")  # made by make, never committed
NAMED_INSIDE_THE_WHEEL = {"rules_core/compiled-sources.json"}  # setup.py writes it into the wheel only


def _tracked() -> list[str]:
    return subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()


def _code_spans(text: str) -> list[tuple[int, str]]:
    """(line, text) of every inline code span and every line of a fenced block."""
    spans = []
    for block in re.finditer(r"^```\w*\n(.*?)^```", text, flags=re.M | re.S):
        first = text[: block.start()].count("\n") + 2
        spans += [(first + n, line) for n, line in enumerate(block.group(1).splitlines())]
    prose = re.sub(r"^```\w*\n.*?^```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.M | re.S)
    spans += [(prose[: m.start()].count("\n") + 1, m.group(1)) for m in re.finditer(r"`([^`\n]+)`", prose)]
    return spans


def _named_paths(document: Path) -> list[tuple[int, str]]:
    """The repository paths a document names in code: words that begin with a top-level folder."""
    folders = {name.split("/")[0] for name in _tracked() if "/" in name}
    found = []
    for line, text in _code_spans(document.read_text()):
        if "kubectl " in text:  # deploy/NAME there is a Kubernetes object
            continue
        for word in re.findall(r"(?<![\w./-])([\w.-]+/[\w./*{},…-]*)", text):
            path = word.rstrip(".,:")
            if path.split("/")[0] in folders and not re.search(r"[*{}…]|\.\.\.", path):
                found.append((line, path))
    return found


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_repository_path_a_document_names_exists(document):
    missing = [
        f"{document.name}:{line}: {path}"
        for line, path in _named_paths(document)
        if not (ROOT / path).exists() and not path.startswith(MADE_BY_THE_BUILD) and path not in NAMED_INSIDE_THE_WHEEL
    ]
    assert missing == []


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_link_to_a_section_names_a_heading_of_its_document(document):
    from tests.deploy.tools import anchors

    links = re.findall(r"\]\(([^)#\s]*)#([^)\s]+)\)", document.read_text())
    targets = [(document.parent / link if link else document, anchor) for link, anchor in links]
    assert [(t.name, a) for t, a in targets if t.suffix == ".md" and a not in anchors(t.read_text())] == []


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_make_target_a_document_names_is_in_the_makefile(document):
    makefile = (ROOT / "Makefile").read_text()
    targets = set(re.findall(r"^([a-z][\w-]*):", makefile, flags=re.M))
    named = {
        (line, target)
        for line, text in _code_spans(document.read_text())
        for target in re.findall(r"(?:^|[\s;&(])make (?:-j\d+ )?([a-z][\w-]*)", text)
    }
    assert sorted((line, t) for line, t in named if t not in targets) == []
    # and every VARIABLE=value given to make is one the Makefile reads
    variables = set(re.findall(r"^([A-Z_]+) \?=", makefile, flags=re.M))
    given = {
        (line, variable)
        for line, text in _code_spans(document.read_text())
        for command in re.findall(r"(?:^|[\s;&(])make [^#;&|`]*", text)
        for variable in re.findall(r"\b([A-Z_]+)=", command)
    }
    assert sorted((line, v) for line, v in given if v not in variables) == []


def _shmj_parsers() -> dict[str, set[str]]:
    """Every `shmj` command (and `profiles check`) with the options it takes."""
    import argparse

    from clients.cli import build_parser

    def commands(parser):
        (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        return action.choices

    def options(parser):
        return {option for action in parser._actions for option in action.option_strings}

    found = {name: options(parser) for name, parser in commands(build_parser()).items()}
    found["profiles check"] = options(commands(commands(build_parser())["profiles"])["check"])
    return found


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_shmj_command_a_document_shows_takes_the_flags_shown(document):
    parsers = _shmj_parsers()
    text = document.read_text().replace("\\\n", " ")
    wrong = []
    for line, span in _code_spans(text):
        if "kubectl " in span:  # its namespace shmj
            continue
        for command, rest in re.findall(r"(?:^|[\s;&|(])(?:\.venv/bin/)?shmj ([a-z]+)([^;&|#`]*)", span):
            if command == "profiles" and rest.split()[:1] == ["check"]:
                command = "profiles check"
            flags = re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", rest)
            if command not in parsers:
                wrong.append(f"{document.name}:{line}: shmj {command}")
                continue
            wrong += [f"{document.name}:{line}: shmj {command} {f}" for f in flags if f not in parsers[command]]
    # a table of commands: every flag of a row that begins with `shmj COMMAND ...` is that command's
    for command, row in re.findall(r"^\| `shmj ([a-z]+(?: check)?)\b[^`]*` \|(.*)$", text, flags=re.M):
        flags = re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", row)
        wrong += [f"{document.name}: the row of shmj {command}: {f}" for f in flags if f not in parsers[command]]
    assert wrong == []


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_metric_a_document_names_is_one_the_server_exports(document):
    import server.http.calls  # noqa: F401  (the HTTP face's metrics too)
    import server.http.connections  # noqa: F401
    from tests.deploy.tools import exported_names, queried_metrics

    names = exported_names()
    named = {metric for _, span in _code_spans(document.read_text()) for metric in queried_metrics(span)}
    families = {n for n in names} | {re.sub(r"_(total|bucket|count|sum)$", "", n) for n in names}
    # files, a package, a function
    not_metrics = {"shmj_node", "shmj_cpp_example", "shmj_descriptors", "shmj_client", "process_time"}
    assert sorted(named - families - not_metrics) == []


def _python_commands() -> dict[str, set[tuple[str, int, str]]]:
    """Every `python -m MODULE ...` the documents show: by module, (document, line, the command)."""
    found: dict[str, set[tuple[str, int, str]]] = {}
    for document in DOCUMENTS:
        for line, span in _code_spans(document.read_text().replace("\\\n", " ")):
            for command in re.findall(r"(?:\S*/)?python3? -m [\w.]+[^`;&|#]*", span):
                module = command.split()[2]
                if module.split(".")[0] in {"bench", "tests", "server", "clients", "batch", "rules_core"}:
                    found.setdefault(module, set()).add((document.name, line, command.strip()))
    return found


def test_every_python_command_a_document_shows_runs_the_venv_and_takes_the_flags_shown():
    """A new user's `python` is not the project's: each command names `.venv/bin/python`, and every
    module it runs answers `--help` with each `--flag` the documents give it."""
    commands = _python_commands()
    assert len(commands) >= 10
    assert (
        sorted(f"{d}:{n}: {c}" for shown in commands.values() for d, n, c in shown if not c.startswith(".venv/")) == []
    )
    for module, shown in sorted(commands.items()):
        flags = {flag for _, _, command in shown for flag in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", command)}
        if module == "server" or not flags - {"--help"}:
            continue  # the server's flags are the README's table (tests/test_readme.py)
        helped = subprocess.run(
            [str(ROOT / ".venv/bin/python"), "-m", module, "--help"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert helped.returncode == 0, (module, helped.stderr[-2000:])
        assert sorted(flag for flag in flags if flag not in helped.stdout) == [], module


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_test_a_document_names_is_one_the_suite_has(document):
    """`tests/...py::test_name`, `::test_name` and `test_name` alike: a renamed test leaves no
    promise pointing at nothing (RELIABILITY.md's table of what holds each promise, above all)."""
    sources = "".join(path.read_text() for path in (ROOT / "tests").rglob("*.py"))
    named = set(re.findall(r"(?:::|`)(test_\w+)\b(?!\.py)", document.read_text()))
    assert sorted(name for name in named if not re.search(rf"def {name}\(", sources)) == []


def test_http_md_lists_every_rpc_the_http_face_serves():
    """Its path table: every ScoringService method but the bidirectional stream."""
    http = (ROOT / "docs/HTTP.md").read_text()
    (row,) = re.findall(
        r"^\| `/mahjong\.shanghai\.v1\.ScoringService/<Method>` \| `POST` \| (.*) \|$", http, flags=re.M
    )
    service = descriptor_pool.Default().FindServiceByName("mahjong.shanghai.v1.ScoringService")
    unary = [m.name for m in service.methods if not (m.client_streaming or m.server_streaming)]
    assert re.findall(r"`(\w+)`", row) == unary


def test_developing_md_and_clients_md_name_every_proto_file_of_the_contract():
    stems = sorted(Path(name).stem for name in PROTO_FILES)
    developing = (ROOT / "docs/DEVELOPING.md").read_text()
    (row,) = re.findall(r"^\| `proto/mahjong/shanghai/v1/` \| (.*) \|$", developing, flags=re.M)
    assert sorted(re.findall(r"`(\w+)`", row.split(" `.proto` files")[0])) == stems
    numbers = {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
    clients_md = (ROOT / "docs/CLIENTS.md").read_text()
    assert f"defined by the {numbers[len(stems)]} files in `proto/mahjong/shanghai/v1/`" in clients_md


def test_clients_md_shows_the_service_config_the_python_client_uses():
    import json

    from clients.client import retry_service_config

    clients_md = (ROOT / "docs/CLIENTS.md").read_text()
    (shown,) = re.findall(r"```json\n(.*?)```", clients_md[clients_md.index("## Retries and deadlines") :], re.S)[:1]
    assert json.loads(shown) == json.loads(retry_service_config())
