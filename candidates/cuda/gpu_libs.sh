#!/bin/sh
# candidates/cuda/gpu_libs.sh [DIR] - lists the shared libraries
# build/reshape-conform loads (ldd) and copies those that are not glibc's
# into DIR (default build/gpu-libs), so that the harness built here runs
# on a machine that lacks them (a bare Ubuntu 24.04 with a GPU, for
# candidates/cuda/gpu_check.sh, which puts build/gpu-libs on
# LD_LIBRARY_PATH).  glibc itself stays the machine's: it must be 2.36 or
# newer (Debian 12's, which built the harness).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$root/build/gpu-libs}
mkdir -p "$dir"
ldd "$root/build/reshape-conform" | awk '/=>/ {print $1, $3}' | while read -r name path; do
    case $name in
    libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|ld-linux*) continue ;;
    esac
    cp -L "$path" "$dir/$name"
    printf '%s\t%s\n' "$name" "$(du -k "$dir/$name" | cut -f1) KiB"
done
du -sh "$dir"
