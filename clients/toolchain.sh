#!/bin/sh
# Whether the Debian packages a compiled client is built from are installed (offline, no
# module proxy): `sh clients/toolchain.sh go|cpp`. Names each missing file and its package.
# SHMJ_TOOLCHAIN_ROOT, when set, is a directory to look in instead of / (for its tests).
set -u
root=${SHMJ_TOOLCHAIN_ROOT:-}
case "${1:-}" in
go) name=Go needs="/usr/bin/go:golang-go
/usr/bin/protoc:protobuf-compiler
/usr/bin/protoc-gen-go:protoc-gen-go
/usr/bin/protoc-gen-go-grpc:protoc-gen-go-grpc
/usr/share/gocode/src/google.golang.org/grpc/clientconn.go:golang-google-grpc-dev
/usr/share/gocode/src/google.golang.org/genproto/googleapis/rpc/errdetails:golang-google-genproto-dev
/usr/share/gocode/src/google.golang.org/protobuf/proto:golang-google-protobuf-dev
/usr/share/gocode/src/github.com/golang/protobuf/proto/registry.go:golang-github-golang-protobuf-1-5-dev" ;;
cpp) name=C++ needs="/usr/bin/g++:g++
/usr/bin/pkg-config:pkg-config
/usr/bin/protoc:protobuf-compiler
/usr/bin/grpc_cpp_plugin:protobuf-compiler-grpc
/usr/include/google/protobuf/message.h:libprotobuf-dev
/usr/include/grpcpp/grpcpp.h:libgrpc++-dev" ;;
*) echo "usage: sh clients/toolchain.sh go|cpp" >&2; exit 2 ;;
esac
missing=""
for need in $needs; do
    path=${need%%:*} package=${need#*:}
    if [ ! -e "$root$path" ]; then
        echo "the $name client needs $path: apt-get install $package (listed in .ci/debian-packages)" >&2
        missing="$missing $package"
    fi
done
[ -z "$missing" ] || { echo "missing Debian packages:$missing" >&2; exit 1; }
