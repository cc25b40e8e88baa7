"""The reference part of docs/API.md, written from the `.proto` files: every rpc, message, field,
enum and value with its comment. ``make api-doc`` rewrites it between the two markers of
API.md; a test fails when the committed text is not what the `.proto` files give.

    .venv/bin/python docs/api_reference.py          # rewrite docs/API.md
    .venv/bin/python docs/api_reference.py --check  # exit 1 when it is stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from google.protobuf import descriptor_pb2

ROOT = Path(__file__).resolve().parents[1]
API_MD = ROOT / "docs" / "API.md"
DESCRIPTORS = ROOT / "gen" / "mahjong" / "shanghai" / "v1" / "shmj_descriptors.binpb"  # `make gen`, with comments
PACKAGE = "mahjong.shanghai.v1"
BEGIN = "<!-- reference: written by docs/api_reference.py from the .proto files (make api-doc); do not edit -->"
END = "<!-- end of the reference -->"

# Paths into a FileDescriptorProto (descriptor.proto's field numbers), for its comments.
MESSAGE, ENUM, SERVICE = 4, 5, 6
FIELD, NESTED_MESSAGE, NESTED_ENUM, ONEOF = 2, 3, 4, 8
VALUE, METHOD = 2, 2

_SCALAR = {
    getattr(descriptor_pb2.FieldDescriptorProto, name): name.removeprefix("TYPE_").lower()
    for name in descriptor_pb2.FieldDescriptorProto.Type.keys()
}


def load_files(path: Path = DESCRIPTORS) -> list[descriptor_pb2.FileDescriptorProto]:
    files = descriptor_pb2.FileDescriptorSet.FromString(path.read_bytes()).file
    return [f for f in files if f.package == PACKAGE]


def _comments(file: descriptor_pb2.FileDescriptorProto) -> dict[tuple[int, ...], str]:
    """Each element's leading comment, one line, buf's lint directives left out."""
    found = {}
    for location in file.source_code_info.location:
        lines = [line.strip() for line in location.leading_comments.splitlines()]
        text = " ".join(line for line in lines if line and not line.startswith("buf:lint"))
        if text:
            found[tuple(location.path)] = text.replace("|", "\\|")
    return found


def _type(field: descriptor_pb2.FieldDescriptorProto) -> str:
    if field.type_name:
        name = f"`{field.type_name.removeprefix('.' + PACKAGE + '.').lstrip('.')}`"
    else:
        name = _SCALAR[field.type]
    if field.label == descriptor_pb2.FieldDescriptorProto.LABEL_REPEATED:
        return f"repeated {name}"
    return f"optional {name}" if field.proto3_optional else name


def _message(message, path: tuple[int, ...], comments, prefix: str = "") -> list[str]:
    name = prefix + message.name
    lines = [f"#### `{name}`", "", comments.get(path, ""), ""]
    if message.field:
        real_oneofs = {i: o.name for i, o in enumerate(message.oneof_decl) if not o.name.startswith("_")}
        lines += ["| field | type | meaning |", "|---|---|---|"]
        for index, field in enumerate(message.field):
            note = comments.get((*path, FIELD, index), "")
            if field.HasField("oneof_index") and field.oneof_index in real_oneofs:
                note = f"(one of `{real_oneofs[field.oneof_index]}`) {note}"
            lines.append(f"| `{field.name}` = {field.number} | {_type(field)} | {note} |")
    else:
        lines.append("No fields.")
    lines.append("")
    for index, nested in enumerate(message.nested_type):
        if not nested.options.map_entry:
            lines += _message(nested, (*path, NESTED_MESSAGE, index), comments, f"{name}.")
    for index, nested in enumerate(message.enum_type):
        lines += _enum(nested, (*path, NESTED_ENUM, index), comments, f"{name}.")
    return lines


def _enum(enum, path: tuple[int, ...], comments, prefix: str = "") -> list[str]:
    lines = [f"#### `{prefix}{enum.name}`", "", comments.get(path, ""), "", "| value | meaning |", "|---|---|"]
    for index, value in enumerate(enum.value):
        lines.append(f"| `{value.name}` = {value.number} | {comments.get((*path, VALUE, index), '')} |")
    return [*lines, ""]


def reference(files: list[descriptor_pb2.FileDescriptorProto]) -> str:
    lines: list[str] = []
    for file in sorted(files, key=lambda f: f.name):
        comments = _comments(file)
        lines += [f"### `{Path(file.name).name}`", ""]
        for index, service in enumerate(file.service):
            lines += [f"#### service `{service.name}`", "", comments.get((SERVICE, index), ""), ""]
            lines += ["| rpc | takes | answers | what it does |", "|---|---|---|---|"]
            for number, method in enumerate(service.method):
                stream_in = "stream " if method.client_streaming else ""
                stream_out = "stream " if method.server_streaming else ""
                takes = f"{stream_in}`{method.input_type.rsplit('.', 1)[1]}`"
                answers = f"{stream_out}`{method.output_type.rsplit('.', 1)[1]}`"
                note = comments.get((SERVICE, index, METHOD, number), "")
                lines.append(f"| `{method.name}` | {takes} | {answers} | {note} |")
            lines.append("")
        for index, message in enumerate(file.message_type):
            lines += _message(message, (MESSAGE, index), comments)
        for index, enum in enumerate(file.enum_type):
            lines += _enum(enum, (ENUM, index), comments)
    text = "\n".join(lines)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.strip() + "\n"


def rewritten(document: str, files: list[descriptor_pb2.FileDescriptorProto]) -> str:
    """The document with its reference part, between the markers, written anew."""
    head, _, rest = document.partition(BEGIN + "\n")
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n\n{reference(files)}\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when docs/API.md is not what it would write")
    args = parser.parse_args(argv)
    document = API_MD.read_text()
    if not DESCRIPTORS.is_file():
        print(f"{DESCRIPTORS} is missing: run `make gen`", file=sys.stderr)
        return 1
    if BEGIN not in document or END not in document:
        print(f"{API_MD}: the markers of the reference are missing", file=sys.stderr)
        return 1
    fresh = rewritten(document, load_files())
    if args.check:
        if fresh != document:
            print(f"{API_MD} is stale: run `make api-doc`", file=sys.stderr)
            return 1
        return 0
    API_MD.write_text(fresh)
    return 0


if __name__ == "__main__":
    sys.exit(main())
