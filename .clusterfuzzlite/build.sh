#!/bin/bash -eu
# .clusterfuzzlite/build.sh - builds fuzz_candidate (tests/fuzz/fuzz_candidate.c)
# the way ClusterFuzzLite and OSS-Fuzz build a target: with their $CC,
# $CFLAGS (a sanitizer, -fsanitize=fuzzer-no-link) and $LIB_FUZZING_ENGINE,
# into $OUT with what it needs at run time, which is another machine:
#
#   $OUT/fuzz_candidate                  the target; its libraries linked in
#                                        statically (the runner has none)
#   $OUT/libreshape_ref.so               the reference, in the target's process
#   $OUT/candidate.so                    the kernel it fuzzes: $FUZZ_CANDIDATE_SO
#                                        when set at build time, else the reference
#   $OUT/fuzz_candidate_seed_corpus.zip  every case of cases/ as an input
#   $OUT/fuzz_candidate.dict             tests/fuzz/candidate.dict
#
# A kernel team builds its kernel's .so here (before this script, or in
# it) and sets FUZZ_CANDIDATE_SO to it; any shared library it needs goes
# into $OUT too, found through an $ORIGIN rpath.  Runs locally as well:
#   CC=clang-14 CFLAGS=-fsanitize=address,fuzzer-no-link \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out WORK=/tmp/work .clusterfuzzlite/build.sh
cd "$(dirname "$0")/.."
WORK=${WORK:-$(mktemp -d)}
mkdir -p "$OUT" "$WORK/obj" "$WORK/seeds"
flags="-std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -g -Iinclude -Iharness -pthread"

# the layers the target uses: every layer harness/build.mk's HARNESS_LAYERS
# names (harness/ARCHITECTURE.md), bottom first, but cert/, perf/ and cli/,
# read from there so that a new layer cannot be left out of this list; of
# worker/ not worker_main.c (HARNESS_WORKER_MAIN: libFuzzer has the main)
layers=$(sed -n 's/^HARNESS_LAYERS *:= *//p' harness/build.mk)
[ -n "$layers" ] || { echo "build.sh: no HARNESS_LAYERS in harness/build.mk" >&2; exit 1; }
srcs=""
for l in $layers; do
    case $l in cert|perf|cli) continue ;; esac
    for f in harness/"$l"/*.c; do
        [ "$f" = harness/worker/worker_main.c ] || srcs="$srcs $f"
    done
done
objs=""
for f in $srcs tests/fuzz/fuzz_candidate.c; do
    o="$WORK/obj/$(echo "$f" | tr / _).o"
    # shellcheck disable=SC2086
    $CC $CFLAGS $flags -DFUZZ_CANDIDATE='"candidate.so"' -c "$f" -o "$o"
    objs="$objs $o"
done
# shellcheck disable=SC2086
$CC $CFLAGS $LIB_FUZZING_ENGINE $objs -o "$OUT/fuzz_candidate" \
    -Wl,-Bstatic -lyaml -ljansson -lcrypto -lseccomp -lelf -lz -Wl,-Bdynamic -ldl -pthread

# the reference and the candidate are loaded with dlopen: no sanitizer
cc -std=c11 -O2 -fPIC -shared -fvisibility=hidden -Iinclude reference/*.c \
    -o "$OUT/libreshape_ref.so"
cp "${FUZZ_CANDIDATE_SO:-$OUT/libreshape_ref.so}" "$OUT/candidate.so"

RESHAPE_FUZZ_SEEDS="$WORK/seeds" RESHAPE_FUZZ_SEEDS_FROM=cases "$OUT/fuzz_candidate"
(cd "$WORK/seeds" && zip -q -r "$OUT/fuzz_candidate_seed_corpus.zip" .)
cp tests/fuzz/candidate.dict "$OUT/fuzz_candidate.dict"
