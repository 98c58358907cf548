#!/bin/sh
# run-template.sh - the steps of the CI templates, for a shell or a test:
# ci/github/action.yml and ci/gitlab/reshape-conform.yml run these same
# command lines (tests/ci/template.sh checks that each reshape-conform line
# here is in both).  docs/ci.md, "The pipeline", says how to use them.
#
# usage: ci/run-template.sh shard K N   run shard K of N: OUT/shard-K.json,
#                                       OUT/shard-K.xml (JUnit)
#        ci/run-template.sh merge       join OUT/shard-*.json into
#                                       OUT/merged.json and OUT/report.xml
#
# Environment (the templates' inputs and variables):
#   RESHAPE_CONFORM  the tool (default: reshape-conform from PATH)
#   CANDIDATE        the candidate library (shard; required)
#   BASELINE         a previous merged.json: the gate is then regressions
#                    against it alone, and its failures are <skipped> known
#   EXPECTATIONS     an expectations file: its waived failures are known
#   SUITE_NAME       the JUnit suite's name (default reshape-conform)
#   OUT              the folder of the reports (default conformance)
#   EXTRA_ARGS       more options of `run`, split at blanks, no quoting and
#                    no globbing (e.g. --variants dense,infer --filter onnx_*)
#
# Exit status, the harness's (docs/harness/options.md, "Exit codes"):
#   shard: 0 conformant (with BASELINE: no regression), 1 not (with
#          BASELINE: a regression), 2 bad usage or input, 3 harness
#          failure, 77 nothing tested (the candidate's device is not on
#          this runner: a skip);
#   merge: the gate over the whole merged run, with BASELINE or
#          EXPECTATIONS as the shards had them: 0 passed (no regression),
#          1 failed (a regression, or a fix of an expected failure), 2 bad
#          usage or input, 3 a report cannot be written, 4 the shards are
#          not one whole run (one missing, given twice, or run with other
#          options, candidate or cases: a shard job whose report went
#          missing, or that skipped with 77, cannot give a green merge).

set -u
RESHAPE_CONFORM=${RESHAPE_CONFORM:-reshape-conform}
SUITE_NAME=${SUITE_NAME:-reshape-conform}
OUT=${OUT:-conformance}
EXTRA_ARGS=${EXTRA_ARGS:-}
BASELINE=${BASELINE:-}
EXPECTATIONS=${EXPECTATIONS:-}

case ${1:-} in
shard)
    [ $# -eq 3 ] || { echo "usage: ci/run-template.sh shard K N" >&2; exit 2; }
    SHARD=$2
    SHARDS=$3
    : "${CANDIDATE:?CANDIDATE names the candidate library}"
    # --- the shard step (the templates' "shard" script) ---
    mkdir -p "$OUT"
    set -f
    set -- --junit-suite-name "$SUITE_NAME"
    [ -z "$BASELINE" ] || set -- "$@" --baseline "$BASELINE"
    [ -z "$EXPECTATIONS" ] || set -- "$@" --expectations "$EXPECTATIONS"
    rc=0
    # EXTRA_ARGS is split at blanks on purpose (set -f: no globbing)
    # shellcheck disable=SC2086
    "$RESHAPE_CONFORM" run --candidate "$CANDIDATE" --shard "$SHARD/$SHARDS" "$@" $EXTRA_ARGS --json "$OUT/shard-$SHARD.json" --junit "$OUT/shard-$SHARD.xml" --quiet || rc=$?
    case $rc in
    0) echo "reshape-conform: shard $SHARD/$SHARDS passed" ;;
    1) echo "reshape-conform: shard $SHARD/$SHARDS: ${BASELINE:+regressions against }${BASELINE:-not conformant}" >&2 ;;
    77) echo "reshape-conform: shard $SHARD/$SHARDS: nothing tested, the candidate's device is not on this runner" >&2 ;;
    *) echo "reshape-conform: shard $SHARD/$SHARDS: exit $rc (2 bad usage or input, 3 harness failure)" >&2 ;;
    esac
    exit $rc
    # --- end of the shard step ---
    ;;
merge)
    [ $# -eq 1 ] || { echo "usage: ci/run-template.sh merge" >&2; exit 2; }
    # --- the merge step (the templates' "merge" script) ---
    rc=0
    set -- "$OUT"/shard-*.json
    [ -z "$BASELINE" ] || set -- "$@" --baseline "$BASELINE"
    [ -z "$EXPECTATIONS" ] || set -- "$@" --expectations "$EXPECTATIONS"
    "$RESHAPE_CONFORM" merge "$@" -o "$OUT/merged.json" --junit "$OUT/report.xml" || rc=$?
    exit $rc
    # --- end of the merge step ---
    ;;
*)
    echo "usage: ci/run-template.sh shard K N | merge" >&2
    exit 2
    ;;
esac
