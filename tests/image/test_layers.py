"""What the image holds, layer by layer: not this machine's CA bundle, which the build mounts
for pip, nor any other credential or package-index setting; and in its runtime, no compiler,
no sources, no tests."""

from __future__ import annotations

import json
import re
import tarfile
from pathlib import Path

import pytest

from tests.deploy.tools import OPERATIONS
from tests.image.container import IMAGE, Container, buildah

HOST_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
PRIVATE_KEY = re.compile(rb"-----BEGIN [A-Z ]*PRIVATE KEY-----\r?\n[A-Za-z0-9+/]{40}")  # a key, not code naming one
PEM = re.compile(rb"-----BEGIN CERTIFICATE-----\n(.+?)-----END CERTIFICATE-----", re.S)
# files that hold credentials or point pip, git or a registry somewhere
CREDENTIAL_NAMES = re.compile(
    r"(^|/)(pip\.conf|pip\.ini|\.netrc|\.pypirc|\.git-credentials|\.npmrc|auth\.json|config\.json|id_rsa|id_ed25519)$"
)


@pytest.fixture(scope="module")
def layers(tmp_path_factory) -> list[dict[str, bytes]]:
    """Each layer's regular files, path -> content, as the image would be pushed."""
    folder = tmp_path_factory.mktemp("layers") / "oci"
    buildah("push", IMAGE, f"oci:{folder}")
    index = json.loads((folder / "index.json").read_text())
    digest = index["manifests"][0]["digest"].split(":")[1]
    manifest = json.loads((folder / "blobs/sha256" / digest).read_text())
    found = []
    for layer in manifest["layers"]:
        with tarfile.open(folder / "blobs/sha256" / layer["digest"].split(":")[1]) as tar:
            found.append({m.name.removeprefix("./"): tar.extractfile(m).read() for m in tar if m.isfile()})
    return found


def certificates(pem: bytes) -> set[bytes]:
    return {b"".join(body.split()) for body in PEM.findall(pem)}


def test_no_layer_holds_the_machines_own_certificates_or_its_bundle(layers):
    base_bundle = layers[0]["etc/ssl/certs/ca-certificates.crt"]  # the base's own, from Debian's package
    own = certificates(HOST_BUNDLE.read_bytes()) - certificates(base_bundle)
    assert own, "this machine's bundle adds no certificate of its own to Debian's: nothing to look for"
    first_lines = [body[:64] for body in own]  # a PEM's first line, however it is wrapped
    for n, files in enumerate(layers):
        for path, content in files.items():
            assert content != HOST_BUNDLE.read_bytes(), (n, path)
            assert not [line for line in first_lines if line in content], (n, path)


def test_no_layer_holds_a_credential_or_a_package_index_setting(layers):
    named = [(n, path) for n, files in enumerate(layers) for path in files if CREDENTIAL_NAMES.search(path)]
    assert named == []
    # the layers the build adds (the first is the base's, whose GnuTLS carries its self-tests' keys)
    keys = [(n, path) for n, files in enumerate(layers[1:], 1) for path, c in files.items() if PRIVATE_KEY.search(c)]
    assert keys == []


@pytest.fixture(scope="module")
def runtime_root():
    container = Container({})
    try:
        yield container.root
    finally:
        container.remove()


def test_the_runtime_has_no_compiler_no_sources_and_no_tests(runtime_root):
    compilers = [
        p.name
        for pattern in ("gcc*", "cc", "c++", "g++*", "*-linux-gnu-gcc*")
        for p in (runtime_root / "usr/bin").glob(pattern)
    ]
    assert compilers == []
    assert [p for p in ("src", "wheels", "proto") if (runtime_root / p).exists()] == []
    assert list((runtime_root / "tmp/install").iterdir()) == []
    (site,) = (runtime_root / "opt/shmj/venv/lib").glob("python3*/site-packages")
    assert [p for p in ("tests", "bench", "compile_core.py", "setup.py") if (site / p).exists()] == []


def test_docs_operations_states_the_images_size_within_5_percent():
    documented = re.search(r"^\| `localhost/shmj-scoring:dev` .*\| (\d+) MB \|$", OPERATIONS.read_text(), re.M)
    (listed,) = json.loads(buildah("images", "--json", IMAGE))
    number, unit = listed["size"].split()
    assert unit == "MB"
    assert abs(float(number) - int(documented.group(1))) <= 0.05 * int(documented.group(1)), listed["size"]


def test_the_image_runs_the_compiled_rules_as_operations_md_shows_how_to_check():
    """OPERATIONS.md's check of a running image (`docker run --entrypoint python IMAGE -c ...`),
    its code run in the image by buildah, prints what the page shows: the compiled build."""
    (code, shown) = re.search(
        r'^docker run --rm --entrypoint python \S+ -c "([^"]+)"\n([^\n]+)\n```', OPERATIONS.read_text(), re.M
    ).groups()
    container = Container({})
    try:
        assert container.output("python", "-c", code) == (0, shown + "\n")
    finally:
        container.remove()
