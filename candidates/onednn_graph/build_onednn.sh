#!/bin/sh
# candidates/onednn_graph/build_onednn.sh - builds oneDNN with the Graph API
# from its source tarball into a cache outside the clone, once.
#
# usage: build_onednn.sh TARBALL SHA256 VERSION CACHE_ROOT JOBS [--prefix]
#
# The install goes to CACHE_ROOT/onednn-VERSION-<config hash>/, where the hash
# covers the tarball checksum and every CMake option below, so a changed
# configuration never reuses an old build.  The build happens in a temporary
# directory beside it and the install is renamed into place only when
# complete: an interrupted build leaves no directory that looks done.
# Prints the install prefix as the last line of its output; ninja's progress
# goes to stderr.  Exits non-zero, saying why, on a missing tarball, a
# checksum mismatch or a failed build.  With --prefix it only prints the
# install prefix, built or not.
set -eu

tarball=$1 sha=$2 version=$3 cache=$4 jobs=$5 mode=${6:-build}

# The lean CPU configuration (shared/vendor README): Graph on, inference
# only, AVX2 kernels, the sequential runtime (no thread pool of its own).
opts="-DCMAKE_BUILD_TYPE=Release -DONEDNN_BUILD_GRAPH=ON
-DONEDNN_ENABLE_WORKLOAD=INFERENCE -DONEDNN_ENABLE_PRIMITIVE_CPU_ISA=AVX2
-DONEDNN_ENABLE_GEMM_KERNELS_ISA=AVX2 -DONEDNN_CPU_RUNTIME=SEQ
-DONEDNN_BUILD_TESTS=OFF -DONEDNN_BUILD_EXAMPLES=OFF
-DONEDNN_ENABLE_JIT_PROFILING=OFF -DONEDNN_ENABLE_ITT_TASKS=OFF
-DONEDNN_ENABLE_GRAPH_DUMP=OFF -DCMAKE_INSTALL_LIBDIR=lib"

hash=$(printf '%s\n%s\n' "$sha" "$opts" | sha256sum | cut -c1-12)
prefix=$cache/onednn-$version-$hash
if [ "$mode" = --prefix ]; then
	echo "$prefix"
	exit 0
fi

if [ -f "$prefix/include/oneapi/dnnl/dnnl_graph.h" ]; then
	echo "onednn-graph: reusing $prefix" >&2
	echo "$prefix"
	exit 0
fi
if [ ! -f "$tarball" ]; then
	echo "onednn-graph: no tarball at $tarball (set ONEDNN_TARBALL or ONEDNN_GRAPH_ROOT)" >&2
	exit 1
fi
got=$(sha256sum "$tarball" | cut -d' ' -f1)
if [ "$got" != "$sha" ]; then
	echo "onednn-graph: $tarball: sha256 $got, expected $sha" >&2
	exit 1
fi

mkdir -p "$cache"
# One build at a time per configuration: a second caller waits, then reuses.
exec 9>"$cache/.onednn-$version-$hash.lock"
flock -n 9 || { echo "onednn-graph: waiting for another build of $prefix" >&2; flock 9; }
if [ -f "$prefix/include/oneapi/dnnl/dnnl_graph.h" ]; then
	echo "onednn-graph: reusing $prefix (built meanwhile)" >&2
	echo "$prefix"
	exit 0
fi
tmp=$(mktemp -d "$cache/.onednn-$version-$hash.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
echo "onednn-graph: building oneDNN $version in $tmp (about 20 minutes on 2 cores)" >&2
start=$(date +%s)
tar -xzf "$tarball" -C "$tmp"
# shellcheck disable=SC2086  # opts is a list of words
cmake -S "$tmp/oneDNN-$version" -B "$tmp/build" -G Ninja \
	-DCMAKE_INSTALL_PREFIX="$prefix" $opts >&2
nice -n 10 ninja -C "$tmp/build" -j "$jobs" >&2
DESTDIR="$tmp/stage" ninja -C "$tmp/build" install >/dev/null
seconds=$(( $(date +%s) - start ))
# The measurement stays with the build, for the adapter's README.
printf 'oneDNN %s built in %d s wall with ninja -j%s on %s cores, finished %s\n' \
	"$version" "$seconds" "$jobs" "$(nproc)" "$(date -u '+%Y-%m-%d %H:%M UTC')" \
	>"$tmp/stage$prefix/BUILD-TIME"
mv "$tmp/stage$prefix" "$prefix"
echo "onednn-graph: built $prefix in $seconds s" >&2
echo "$prefix"
