#!/bin/sh
# A stand-in for the pinned python:3.11-slim base, which cannot be pulled on a machine that
# reaches only the package registries: Debian bookworm's python3.11, venv, pip and headers,
# debootstrapped from the apt mirror this machine uses and committed to buildah's storage.
#   base.sh TAG-PREFIX     prints the image's name, PREFIX:KEY; KEY digests the package list,
#                          the mirror and this script, so a second run finds the image made
# Like python:3.11-slim: `python` on the PATH, pip installs without a venv (no
# EXTERNALLY-MANAGED), the CA certificates; no documentation, no apt lists.
set -eu
export CONTAINERS_STORAGE_CONF="${CONTAINERS_STORAGE_CONF:-$(cd "$(dirname "$0")" && pwd)/storage.conf}"
PACKAGES="ca-certificates python3.11 python3-venv python3-pip python3-dev python-is-python3"


# The mirror of the machine's own apt sources: deb822 (sources.list.d/*.sources) or one-line.
mirror_of() { # SUITE: the first URI whose suites include SUITE
    for file in /etc/apt/sources.list.d/*.sources; do
        [ -f "$file" ] || continue
        awk -v suite="$1" '
            /^URIs:/ { uri = $2 } /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == suite) found = uri }
            /^$/ { if (found) { print found; exit } uri = "" }
            END { if (found) print found }' "$file" | head -n 1
    done | head -n 1
    [ -f /etc/apt/sources.list ] && awk -v suite="$1" '$1 == "deb" && $3 == suite { print $2; exit }' /etc/apt/sources.list
}
MIRROR=$(mirror_of bookworm | head -n 1)
SECURITY=$(mirror_of bookworm-security | head -n 1)
if [ -z "$MIRROR" ]; then
    echo "base.sh: no apt source for bookworm in /etc/apt/sources.list(.d)" >&2
    exit 2
fi
SECURITY=${SECURITY:-${MIRROR%/debian}/debian-security}

KEY=$(printf '%s\n' "$PACKAGES" "$MIRROR" "$SECURITY" | cat - "$0" | sha256sum | cut -c1-16)
IMAGE="$1:$KEY"
if buildah inspect --type image "$IMAGE" >/dev/null 2>&1; then
    echo "$IMAGE"
    exit 0
fi

ROOTFS=$(mktemp -d /var/tmp/shmj-base.XXXXXX)
trap 'rm -rf "$ROOTFS"' EXIT
echo "base.sh: debootstrap of bookworm from $MIRROR with $PACKAGES" >&2
debootstrap --variant=minbase --include="$(echo "$PACKAGES" | tr ' ' ,)" bookworm "$ROOTFS" "$MIRROR" >&2
cat >"$ROOTFS/etc/apt/sources.list" <<SOURCES
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb $SECURITY bookworm-security main
SOURCES
rm -f "$ROOTFS"/usr/lib/python3*/EXTERNALLY-MANAGED
# what python:3.11-slim leaves out too: apt's lists and caches, documentation, static libraries
rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/apt/* "$ROOTFS"/var/cache/debconf/*-old \
    "$ROOTFS"/usr/share/doc/* "$ROOTFS"/usr/share/man/* "$ROOTFS"/usr/share/info/* \
    "$ROOTFS"/usr/share/locale/* "$ROOTFS"/var/log/*.log "$ROOTFS"/var/log/apt/* \
    "$ROOTFS"/usr/lib/python3.11/config-3.11-x86_64-linux-gnu/*.a "$ROOTFS"/usr/lib/x86_64-linux-gnu/libpython3.11*.a
find "$ROOTFS/usr/lib/python3.11" -name __pycache__ -prune -exec rm -rf {} +
CONTAINER=$(buildah from scratch)
trap 'rm -rf "$ROOTFS"; buildah rm "$CONTAINER" >/dev/null' EXIT
buildah copy --quiet "$CONTAINER" "$ROOTFS" / >/dev/null
buildah config --env LANG=C.UTF-8 --cmd python3 "$CONTAINER"
buildah commit --quiet "$CONTAINER" "$IMAGE" >/dev/null
# earlier bases (another package list, mirror or script) are not used again: their disk back
buildah images --format '{{.Name}}:{{.Tag}}' | grep "^$1:" | grep -v ":$KEY\$" | xargs -r buildah rmi >/dev/null 2>&1 || true
echo "$IMAGE"
