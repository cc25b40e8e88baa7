#!/usr/bin/env bash
# Builds the Java client offline from Debian's packages: code generated from proto/ with
# Debian's protoc and grpc-java plugin, compiled with javac against the jars in /usr/share/java
# (no Maven), into OUT/shmj-client.jar, which runs with `java -jar` (its manifest names the jars).
# Usage: clients/java/build.sh OUT   (from the repository root; `make client-java` runs it)
set -euo pipefail
out=${1:?usage: clients/java/build.sh OUT}
jars=${JAVA_JARS:-/usr/share/java}  # Debian's jars; another folder only to test the message below

# What the build needs, each with the Debian package that brings it (also in .ci/debian-packages).
# The jars marked compile are needed by javac only: javax.annotation.Generated of the stubs, and
# the Error Prone annotations on guava's classes (javac warns without them; warnings fail the build).
needs=(
    "/usr/bin/javac openjdk-17-jdk-headless"
    "/usr/bin/protoc protobuf-compiler"
    "/usr/bin/grpc_java_plugin protobuf-compiler-grpc-java-plugin"
    "$jars/grpc-api.jar libgrpc-java"
    "$jars/grpc-context.jar libgrpc-java"
    "$jars/grpc-core.jar libgrpc-java"
    "$jars/grpc-netty.jar libgrpc-java"
    "$jars/grpc-protobuf.jar libgrpc-java"
    "$jars/grpc-protobuf-lite.jar libgrpc-java"
    "$jars/grpc-stub.jar libgrpc-java"
    "$jars/protobuf.jar libprotobuf-java"
    "$jars/proto-google-common-protos.jar libgoogle-common-protos-java"
    "$jars/guava.jar libguava-java"
    "$jars/perfmark-api.jar libperfmark-java"
    "$jars/netty-buffer.jar libnetty-java"
    "$jars/netty-codec.jar libnetty-java"
    "$jars/netty-codec-http.jar libnetty-java"
    "$jars/netty-codec-http2.jar libnetty-java"
    "$jars/netty-codec-socks.jar libnetty-java"
    "$jars/netty-common.jar libnetty-java"
    "$jars/netty-handler.jar libnetty-java"
    "$jars/netty-handler-proxy.jar libnetty-java"
    "$jars/netty-resolver.jar libnetty-java"
    "$jars/netty-transport.jar libnetty-java"
    "$jars/geronimo-annotation-1.3-spec.jar libgeronimo-annotation-1.3-spec-java compile"
    "$jars/error_prone_annotations.jar liberror-prone-java compile"
)

missing=() runtime=() compile=()
for need in "${needs[@]}"; do
    read -r file package scope <<<"$need"
    if [[ ! -e $file ]]; then
        [[ " ${missing[*]} " == *" $package "* ]] || missing+=("$package")
    elif [[ $file == *.jar ]]; then
        compile+=("$file")
        [[ $scope == compile ]] || runtime+=("$file")
    fi
done
if ((${#missing[@]})); then
    echo "the Java client needs Debian packages that are not installed: apt-get install -y ${missing[*]}" >&2
    exit 1
fi

rm -rf "$out" && mkdir -p "$out/gen" "$out/classes"
protos=(proto/mahjong/shanghai/v1/*.proto)
# Debian's protoc (3.21), not .venv/bin/protoc: generated code must match protobuf.jar's version.
/usr/bin/protoc -I proto --java_out="$out/gen" --grpc-java_out="$out/gen" \
    --plugin=protoc-gen-grpc-java=/usr/bin/grpc_java_plugin "${protos[@]#proto/}"
mapfile -t sources < <(find "$out/gen" clients/java/src -name '*.java' | sort)
javac --release 17 -Xlint:all -Werror -encoding UTF-8 -d "$out/classes" \
    -cp "$(IFS=:; echo "${compile[*]}")" "${sources[@]}"

{
    echo "Main-Class: com.mahjong.shanghai.client.Example"
    echo "Class-Path: ${runtime[0]}"
    printf '  %s\n' "${runtime[@]:1}"  # continuation lines: one jar each, within 72 bytes
} >"$out/manifest.txt"
jar --create --file "$out/shmj-client.jar" --manifest "$out/manifest.txt" -C "$out/classes" .
echo "built $out/shmj-client.jar: java -jar $out/shmj-client.jar HOST:PORT"
