#!/bin/sh
# golden.sh - every report of the harness over the whole suite, for the
# reference and every broken candidate, with what may change from run to
# run taken out, so that the reports of two builds can be compared byte
# for byte (make golden; docs/harness/tests.md, "Golden reports").
#
# usage: tests/golden/golden.sh OUT_DIR [CANDIDATE.so...]
#
# Run from the repository root.  For each candidate (default: the
# reference, build/libreshape_ref.so, then build/broken/*.so) it runs
#   $HARNESS --candidate SO --jobs 2 --timeout-ms 3000 --quiet
#            --json build/golden/run/NAME/report.json --junit .../report.xml
# (HARNESS defaults to build/reshape-conform; the report paths are always
# the same, so that the argv in the report is too) and writes to
# OUT_DIR/NAME/:
#   report.json, report.xml   normalized
#   report.md, report.html    reports/render.py of the normalized report.json
#   stdout.txt   the lines the run printed on stdout, normalized, then its
#                exit status; the result lines sorted (they come in the
#                order the slots judge them)
# then OUT_DIR/SHA256SUMS over all of them.  Normalized means: the start
# time, the duration (also JUnit's time attributes and the summary line's
# duration and rate), the host facts, the suite's git commit and the
# harness's path (argv[0]) are replaced by "-" (0 for numbers).  Everything else stays, details and byte
# strings included.
#
# A candidate whose verdicts depend on timing would make the comparison
# useless: the threads variant of build/broken/global_scratch_buffer.so
# (a data race) is left out (--variants all but threads), and so are the
# candidates that write dst after execute returned (writes_dst_from_*:
# issue 42), whose verdicts are MEMORY_VIOLATION, LEAK or FAIL by timing.
# build/broken/closes_fds.so, which closes the worker's channel on a
# process's first execute, is in: a death no request is known to have
# caused runs each request of its batch alone in a fresh process
# (docs/harness/isolation.md, "Isolation"), so its verdicts no longer depend on
# which request was a worker's first.

set -u
if [ $# -lt 1 ]; then
    echo "usage: tests/golden/golden.sh OUT_DIR [CANDIDATE.so...]" >&2
    exit 2
fi
out=${1%/}
shift
harness=${HARNESS:-build/reshape-conform}
python=${PYTHON:-/usr/bin/python3}
run=build/golden/run
if [ $# -eq 0 ]; then
    set -- build/libreshape_ref.so build/broken/*.so
fi
for so in "$@"; do
    if [ ! -f "$so" ]; then
        echo "golden: no candidate '$so' (make all)" >&2
        exit 2
    fi
done
[ -x "$harness" ] || { echo "golden: no harness '$harness' (make all)" >&2; exit 2; }

# never remove a folder that is not an earlier OUT_DIR
if [ -e "$out" ] && [ ! -f "$out/SHA256SUMS" ]; then
    echo "golden: '$out' exists and holds no SHA256SUMS: not overwriting it" >&2
    exit 2
fi
rm -rf "$out" "$run"
mkdir -p "$out" "$run" || exit 2

# Details whose numbers depend on timing or on the heap's layout, wherever
# they appear: how many calls of a threads job were kept (they run for a
# time budget), and the bytes in use a LEAK samples (the worker is the
# harness binary: its size moves them); the verdicts and the rates stay.
normalize_details() {
    sed -e 's/[0-9][0-9]* of [0-9][0-9]* calls wrong/N of N calls wrong/g' \
        -e 's/(\([0-9][0-9]*\) overlapped another/(N overlapped another/g' \
        -e 's/calls wrong\(.*\); call [0-9][0-9]*/calls wrong\1; call N/g' \
        -e 's/warm-up calls ([0-9][0-9]* to [0-9][0-9]* bytes)/warm-up calls (- to - bytes)/g'
}

# The report's volatile fields, as report_json.c writes them (indent 1),
# replaced by values of the same JSON type (reports/SCHEMA.md).
normalize_json() {
    sed -e 's/^ "started_utc": .*/ "started_utc": "-",/' \
        -e 's/^ "duration_s": .*/ "duration_s": 0,/' \
        -e 's/^  "git_commit": .*/  "git_commit": "-",/' \
        -e '/^  "argv": \[$/{n;s/^   ".*"/   "-"/;}' \
        -e '/^ "host": {/,/^ }/{
              s/^  "cores": [0-9]*/  "cores": 0/
              s/^\(  "[a-z]*"\): ".*",$/\1: "-",/
              s/^\(  "[a-z]*"\): ".*"$/\1: "-"/
            }' "$1"
}

for so in "$@"; do
    name=$(basename "$so" .so)
    [ "$name" = libreshape_ref ] && name=reference
    case $name in
    writes_dst_from_late_thread|writes_dst_from_exiting_thread|writes_dst_from_clone_vm_child|\
writes_dst_from_timer_signal)
        # a write after the return faults or is still to come when the
        # harness stops waiting: MEMORY_VIOLATION, LEAK or FAIL by timing,
        # never PASS (tests/broken/late_test.c checks that instead)
        echo "golden: $name: left out (its verdicts depend on timing)"
        continue ;;
    esac
    variants=all
    [ "$name" = global_scratch_buffer ] &&
        variants=dense,in_place,strided_src_padded,strided_src_permuted,strided_dst,misaligned,dst_too_small,infer,repeat
    start=$(date +%s)
    mkdir -p "$run/$name" "$out/$name"
    "$harness" --candidate "$so" --jobs 2 --timeout-ms 3000 --quiet --variants "$variants" \
        --json "$run/$name/report.json" --junit "$run/$name/report.xml" \
        >"$run/$name/stdout.txt" 2>"$run/$name/stderr.txt"
    rc=$?
    normalize_json "$run/$name/report.json" | normalize_details >"$out/$name/report.json"
    # JUnit: time="S.SSS" on testsuites and testsuite, the start time
    # (timestamp, started_utc) and the suite's commit
    sed -e 's/ time="[0-9.]*"/ time="-"/g' -e 's/ timestamp="[^"]*"/ timestamp="-"/' \
        -e 's/\(<property name="\(started_utc\|suite.git_commit\)" value="\)[^"]*"/\1-"/' \
        "$run/$name/report.xml" | normalize_details \
        >"$out/$name/report.xml"
    # the result lines sorted (they come as the slots finish), the summary
    # line without its duration and rate, then the exit status
    { sed '$d' "$run/$name/stdout.txt" | normalize_details | LC_ALL=C sort
      tail -n 1 "$run/$name/stdout.txt" | sed -e 's/ in [0-9.]* s ([0-9]*\/s)/ in - s (-\/s)/'
      echo "exit status $rc"; } >"$out/$name/stdout.txt"
    # report.md and report.html, rendered from the normalized report
    "$python" reports/render.py "$out/$name/report.json" --out "$out/$name" ||
        echo "golden: $name: reports/render.py failed" >&2
    echo "golden: $name: exit $rc, $(($(date +%s) - start)) s"
done
(cd "$out" && find . -type f ! -name SHA256SUMS | LC_ALL=C sort | xargs sha256sum) >"$out/SHA256SUMS"
echo "golden: $# candidates, digests in $out/SHA256SUMS"
