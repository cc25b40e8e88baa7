#!/bin/sh
# The image's build and install steps, one place for deploy/Dockerfile and for the test that
# runs them without a Docker engine (tests/deploy/test_image.py). Run from the source root.
#   steps.sh build-tools                   grpcio-tools, setuptools and mypy, at the project's pins
#   steps.sh dependency-wheels DIR         wheels of the runtime requirements only
#   steps.sh app-wheel DIR                 generate the stubs, build the service's wheel: with
#                                          rules_core's hot path compiled by mypyc where gcc is
#   steps.sh install VENV DEPS [APP]       a venv from those wheels alone, no index: the runtime
#                                          pins from DEPS, then the service's wheel from APP
#   steps.sh install-app VENV APP          the service's wheel from APP into that venv, no index
#   steps.sh expect-build VENV BUILD       fail unless the venv's rules_core runs BUILD
#                                          (compiled or pure)
#   steps.sh suit-table VENV               write advice's table of suits (rules_core/
#                                          unmelded_suits.bin) into the venv's rules_core with
#                                          its own search, as make install does; fail unless read
set -eu
PYTHON=${PYTHON:-python}

install_app() { # VENV APP
    "$1/bin/pip" install --no-index --no-deps "$2"/*.whl
}

case "$1" in
build-tools)
    # mypy brings mypyc, with its own requirements as requirements-build.txt pins them
    grep -E '^(grpcio-tools|setuptools|mypy|mypy_extensions|pathspec|librt|ast-serialize)==' requirements-build.txt \
        >/tmp/build-requirements.txt
    # mypyc reads the types of what the compiled modules import: batch/fast_requests.py, msgspec
    grep -E '^msgspec==' requirements.txt >>/tmp/build-requirements.txt
    "$PYTHON" -m pip install -c requirements.txt -r /tmp/build-requirements.txt
    ;;
dependency-wheels)
    "$PYTHON" -m pip wheel --wheel-dir "$2" -r requirements.txt
    ;;
app-wheel)
    # the generated package goes beside the others, so the wheel carries it (pyproject: mahjong*)
    # with the descriptor set (source info: the .proto comments) that the explorer reads, as make does
    mkdir -p mahjong/shanghai/v1
    "$PYTHON" -m grpc_tools.protoc -I proto --python_out=. --grpc_python_out=. \
        --descriptor_set_out=mahjong/shanghai/v1/shmj_descriptors.binpb --include_source_info \
        proto/mahjong/shanghai/v1/*.proto
    # setup.py compiles the hot path into the wheel when asked (SHMJ_COMPILE_CORE=1); a build
    # left from an earlier wheel would carry its extension modules into this one
    rm -rf build
    if command -v gcc >/dev/null 2>&1; then
        echo "steps.sh: compiling rules_core's hot path with mypyc"
        SHMJ_COMPILE_CORE=1 "$PYTHON" -m pip wheel --no-deps --no-build-isolation --wheel-dir "$2" .
    else
        echo "steps.sh: no C compiler (gcc): the wheel carries rules_core as pure Python"
        "$PYTHON" -m pip wheel --no-deps --no-build-isolation --wheel-dir "$2" .
    fi
    ;;
install)
    "$PYTHON" -m venv "$2"
    "$2/bin/pip" install --no-index --find-links "$3" -r requirements.txt
    if [ -n "${4:-}" ]; then install_app "$2" "$4"; fi
    ;;
install-app)
    install_app "$2" "$3"
    ;;
expect-build)
    # from / so that the installed package is imported, not a source tree in the working folder
    (cd / && "$2/bin/python" -c "import rules_core, sys; print('rules_core:', rules_core.BUILD); sys.exit(rules_core.BUILD != sys.argv[1])" "$3")
    ;;
suit-table)
    # from / as expect-build; the table's head names the search that wrote it, so it is written
    # where it is read, by the installed search (about 20 s compiled)
    (cd / && "$2/bin/python" -c "import rules_core.unmelded_suits_build as table; print(table.build(), 'suits written to', table.TABLE_FILE)" \
        && "$2/bin/python" -c "import sys; from rules_core import unmelded_suits; sys.exit(unmelded_suits.records() is None and 'the suit table written is not read')")
    ;;
*)
    echo "usage: $0 build-tools | dependency-wheels DIR | app-wheel DIR | install VENV DEPS [APP] | install-app VENV APP | expect-build VENV BUILD | suit-table VENV" >&2
    exit 2
    ;;
esac
