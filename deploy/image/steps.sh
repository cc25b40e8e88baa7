#!/bin/sh
# The image's build and install steps, one place for deploy/Dockerfile and for the test that
# runs them without a Docker engine (tests/deploy/test_image.py). Run from the source root.
#   steps.sh build-tools                   grpcio-tools and setuptools, at the project's pins
#   steps.sh dependency-wheels DIR         wheels of the runtime requirements only
#   steps.sh app-wheel DIR                 generate the stubs, build the service's wheel
#   steps.sh install VENV DEPS APP         a venv from those wheels alone, no index
set -eu
PYTHON=${PYTHON:-python}

case "$1" in
build-tools)
    grep -E '^(grpcio-tools|setuptools)==' requirements-dev.txt >/tmp/build-requirements.txt
    "$PYTHON" -m pip install -c requirements.txt -r /tmp/build-requirements.txt
    ;;
dependency-wheels)
    "$PYTHON" -m pip wheel --wheel-dir "$2" -r requirements.txt
    ;;
app-wheel)
    # the generated package goes beside the others, so the wheel carries it (pyproject: mahjong*)
    "$PYTHON" -m grpc_tools.protoc -I proto --python_out=. --grpc_python_out=. proto/mahjong/shanghai/v1/*.proto
    "$PYTHON" -m pip wheel --no-deps --no-build-isolation --wheel-dir "$2" .
    ;;
install)
    "$PYTHON" -m venv "$2"
    "$2/bin/pip" install --no-index --find-links "$3" -r requirements.txt
    "$2/bin/pip" install --no-index --no-deps "$4"/*.whl
    ;;
*)
    echo "usage: $0 build-tools | dependency-wheels DIR | app-wheel DIR | install VENV DEPS APP" >&2
    exit 2
    ;;
esac
