"""The front door stays short and current: the README, PERFORMANCE.md and RELIABILITY.md within
their lengths, no history in any document (how a figure was reached lives in git), benchmark
JSON under bench/results/, a guide for each kind of reader, and no command a document shows
leaving files git would list as new in the clone."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("name, most", [("README.md", 150), ("docs/PERFORMANCE.md", 300), ("docs/RELIABILITY.md", 300)])
def test_the_front_door_documents_stay_short(name, most):
    assert len((ROOT / name).read_text().splitlines()) <= most


HISTORY = {
    "an issue number": r"\bissues? #?\d+",
    "a time of day": r"\b\d{1,2}:\d\d(?:-\d{1,2}:\d\d)? UTC\b",
    "a load average": r"\bload averages?\b|\bat load \d|\bload \d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)? on\b|\(load \d",
    "a round": r"\brounds?\b",
}


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_no_document_tells_history(document):
    found = [
        f"{document.name}:{number}: {what}: {match.group(0)!r}"
        for number, line in enumerate(document.read_text().splitlines(), 1)
        for what, pattern in HISTORY.items()
        for match in re.finditer(pattern, line, flags=re.I)
    ]
    assert found == []


def test_the_history_patterns_catch_what_they_are_for():
    said = "issue 23's fifth round, 13:16 UTC, load average 14 (load 3-5 on two cores)"
    caught = {what for what, pattern in HISTORY.items() if re.search(pattern, said, flags=re.I)}
    assert caught == set(HISTORY)
    assert not any(re.search(p, "load_balancing='round_robin', 3.7 ms p99", flags=re.I) for p in HISTORY.values())


def test_benchmark_json_lives_under_bench_results_and_every_one_a_document_links_is_there():
    assert sorted(p.name for p in (ROOT / "docs").glob("*.json")) == []
    linked = {
        (document.parent / link).resolve()
        for document in DOCUMENTS
        for link in re.findall(r"\]\(([^)#\s]+\.json)\)", document.read_text())
    }
    assert linked and all(path.parent == ROOT / "bench" / "results" and path.is_file() for path in linked)


def test_the_readme_has_a_guide_for_each_kind_of_reader():
    readme = (ROOT / "README.md").read_text()
    index = readme[readme.index("## Where to read next\n") :]
    readers = {
        "Game backend developers": ["API.md", "CLIENTS.md", "HTTP.md"],
        "Operators": ["OPERATIONS.md", "RELIABILITY.md", "PERFORMANCE.md", "dashboard"],
        "Support staff": ["EXPLORER.md", "CLI.md"],
        "Batch users": ["BATCH.md"],
        "Contributors": ["DEVELOPING.md"],
    }
    for reader, guides in readers.items():
        (entry,) = re.findall(rf"^### {reader}\n(.*?)(?=^### |\Z)", index, flags=re.M | re.S)
        assert [g for g in guides if g not in entry] == [], reader


# --- what the documents' commands write ---------------------------------------------------

WRITING_FLAGS = r"(?:-o|--output|--report|--plot|--summary)"


def written_paths(command: str) -> list[str]:
    """The files and folders a shell command writes in the working directory: redirections,
    `mkdir`, and the output flags of the project's commands."""
    paths = re.findall(r"(?<![\d&])>>?\s*([^\s&|;)]+)", command)
    paths += re.findall(r"\bmkdir (?:-p )?([^\s&|;]+)", command)
    if "kubectl " not in command and re.search(r"(?:^|[\s;&|(])(?:\S*/)?(?:shmj [a-z]|python3? -m )", command):
        paths += re.findall(rf"(?:^|\s){WRITING_FLAGS}\s+([^\s&|;]+)", command)
        paths += re.findall(r"--(?:json|profile)\s+([^\s&|;]+\.(?:json|svg))\b", command)
    return [p.strip("'\"") for p in paths if "://" not in p and not p.startswith(("/", "$", "-"))]


def shown_commands(document: Path) -> list[tuple[int, str]]:
    """(line, command) of every command in the document's sh and console blocks."""
    text = document.read_text()
    commands = []
    for block in re.finditer(r"^```(sh|console)\n(.*?)^```", text, flags=re.M | re.S):
        first = text[: block.start()].count("\n") + 2
        lines = block.group(2).replace("\\\n", " \n").splitlines()
        for number, line in enumerate(lines):
            if block.group(1) == "console" and not line.startswith("$ "):
                continue
            command = line.removeprefix("$ ").split("  #")[0]
            if command.strip() and not command.startswith("#"):
                commands.append((first + number, command))
    return commands


def test_written_paths_finds_what_a_command_writes():
    assert written_paths(".venv/bin/shmj request X --win 7s > scratch/my-hand.json") == ["scratch/my-hand.json"]
    assert written_paths("shmj rescore in.jsonl -o out --local 2>/dev/null") == ["out"]
    assert written_paths("mkdir -p release && cat > release/k.yaml <<'EOF'") == ["release/k.yaml", "release"]
    assert written_paths("kubectl -n shmj get pod POD -o wide") == []


def _ignored_or_tracked(path: str) -> bool:
    ignored = any(
        subprocess.run(["git", "check-ignore", "-q", "--no-index", name], cwd=ROOT).returncode == 0
        for name in (path, path.rstrip("/") + "/")  # a folder a command makes, as git sees a folder
    )
    tracked = subprocess.run(["git", "ls-files", "--error-unmatch", path], cwd=ROOT, capture_output=True)
    return ignored or tracked.returncode == 0


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_the_commands_a_document_shows_write_only_where_git_looks_away(document):
    """A reader who follows the guides in the clone is left no new file that `git status`
    lists: the examples write under `scratch/` (which .gitignore names), or into a figure
    file the repository keeps."""
    loose = [
        f"{document.name}:{line}: {path}"
        for line, command in shown_commands(document)
        for path in written_paths(command)
        if not _ignored_or_tracked(path)
    ]
    assert loose == []


def test_the_scratch_folder_is_ignored():
    assert _ignored_or_tracked("scratch/my-hand.json")
    assert "/scratch/" in (ROOT / ".gitignore").read_text().splitlines()
