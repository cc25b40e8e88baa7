#!/bin/sh
# `make image`: deploy/Dockerfile built by buildah, with no Docker engine (docs/OPERATIONS.md).
#   build.sh IMAGE        builds the image IMAGE from the repository root
# The base is the stand-in for python:3.11-slim that base.sh makes (cached: made once per
# package list). pip in the build reaches the package index as this machine's pip does, with
# the CA bundle its configuration names (pip config's cert, else the system's), mounted
# read-only over the base's bundle for the build's RUN steps only: no layer holds it.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
export CONTAINERS_STORAGE_CONF="${CONTAINERS_STORAGE_CONF:-$HERE/storage.conf}"
BASE=$("$HERE/base.sh" localhost/shmj-python-base)
CA_BUNDLE=${PIP_CERT:-$(python3 -m pip config get global.cert 2>/dev/null || true)}
CA_BUNDLE=${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
echo "build.sh: deploy/Dockerfile on $BASE, the package index's CA bundle from $CA_BUNDLE" >&2
buildah build --isolation chroot --layers --format docker --network host --pull=never \
    --build-arg PYTHON_IMAGE="$BASE" \
    --volume "$CA_BUNDLE:/etc/ssl/certs/ca-certificates.crt:ro" \
    -f deploy/Dockerfile -t "$1" .
