"""Build the Python client library's wheel, `shmj-client` (`make client-wheel`).

    python clients/python/build_wheel.py [--out DIR] [--gen DIR]

The wheel carries one import package, ``shmj_client``: the blocking and asyncio clients and
the request builders of ``clients/`` (``ScoringClient``, ``AsyncScoringClient``,
``settle_request``, ``winner``, ...), and, inside it, what they need of the project: the
rules library (``shmj_client.rules_core``, pure Python: the notation the builders read), the
wire layer (``shmj_client.convert``) and the generated messages (``shmj_client.v1``, from
``mahjong.shanghai.v1``). Inside the wheel those are renamed, so that installing the client
adds no generic top-level names (``rules_core``, ``convert``, ``mahjong``, which another
package on PyPI already owns) to someone else's environment. Its install dependencies are
grpcio, protobuf and googleapis-common-protos (clients/python/pyproject.toml).

The sources are copied into build/client-python/ with their imports of the project renamed
(import statements, the names a bare ``import`` binds, and module names written as strings,
as the lazy imports of ``clients`` have them); the result is then checked: every import is
the standard library, the three dependencies, or a module the wheel carries (a client never
imports the server). The wheel is built from there with the setuptools of this environment,
offline.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import io
import re
import shutil
import subprocess
import sys
import tokenize
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PACKAGE = "shmj_client"
# The modules of clients/ that are the library (the rest is the `shmj` command and batch work).
CLIENT_MODULES = ("__init__", "aio", "build", "client", "errors", "trace_context")
# The generated code and clients/ by their names inside the wheel; the project's packages these
# import (`carried_packages`: rules_core, convert) go whole into it as shmj_client.<name>.
RENAMED = {"mahjong.shanghai.v1": f"{PACKAGE}.v1", "clients": PACKAGE}
# Packages of the project a client module must never need.
REFUSED = {"server", "batch"}
# What the wheel's modules may import besides the standard library and themselves: the three
# dependencies (google: protobuf and googleapis-common-protos; typing_extensions comes with
# grpcio), and OpenTelemetry, which trace_context imports only when the caller already has.
ALLOWED = {"grpc", "google", "typing_extensions", "opentelemetry"}
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


class BuildError(Exception):
    """Something the wheel would carry that it must not, or a source it lacks."""


def renamed(dotted: str, renames: dict[str, str]) -> str | None:
    """A project module's name inside the wheel (``renames``: package, its new name), or None."""
    for old, new in renames.items():
        if dotted == old or dotted.startswith(old + "."):
            return new + dotted[len(old) :]
    return None


def rewrite(source: str, modules: set[str], renames: dict[str, str]) -> str:
    """``source`` with the project's module names renamed: the module of an import statement,
    the names a bare ``import`` of one binds wherever they are used, and strings that name one
    of ``modules`` (the wheel's, by their new names) once renamed, as the lazy imports of
    ``clients`` do; a string naming a proto type or service (``mahjong.shanghai.v1.Tile``) stays."""
    tree = ast.parse(source)
    bound = {  # `import rules_core.x` binds `rules_core`, used as a dotted name below
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.asname is None and renamed(alias.name, renames)
    }
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    edits: list[tuple[tuple[int, int], tuple[int, int], str]] = []
    statement: list[str] = []  # the significant tokens of the logical line so far
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.type == tokenize.NAME and _names_a_module(statement, token.string in bound):
            end, dotted = _dotted(tokens, index)
            new = renamed(dotted, renames)
            if new is not None:
                edits.append((token.start, tokens[end].end, new))
                statement.append(dotted)
                index = end + 1
                continue
        if token.type == tokenize.STRING:
            new = _renamed_string(token.string, modules, renames)
            if new != token.string:
                edits.append((token.start, token.end, new))
        if token.type == tokenize.NEWLINE or token.string == ";":
            statement = []
        elif token.type not in (tokenize.INDENT, tokenize.DEDENT, tokenize.NL, tokenize.COMMENT):
            statement.append(token.string)
        index += 1
    return _edited(source, edits)


def _names_a_module(statement: list[str], bound: bool) -> bool:
    """Whether the name coming after ``statement`` (its tokens so far) begins a module's name:
    the module of ``from X import``, one of ``import X, Y as Z``, or a name a bare import bound."""
    if statement[:1] == ["from"]:
        return len(statement) == 1
    if statement[:1] == ["import"]:
        return statement[-1] in ("import", ",")
    return bound and not (statement and statement[-1] == ".")


def _dotted(tokens: list[tokenize.TokenInfo], index: int) -> tuple[int, str]:
    """The dotted name NAME (. NAME)* starting at ``index``: the index of its last token, and it."""
    names = [tokens[index].string]
    end = index
    while end + 2 < len(tokens) and tokens[end + 1].string == "." and tokens[end + 2].type == tokenize.NAME:
        names.append(tokens[end + 2].string)
        end += 2
    return end, ".".join(names)


def _renamed_string(literal: str, modules: set[str], renames: dict[str, str]) -> str:
    prefix = re.match(r"[A-Za-z]*", literal).group(0)
    if prefix.lower() not in ("", "r", "u"):  # bytes (a serialised descriptor) and f-strings stay
        return literal
    value = ast.literal_eval(literal)
    new = renamed(value, renames) if _DOTTED.fullmatch(value) else None
    if new not in modules:
        return literal
    quote = literal[len(prefix)]  # the dotted name has no escapes: only the name changes
    return f"{prefix}{quote}{new}{quote}"


def _edited(source: str, edits: list[tuple[tuple[int, int], tuple[int, int], str]]) -> str:
    """``source`` with each (start, end, text) replacing what lies between those (row, column)s."""
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    for (start_row, start_col), (end_row, end_col), text in sorted(edits, reverse=True):
        start, end = starts[start_row - 1] + start_col, starts[end_row - 1] + end_col
        source = source[:start] + text + source[end:]
    return source


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "dist", help="where the wheel goes")
    parser.add_argument("--gen", type=Path, help="the generated code's folder (default: gen/ after `make gen`)")
    args = parser.parse_args(argv)
    try:
        wheel = build(args.out, args.gen or generated_folder())
    except BuildError as error:
        print(f"build_wheel: {error}", file=sys.stderr)
        return 1
    print(wheel)
    return 0


def generated_folder() -> Path:
    if (ROOT / "gen" / "mahjong").is_dir():
        return ROOT / "gen"
    spec = importlib.util.find_spec("mahjong.shanghai.v1")
    if spec is None or not spec.submodule_search_locations:
        raise BuildError("no generated code: run `make gen` first")
    return Path(list(spec.submodule_search_locations)[0]).parents[2]


def project_packages() -> set[str]:
    """The project's top-level packages, and the generated code's."""
    return {path.name for path in ROOT.iterdir() if (path / "__init__.py").is_file()} | {"mahjong"}


def imported(source: str) -> list[tuple[int, str]]:
    """The absolute imports of a module: (line, module name), wherever they stand."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append((node.lineno, node.module))
    return names


def carried_packages() -> list[str]:
    """The project's packages that the client modules need, and those need, and so on."""
    project = project_packages() - {"clients", "mahjong"}
    carried: list[str] = []
    pending = [ROOT / "clients" / f"{name}.py" for name in CLIENT_MODULES]
    while pending:
        path = pending.pop()
        for line, name in imported(path.read_text(encoding="utf-8")):
            top = name.split(".")[0]
            if top in REFUSED:
                where = path.relative_to(ROOT)
                raise BuildError(f"{where}:{line} imports {name}: a client never needs the server or batch work")
            if top in project and top not in carried:
                carried.append(top)
                pending += sorted((ROOT / top).rglob("*.py"))
    return sorted(carried)


def renames_of(carried: list[str]) -> dict[str, str]:
    return {**RENAMED, **{package: f"{PACKAGE}.{package}" for package in carried}}


def sources(gen: Path, carried: list[str]) -> dict[str, Path]:
    """Every file the wheel carries, by its path inside the wheel."""
    files = {f"{PACKAGE}/{name}.py": ROOT / "clients" / f"{name}.py" for name in CLIENT_MODULES}
    files[f"{PACKAGE}/py.typed"] = ROOT / "clients" / "py.typed"
    for package in carried:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "__pycache__" not in path.parts:
                files[f"{PACKAGE}/{path.relative_to(ROOT).as_posix()}"] = path
    generated = gen / "mahjong" / "shanghai" / "v1"
    stubs = sorted(path for path in generated.glob("*.py*") if path.suffix in (".py", ".pyi"))
    if not stubs:
        raise BuildError(f"no generated code in {generated}: run `make gen` first")
    for path in stubs:
        files[f"{PACKAGE}/v1/{path.name}"] = path
    return files


def stage(gen: Path, folder: Path, carried: list[str]) -> list[str]:
    """The wheel's sources laid out in ``folder`` with the project's imports renamed; their paths."""
    shutil.rmtree(folder, ignore_errors=True)
    for name in ("pyproject.toml", "README.md"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(HERE / name, folder / name)
    files = sources(gen, carried)
    files.setdefault(f"{PACKAGE}/v1/__init__.py", None)  # the generated folder is a namespace package
    modules = {_module_name(relative) for relative in files if relative.endswith((".py", ".pyi"))}
    for relative, path in files.items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if path is None:
            target.write_text('"""The messages and stubs generated from mahjong/shanghai/v1/*.proto."""\n')
        elif path.suffix in (".py", ".pyi"):
            source = path.read_text(encoding="utf-8")
            target.write_text(rewrite(source, modules, renames_of(carried)), encoding="utf-8")
        else:
            shutil.copy2(path, target)
    return sorted(files)


def check_imports(folder: Path, files: list[str]) -> None:
    """Every import of the staged modules is the standard library, an allowed dependency, or a
    module the wheel carries."""
    modules = {_module_name(relative) for relative in files if relative.endswith((".py", ".pyi"))}
    project = project_packages()
    wrong = []
    for relative in files:
        if not relative.endswith((".py", ".pyi")):
            continue
        for line, name in imported((folder / relative).read_text(encoding="utf-8")):
            top = name.split(".")[0]
            if top == PACKAGE and name not in modules:
                wrong.append(f"{relative}:{line} imports {name}, which the wheel lacks")
            elif top in project:
                wrong.append(f"{relative}:{line} imports {name} (the project's, not the client library's)")
            elif top not in sys.stdlib_module_names and top not in ALLOWED | {PACKAGE, "__future__"}:
                wrong.append(f"{relative}:{line} imports {name}, which is not a dependency of the wheel")
    if wrong:
        raise BuildError("the client library would not import on its own:\n  " + "\n  ".join(wrong))


def _module_name(relative: str) -> str:
    parts = relative.rsplit(".", 1)[0].split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def check_versions(gen: Path) -> None:
    """The generated code's gencode versions are at most the wheel's lower bounds of grpcio and
    protobuf: the runtime the wheel lets pip choose must be one the code accepts."""
    bounds = {}
    for requirement in tomllib.loads((HERE / "pyproject.toml").read_text())["project"]["dependencies"]:
        name, lowest = re.fullmatch(r"([\w-]+)>=([\d.]+),<\d+", requirement).groups()
        bounds[name] = tuple(int(part) for part in lowest.split("."))
    generated = gen / "mahjong" / "shanghai" / "v1"
    made_for = {
        "grpcio": re.search(r"GRPC_GENERATED_VERSION = '([\d.]+)'", (generated / "tiles_pb2_grpc.py").read_text()),
        "protobuf": re.search(r"# Protobuf Python Version: ([\d.]+)", (generated / "tiles_pb2.py").read_text()),
    }
    for name, found in made_for.items():
        if found is None:
            raise BuildError(f"cannot read which {name} the generated code in {generated} was made for")
        version = tuple(int(part) for part in found.group(1).split("."))
        if version > bounds[name]:
            raise BuildError(
                f"the generated code needs {name}>={found.group(1)}: raise the bound in clients/python/pyproject.toml"
            )


def build(out: Path, gen: Path) -> Path:
    """Stage, check and build the wheel into ``out``; its path."""
    check_versions(gen)
    folder = ROOT / "build" / "client-python"
    files = stage(gen, folder, carried_packages())
    check_imports(folder, files)
    out.mkdir(parents=True, exist_ok=True)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index"]
        + ["--wheel-dir", str(out), str(folder)],
        capture_output=True,
        text=True,
    )
    if built.returncode:
        raise BuildError(f"pip wheel failed:\n{built.stdout}{built.stderr}")
    version = tomllib.loads((HERE / "pyproject.toml").read_text())["project"]["version"]
    return out / f"{PACKAGE}-{version}-py3-none-any.whl"


if __name__ == "__main__":
    sys.exit(main())
