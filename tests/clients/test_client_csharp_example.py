"""The C# example of docs/CLIENTS.md, which cannot be compiled here (no .NET SDK), against the
code protoc generates for C#: every enum member and message property it names exists."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.server.conftest import ROOT

PROTOC = Path(sys.executable).parent / "protoc"
# The properties the example sets or reads, by message.
PROPERTIES = {
    "Hand": {"WinningTile", "Flowers", "Concealed"},
    "SettleRequest": {"Profile", "Outcome", "Winners"},
    "Winner": {"Hand"},
    "SettleResponse": {"SeatDeltas"},
}


def csharp_example() -> str:
    (example,) = re.findall(r"```csharp\n(.*?)```", (ROOT / "docs/CLIENTS.md").read_text(), flags=re.S)
    return example


def generated_csharp(folder: Path) -> str:
    protos = sorted(str(p.relative_to(ROOT / "proto")) for p in (ROOT / "proto").rglob("*.proto"))
    subprocess.run([PROTOC, "-I", "proto", f"--csharp_out={folder}", *protos], cwd=ROOT, check=True)
    return "".join(path.read_text() for path in sorted(folder.glob("*.cs")))


def declaration(code: str, kind: str, name: str) -> str:
    """The text of a generated enum or message class, up to the next top-level declaration."""
    start = code.index(f"  public {kind} {name} ")
    following = re.compile(r"^  (public|#endregion)", flags=re.M).search(code, start + 1)
    return code[start : following.start() if following else len(code)]


def test_the_csharp_example_names_enum_members_protoc_generates(tmp_path):
    code, example = generated_csharp(tmp_path), csharp_example()
    used = set(re.findall(r"\b(Tile|Flower|Outcome)\.(\w+)", example))
    assert {("Tile", "S7"), ("Tile", "East"), ("Flower", "Plum"), ("Outcome", "SelfDraw")} <= used
    for enum, member in used:
        assert re.search(rf"\] {member} = \d+,", declaration(code, "enum", enum)), f"{enum}.{member}"


def test_the_csharp_example_names_properties_protoc_generates(tmp_path):
    code, example = generated_csharp(tmp_path), csharp_example()
    for message, properties in PROPERTIES.items():
        assert f"new {message} {{" in example or message == "SettleResponse", message
        for name in properties:
            assert name in example, name
            assert re.search(rf"\n    public [\w:.<>]+ {name} \{{", declaration(code, "sealed partial class", message))
